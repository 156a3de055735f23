"""Properties of every seating: for any field of 8 to 40 players over 1 to 4 rounds, whatever
the method, each player sits exactly once per round at tables that follow the plan, and the
repeats reported are the ones that happened."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    ImpossibleTablePlan,
    Method,
    SeatingResult,
    plan_tables,
    seat_all_rounds,
)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=8, max_value=40),
    rounds=st.integers(min_value=1, max_value=4),
    method=st.sampled_from(list(Method)),
    allow_threes=st.booleans(),
    prefer_fives=st.booleans(),
    team_size=st.sampled_from([0, 2]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_every_player_once_per_round_at_planned_tables(
    players: int,
    rounds: int,
    method: Method,
    allow_threes: bool,
    prefer_fives: bool,
    team_size: int,
    seed: int,
) -> None:
    field = [1000 + p for p in range(players)]
    teams = {p: p // team_size for p in field} if team_size else None
    try:
        plan = plan_tables(players, allow_threes=allow_threes, prefer_fives=prefer_fives)
    except ImpossibleTablePlan:
        assert players == 11 and not allow_threes
        return

    def seat(safety_seconds: float) -> list[SeatingResult[int]]:
        return seat_all_rounds(
            field,
            rounds=rounds,
            method=method,
            seed=seed,
            teams=teams,
            standings={p: float(p % 7) for p in field},
            allow_threes=allow_threes,
            prefer_fives=prefer_fives,
            work_budget=150_000,
            time_budget=safety_seconds,
        )

    results = seat(60.0)
    # The same seed, whatever the clock allows: the same seating (the work budget decides).
    assert [r.tables for r in seat(600.0)] == [r.tables for r in results]
    assert not any(r.timed_out for r in results)
    assert [r.round_number for r in results] == list(range(1, rounds + 1))
    met: set[frozenset[int]] = set()
    for result in results:
        assert result.plan == plan
        assert tuple(len(table) for table in result.tables) == plan.sizes
        seated = [p for table in result.tables for p in table]
        assert sorted(seated) == field
        pairs = {frozenset(pair) for table in result.tables for pair in combinations(table, 2)}
        assert result.repeats == len(pairs & met) == len(result.repeat_pairs)
        met |= pairs
        if teams is not None and method is not Method.FIXED:
            assert result.team_clashes == ()
