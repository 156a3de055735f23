"""Seating a round: which players share each table, and in which seat order.

Methods (``Method``):

- ``random``: a seeded draw.
- ``mixing``: the fairest meetings (``fairness``: no pair meets a third time while a second
  will do, then as few pairs at each count as possible; a repeat is a pair who already shared
  a table in an earlier round), then seat numbers rotated so nobody keeps seat 1 or always sits
  after the same neighbour. Given the number of rounds (``total_rounds`` or ``seat_all_rounds``)
  it plans the rounds still to come together, which is what finds the schedules where nobody
  ever meets twice (16 players over 5 rounds, 20 over 5...): from a construction (``designs``)
  for fields at tables of 4 that have one, else from a greedy start (``freedom`` or the
  baseline) improved by the search (``search``).
- ``swiss``: players of similar standing together (ranks 1-4 at table 1, 5-8 at table 2...),
  bent where that avoids a repeat: a second meeting weighs as much as moving players
  ``fairness.SWISS_REPEAT`` places in all away from their band, a third more than any band.
- ``fixed``: a printed movement (see ``movement``): deterministic from the round-1 draw.
- ``greedy``: the baseline ``mixing`` is measured against: each player in turn (in a seeded
  order) to the table where he has met the fewest people.

Players kept apart never share a table: the members of one team (``teams``) and the pairs the
organiser keeps apart (``apart``: family, a player and the referee). Both are one constraint,
pairs that must not share a table: every method but ``fixed`` swaps them apart, and ``fixed``
draws each group of players linked by such pairs onto one seat number so that they move in
step, then swaps stations of the round-1 draw while that lowers the clashes over the rounds
planned (``total_rounds``). What cannot be kept apart (a team with more members than there are
tables; in ``fixed``, a group that no seat number has room for and no swap mends) is seated
anyway and reported: teammates in ``team_clashes``, other pairs in ``pair_clashes``, as few
clashes as the search could make.

All randomness comes from ``random.Random`` seeded with the seed, the round and what it is for,
and the searches' budget is work (``work_budget``: swaps evaluated, ``search.Budget``), not time:
the same arguments give the same seating on any machine. ``time_budget`` is only a safety net
(seconds); a search it stops says so (``SeatingResult.timed_out``), the only case that depends
on the machine.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Generic, TypeVar

from . import movement
from .designs import schedule_without_repeats
from .fairness import (
    SWISS_REPEAT,
    meeting_score,
    meeting_steps,
    meetings_of,
    schedule_floor,
    water_floor,
)
from .freedom import freedom_rounds
from .plan import SeatingError, TablePlan, plan_tables
from .search import Budget, Problem, Tables, improve, tally, tally_all
from .seats import SeatMemory

P = TypeVar("P", bound=Hashable)

WORK_MOVES = 300_000
"""Swaps a search may evaluate. Most draws settle far below it: a construction, or a plan that
reaches the counting floor (``fairness``), stops at once (12 or 13 players over 3 rounds,
30 over 10, 250 over 6). A field whose floor is not reached (21 players over 10 rounds)
spends it all: with the greedy starts, at most about 0.6 s of CPU on a small server (500,000
to 700,000 swaps a second), so any field up to 300 players over 10 rounds is seated within a
second. A count, so the same seed seats the same tables on any machine."""
REPLAN_SHARE = 3
"""Once the history has left the plan, the rest is planned from the old plan with
``WORK_MOVES // REPLAN_SHARE`` more swaps: a good start needs less."""
SAFETY_SECONDS = 20.0
"""A wall-clock cap, only as a safety net against a machine far slower than expected: a search
it stops reports it (``SeatingResult.timed_out``)."""

MIXING_PATIENCE = 3000
QUICK_PATIENCE = 600
APART_PATIENCE = 20_000
"""Search steps without progress before giving up: ``mixing`` looks far ahead (whole plans
without repeats are rare and worth it), one round of ``swiss`` or a team repair less so."""


class Method(StrEnum):
    RANDOM = "random"
    MIXING = "mixing"
    SWISS = "swiss"
    FIXED = "fixed"
    GREEDY = "greedy"


@dataclass(frozen=True, slots=True)
class TeamClash(Generic[P]):
    """Members of one team seated at the same table (``table`` counts from 1)."""

    table: int
    team: Hashable
    players: tuple[P, ...]


@dataclass(frozen=True, slots=True)
class PairClash(Generic[P]):
    """Two players kept apart (not as teammates: ``TeamClash`` says those) seated at the same
    table (``table`` counts from 1)."""

    table: int
    players: tuple[P, P]


@dataclass(frozen=True, slots=True)
class SeatingResult(Generic[P]):
    """One round's seating. ``tables[i]`` is table ``i + 1``, its players in seat order."""

    round_number: int
    method: Method
    plan: TablePlan
    tables: tuple[tuple[P, ...], ...]
    repeats: int
    """Pairs sharing a table in this round who had already shared one before."""
    repeat_pairs: tuple[tuple[P, P], ...]
    team_clashes: tuple[TeamClash[P], ...]
    timed_out: bool = False
    """The search was stopped by the wall-clock safety net (``time_budget``) before its work
    budget was spent, the only thing that depends on the machine: another machine might have
    given another seating."""
    pair_clashes: tuple[PairClash[P], ...] = ()
    work: int = 0
    """Swaps the searches of this seating evaluated, all its rounds together (at most about
    ``WORK_MOVES`` and a third more: see ``REPLAN_SHARE``)."""


def seat_round(
    players: Sequence[P],
    *,
    round_number: int,
    method: Method | str,
    seed: int,
    history: Sequence[Sequence[Sequence[P]]] = (),
    standings: Mapping[P, float] | None = None,
    teams: Mapping[P, Hashable] | None = None,
    apart: Iterable[Collection[P]] = (),
    allow_threes: bool = False,
    prefer_fives: bool = True,
    work_budget: int = WORK_MOVES,
    time_budget: float = SAFETY_SECONDS,
    total_rounds: int | None = None,
) -> SeatingResult[P]:
    """Seats round ``round_number`` (from 1) of ``players``.

    ``history`` holds the rounds already played, each a list of tables in seat order; players
    no longer present are ignored. ``standings`` (``swiss``) maps players to their totals, a
    missing player counting 0. ``teams`` maps players to a team; ``apart`` lists pairs of
    players who must not share a table either (a pair naming someone absent is ignored); for
    ``fixed``, the rounds to keep them apart over are ``total_rounds`` (at least this one).
    ``work_budget`` (swaps evaluated) bounds the search; ``time_budget`` (seconds) is only a
    safety net. Raises ``SeatingError`` (``ImpossibleTablePlan`` for a head count that
    cannot be seated).

    With ``total_rounds``, ``mixing`` plans this round with the ones still to come. It first
    plans the whole tournament as round 1 did (same players, same seed: the same plan): while
    the history follows that plan, the round is the plan's next one, so a schedule without
    repeats found at round 1 is kept to the end. Once the history has left it (a swap, a player
    who came or left), the rest is planned again from the old plan (with a third of the
    budget more, ``REPLAN_SHARE``).
    """
    method = _method(method)
    rounds = 1
    if method is Method.MIXING and total_rounds is not None:
        rounds = max(1, total_rounds - round_number + 1)
    return _seat(
        players,
        rounds=rounds,
        method=method,
        seed=seed,
        history=history,
        first=round_number,
        standings=standings,
        teams=teams,
        apart=apart,
        allow_threes=allow_threes,
        prefer_fives=prefer_fives,
        work_budget=work_budget,
        time_budget=time_budget,
        planned_ahead=total_rounds is not None,
        horizon=max(round_number, total_rounds or 0),
    )[0]


def seat_all_rounds(
    players: Sequence[P],
    *,
    rounds: int,
    method: Method | str,
    seed: int,
    history: Sequence[Sequence[Sequence[P]]] = (),
    first_round: int | None = None,
    standings: Mapping[P, float] | None = None,
    teams: Mapping[P, Hashable] | None = None,
    apart: Iterable[Collection[P]] = (),
    allow_threes: bool = False,
    prefer_fives: bool = True,
    work_budget: int = WORK_MOVES,
    time_budget: float = SAFETY_SECONDS,
) -> list[SeatingResult[P]]:
    """Seats ``rounds`` rounds from ``first_round`` (default: the round after ``history``).

    ``mixing`` plans them together within ``work_budget`` (from round 1, the same plan as
    ``seat_round`` with ``total_rounds``); the other methods seat one round after the other
    (``swiss`` with the same ``standings`` throughout) and share the budget.
    """
    first = len(history) + 1 if first_round is None else first_round
    return _seat(
        players,
        rounds=rounds,
        method=_method(method),
        seed=seed,
        history=history,
        first=first,
        standings=standings,
        teams=teams,
        apart=apart,
        allow_threes=allow_threes,
        prefer_fives=prefer_fives,
        work_budget=work_budget,
        time_budget=time_budget,
        planned_ahead=True,
        horizon=first + rounds - 1,
    )


def _seat(
    players: Sequence[P],
    *,
    rounds: int,
    method: Method,
    seed: int,
    history: Sequence[Sequence[Sequence[P]]],
    first: int,
    standings: Mapping[P, float] | None,
    teams: Mapping[P, Hashable] | None,
    apart: Iterable[Collection[P]],
    allow_threes: bool,
    prefer_fives: bool,
    work_budget: int,
    time_budget: float,
    planned_ahead: bool,
    horizon: int,
) -> list[SeatingResult[P]]:
    if rounds < 1 or first < 1:
        raise SeatingError(
            "Il faut au moins un tour, numéroté à partir de 1.",
            "At least one round is needed, numbered from 1.",
        )
    field = _Field(
        players, history, teams, apart, allow_threes=allow_threes, prefer_fives=prefer_fives
    )
    budget = Budget.of(work_budget, time_budget)
    planned: list[Tables] = []
    timed_out = False
    work = 0
    if method is Method.MIXING:
        planned, timed_out, work = _mixing(
            field, first, rounds, seed, work_budget, time_budget, planned_ahead=planned_ahead
        )
    start: Tables = []
    if method is Method.FIXED:
        start = _fixed_start(field, _rng(seed, 0, "stations"), max(horizon, first + rounds - 1))
    results: list[SeatingResult[P]] = []
    for k in range(rounds):
        r = first + k
        budget.share(rounds - k)
        if method is Method.MIXING:
            tables = field.seats.order(planned[k], _rng(seed, r, "seats"))
        elif method is Method.SWISS:
            tables, timed_out = _swiss(field, standings or {}, _rng(seed, r, "search"), budget)
            tables = field.seats.order(tables, _rng(seed, r, "seats"))
        elif method is Method.FIXED:
            tables = movement.move(field.plan, start, r)
        elif method is Method.GREEDY:
            tables = _greedy(field, field.met, _rng(seed, r, "order"))
            tables, timed_out = _apart(field, tables, _rng(seed, r, "search"), budget)
        else:
            tables, timed_out = _random(field, _rng(seed, r, "draw"), budget)
        results.append(field.result(r, method, tables, timed_out=timed_out))
        field.record(tables)
    work += budget.spent
    return [replace(result, work=work) for result in results]


def _method(method: Method | str) -> Method:
    try:
        return Method(method)
    except ValueError:
        choices = ", ".join(m.value for m in Method)
        raise SeatingError(
            f"Méthode de placement inconnue « {method} ». Choisissez parmi : {choices}.",
            f"Unknown seating method “{method}”. Choose one of: {choices}.",
        ) from None


def _rng(seed: int, round_number: int, purpose: str) -> random.Random:
    # A string seed is hashed (SHA-512) by `random`: stable across runs and machines, and
    # seed 1 round 2 shares nothing with seed 2 round 1.
    return random.Random(f"seating/{seed}/{round_number}/{purpose}")


class _Field(Generic[P]):
    """The players as numbers ``0..n-1`` and what the rounds so far left behind: who met whom,
    who sat at tables of 5 or 3, who held which seat."""

    def __init__(
        self,
        players: Sequence[P],
        history: Sequence[Sequence[Sequence[P]]],
        teams: Mapping[P, Hashable] | None,
        apart: Iterable[Collection[P]] = (),
        *,
        allow_threes: bool,
        prefer_fives: bool,
    ) -> None:
        self.players = list(players)
        self.teams = teams
        self.apart_pairs = [tuple(pair) for pair in apart]
        self.allow_threes = allow_threes
        self.prefer_fives = prefer_fives
        self.index = {p: i for i, p in enumerate(self.players)}
        if len(self.index) != len(self.players):
            twice = sorted({str(p) for p in self.players if self.players.count(p) > 1})
            raise SeatingError(
                f"Joueur inscrit deux fois : {', '.join(twice)}.",
                f"Player listed twice: {', '.join(twice)}.",
            )
        n = len(self.players)
        self.plan = plan_tables(n, allow_threes=allow_threes, prefer_fives=prefer_fives)
        team_numbers: dict[Hashable, int] = {}
        self.team_ids: list[Hashable] = []
        self.team = [-1 - i for i in range(n)]  # on his own until a team is found
        for i, p in enumerate(self.players):
            if teams is not None and p in teams:
                t = teams[p]
                if t not in team_numbers:
                    team_numbers[t] = len(team_numbers)
                    self.team_ids.append(t)
                self.team[i] = team_numbers[t]
        # Who must not share a table: teammates, and the pairs kept apart (``kept``: those
        # asked for as pairs, for the report).
        self.apart = [[a != b and ta == tb for b, tb in enumerate(self.team)] for a, ta in
                      enumerate(self.team)]  # fmt: skip
        self.kept: set[frozenset[int]] = set()
        for pair in self.apart_pairs:
            both = [self.index[p] for p in pair if p in self.index]
            if len(pair) == 2 and len(both) == 2 and both[0] != both[1]:
                a, b = both
                self.apart[a][b] = self.apart[b][a] = True
                self.kept.add(frozenset(both))
        self.has_apart = any(any(row) for row in self.apart)
        self.group = _groups(self.apart)
        self.met = [[0] * n for _ in range(n)]
        self.odd_count = [0] * n
        self.seats = SeatMemory(n)
        self.played: list[set[frozenset[int]]] = []
        for played in history:
            self.record([[self.index.get(p) for p in table] for table in played])

    def fresh(self) -> _Field[P]:
        """The same players before any round was played."""
        return _Field(
            self.players,
            (),
            self.teams,
            self.apart_pairs,
            allow_threes=self.allow_threes,
            prefer_fives=self.prefer_fives,
        )

    @property
    def odd_table(self) -> list[bool]:
        return [size != 4 for size in self.plan.sizes]

    def record(self, tables: Sequence[Sequence[int | None]]) -> None:
        """Adds a played round to what the field remembers: players as numbers in seat order,
        ``None`` for one who is no longer here (his seat still counts)."""
        present = [[a for a in table if a is not None] for table in tables]
        self.played.append(_table_sets(present))
        for table, here in zip(tables, present, strict=True):
            for a in here:
                self.odd_count[a] += len(table) != 4
                row = self.met[a]
                for b in here:
                    if b != a:
                        row[b] += 1
        self.seats.record(tables)

    def problem(
        self,
        rounds: int,
        *,
        second: int | None,
        rank_weight: int = 0,
        odd_weight: int = 0,
    ) -> Problem:
        """The search's problem for ``rounds`` rounds planned together, with its floors.

        ``second``: what a second meeting weighs against the light terms (``None``: more than
        all of them, the lexicographic score of ``fairness``; 0: meetings do not count)."""
        n = len(self.players)
        pairs = n * (n - 1) // 2
        # The most the light terms can add up to: odd tables (squared counts), rank bands.
        light = odd_weight * sum((c + rounds) ** 2 for c in self.odd_count)
        light += rank_weight * n * n * rounds
        steps: list[int] = []
        floor = 0
        if second != 0:
            most = max((max(row) for row in self.met), default=0)
            steps = meeting_steps(
                pairs=pairs,
                levels=most + rounds + 1,
                second=light + 1 if second is None else second,
                light=light,
            )
            floor = self.meeting_floor(rounds, steps)
        team_weight = pairs * sum(steps) + light + 1
        return Problem(
            players=n,
            met=self.met,
            apart=self.apart,
            odd_table=self.odd_table,
            odd_count=self.odd_count,
            steps=steps,
            team_weight=team_weight,
            rank_weight=rank_weight,
            odd_weight=odd_weight,
            meeting_floor=floor,
            clash_floor=self.clash_floor(rounds),
        )

    def meeting_floor(self, rounds: int, steps: list[int]) -> int:
        """What the meetings of ``rounds`` more rounds cost at the least (``fairness``): the
        counting floor of a whole schedule on a fresh field, else the even spread of the new
        meetings over the pairs and over each player's partners."""
        n = len(self.players)
        sizes = self.plan.sizes
        made = [rounds * (min(sizes) - 1)] * n
        floor = water_floor(self.met, made, steps)
        if not self.played:
            least = schedule_floor(n, [sizes] * rounds)
            floor = max(floor, meeting_score(least, steps))
        return floor

    def clash_floor(self, rounds: int) -> int:
        """Team clashes no plan can avoid: a team spread as evenly as possible over the tables
        still doubles up when it has more members than there are tables."""
        tables = self.plan.tables
        per_round = 0
        for t in range(len(self.team_ids)):
            size = self.team.count(t)
            most, extra = divmod(size, tables)
            per_round += extra * (most + 1) * most // 2 + (tables - extra) * most * (most - 1) // 2
        return rounds * per_round

    def result(
        self, round_number: int, method: Method, tables: Tables, *, timed_out: bool
    ) -> SeatingResult[P]:
        players = self.players
        pairs: list[tuple[P, P]] = []
        clashes: list[TeamClash[P]] = []
        kept: list[PairClash[P]] = []
        for t, table in enumerate(tables):
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    if self.met[a][b]:
                        pairs.append((players[a], players[b]))
                    if self.team[a] != self.team[b] and frozenset((a, b)) in self.kept:
                        kept.append(PairClash(t + 1, (players[a], players[b])))
            by_team: dict[int, list[P]] = {}
            for a in table:
                if self.team[a] >= 0:
                    by_team.setdefault(self.team[a], []).append(players[a])
            for team, members in by_team.items():
                if len(members) > 1:
                    clashes.append(TeamClash(t + 1, self.team_ids[team], tuple(members)))
        return SeatingResult(
            round_number=round_number,
            method=method,
            plan=self.plan,
            tables=tuple(tuple(players[a] for a in table) for table in tables),
            repeats=len(pairs),
            repeat_pairs=tuple(pairs),
            team_clashes=tuple(clashes),
            timed_out=timed_out,
            pair_clashes=tuple(kept),
        )

    def clashes(self, tables: Tables) -> int:
        """Pairs kept apart who share a table in this round."""
        apart = self.apart
        return sum(
            apart[a][b] for table in tables for i, a in enumerate(table) for b in table[i + 1 :]
        )


def _groups(apart: list[list[bool]]) -> list[int]:
    """Each player's group: players linked by pairs kept apart, directly or through others,
    numbered from 0; a player kept apart from nobody has a negative number of his own."""
    n = len(apart)
    group = [-1 - a for a in range(n)]
    count = 0
    for a in range(n):
        if group[a] >= 0 or not any(apart[a]):
            continue
        group[a] = count
        todo = [a]
        while todo:
            x = todo.pop()
            for y in range(n):
                if apart[x][y] and group[y] < 0:
                    group[y] = count
                    todo.append(y)
        count += 1
    return group


FIXED_REPAIR_TRIES = 1500
"""Swaps of two stations of the ``fixed`` draw tried to mend the clashes the grouping left;
fewer for a big field over many rounds (``FIXED_REPAIR_WORK``). A count, not a time budget: every
round recomputes the same draw, so it must not depend on the machine."""
FIXED_REPAIR_WORK = 200_000
"""Players moved through the rounds, in all, that the tries may cost."""


def _fixed_start(field: _Field[P], rng: random.Random, horizon: int) -> Tables:
    """The ``fixed`` movement's round-1 stations: each group kept apart on one seat number
    (``movement.station_draw``); where some still meet within ``horizon`` rounds, the station
    of such a player swapped with another while the clashes over those rounds do not grow."""
    start = movement.station_draw(field.plan, field.group, rng)
    if not field.has_apart:
        return start
    plan = field.plan

    def meetings() -> list[Tables]:
        return [movement.move(plan, start, r) for r in range(1, horizon + 1)]

    def cost(rounds: list[Tables]) -> int:
        return sum(field.clashes(tables) for tables in rounds)

    rounds = meetings()
    best = cost(rounds)
    stations = [(t, s) for t, table in enumerate(start) for s in range(len(table))]
    tries = min(FIXED_REPAIR_TRIES, FIXED_REPAIR_WORK // (horizon * len(field.players) or 1))
    for _ in range(tries):
        if best == 0:
            break
        clashing = {
            a
            for tables in rounds
            for table in tables
            for a in table
            if any(field.apart[a][b] for b in table)
        }
        t1, s1 = rng.choice([(t, s) for t, s in stations if start[t][s] in clashing])
        t2, s2 = rng.choice(stations)
        if (t1, s1) == (t2, s2):
            continue
        start[t1][s1], start[t2][s2] = start[t2][s2], start[t1][s1]
        after = meetings()
        if cost(after) <= best:
            rounds, best = after, cost(after)
        else:
            start[t1][s1], start[t2][s2] = start[t2][s2], start[t1][s1]
    return start


def _greedy(field: _Field[P], met: list[list[int]], rng: random.Random) -> Tables:
    """Each player in a seeded order to the open table where he has met the fewest (never with
    a teammate if it can be helped; the emptier table on a tie)."""
    n = len(field.players)
    order = list(range(n))
    rng.shuffle(order)
    sizes = field.plan.sizes
    tables: Tables = [[] for _ in sizes]
    where = [-1] * n
    partners = [
        [x for x, (c, kept) in enumerate(zip(row, far, strict=True)) if c or kept]
        for row, far in zip(met, field.apart, strict=True)
    ]
    # Only the tables of those he has met or is kept apart from can count against a table:
    # each player's few such partners, instead of every seat of every table.
    for p in order:
        row = met[p]
        far = field.apart[p]
        counts: dict[int, list[int]] = {}
        for x in partners[p]:
            t = where[x]
            if t >= 0:
                count = counts.setdefault(t, [0, 0])
                count[0] += far[x]
                count[1] += row[x] >= 1
        best_t = -1
        best_key = (0, 0, 0)
        for t, table in enumerate(tables):
            if len(table) >= sizes[t]:
                continue
            clashes, known = counts.get(t, (0, 0))
            key = (clashes, known, len(table))
            if best_t < 0 or key < best_key:
                best_t, best_key = t, key
        tables[best_t].append(p)
        where[p] = best_t
    return tables


def _random(field: _Field[P], rng: random.Random, budget: Budget) -> tuple[Tables, bool]:
    order = list(range(len(field.players)))
    rng.shuffle(order)
    tables: Tables = []
    for size in field.plan.sizes:
        tables.append(order[:size])
        order = order[size:]
    return _apart(field, tables, rng, budget)


def _apart(
    field: _Field[P], tables: Tables, rng: random.Random, budget: Budget
) -> tuple[Tables, bool]:
    """Players kept apart (teammates, pairs) moved apart by swaps, and nothing else: repeats
    do not count here."""
    if not field.has_apart:
        return tables, False
    problem = field.problem(1, second=0)
    # Only hard constraints: the search stops as soon as none is broken, so a patient search
    # costs nothing where it is easy and finds the tight cases (9 players, 12 pairs apart).
    outcome = improve(problem, [tables], rng, budget=budget, patience=APART_PATIENCE)
    return outcome.rounds[0], outcome.timed_out


def _table_sets(tables: Tables) -> set[frozenset[int]]:
    return {frozenset(table) for table in tables}


def _mixing(
    field: _Field[P],
    first: int,
    rounds: int,
    seed: int,
    work: int,
    seconds: float,
    *,
    planned_ahead: bool,
) -> tuple[list[Tables], bool, int]:
    """Rounds ``first`` to ``first + rounds - 1`` planned together, whether the safety net
    stopped a search, and the swaps evaluated.

    Planned ahead from a history of every earlier round, the plan round 1 made (same players,
    same seed, no history) is made again: while the history follows it, its next rounds are
    the answer; once the history has left it, they are where the search starts.
    """
    start = None
    spent = 0
    if planned_ahead and first > 1 and len(field.played) == first - 1:
        # Round 1's plan made again: the same work budget gives the same plan.
        again = Budget.of(work, seconds)
        plan, timed_out = _mixing_plan(field.fresh(), 1, first - 1 + rounds, seed, again)
        if [_table_sets(tables) for tables in plan[: first - 1]] == field.played:
            return plan[first - 1 :], timed_out, again.spent
        start = plan[first - 1 :]
        spent = again.spent
    budget = Budget.of(work // REPLAN_SHARE if start is not None else work, seconds)
    plan, timed_out = _mixing_plan(field, first, rounds, seed, budget, start)
    return plan, timed_out, spent + budget.spent


def _mixing_plan(
    field: _Field[P],
    first: int,
    rounds: int,
    seed: int,
    budget: Budget,
    start: list[Tables] | None = None,
) -> tuple[list[Tables], bool]:
    """The search for ``rounds`` rounds together, from ``start`` or else from the best of three
    starts: a construction without repeats (``designs``, for a fresh field at tables of 4,
    mapped onto the players by a seeded draw), the freedom greedy (``freedom``) and the greedy
    baseline, each round after round. The search never makes its start worse, so the plan is
    never worse than the baseline, and a construction at its floors is the answer as it is.
    """
    problem = field.problem(rounds, second=None, odd_weight=1)
    if start is None:
        starts = _designed(field, rounds, _rng(seed, first, "design"))
        if not starts or not _at_floor(problem, starts[0]):
            # The greedy starts only where no construction reaches the floor: the freedom
            # one costs n^2 per round (a second for 300 players over 10 rounds).
            if len(field.players) <= FREEDOM_MOST:
                starts.append(_freedom(field, rounds, _rng(seed, first, "freedom")))
            starts.append(_greedy_after(field, [], first, rounds, seed))
        start = min(starts, key=lambda plan: tally(problem, plan)[0])
    rng = _rng(seed, first, "search")
    outcome = improve(problem, start, rng, budget=budget, patience=MIXING_PATIENCE)
    return outcome.rounds, outcome.timed_out


FREEDOM_MOST = 160
"""Players up to which the freedom greedy is one of the search's starts. Larger fields have room
enough for the baseline's start, and the freedom greedy's work grows with the square of the
field."""


def _at_floor(problem: Problem, plan: list[Tables]) -> bool:
    """The plan's meetings are at their floor and nobody kept apart shares a table."""
    _cost, _repeats, clashes, meetings = tally_all(problem, plan)
    return meetings <= problem.meeting_floor and clashes <= problem.clash_floor


def _greedy_after(
    field: _Field[P], planned: list[Tables], first: int, rounds: int, seed: int
) -> list[Tables]:
    """``planned`` followed by greedy baseline rounds, each after the ones before it, up to
    ``rounds`` in all."""
    met = [row[:] for row in field.met]
    plan: list[Tables] = []
    for k in range(rounds):
        tables = (
            planned[k] if k < len(planned) else _greedy(field, met, _rng(seed, first + k, "order"))
        )
        plan.append(tables)
        for table in tables:
            for a in table:
                for b in table:
                    if b != a:
                        met[a][b] += 1
    return plan


def _freedom(field: _Field[P], rounds: int, rng: random.Random) -> list[Tables]:
    return freedom_rounds(
        len(field.players), field.plan.sizes, rounds, met=field.met, apart=field.apart, rng=rng
    )


DESIGN_SWAPS = 2000
"""Swaps of two players on a construction tried to keep teammates off the pairs that meet."""


def _designed(field: _Field[P], rounds: int, rng: random.Random) -> list[list[Tables]]:
    """A construction without repeats mapped onto the players, as a one-item list; ``[]`` when
    none applies (tables of 3, rounds already played, or no mapping keeping teammates apart).
    With tables of 5, the construction seats the players of the tables of 4 and one more at
    each table of 5, and the others are added (``_add_fifths``: 17 players on the 16's, 41 on
    the 40's). Rounds past the construction's length are the greedy baseline's.

    The players are drawn onto the construction's numbers; with teams, players are then swapped
    (a member of a team that clashes with another player, kept when the clashes do not grow)
    until no teammates share a table, which works when the construction has pairs that never
    meet where the teams need them (the groups of a transversal design, the partner nobody
    meets in 8-4-10).
    """
    n = len(field.players)
    plan = field.plan
    if plan.threes or any(any(row) for row in field.met):
        return []
    base = 4 * plan.tables  # with tables of 5: the construction, one player added per table
    design = schedule_without_repeats(base)[:rounds]
    if len(design) < 2:
        return []  # one round: the other starts do as well
    spot = list(range(n))  # spot[player]: his number in the construction (base.. : added)
    rng.shuffle(spot)
    mates = [(a, b) for a in range(n) for b in range(a + 1, n) if field.apart[a][b]]
    if mates and base != n:
        return []  # teams and tables of 5: the search's start is the greedy ones'
    if mates:
        meets = [[False] * n for _ in range(n)]
        for tables in design:
            for table in tables:
                for x in table:
                    for y in table:
                        meets[x][y] = x != y

        def clashing() -> list[tuple[int, int]]:
            return [(a, b) for a, b in mates if meets[spot[a]][spot[b]]]

        clashes = clashing()
        for _ in range(DESIGN_SWAPS):
            if not clashes:
                break
            a = rng.choice(rng.choice(clashes))
            c = rng.randrange(n)
            spot[a], spot[c] = spot[c], spot[a]
            after = clashing()
            if len(after) <= len(clashes):
                clashes = after
            else:
                spot[a], spot[c] = spot[c], spot[a]
        if clashes:
            return []
    player = [0] * n
    for p, x in enumerate(spot):
        player[x] = p
    planned = [[[player[x] for x in table] for table in tables] for tables in design]
    if base != n:
        _add_fifths(planned, [player[x] for x in range(base, n)], n, rng)
    for tables in planned:
        # Table numbers say nothing of the construction; the tables of 5 come last (the plan's
        # numbering), in a seeded order.
        rng.shuffle(tables)
        tables.sort(key=len)
    return [_greedy_after(field, planned, 1, rounds, rng.randrange(2**32))]


ADD_TRIES = 30
"""Draws of the added players' tables tried on a construction (the fairest is kept)."""


def _add_fifths(planned: list[Tables], added: list[int], players: int, rng: random.Random) -> None:
    """Each added player to a table of each round (a different one for each, so the added never
    meet one another): the table where he would meet nobody a third time, then the fewest
    players already met, ties drawn; the fairest of ``ADD_TRIES`` such draws is kept (on
    AG(2, 4), 17 players: five tables no three of which share a player)."""
    best: list[list[int]] = []
    best_key: tuple[int, ...] = ()
    for _ in range(ADD_TRIES):
        met = [[0] * players for _ in range(players)]
        chosen: list[list[int]] = []
        for tables in planned:
            free = list(range(len(tables)))
            rng.shuffle(free)
            picks = []
            for p in added:
                row = met[p]
                t = min(
                    free,
                    key=lambda t: (max(row[x] for x in tables[t]), sum(row[x] for x in tables[t])),
                )
                free.remove(t)
                picks.append(t)
                for x in tables[t]:
                    row[x] += 1
            chosen.append(picks)
        key = meetings_of(
            [
                [[*tables[t], p] for p, t in zip(added, picks, strict=True)]
                for tables, picks in zip(planned, chosen, strict=True)
            ]
        ).key()
        if not best or key < best_key:
            best, best_key = chosen, key
    for tables, picks in zip(planned, best, strict=True):
        for p, t in zip(added, picks, strict=True):
            tables[t].append(p)


def _swiss(
    field: _Field[P], standings: Mapping[P, float], rng: random.Random, budget: Budget
) -> tuple[Tables, bool]:
    """Ranks folded into tables (best at table 1), then bent to avoid repeats."""
    order = list(range(len(field.players)))
    rng.shuffle(order)  # ties in the standings are drawn
    order.sort(key=lambda a: -standings.get(field.players[a], 0.0))
    rank = [0] * len(order)
    for place, a in enumerate(order):
        rank[a] = place
    bands: list[tuple[int, int]] = []
    tables: Tables = []
    low = 0
    for size in field.plan.sizes:
        bands.append((low, low + size - 1))
        tables.append(order[low : low + size])
        low += size
    rank_cost = [[max(0, lo - rank[a], rank[a] - hi) for lo, hi in bands] for a in range(len(rank))]
    problem = field.problem(1, second=SWISS_REPEAT, rank_weight=1)
    problem.rank_cost = rank_cost
    outcome = improve(problem, [tables], rng, budget=budget, patience=QUICK_PATIENCE)
    return outcome.rounds[0], outcome.timed_out
