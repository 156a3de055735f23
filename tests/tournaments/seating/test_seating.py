"""Seating methods, table-driven and without a database: mixing finds the schedules where
nobody meets twice and never does worse than the greedy baseline, seats rotate, swiss groups
neighbours in the standings, teammates never share a table, and a seed always gives the same
seating."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from itertools import combinations
from typing import NamedTuple

import pytest

from tournaments.seating import (
    Method,
    SeatingError,
    SeatingResult,
    describe_movement,
    plan_tables,
    seat_all_rounds,
    seat_round,
)
from tournaments.seating.fairness import Meetings, meetings_of

Round = Sequence[Sequence[int]]


def recount(results: Sequence[SeatingResult[int]], history: Sequence[Round] = ()) -> list[int]:
    """Each round's repeats, counted by hand: pairs at a table who shared one before."""
    met: set[frozenset[int]] = set()
    for tables in history:
        met |= {frozenset(pair) for table in tables for pair in combinations(table, 2)}
    counts = []
    for result in results:
        pairs = {frozenset(pair) for table in result.tables for pair in combinations(table, 2)}
        counts.append(len(pairs & met))
        met |= pairs
    return counts


def assert_valid(result: SeatingResult[int], players: Sequence[int]) -> None:
    seated = [p for table in result.tables for p in table]
    assert sorted(seated) == sorted(players)
    assert tuple(len(table) for table in result.tables) == result.plan.sizes


# --- mixing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (20, 5)])
def test_mixing_finds_a_schedule_without_repeats(players: int, rounds: int, seed: int) -> None:
    field = list(range(1, players + 1))
    results = seat_all_rounds(field, rounds=rounds, method=Method.MIXING, seed=seed)
    # The construction is at its floor: no swap is even weighed (work, not a clock).
    assert results[0].work == 0
    assert [r.repeats for r in results] == [0] * rounds == recount(results)
    assert not any(r.timed_out for r in results)
    for result in results:
        assert_valid(result, field)
        assert result.repeat_pairs == ()


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(("players", "rounds"), [(16, 5), (20, 5)])
def test_mixing_round_by_round_plans_ahead(players: int, rounds: int, seed: int) -> None:
    """As the tournament service calls it: one round at a time, knowing how many are left."""
    field = list(range(players))
    history: list[Round] = []
    results = []
    for number in range(1, rounds + 1):
        result = seat_round(
            field,
            round_number=number,
            method="mixing",
            seed=seed,
            history=history,
            total_rounds=rounds,
        )
        history.append(result.tables)
        results.append(result)
    assert [r.repeats for r in results] == [0] * rounds == recount(results)
    whole = seat_all_rounds(field, rounds=rounds, method="mixing", seed=seed)
    assert [r.tables for r in whole] == [r.tables for r in results]


def test_mixing_after_the_history_left_the_plan() -> None:
    """Round 2 was changed by hand (a swap) and a player arrives for round 4: the rest is
    planned again from what happened, and repeats are counted on what happened."""
    field = list(range(16))
    history: list[Round] = []
    first = seat_round(field, round_number=1, method="mixing", seed=8, total_rounds=5)
    history.append(first.tables)
    second = seat_round(
        field, round_number=2, method="mixing", seed=8, history=history, total_rounds=5
    )
    tables = [list(t) for t in second.tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    history.append(tables)
    results = []
    for number in (3, 4, 5):
        if number == 4:
            field = [*field, 16]
        result = seat_round(
            field, round_number=number, method="mixing", seed=8, history=history, total_rounds=5
        )
        assert_valid(result, field)
        assert [result.repeats] == recount([result], history)
        history.append(result.tables)
        results.append(result)
    assert sum(r.repeats for r in results) <= 6


class Size(NamedTuple):
    players: int
    rounds: int
    allow_threes: bool = False


@pytest.mark.parametrize(
    "size", [Size(13, 4), Size(18, 5), Size(15, 4, allow_threes=True), Size(40, 6), Size(8, 3)]
)
def test_mixing_never_does_worse_than_greedy(size: Size) -> None:
    """On the players' score (``fairness.Meetings.key``: the most meetings of a pair, then the
    pairs at each count): the total of repeats alone may grow, as a third meeting is traded
    for second ones (13 players over 4 rounds: 24 repeats, none a third meeting)."""
    field = list(range(size.players))
    scores = {}
    for method in (Method.GREEDY, Method.MIXING):
        results = seat_all_rounds(
            field,
            rounds=size.rounds,
            method=method,
            seed=7,
            allow_threes=size.allow_threes,
        )
        assert [r.repeats for r in results] == recount(results)
        scores[method] = meetings_of([r.tables for r in results]).key()
    assert scores[Method.MIXING] <= scores[Method.GREEDY]


def test_mixing_reports_the_repeats_it_cannot_avoid() -> None:
    """8 players at 2 tables: the 4 of a table meet again, 2 by 2, at the 2 tables of any other
    round, so every two rounds share 4 pairs, 12 over three rounds. 8 repeats would need pairs
    meeting three times (the old objective's answer); the fair one has 12 pairs meeting twice
    and none three times, the least any schedule can do."""
    results = seat_all_rounds(list(range(8)), rounds=3, method="mixing", seed=1)
    assert [r.repeats for r in results] == recount(results)
    assert meetings_of([r.tables for r in results]) == Meetings(2, ((2, 12),))
    assert sum(r.repeats for r in results) == 12
    for result in results:
        assert len(result.repeat_pairs) == result.repeats
        for a, b in result.repeat_pairs:
            assert any(a in table and b in table for table in result.tables)


class Rotation(NamedTuple):
    players: int
    rounds: int
    most_seat: int
    """At most this many rounds on one seat number."""
    most_after: int
    """At most this many rounds sitting after the same player."""


@pytest.mark.parametrize(
    "case", [Rotation(16, 5, 2, 1), Rotation(13, 6, 2, 2), Rotation(8, 6, 3, 3)], ids=str
)
def test_seats_rotate(case: Rotation) -> None:
    """Nobody keeps one seat number, nor keeps sitting after the same player (seat order is a
    circle: seat 1 comes after the last seat). With 8 players at 2 tables over 6 rounds,
    everybody shares a table with everybody 2 or 3 times."""
    players = case.players
    results = seat_all_rounds(list(range(players)), rounds=case.rounds, method="mixing", seed=3)
    seat: Counter[tuple[int, int]] = Counter()
    after: Counter[tuple[int, int]] = Counter()
    for result in results:
        for table in result.tables:
            for i, p in enumerate(table):
                seat[p, i] += 1
                after[p, table[i - 1]] += 1
    assert max(seat.values()) <= case.most_seat
    assert max(after.values()) <= case.most_after
    for p in range(players):
        assert len({i for (q, i) in seat if q == p}) >= 3


def test_seats_rotate_from_the_history() -> None:
    """Seat order in the history counts: whoever held seat 1 last round does not get it again
    when another seat is free of history for him."""
    field = list(range(16))
    first = seat_round(field, round_number=1, method="mixing", seed=5)
    second = seat_round(field, round_number=2, method="mixing", seed=5, history=[first.tables])
    firsts = {table[0] for table in first.tables}
    assert not firsts & {table[0] for table in second.tables}


# --- swiss ----------------------------------------------------------------------------------


def round_one() -> tuple[Round, dict[int, float]]:
    """A round 1 of 16 players and standings where each table's winner leads: the top 4 come
    from 4 different tables, the next 4 too, and so on."""
    tables = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    points = [300.0, 100.0, -150.0, -250.0]
    standings = {p: points[i] - t for t, table in enumerate(tables) for i, p in enumerate(table)}
    return tables, standings


def test_swiss_seats_the_top_four_together() -> None:
    tables, standings = round_one()
    result = seat_round(
        list(range(16)),
        round_number=2,
        method="swiss",
        seed=1,
        history=[tables],
        standings=standings,
    )
    ranked = sorted(standings, key=lambda p: -standings[p])
    assert [set(t) for t in result.tables] == [set(ranked[i : i + 4]) for i in (0, 4, 8, 12)]
    assert result.repeats == 0


def test_swiss_splits_leaders_who_already_met() -> None:
    """The two leaders shared table 1 in round 1: one of them moves down, the rest of table 1
    stays among the best, and nobody meets again."""
    tables, _ = round_one()
    order = [0, 1, 4, 8, 12, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]  # 0 and 1 met
    standings = {p: float(100 - rank) for rank, p in enumerate(order)}
    result = seat_round(
        list(range(16)),
        round_number=2,
        method="swiss",
        seed=1,
        history=[tables],
        standings=standings,
    )
    assert result.repeats == 0
    rank = {p: i for i, p in enumerate(order)}
    top = result.tables[0]
    assert 0 in top and 1 not in top
    assert sum(rank[p] < 4 for p in top) == 3  # the top 4 are mostly together
    assert max(rank[p] for p in top) <= 6
    average = [sum(rank[p] for p in t) / len(t) for t in result.tables]
    assert average == sorted(average)


def test_swiss_without_standings_is_a_draw() -> None:
    result = seat_round(list(range(13)), round_number=1, method="swiss", seed=2)
    assert_valid(result, list(range(13)))


# --- teams ----------------------------------------------------------------------------------


class Teams(NamedTuple):
    players: int
    team_size: int
    allow_threes: bool = False


TEAM_CASES = [Teams(16, 2), Teams(16, 4), Teams(20, 4), Teams(22, 2), Teams(15, 3, True)]
SEARCHED = [Method.MIXING, Method.SWISS, Method.RANDOM, Method.GREEDY]


def seat_teams(case: Teams, method: Method) -> tuple[list[SeatingResult[int]], dict[int, str]]:
    field = list(range(case.players))
    teams = {p: f"team {p // case.team_size}" for p in field}
    results = seat_all_rounds(
        field,
        rounds=3,
        method=method,
        seed=11,
        teams=teams,
        standings={p: float(p) for p in field},
        allow_threes=case.allow_threes,
    )
    for result in results:
        assert_valid(result, field)
    return results, teams


def clashes_by_hand(result: SeatingResult[int], teams: Mapping[int, str]) -> set[frozenset[int]]:
    return {
        frozenset(pair)
        for table in result.tables
        for pair in combinations(table, 2)
        if teams[pair[0]] == teams[pair[1]]
    }


@pytest.mark.parametrize("method", SEARCHED)
@pytest.mark.parametrize("case", TEAM_CASES, ids=str)
def test_teammates_never_share_a_table(case: Teams, method: Method) -> None:
    results, teams = seat_teams(case, method)
    for result in results:
        assert result.team_clashes == ()
        assert clashes_by_hand(result, teams) == set()


@pytest.mark.parametrize("case", TEAM_CASES, ids=str)
def test_fixed_movement_keeps_teams_on_one_seat_number(case: Teams) -> None:
    """Teammates on one seat number move in step and never meet. At 4 tables, teams of 2 or 4
    fill the seat numbers exactly; otherwise a team is split, and its meetings are reported."""
    results, teams = seat_teams(case, Method.FIXED)
    for result in results:
        reported = {
            frozenset(pair)
            for clash in result.team_clashes
            for pair in combinations(clash.players, 2)
        }
        assert reported == clashes_by_hand(result, teams)
        if case.players == 16:
            assert reported == set()


@pytest.mark.parametrize("method", [Method.MIXING, Method.RANDOM, Method.SWISS, Method.GREEDY])
def test_a_team_too_big_to_split_is_reported(method: Method) -> None:
    """A team of 5 at 4 tables: two of them share a table every round, and only two."""
    field = list(range(16))
    teams: Mapping[int, Hashable] = {p: "Les Excuses" for p in range(5)}
    results = seat_all_rounds(field, rounds=3, method=method, seed=4, teams=teams)
    for result in results:
        (clash,) = result.team_clashes
        assert clash.team == "Les Excuses"
        assert len(clash.players) == 2
        assert set(clash.players) <= set(range(5))
        assert set(clash.players) <= set(result.tables[clash.table - 1])


# --- fixed movement ---------------------------------------------------------------------------


def test_fixed_movement_with_a_prime_number_of_tables_never_repeats() -> None:
    field = list(range(20))
    results = seat_all_rounds(field, rounds=5, method="fixed", seed=9)
    assert [r.repeats for r in results] == [0] * 5 == recount(results)
    first = results[0].tables
    seat_of = {p: i for table in first for i, p in enumerate(table)}
    table_of = {p: t for t, table in enumerate(first) for p in table}
    for number, result in enumerate(results):
        for t, table in enumerate(result.tables):
            for i, p in enumerate(table):
                assert seat_of[p] == i  # seat numbers are kept
                assert t == (table_of[p] + i * number) % 5  # seat s moves s - 1 tables up


def test_fixed_movement_is_printed() -> None:
    lines = describe_movement(plan_tables(27), "fr")
    assert lines == (
        "Siège 1 : reste à sa table.",
        "Siège 2 : avance d'une table à chaque tour (après la table 6, on repart de la table 1).",
        "Siège 3 : avance de 2 tables à chaque tour (après la table 6, on repart de la table 1).",
        "Siège 4 : avance de 3 tables à chaque tour (après la table 6, on repart de la table 1).",
        "Siège 5 (tables 4, 5, 6 seulement) : avance d'une table à chaque tour "
        "(après la table 6, on repart de la table 4).",
    )
    english = describe_movement(plan_tables(15, allow_threes=True, prefer_fives=False), "en")
    assert english[0] == "Seat 1: stays at its table."
    assert english[3] == (
        "Seat 4 (tables 1, 2, 3 only): moves one table up each round "
        "(after table 3, back to table 1)."
    )


def test_fixed_movement_ignores_the_history() -> None:
    field = list(range(16))
    alone = seat_round(field, round_number=3, method="fixed", seed=2)
    after = seat_all_rounds(field, rounds=3, method="fixed", seed=2)[2]
    assert alone.tables == after.tables


# --- determinism, history, refusals -------------------------------------------------------------


@pytest.mark.parametrize("method", list(Method))
def test_same_seed_same_seating_other_seed_other_seating(method: Method) -> None:
    field = list(range(16))
    standings = {p: float(p % 5) for p in field}

    def seating(seed: int) -> list[tuple[tuple[int, ...], ...]]:
        results = seat_all_rounds(field, rounds=3, method=method, seed=seed, standings=standings)
        return [r.tables for r in results]

    assert seating(1) == seating(1)
    assert len({tuple(seating(seed)) for seed in range(1, 6)}) >= 4


def test_history_with_players_who_left_and_players_who_came() -> None:
    """Repeats count only the players still here; newcomers have met nobody."""
    history: list[Round] = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    field = [1, 2, 3, 4, 5, 6, 7, 9]  # 8 left, 9 came
    result = seat_round(field, round_number=3, method="random", seed=3, history=history)
    assert_valid(result, field)
    assert [result.repeats] == recount([result], history)
    assert len(result.repeat_pairs) == result.repeats


def test_any_hashable_player() -> None:
    names = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile", "Fanny", "Gaston", "Hélène", "Inès"]
    results = seat_all_rounds(names, rounds=2, method="mixing", seed=1)
    assert sorted(p for table in results[1].tables for p in table) == sorted(names)
    assert results[0].plan.describe("en") == "9 players: 1 table of 4 and 1 table of 5"


class BadRequest(NamedTuple):
    players: list[int]
    rounds: int
    fr: str
    en: str


BAD_REQUESTS = [
    BadRequest([1, 2, 3, 4, 4], 1, "deux fois : 4", "twice: 4"),
    BadRequest(list(range(7)), 1, "Autorisez les tables de 3", "Allow tables of 3"),
    BadRequest(list(range(8)), 0, "au moins un tour", "At least one round"),
]


@pytest.mark.parametrize("bad", BAD_REQUESTS, ids=lambda b: b.en)
def test_refusals(bad: BadRequest) -> None:
    with pytest.raises(SeatingError) as caught:
        seat_all_rounds(bad.players, rounds=bad.rounds, method="mixing", seed=1)
    assert bad.fr in caught.value.message("fr")
    assert bad.en in caught.value.message("en")


def test_unknown_method() -> None:
    with pytest.raises(SeatingError) as caught:
        seat_round(list(range(8)), round_number=1, method="alphabetical", seed=1)
    assert "Choisissez parmi : random, mixing" in caught.value.message("fr")
    assert "Unknown seating method “alphabetical”" in caught.value.message("en")


@pytest.mark.parametrize("method", list(Method))
def test_a_single_table(method: Method) -> None:
    """Three to five players: one table, every round, and every pair meets again."""
    results = seat_all_rounds([1, 2, 3], rounds=3, method=method, seed=1, allow_threes=True)
    assert [r.repeats for r in results] == [0, 3, 3]
    assert all(len(r.tables) == 1 for r in results)


def test_the_budget_is_work_and_the_clock_only_a_safety_net() -> None:
    """30 players over 6 rounds cannot avoid repeats: the search spends its whole work budget.
    The same seed and budget seat the same tables however fast the machine; a clock that runs
    out first stops the search and says so."""
    field = list(range(30))

    def seat(work: int, seconds: float) -> list[SeatingResult[int]]:
        return seat_all_rounds(
            field, rounds=6, method="mixing", seed=4, work_budget=work, time_budget=seconds
        )

    first = seat(200_000, 600.0)
    assert not any(r.timed_out for r in first)
    assert [r.tables for r in seat(200_000, 600.0)] == [r.tables for r in first]
    more = seat(400_000, 600.0)
    assert sum(r.repeats for r in more) <= sum(r.repeats for r in first)

    stopped = seat(200_000, 0.0)  # the safety net, before any work
    assert any(r.timed_out for r in stopped)
    assert [r.repeats for r in stopped] == recount(stopped)
