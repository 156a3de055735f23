"""Buraco going-out scoring (seed 000): two sides of one or two players.

A side scores its table points, +200 per natural and +100 per mixed canasta, red threes +100
each with a canasta and -100 each without, +100 for going out, minus the points left in hand,
and -100 if it did not take its extra pile or could not play it. Each member scores the side's
total. Not zero-sum.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ErrorCollector, ScoringError
from .messages import Msg
from .result import Result, Term
from .tarot import read_players

BURACO_FIELDS = frozenset({"variant", "players", "sides"})
SIDE_FIELDS = frozenset(
    {
        "players",
        "table_points",
        "natural_canastas",
        "mixed_canastas",
        "red_threes",
        "went_out",
        "took_extra_pile",
        "extra_pile_unplayed",
        "hand_points",
    }
)
# A side's counts and their ranges, and its flags (the API's schema says them too).
BURACO_SIDE_INTEGERS: dict[str, tuple[int, int]] = {
    "table_points": (0, 5000),
    "natural_canastas": (0, 14),
    "mixed_canastas": (0, 14),
    "red_threes": (0, 4),
    "hand_points": (0, 2000),
}
BURACO_SIDE_FLAGS = ("went_out", "took_extra_pile", "extra_pile_unplayed")


def _side_total(side: Mapping[str, Any]) -> tuple[int, int, int]:
    canastas = side["natural_canastas"] + side["mixed_canastas"]
    threes = side["red_threes"] * (100 if canastas else -100)
    pile = -100 if not side["took_extra_pile"] or side["extra_pile_unplayed"] else 0
    total = (
        side["table_points"]
        + 200 * side["natural_canastas"]
        + 100 * side["mixed_canastas"]
        + threes
        + (100 if side["went_out"] else 0)
        - side["hand_points"]
        + pile
    )
    return total, threes, pile


def parse_and_score_buraco(payload: Mapping[str, Any]) -> Result:
    errors = ErrorCollector()
    for key in payload:
        if key not in BURACO_FIELDS:
            errors.add(str(key), Msg("unknown_field"))
    players = read_players(payload.get("players"), errors, low=2, high=4)
    raw_sides = payload.get("sides")
    sides: list[Mapping[str, Any]] = []
    if (
        not isinstance(raw_sides, list)
        or len(raw_sides) != 2
        or not all(isinstance(s, Mapping) and not set(s) - SIDE_FIELDS for s in raw_sides)
    ):
        errors.add("sides", Msg("sides_shape"))
    else:
        sides = raw_sides
    for side in sides:
        members = side.get("players")
        if (
            not isinstance(members, list)
            or not 1 <= len(members) <= 2
            or not all(m.__class__ is str for m in members)
        ):
            errors.add("sides", Msg("sides_shape"))
            continue
        for key, (low, high) in BURACO_SIDE_INTEGERS.items():
            value = side.get(key, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                errors.add("sides", Msg("side_integer", field=key, low=low, high=high))
        for key in BURACO_SIDE_FLAGS:
            if not isinstance(side.get(key, False), bool):
                errors.add("sides", Msg("side_bool", field=key))
    if errors:
        raise ScoringError(errors.errors)

    filled = [
        {**{k: 0 for k in BURACO_SIDE_INTEGERS}, **{k: False for k in BURACO_SIDE_FLAGS}, **s}
        for s in sides
    ]
    members = [m for s in filled for m in s["players"]]
    if sorted(members) != sorted(players) or len(filled[0]["players"]) != len(filled[1]["players"]):
        errors.add("sides", Msg("sides_players"))
    if sum(s["red_threes"] for s in filled) > 4:
        errors.add("sides", Msg("red_threes_total"))
    if all(s["went_out"] for s in filled):
        errors.add("sides", Msg("went_out_once"))
    for index, side in enumerate(filled):
        other = filled[1 - index]
        if side["went_out"] and (not side["took_extra_pile"] or side["natural_canastas"] < 1):
            errors.add("sides", Msg("went_out_canasta"))
        if side["extra_pile_unplayed"] and (not side["took_extra_pile"] or not other["went_out"]):
            errors.add("sides", Msg("extra_pile_unplayed"))
        if side["went_out"] and len(side["players"]) == 1 and side["hand_points"]:
            errors.add("sides", Msg("hand_points_out"))
    errors.raise_if_any()

    scores: dict[str, int] = {}
    terms: list[Term] = []
    for side in filled:
        total, threes, pile = _side_total(side)
        for member in side["players"]:
            scores[member] = total
        terms.append(
            Term(
                "side",
                total,
                Msg(
                    "b_side",
                    players=" & ".join(side["players"]),
                    table=side["table_points"],
                    natural=side["natural_canastas"],
                    mixed=side["mixed_canastas"],
                    threes=threes,
                    out=100 if side["went_out"] else 0,
                    hand=side["hand_points"],
                    pile=pile,
                    total=total,
                ),
            )
        )
    ordered = {p: scores[p] for p in players}
    explained = tuple(terms)
    return Result(scores=ordered, won=None, margin=None, explain=lambda: explained)
