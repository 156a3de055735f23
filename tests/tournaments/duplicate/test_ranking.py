"""Ranking a duplicate session by matchpoints and by difference from the average: tables of
cases worked by hand, then the properties every session keeps."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.duplicate import (
    DIRECTIONS,
    BoardScore,
    Direction,
    Method,
    ResultsError,
    SeatResult,
    compare_seats,
    rank_session,
    rounded,
)

N, E = Direction.NORTH, Direction.EAST


def seat(
    board: int, direction: Direction, scores: list[int], first_player: int = 1
) -> list[BoardScore]:
    """One seat of one board played at len(scores) tables, player k at table k."""
    return [
        BoardScore(board=board, table=t, direction=direction, player=first_player + t - 1, score=s)
        for t, s in enumerate(scores, start=1)
    ]


@pytest.mark.parametrize(
    ("scores", "matchpoints", "differences"),
    [
        ([100], [0], [0]),  # played once: nothing to compare
        ([100, -50], [2, 0], [75, -75]),
        ([30, 30], [1, 1], [0, 0]),
        ([210, 174, 210, 62], [5, 2, 5, 0], [46, 10, 46, -102]),
        ([-70, -58, -70, 62], [1, 4, 1, 6], [-36, -24, -36, 96]),
        ([100, 0, 0], [4, 1, 1], [Fraction(200, 3), Fraction(-100, 3), Fraction(-100, 3)]),
        ([5, 5, 5, 5], [3, 3, 3, 3], [0, 0, 0, 0]),
    ],
)
def test_a_seat_on_a_board(
    scores: list[int], matchpoints: list[int], differences: list[Fraction]
) -> None:
    results = compare_seats(seat(1, N, scores))
    assert [r.matchpoints for r in results] == matchpoints
    assert [r.difference for r in results] == differences
    assert {r.maximum for r in results} == {2 * (len(scores) - 1)}
    assert [r.top for r in results] == [
        len(scores) > 1 and mp == 2 * (len(scores) - 1) for mp in matchpoints
    ]


def test_seats_are_compared_only_with_the_same_direction_on_the_same_board() -> None:
    scores = seat(1, N, [10, 20]) + seat(1, E, [500, -500], 11) + seat(2, N, [99, 0])
    results = {(r.entry.board, r.entry.player): r.matchpoints for r in compare_seats(scores)}
    assert results == {(1, 1): 0, (1, 2): 2, (1, 11): 2, (1, 12): 0, (2, 1): 2, (2, 2): 0}


# Three players over two boards at one seat: (player, board 1, board 2).
SESSION = seat(1, N, [50, 20, 20]) + seat(2, N, [0, 40, 10])


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        # Matchpoints: player 1 4+0, player 2 1+4, player 3 1+2, out of 8 each.
        (
            Method.MATCHPOINTS,
            [
                (1, 2, 5, Decimal("62.50"), 1),
                (2, 1, 4, Decimal("50.00"), 1),
                (3, 3, 3, Decimal("37.50"), 0),
            ],
        ),
        # Averages 30 and 50/3: player 1 +20 - 50/3, player 2 -10 + 70/3, player 3 -10 - 20/3.
        (
            Method.AVERAGE,
            [
                (1, 2, Fraction(40, 3), None, 1),
                (2, 1, Fraction(10, 3), None, 1),
                (3, 3, Fraction(-50, 3), None, 0),
            ],
        ),
    ],
)
def test_session_ranking_by_each_method(
    method: Method, expected: list[tuple[int, int, object, Decimal | None, int]]
) -> None:
    rows = rank_session(SESSION, method)
    got = []
    for row in rows:
        value: object = row.matchpoints if method is Method.MATCHPOINTS else row.total
        shown = row.shown_percentage if method is Method.MATCHPOINTS else None
        got.append((row.rank, row.player, value, shown, row.tops))
    assert got == expected
    assert [row.boards for row in rows] == [2, 2, 2]


def test_ties_are_broken_by_tops_then_shared() -> None:
    # Players 1 and 2 both have 50 %: player 2 with a top and a bottom, player 1 two ties.
    scores = seat(1, N, [10, 20, 0]) + seat(2, N, [10, 0, 20])
    rows = rank_session(scores, Method.MATCHPOINTS)
    got: list[tuple[int, int, object, int]] = [
        (r.rank, r.player, r.percentage, r.tops) for r in rows
    ]
    assert got == [
        (1, 2, 50, 1),
        (1, 3, 50, 1),
        (3, 1, 50, 0),
    ]


def test_the_average_total_is_rounded_once_halves_away_from_zero() -> None:
    rows = {r.player: r for r in rank_session(seat(1, N, [100, 0, 0]), Method.AVERAGE)}
    assert [rows[p].shown_total for p in (1, 2, 3)] == [Decimal(67), Decimal(-33), Decimal(-33)]
    assert rounded(Fraction(-5, 2)) == Decimal(-3) and rounded(Fraction(5, 2)) == Decimal(3)
    assert rounded(Fraction(1, 3), 2) == Decimal("0.33")


def test_a_player_never_compared_has_no_percentage() -> None:
    [row] = rank_session(seat(1, N, [120]), Method.MATCHPOINTS)
    assert row.percentage is None and row.shown_percentage is None and row.result == 50


@pytest.mark.parametrize(
    "scores",
    [
        [BoardScore(1, 1, N, 1, 10), BoardScore(1, 1, N, 2, 20)],  # one seat entered twice
        [BoardScore(1, 1, N, 1, 10), BoardScore(1, 2, E, 1, 20)],  # a player twice on a board
    ],
)
def test_impossible_results_are_refused(scores: list[BoardScore]) -> None:
    with pytest.raises(ResultsError):
        compare_seats(scores)


# --- properties --------------------------------------------------------------------------------


@st.composite
def sessions(draw: st.DrawFn) -> list[BoardScore]:
    """Up to 4 boards, each played at 1 to 6 tables of four; player numbers per table."""
    scores: list[BoardScore] = []
    for board in range(1, draw(st.integers(1, 4)) + 1):
        for table in range(1, draw(st.integers(1, 6)) + 1):
            for d, direction in enumerate(DIRECTIONS):
                score = draw(st.integers(-1000, 1000))
                scores.append(BoardScore(board, table, direction, 4 * table + d, score))
    return scores


@settings(max_examples=150, deadline=None)
@given(scores=sessions())
def test_properties_of_every_session(scores: list[BoardScore]) -> None:
    by_seat: dict[tuple[int, Direction], list[SeatResult]] = defaultdict(list)
    for result in compare_seats(scores):
        by_seat[(result.entry.board, result.entry.direction)].append(result)
    for results in by_seat.values():
        n = len(results)
        assert sum(r.matchpoints for r in results) == n * (n - 1)
        assert sum(r.difference for r in results) == 0
    for method in Method:
        rows = rank_session(scores, method)
        assert sorted(r.player for r in rows) == sorted({s.player for s in scores})
        assert [r.rank for r in rows] == sorted(r.rank for r in rows) and rows[0].rank == 1
        for row in rows:
            assert row.percentage is None or 0 <= row.percentage <= 100
    rows = rank_session(scores, Method.AVERAGE)
    assert sum(r.total for r in rows) == 0
