"""Novatarok (seed 001): one round scored per player; not zero-sum; first to 600 ends the game.

Each player scores the card points of their tricks, +20 for holding all four kings, +20 for the
trull (21, 1 and Fool together) and +20 for winning the last trick with the 1 (pagat).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import ErrorCollector, ScoringError
from .messages import Msg
from .result import Result, Term
from .tarot import read_players

MELD = 20
GAME_TARGET = 600
NOVATAROK_FIELDS = frozenset({"variant", "players", "card_points", "kings", "trull", "pagat"})

# Cards dealt per player in one round, and whether the two blank cards (worth nothing) are used.
HAND: dict[int, int] = {2: 10, 3: 13, 4: 10, 5: 8}
# Card values: 4 kings and 3 top cards (21, 1, Fool) 5 each, 12 other court cards 3 each,
# 59 ordinary cards 1 each, and (not at three players) 2 blanks worth 0.
_TOP, _COURT, _ORDINARY, _BLANKS = 7, 12, 59, 2


def round_card_points(players: int) -> tuple[int, int]:
    """The least and the most card points one round's cards can add up to."""
    cards = HAND[players] * players
    blanks = 0 if players == 3 else _BLANKS
    low = max(0, cards - blanks)  # ordinary cards and blanks first
    high = 0
    left = cards
    for value, count in ((5, _TOP), (3, _COURT), (1, _ORDINARY)):
        take = min(left, count)
        high += take * value
        left -= take
    return low, high


def pagat_least(players: int) -> int:
    """The fewest card points of whoever won the last trick with the 1 (worth 5): the other
    cards of that trick are worth 1 each, except excuse cards (the Fool and, but at three
    players, the two blanks), which their holders keep."""
    excuses = 1 if players == 3 else 1 + _BLANKS
    return 5 + max(0, players - 1 - excuses)


def parse_and_score_novatarok(payload: Mapping[str, Any]) -> Result:
    errors = ErrorCollector()
    for key in payload:
        if key not in NOVATAROK_FIELDS:
            errors.add(str(key), Msg("unknown_field"))
    players = read_players(payload.get("players"), errors, low=2, high=5)

    raw = payload.get("card_points")
    points: dict[str, int] = {}
    if not isinstance(raw, Mapping) or (players and set(raw) != set(players)):
        errors.add("card_points", Msg("card_points_map"))
    else:
        for name, value in raw.items():
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 200:
                errors.add("card_points", Msg("card_points_map"))
                break
            points[name] = value

    melds: dict[str, str | None] = {}
    for meld in ("kings", "trull", "pagat"):
        holder = payload.get(meld)
        if holder is not None and holder not in players:
            errors.add(meld, Msg("not_a_player", name=holder))
        melds[meld] = holder

    if errors:
        raise ScoringError(errors.errors)

    low, high = round_card_points(len(players))
    total = sum(points.values())
    # Cards known to be in this round lift the least total: kings, the trull, the pagat's 1.
    known = (20 - 4 if melds["kings"] else 0) + (15 - 3 if melds["trull"] else 0)
    if melds["pagat"] and not melds["trull"]:
        known += 4
    if not low + known <= total <= high:
        errors.add(
            "card_points",
            Msg("card_points_total", sum=total, players=len(players), low=low + known, high=high),
        )
    pagat = melds["pagat"]
    if pagat is not None and points[pagat] < pagat_least(len(players)):
        errors.add("pagat", Msg("pagat_points", name=pagat, least=pagat_least(len(players))))
    errors.raise_if_any()

    scores: dict[str, int] = {}
    terms: list[Term] = []
    for player in players:
        score = points[player]
        terms.append(Term("card_points", score, Msg("n_cards", player=player, points=score)))
        for meld, code in (("kings", "n_kings"), ("trull", "n_trull"), ("pagat", "n_pagat")):
            if melds[meld] == player:
                score += MELD
                terms.append(Term(meld, MELD, Msg(code, player=player)))
        scores[player] = score
    explained = tuple(terms)
    return Result(scores=scores, won=None, margin=None, explain=lambda: explained)


def novatarok_game_over(totals: Mapping[str, int]) -> bool:
    """The game ends once a player reaches 600."""
    return any(total >= GAME_TARGET for total in totals.values())


def novatarok_winners(totals: Mapping[str, int]) -> list[str]:
    """The highest total wins once the game is over (several on a tie); nobody before that."""
    if not novatarok_game_over(totals):
        return []
    best = max(totals.values())
    return [name for name, total in totals.items() if total == best]
