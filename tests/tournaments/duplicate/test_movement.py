"""The duplicate movement: boards and players go round so that nobody sees a board twice and,
for table counts that share no factor with 6, nobody meets anybody twice."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.duplicate import (
    DIRECTIONS,
    Direction,
    Movement,
    MovementError,
    board_dealer,
    board_labels,
    movement,
    movement_rows,
)


def check_sound(plan: Movement) -> None:
    """What every movement keeps, whatever the table count."""
    players = range(1, plan.players + 1)
    direction_of: dict[int, Direction] = {}
    tables_of_board: dict[int, list[int]] = {}
    for r in range(1, plan.rounds + 1):
        stations = plan.round_stations(r)
        assert [s.table for s in stations] == list(range(1, plan.tables + 1))
        # Each round, each player sits exactly once, and every board group is in play.
        seated = Counter(p for s in stations for p in s.players)
        assert sorted(seated) == list(players) and set(seated.values()) == {1}
        assert sorted(b for s in stations for b in s.boards) == list(range(1, plan.boards + 1))
        for station in stations:
            assert len(station.boards) == plan.boards_per_round
            for direction in DIRECTIONS:
                player = station.player_at(direction)
                # A player keeps his direction for the session.
                assert direction_of.setdefault(player, direction) is direction
                assert station.direction_of(player) is direction
            for board in station.boards:
                tables_of_board.setdefault(board, []).append(station.table)
    for tables in tables_of_board.values():
        # No table plays a board twice: each board is played by every table at most once.
        assert len(tables) == len(set(tables)) == plan.rounds
    assert plan.board_replays() == ()  # and no player sees a board twice


def meetings_counted(plan: Movement) -> int:
    """Repeated meetings counted the slow way: for each pair, the rounds together minus one."""
    together: Counter[tuple[int, int]] = Counter()
    for station in plan.stations:
        together.update(combinations(sorted(station.players), 2))
    return sum(count - 1 for count in together.values())


def test_round_one_seats_players_in_order_and_boards_by_table() -> None:
    plan = movement(5, 5, 3)
    first = plan.station(1, 2)
    assert first.players == (5, 6, 7, 8) and first.boards == (4, 5, 6)
    assert plan.strides == (0, 1, 2, 3)
    # Round 2: North stays, East comes from one table down, South two, West three; the boards
    # come from one table up.
    second = plan.station(2, 2)
    assert second.players == (5, 2, 19, 16)
    assert second.boards == plan.station(1, 3).boards


@pytest.mark.parametrize("tables", [1, 5, 7, 11, 13, 17, 19, 23, 25])
def test_tables_prime_to_six_never_meet_twice_over_as_many_rounds_as_tables(tables: int) -> None:
    plan = movement(tables, tables, 2)
    check_sound(plan)
    assert plan.strides == (0, 1, 2, 3) or tables == 1
    assert plan.repeated_meetings() == () and meetings_counted(plan) == 0


@pytest.mark.parametrize(
    ("tables", "rounds", "repeats"),
    [
        # The documented limits: an even table count or a multiple of 3 leaves repeats once the
        # session is long enough. Boards are never seen twice all the same.
        (2, 2, 12),  # nobody can move without meeting a board again: everyone stays
        (3, 2, 6),
        (3, 3, 12),
        (4, 2, 4),
        (4, 4, 56),
        (6, 2, 0),
        (6, 3, 12),
        (8, 3, 8),
        (9, 3, 0),
        (12, 3, 0),
    ],
)
def test_other_table_counts_keep_boards_fresh_and_count_their_repeats(
    tables: int, rounds: int, repeats: int
) -> None:
    plan = movement(tables, rounds, 1)
    check_sound(plan)
    assert len(plan.repeated_meetings()) == meetings_counted(plan) == repeats


@pytest.mark.parametrize(("tables", "rounds"), [(40, 40), (42, 42), (64, 30)])
def test_large_even_table_counts_still_keep_boards_fresh(tables: int, rounds: int) -> None:
    check_sound(movement(tables, rounds, 1))


@settings(max_examples=40, deadline=None)
@given(data=st.data(), tables=st.integers(min_value=1, max_value=14))
def test_every_movement_is_sound(data: st.DataObject, tables: int) -> None:
    rounds = data.draw(st.integers(min_value=1, max_value=tables))
    plan = movement(tables, rounds, data.draw(st.integers(min_value=1, max_value=4)))
    check_sound(plan)
    assert len(plan.repeated_meetings()) == meetings_counted(plan)


@pytest.mark.parametrize(
    ("tables", "rounds", "boards"), [(0, 1, 1), (3, 0, 1), (3, 1, 0), (3, 4, 2)]
)
def test_impossible_movements_are_refused(tables: int, rounds: int, boards: int) -> None:
    with pytest.raises(MovementError):
        movement(tables, rounds, boards)


def test_dealer_turns_round_the_board_numbers() -> None:
    assert [board_dealer(b).name for b in range(1, 7)] == [
        "NORTH",
        "EAST",
        "SOUTH",
        "WEST",
        "NORTH",
        "EAST",
    ]


def test_rows_for_printing_follow_the_stations() -> None:
    plan = movement(5, 3, 2)
    rows = movement_rows(plan)
    assert len(rows) == 15
    first, later = rows[0], rows[5]
    assert (first.round, first.table, first.boards, first.boards_from) == (1, 1, "1-2", None)
    assert (first.north, first.east, first.south, first.west) == (1, 2, 3, 4)
    # Round 2, table 1 plays the boards table 2 played in round 1.
    assert (later.round, later.table, later.boards, later.boards_from) == (2, 1, "3-4", 2)
    assert movement_rows(movement(5, 1, 1))[2].boards == "3"
    labels = board_labels(plan)
    assert [(x.board, x.dealer, x.first_table) for x in labels[:3]] == [
        (1, Direction.NORTH, 1),
        (2, Direction.EAST, 1),
        (3, Direction.SOUTH, 2),
    ]
