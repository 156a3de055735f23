"""The other games of the seeds: Novatarok rounds (seed 001) and buraco hands (seed 000's
going-out scoring), as DESIGN.md's contract describes them. Neither is zero-sum."""

from __future__ import annotations

from typing import Any

import pytest

from tarot_scores.scoring import (
    GAME_TARGET,
    novatarok_game_over,
    novatarok_winners,
    score,
)
from tests.scoring.deals import refusal

# --- Novatarok ----------------------------------------------------------------------------

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]


def nova(points: list[int], **melds: str | None) -> dict[str, Any]:
    players = NAMES[: len(points)]
    return {
        "variant": "novatarok",
        "players": players,
        "card_points": dict(zip(players, points, strict=True)),
        **melds,
    }


@pytest.mark.parametrize(
    ("points", "melds", "expected"),
    [
        # Card points only.
        ([30, 20, 10, 8], {}, [30, 20, 10, 8]),
        # +20 for all four kings, +20 for the trull (21, 1, Fool), +20 for the pagat.
        (
            [40, 20, 10, 8],
            {"kings": "Aurélie", "trull": "Bruno", "pagat": "Chloé"},
            [60, 40, 30, 8],
        ),
        # One player with every meld: +60.
        (
            [50, 10, 10, 8],
            {"kings": "Aurélie", "trull": "Aurélie", "pagat": "Aurélie"},
            [110, 10, 10, 8],
        ),
        # The holder of the kings need not have taken them: 0 card points, still +20.
        ([0, 40, 20, 10], {"kings": "Aurélie"}, [20, 40, 20, 10]),
        # Null melds are no melds.
        ([30, 20, 10, 8], {"kings": None, "trull": None, "pagat": None}, [30, 20, 10, 8]),
        # Two players, 10 cards each: 18 to 72 card points.
        ([30, 15], {"pagat": "Bruno"}, [30, 35]),
        # Three players, 13 cards each and no blanks: 39 to 91.
        ([20, 10, 9], {}, [20, 10, 9]),
        ([50, 30, 11], {"trull": "Chloé"}, [50, 30, 31]),
        # Five players, 8 cards each: 38 to 92.
        ([10, 10, 10, 10, 20], {"kings": "Émile"}, [10, 10, 10, 10, 40]),
    ],
    ids=[
        "cards-only",
        "three-melds",
        "all-melds-one-player",
        "kings-not-taken",
        "null-melds",
        "2p-pagat",
        "3p-cards",
        "3p-trull",
        "5p-kings",
    ],
)
def test_novatarok_round(points: list[int], melds: dict[str, str], expected: list[int]) -> None:
    payload = nova(points, **melds)
    result = score(payload)
    assert result.scores == dict(zip(payload["players"], expected, strict=True))
    assert list(result.scores) == payload["players"]
    assert (result.won, result.margin) == (None, None)
    # Not zero-sum: the card points plus 20 a meld.
    assert sum(result.scores.values()) == sum(points) + 20 * sum(1 for v in melds.values() if v)


@pytest.mark.parametrize(
    ("points", "melds"),
    [
        # Least and most card points of a round, at each table size.
        ([18, 0], {}),
        ([40, 32], {}),
        ([13, 13, 13], {}),
        ([31, 30, 30], {}),
        ([10, 10, 10, 8], {}),
        ([23, 23, 23, 23], {}),
        ([8, 8, 8, 8, 6], {}),
        ([20, 18, 18, 18, 18], {}),
        # Known cards lift the least total: four kings +16, the trull +12, the pagat's 1 +4.
        ([20, 20, 10, 4], {"kings": "Aurélie"}),
        ([20, 10, 10, 10], {"trull": "Bruno", "pagat": "Bruno"}),
        ([20, 10, 7, 5], {"pagat": "Denis"}),
        ([30, 20, 10, 6], {"kings": "Aurélie", "trull": "Bruno"}),
    ],
    ids=[
        "2p-18",
        "2p-72",
        "3p-39",
        "3p-91",
        "4p-38",
        "4p-92",
        "5p-38",
        "5p-92",
        "kings-54",
        "trull-and-pagat-50",
        "pagat-42-with-5",
        "kings-and-trull-66",
    ],
)
def test_novatarok_round_limits_are_accepted(points: list[int], melds: dict[str, str]) -> None:
    assert score(nova(points, **melds)).scores


@pytest.mark.parametrize(
    ("points", "melds", "field"),
    [
        ([17, 0], {}, "card_points"),
        ([40, 33], {}, "card_points"),
        ([13, 13, 12], {}, "card_points"),
        ([31, 31, 30], {}, "card_points"),
        ([10, 10, 10, 7], {}, "card_points"),
        ([23, 23, 23, 24], {}, "card_points"),
        ([20, 20, 10, 3], {"kings": "Aurélie"}, "card_points"),
        ([20, 10, 8, 4], {"pagat": "Denis"}, "pagat"),
        ([30, 20, 10, 5], {"kings": "Aurélie", "trull": "Bruno"}, "card_points"),
    ],
    ids=[
        "2p-17",
        "2p-73",
        "3p-38",
        "3p-92",
        "4p-37",
        "4p-93",
        "kings-53",
        "pagat-4-points",
        "kings-and-trull-65",
    ],
)
def test_novatarok_round_beyond_the_limits_is_refused(
    points: list[int], melds: dict[str, str], field: str
) -> None:
    assert field in refusal(nova(points, **melds)).errors


def test_novatarok_terms() -> None:
    result = score(nova([40, 20, 10, 8], kings="Aurélie", trull="Bruno", pagat="Chloé"))
    assert [(t.kind, t.value) for t in result.terms] == [
        ("card_points", 40),
        ("kings", 20),
        ("card_points", 20),
        ("trull", 20),
        ("card_points", 10),
        ("pagat", 20),
        ("card_points", 8),
    ]
    french, english = result.breakdown("fr"), result.breakdown("en")
    assert all(f["text"] != e["text"] for f, e in zip(french, english, strict=True))
    assert "rois" in french[1]["text"] and "kings" in english[1]["text"]
    assert result.to_json("en")["scores"] == {"Aurélie": 60, "Bruno": 40, "Chloé": 30, "Denis": 8}


@pytest.mark.parametrize(
    ("totals", "over", "winners"),
    [
        ({}, False, []),
        ({"Aurélie": 0, "Bruno": 0}, False, []),
        ({"Aurélie": 599, "Bruno": 598}, False, []),
        # Reaching 600 ends the game; the highest total wins, not the first past 600.
        ({"Aurélie": 600, "Bruno": 598}, True, ["Aurélie"]),
        ({"Aurélie": 610, "Bruno": 640, "Chloé": 20}, True, ["Bruno"]),
        ({"Aurélie": 550, "Bruno": 601}, True, ["Bruno"]),
        # Ties: every player with the highest total.
        ({"Aurélie": 612, "Bruno": 612, "Chloé": 590}, True, ["Aurélie", "Bruno"]),
        ({"Aurélie": 700, "Bruno": 700, "Chloé": 700}, True, ["Aurélie", "Bruno", "Chloé"]),
    ],
    ids=["empty", "start", "599", "600", "highest-wins", "one-past", "tie-two", "tie-three"],
)
def test_novatarok_game_end(totals: dict[str, int], over: bool, winners: list[str]) -> None:
    assert GAME_TARGET == 600
    assert novatarok_game_over(totals) is over
    assert novatarok_winners(totals) == winners


def test_novatarok_game_played_round_by_round() -> None:
    totals = dict.fromkeys(NAMES[:3], 0)
    rounds = 0
    while not novatarok_game_over(totals):
        # Aurélie always holds the trull; Bruno takes the most card points.
        result = score(nova([20, 40, 10], trull="Aurélie"))
        for name, points in result.scores.items():
            totals[name] += points
        rounds += 1
    # 40 a round for both: they reach 600 together after 15 rounds and tie.
    assert rounds == 15
    assert totals == {"Aurélie": 600, "Bruno": 600, "Chloé": 150}
    assert novatarok_winners(totals) == ["Aurélie", "Bruno"]


# --- Buraco -------------------------------------------------------------------------------


def side(players: list[str], **fields: Any) -> dict[str, Any]:
    return {"players": players, **fields}


def buraco(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    return {
        "variant": "buraco",
        "players": [*first["players"], *second["players"]],
        "sides": [first, second],
    }


A, B = ["Aurélie"], ["Bruno"]
TOOK = {"took_extra_pile": True}
OUT = {"went_out": True, "took_extra_pile": True}


@pytest.mark.parametrize(
    ("first", "second", "totals"),
    [
        # 300 + 200 (natural) + 100 (mixed) + 2 x 100 (red threes, with a canasta) + 100 (out);
        # 150 - 100 (a red three, no canasta) - 45 (hand) - 100 (extra pile not taken).
        (
            side(A, table_points=300, natural_canastas=1, mixed_canastas=1, red_threes=2, **OUT),
            side(B, table_points=150, red_threes=1, hand_points=45),
            (900, -95),
        ),
        # Red threes count +100 with a mixed canasta too.
        (
            side(A, table_points=200, natural_canastas=1, **OUT),
            side(B, table_points=250, mixed_canastas=1, red_threes=2, hand_points=30, **TOOK),
            (500, 520),
        ),
        # The extra pile taken but not played before the others went out: -100, as if never
        # taken (seed 000's "detail").
        (
            side(A, table_points=120, natural_canastas=1, **OUT),
            side(
                B,
                table_points=80,
                natural_canastas=1,
                hand_points=20,
                extra_pile_unplayed=True,
                **TOOK,
            ),
            (420, 160),
        ),
        # Nobody went out yet (the stock ran out): no +100; each side took its pile.
        (
            side(A, table_points=90, **TOOK),
            side(B, table_points=60, hand_points=70, **TOOK),
            (90, -10),
        ),
        # Everything at zero: only the extra pile not taken costs 100.
        (side(A), side(B, **TOOK), (-100, 0)),
        # Several canastas and all four red threes.
        (
            side(A, table_points=500, natural_canastas=3, mixed_canastas=2, red_threes=4, **OUT),
            side(B, table_points=40, hand_points=15, **TOOK),
            (500 + 600 + 200 + 400 + 100, 25),
        ),
        # Red threes without any canasta: -100 each.
        (
            side(A, table_points=60, red_threes=3, **TOOK),
            side(B, table_points=30, **TOOK),
            (-240, 30),
        ),
    ],
    ids=[
        "seed000-all-terms",
        "red-threes-mixed-canasta",
        "extra-pile-unplayed",
        "nobody-out",
        "empty-hands",
        "big-hand",
        "red-threes-no-canasta",
    ],
)
def test_buraco_two_players(
    first: dict[str, Any], second: dict[str, Any], totals: tuple[int, int]
) -> None:
    result = score(buraco(first, second))
    assert result.scores == {"Aurélie": totals[0], "Bruno": totals[1]}
    assert [(t.kind, t.value) for t in result.terms] == [("side", totals[0]), ("side", totals[1])]
    assert (result.won, result.margin) == (None, None)


def test_buraco_pairs_score_their_side_total() -> None:
    payload = buraco(
        side(
            ["Aurélie", "Chloé"],
            table_points=400,
            natural_canastas=2,
            red_threes=1,
            hand_points=25,
            **OUT,
        ),
        side(["Bruno", "Denis"], table_points=210, mixed_canastas=1, hand_points=60, **TOOK),
    )
    # The pair that went out may still hold cards: the partner's hand counts.
    # 400 + 400 + 100 + 100 - 25 = 975; 210 + 100 - 60 = 250.
    result = score(payload)
    assert result.scores == {"Aurélie": 975, "Chloé": 975, "Bruno": 250, "Denis": 250}
    # Each member scores the side's total: not zero-sum.
    assert sum(result.scores.values()) == 2 * (975 + 250)


def test_buraco_scores_follow_the_table_order() -> None:
    payload = buraco(side(["Chloé", "Aurélie"], **TOOK), side(["Denis", "Bruno"], **TOOK))
    payload["players"] = ["Aurélie", "Bruno", "Chloé", "Denis"]
    assert list(score(payload).scores) == ["Aurélie", "Bruno", "Chloé", "Denis"]


def test_buraco_breakdown_words() -> None:
    result = score(
        buraco(
            side(A, table_points=300, natural_canastas=1, mixed_canastas=1, red_threes=2, **OUT),
            side(B, table_points=150, red_threes=1, hand_points=45),
        )
    )
    french, english = result.breakdown("fr"), result.breakdown("en")
    assert "= +900" in english[0]["text"] and "= -95" in english[1]["text"]
    assert "canastas propres" in french[0]["text"] and "natural canastas" in english[0]["text"]
    assert "Aurélie" in english[0]["text"] and "Bruno" in english[1]["text"]
    assert result.to_json("fr")["scores"] == {"Aurélie": 900, "Bruno": -95}
