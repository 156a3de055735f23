"""Schedules at the known optimum: the constructions without repeats (``seating.designs``), how
``mixing`` maps them onto any players, and the search it falls back on when a construction would
seat teammates together. No database."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import SeatingResult, seat_all_rounds, seat_round
from tournaments.seating.designs import construction, rotational, schedule_without_repeats
from tournaments.seating.freedom import freedom_rounds


def pairs_of(tables: Sequence[Sequence[object]]) -> list[frozenset[object]]:
    return [frozenset(pair) for table in tables for pair in combinations(table, 2)]


def assert_no_pair_twice(rounds: Sequence[Sequence[Sequence[object]]]) -> None:
    met = Counter(pair for tables in rounds for pair in pairs_of(tables))
    assert max(met.values()) == 1


class Design(NamedTuple):
    players: int
    rounds: int
    """Rounds without a repeat the construction must give (the most possible or known)."""


DESIGNS = [
    Design(16, 5),  # AG(2,4): every pair meets once
    Design(20, 5),  # resolvable TD(4,5)
    Design(28, 9),  # 1-rotational resolvable 2-(28,4,1) over Z_3^3: every pair meets once
    Design(32, 10),  # 8-4-10, the published schedule (Aguado 2004)
    Design(36, 9),  # resolvable TD(4,9)
    Design(40, 13),  # 1-rotational resolvable 2-(40,4,1) over Z_39: every pair meets once
    Design(44, 11),  # resolvable TD(4,11)
    Design(52, 17),  # 1-rotational resolvable 2-(52,4,1) over Z_51: every pair meets once
    Design(64, 21),  # resolvable TD(4,16), then AG(2,4) in each group: every pair meets once
    Design(88, 29),  # 1-rotational resolvable 2-(88,4,1) over Z_3 x Z_29: every pair once
]


@pytest.mark.parametrize("players", [28, 40, 52, 88])
def test_rotational_designs_meet_every_pair_exactly_once(players: int) -> None:
    """The resolvable 2-(v,4,1) designs: (v - 1) / 3 rounds, each a partition of the players
    into tables of 4, and every pair of players at one table exactly once."""
    rounds = rotational(players)
    assert len(rounds) == (players - 1) // 3
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(players))
        assert all(len(table) == 4 for table in tables)
    met = Counter(pair for tables in rounds for pair in pairs_of(tables))
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}


@pytest.mark.parametrize("design", DESIGNS, ids=str)
def test_constructions(design: Design) -> None:
    """Each round seats every player once at tables of 4, and no pair meets twice."""
    rounds = schedule_without_repeats(design.players)
    assert len(rounds) == design.rounds
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(design.players))
        assert [len(table) for table in tables] == [4] * (design.players // 4)
    assert_no_pair_twice(rounds)


def test_the_transversal_design_for_thirty_two() -> None:
    """Under the published 8-4-10, the construction gives 32 players 9 rounds: TD(4,8), then
    each group of 8 at two tables."""
    rounds = construction(32)
    assert len(rounds) == 9
    assert all(sorted(p for t in tables for p in t) == list(range(32)) for tables in rounds)
    assert_no_pair_twice(rounds)


@pytest.mark.parametrize("players", [3, 10, 15, 18, 21])
def test_no_construction_off_tables_of_four(players: int) -> None:
    assert schedule_without_repeats(players) == []


def test_thirty_two_players_over_nine_rounds_without_a_repeat() -> None:
    """Any players, one call, no repeat, each round a partition into 8 tables of 4 (the search
    alone does not get there)."""
    field = [f"joueur {p}" for p in range(32)]
    started = time.monotonic()
    results = seat_all_rounds(field, rounds=9, method="mixing", seed=12)
    assert time.monotonic() - started < 2.0
    assert [r.repeats for r in results] == [0] * 9
    assert not any(r.timed_out for r in results)
    for result in results:
        assert sorted(p for table in result.tables for p in table) == sorted(field)
        assert [len(table) for table in result.tables] == [4] * 8
    assert_no_pair_twice([r.tables for r in results])


def test_thirty_two_players_over_ten_rounds_without_a_repeat() -> None:
    """The social golfer problem 8-4-10 (Aguado 2004): ten rounds, nobody meeting twice."""
    results = seat_all_rounds(
        list(range(32)), rounds=10, method="mixing", seed=12, work_budget=250_000
    )
    assert [r.repeats for r in results] == [0] * 10
    assert_no_pair_twice([r.tables for r in results])


def test_round_by_round_keeps_the_construction() -> None:
    """As the tournament service calls it: round N alone, after the rounds already played."""
    field = list(range(100, 132))
    history: list[tuple[tuple[int, ...], ...]] = []
    for number in range(1, 10):
        result = seat_round(
            field, round_number=number, method="mixing", seed=3, history=history, total_rounds=9
        )
        assert result.repeats == 0
        history.append(result.tables)
    assert_no_pair_twice(history)


def seats_held(results: Sequence[SeatingResult[int]]) -> Counter[tuple[int, int]]:
    return Counter((p, i) for r in results for table in r.tables for i, p in enumerate(table))


@pytest.mark.parametrize(("players", "rounds", "most_seat"), [(16, 5, 2), (32, 9, 3)])
def test_seats_rotate_on_a_construction(players: int, rounds: int, most_seat: int) -> None:
    results = seat_all_rounds(list(range(players)), rounds=rounds, method="mixing", seed=5)
    held = seats_held(results)
    assert max(held.values()) <= most_seat
    for p in range(players):
        assert len({seat for (q, seat) in held if q == p}) == 4


@settings(max_examples=25, deadline=None)
@given(
    design=st.sampled_from([d for d in DESIGNS if d.players <= 36]),
    data=st.data(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_players_any_seed_no_repeat(design: Design, data: st.DataObject, seed: int) -> None:
    """Players drawn onto a construction by the seed: whatever their ids and however many rounds
    up to the construction's, nobody meets twice."""
    rounds = data.draw(st.integers(min_value=1, max_value=design.rounds), label="rounds")
    field = data.draw(
        st.lists(st.integers(), min_size=design.players, max_size=design.players, unique=True).map(
            sorted
        ),
        label="players",
    )
    results = seat_all_rounds(field, rounds=rounds, method="mixing", seed=seed)
    assert [r.repeats for r in results] == [0] * rounds
    for result in results:
        assert sorted(p for table in result.tables for p in table) == field
    assert_no_pair_twice([r.tables for r in results])


def test_a_seed_draws_the_players_onto_the_construction() -> None:
    field = list(range(32))
    first = [seat_all_rounds(field, rounds=9, method="mixing", seed=s)[0].tables for s in (1, 2)]
    again = seat_all_rounds(field, rounds=9, method="mixing", seed=1)[0].tables
    assert first[0] == again
    assert {frozenset(t) for t in first[0]} != {frozenset(t) for t in first[1]}


class Odd(NamedTuple):
    players: int
    rounds: int
    allow_threes: bool
    sizes: tuple[int, ...]
    prefer_fives: bool = True


@pytest.mark.parametrize(
    "case",
    [Odd(18, 5, False, (4, 4, 5, 5)), Odd(21, 4, False, (4, 4, 4, 4, 5)),
     Odd(15, 4, True, (4, 4, 4, 3), prefer_fives=False),
     Odd(33, 3, False, (4, 4, 4, 4, 4, 4, 4, 5))],
    ids=str,
)  # fmt: skip
def test_tables_of_five_and_three_still_searched(case: Odd) -> None:
    """No construction for a field with tables of 5 or 3: the search seats it, with the plan's
    table sizes every round."""
    field = list(range(case.players))
    results = seat_all_rounds(
        field,
        rounds=case.rounds,
        method="mixing",
        seed=4,
        allow_threes=case.allow_threes,
        prefer_fives=case.prefer_fives,
        work_budget=500_000,
    )
    for result in results:
        assert tuple(len(table) for table in result.tables) == case.sizes
        assert sorted(p for table in result.tables for p in table) == field


def test_teams_placed_where_the_construction_keeps_them_apart() -> None:
    """In the construction for 32 players, each player never meets four of the seven others of
    his group of 8: teams of two are swapped onto such pairs, and the schedule keeps no repeat
    and no clash."""
    field = list(range(32))
    teams = {0: "A", 1: "A", 2: "B", 3: "B", 10: "C", 20: "C", 30: "D", 31: "D"}
    results = seat_all_rounds(field, rounds=9, method="mixing", seed=6, teams=teams)
    assert [r.repeats for r in results] == [0] * 9
    assert all(r.team_clashes == () for r in results)


def test_a_construction_that_seats_teammates_together_falls_back_to_the_search() -> None:
    """In AG(2,4) every pair of the 16 players meets once: a team of two cannot be kept apart
    on it, so the search seats them apart, at the price of a repeat (5 rounds of 24 meetings
    for 119 pairs allowed)."""
    field = list(range(16))
    results = seat_all_rounds(
        field, rounds=5, method="mixing", seed=2, teams={3: "B", 9: "B"}, work_budget=500_000
    )
    assert all(r.team_clashes == () for r in results)
    assert all(not ({3, 9} <= set(table)) for r in results for table in r.tables)
    assert sum(r.repeats for r in results) >= 1
    for result in results:
        assert sorted(p for table in result.tables for p in table) == field


def test_freedom_start_seats_everyone_and_keeps_a_few_teams_apart() -> None:
    """The greedy start alone: every player once per round; two teams of two among 20 players
    leave it room enough to keep them apart."""
    team = [0, 0, 1, 1, *range(-1, -17, -1)]
    met = [[0] * 20 for _ in range(20)]
    rounds = freedom_rounds(20, (4, 4, 4, 4, 4), 3, met=met, team=team, rng=random.Random(1))
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(20))
        assert all(team[a] != team[b] for table in tables for a, b in combinations(table, 2))
