"""A board's traveller: one line per table, refused when a table's deal lacks a direction."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.duplicate import DIRECTIONS, Direction, ResultsError, TableDeal, traveller


def deal(table: int, scores: tuple[int, int, int, int], board: int = 3) -> TableDeal:
    return TableDeal(
        board=board,
        table=table,
        contract="prise",
        taker=Direction.WEST,
        points=Decimal("40.5"),
        players={d: 10 * table + i for i, d in enumerate(DIRECTIONS)},
        scores=dict(zip(DIRECTIONS, scores, strict=True)),
    )


def test_one_table_compares_nothing() -> None:
    sheet = traveller(3, [deal(2, (-30, -30, -30, 90))])
    assert sheet.dealer is Direction.SOUTH
    [line] = sheet.lines
    assert line.matchpoints == (0, 0, 0, 0) and line.maximum == 0
    assert line.players == (20, 21, 22, 23) and line.points == Decimal("40.5")


def test_a_board_nobody_played_has_no_line() -> None:
    assert traveller(4, [deal(1, (1, 1, 1, -3))]).lines == ()


def test_a_missing_direction_or_a_table_twice_is_refused() -> None:
    lacking = TableDeal(3, 1, None, None, None, {Direction.NORTH: 1}, {Direction.NORTH: 0})
    with pytest.raises(ResultsError):
        traveller(3, [lacking])
    with pytest.raises(ResultsError):
        traveller(3, [deal(1, (1, 1, 1, -3)), deal(1, (2, 2, 2, -6))])
