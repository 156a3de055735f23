"""The local search behind ``mixing`` and ``swiss``: swaps of players between tables.

It works on player numbers ``0..n-1`` and plans one or several rounds at once. The cost of a plan
is, by weight: two players who must not share a table seated together (members of one team, or a
pair the organiser keeps apart: a hard constraint, so a weight nothing else can outbid), meetings
(a pair's m-th meeting costs ``Problem.steps[m]``, ``fairness.meeting_steps``: a third meeting
more than every second one, counted against the rounds already played and between the rounds
being planned), then lighter terms: for ``swiss`` each player's
distance in places from the rank band of his table, and the fairness of who keeps landing at a table
of 5 or 3 (squared counts, so it is spread out).

The search is a tabu search in the manner of Dotú and Van Hentenryck's social golfer solver: only
players in a conflict (a repeat or a clash of players kept apart at their table) are moved; each
step makes the best swap of such a player with a player at another table of the same round, even
uphill, and then forbids swapping that pair back for a few steps; a search that stops improving
starts again from the best plan found, shaken by a few random swaps. A final pass makes any swap
that still lowers the light terms. The best plan is kept, so the answer is never worse than the plan
it started from.

The search's budget is work, not time (``Budget``): the swaps it evaluates are counted, and it
stops when the count reaches its limit, so the same seed gives the same plan on any machine,
busy or not. A wall-clock deadline remains only as a safety net: a search it stops says so
(``timed_out``), and only such a search may differ from one machine to another.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

Tables = list[list[int]]
"""One round: for each table, its players' numbers."""

MOST_CANDIDATES = 32
"""Players in conflict examined per step: many conflicts at the start of a big plan make a full
scan slow, and a sample finds a good swap as surely."""


@dataclass(slots=True)
class Budget:
    """The work searches may do: swaps evaluated, counted the same on every machine, up to
    ``limit`` (the count at which the search running now stops: a share of the whole, set by
    the caller that splits it between rounds), and a wall-clock ``deadline`` (a
    ``time.monotonic()`` value) only as a safety net."""

    moves: int
    deadline: float
    spent: int = 0
    limit: int = 0
    timed_out: bool = False

    def __post_init__(self) -> None:
        self.limit = self.limit or self.moves

    @classmethod
    def of(cls, moves: int, seconds: float) -> Budget:
        return cls(moves=moves, deadline=time.monotonic() + seconds)

    def share(self, parts: int) -> None:
        """The search that runs next may spend its part of what is left: 1/``parts``."""
        self.limit = self.spent + max(0, self.moves - self.spent) // max(1, parts)

    def spent_up(self) -> bool:
        return self.spent >= self.limit

    def past_deadline(self) -> bool:
        if time.monotonic() > self.deadline:
            self.timed_out = True
        return self.timed_out


@dataclass(slots=True)
class Problem:
    """What the search optimises, on player numbers ``0..players-1``."""

    players: int
    met: list[list[int]]
    """``met[a][b]``: rounds already played where ``a`` and ``b`` shared a table."""
    apart: list[list[bool]]
    """``apart[a][b]``: ``a`` and ``b`` must not share a table (teammates, or a pair kept
    apart); symmetric, and false on the diagonal."""
    odd_table: list[bool]
    """For each table of the round, whether it is a table of 5 or of 3."""
    odd_count: list[int]
    """Rounds already played by each player at a table of 5 or of 3."""
    rank_cost: list[list[int]] | None = None
    """``rank_cost[p][t]``: places between player ``p``'s rank and table ``t``'s band (swiss)."""
    steps: list[int] = field(default_factory=list)
    """``steps[m]``: what a pair's ``m``-th meeting costs (``fairness.meeting_steps``; long
    enough for every count the plan can reach); empty: meetings do not count."""
    team_weight: int = 1_000_000
    rank_weight: int = 0
    odd_weight: int = 0
    meeting_floor: int = 0
    """No plan's meetings cost less (``fairness``): the search stops there."""
    clash_floor: int = 0
    """No plan has fewer clashes (a team larger than the number of tables)."""

    def __post_init__(self) -> None:
        if not self.steps:
            self.steps = [0] * (max((max(row) for row in self.met), default=0) + 66)


def apart_from_teams(team: list[int]) -> list[list[bool]]:
    """The pairs that must not share a table when only teams say so: each player's team
    numbered from 0, a player without a team a negative number of his own."""
    return [[a != b and ta == tb for b, tb in enumerate(team)] for a, ta in enumerate(team)]


@dataclass(slots=True)
class Outcome:
    rounds: list[Tables]
    cost: int
    steps: int
    timed_out: bool


def tally(problem: Problem, rounds: list[Tables]) -> tuple[int, int, int]:
    """A plan's cost, repeats and clashes (pairs kept apart at one table), from scratch."""
    return tally_all(problem, rounds)[:3]


def tally_all(problem: Problem, rounds: list[Tables]) -> tuple[int, int, int, int]:
    """``tally`` and the meeting part of the cost."""
    met = [row[:] for row in problem.met]
    odd = problem.odd_count[:]
    apart = problem.apart
    steps = problem.steps
    light = 0
    repeats = 0
    meetings = 0
    clashes = 0
    for tables in rounds:
        for t, table in enumerate(tables):
            for i, a in enumerate(table):
                if problem.rank_cost is not None:
                    light += problem.rank_weight * problem.rank_cost[a][t]
                for b in table[i + 1 :]:
                    repeats += met[a][b] >= 1
                    meetings += steps[met[a][b] + 1]
                    clashes += apart[a][b]
        for t, table in enumerate(tables):
            for a in table:
                odd[a] += problem.odd_table[t]
                row = met[a]
                for b in table:
                    if b != a:
                        row[b] += 1
    light += problem.odd_weight * sum(c * c for c in odd)
    cost = meetings + clashes * problem.team_weight + light
    return cost, repeats, clashes, meetings


class _Search:
    """The plan being improved, with the meeting counts kept up to date swap by swap."""

    def __init__(self, problem: Problem, start: list[Tables]) -> None:
        self.problem = problem
        self.budget = Budget(moves=2**62, deadline=float("inf"))
        self.has_apart = any(any(row) for row in problem.apart)
        self.load([[table[:] for table in tables] for tables in start])

    def load(self, rounds: list[Tables]) -> None:
        problem = self.problem
        self.rounds = rounds
        self.where = [[0] * problem.players for _ in rounds]
        self.met = [row[:] for row in problem.met]
        self.odd = problem.odd_count[:]
        for r, tables in enumerate(rounds):
            for t, table in enumerate(tables):
                for a in table:
                    self.where[r][a] = t
                    self.odd[a] += problem.odd_table[t]
                    row = self.met[a]
                    for b in table:
                        if b != a:
                            row[b] += 1
        self.cost, self.repeats, self.clashes, self.meetings = tally_all(problem, rounds)

    def snapshot(self) -> list[Tables]:
        return [[table[:] for table in tables] for tables in self.rounds]

    def settled(self) -> bool:
        """Nothing left to gain in meetings and clashes: both at their floor."""
        problem = self.problem
        return self.clashes <= problem.clash_floor and (
            self.meetings <= problem.meeting_floor or not problem.steps[2]
        )

    def conflicted(self) -> list[tuple[int, int]]:
        """(round, player) for every player who meets someone again, or one he is kept
        apart from."""
        apart = self.problem.apart
        repeats = self.problem.steps[2] > 0
        kept = self.has_apart
        met = self.met
        found: list[tuple[int, int]] = []
        for r, tables in enumerate(self.rounds):
            for table in tables:
                for a in table:
                    row = met[a]
                    far = apart[a]
                    for b in table:
                        if b != a and ((repeats and row[b] >= 2) or (kept and far[b])):
                            found.append((r, a))
                            break
        return found

    def delta(self, r: int, a: int, b: int) -> int:
        """The change in cost if ``a`` and ``b`` (at different tables of round ``r``) swap."""
        return self.meeting_delta(r, a, b) + self.light_delta(r, a, b)

    def meeting_delta(self, r: int, a: int, b: int) -> int:
        """``delta``'s meeting term: a's meetings at b's table gained, those at his own lost."""
        tables = self.rounds[r]
        steps = self.problem.steps
        ma = self.met[a]
        mb = self.met[b]
        d = 0
        for x in tables[self.where[r][a]]:
            if x != a:
                d += steps[mb[x] + 1] - steps[ma[x]]
        for y in tables[self.where[r][b]]:
            if y != b:
                d += steps[ma[y] + 1] - steps[mb[y]]
        return d

    def light_delta(self, r: int, a: int, b: int) -> int:
        """``delta`` without its repeat term: clashes, rank bands, odd tables."""
        problem = self.problem
        tables = self.rounds[r]
        ta = self.where[r][a]
        tb = self.where[r][b]
        d = 0
        if self.has_apart:
            far_a = problem.apart[a]
            far_b = problem.apart[b]
            c = 0
            for x in tables[ta]:
                if x != a:
                    c += far_b[x] - far_a[x]
            for y in tables[tb]:
                if y != b:
                    c += far_a[y] - far_b[y]
            d += c * problem.team_weight
        if problem.rank_cost is not None:
            ra = problem.rank_cost[a]
            rb = problem.rank_cost[b]
            d += problem.rank_weight * (ra[tb] + rb[ta] - ra[ta] - rb[tb])
        if problem.odd_weight:
            shift = problem.odd_table[tb] - problem.odd_table[ta]
            if shift:
                # a gains `shift` odd tables and b loses as many: (c+s)^2 - c^2 = 2cs + s^2.
                d += problem.odd_weight * (2 * shift * (self.odd[a] - self.odd[b]) + 2)
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        """Swaps ``a`` and ``b`` in round ``r``, keeping counts up to date (not ``cost``)."""
        problem = self.problem
        tables = self.rounds[r]
        where = self.where[r]
        met = self.met
        apart = problem.apart
        ta = where[a]
        tb = where[b]
        table_a = tables[ta]
        table_b = tables[tb]
        ma = met[a]
        mb = met[b]
        steps = problem.steps
        repeats = 0
        meetings = 0
        clashes = 0
        for x, leaves, joins, row_leaves, row_joins in (
            *((x, a, b, ma, mb) for x in table_a),
            *((y, b, a, mb, ma) for y in table_b),
        ):
            if x == leaves:
                continue
            repeats += (row_joins[x] >= 1) - (row_leaves[x] >= 2)
            meetings += steps[row_joins[x] + 1] - steps[row_leaves[x]]
            row_leaves[x] -= 1
            met[x][leaves] -= 1
            row_joins[x] += 1
            met[x][joins] += 1
            if self.has_apart:
                clashes += apart[x][joins] - apart[x][leaves]
        self.repeats += repeats
        self.meetings += meetings
        self.clashes += clashes
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a] = tb
        where[b] = ta
        shift = problem.odd_table[tb] - problem.odd_table[ta]
        self.odd[a] += shift
        self.odd[b] -= shift


def improve(
    problem: Problem,
    start: list[Tables],
    rng: random.Random,
    *,
    budget: Budget,
    patience: int = 3000,
    max_steps: int = 200_000,
) -> Outcome:
    """Improves ``start`` (one or more rounds, each a list of tables) and returns the best plan.

    The tabu phase stops at a plan whose repeats and clashes are down to their floors, after
    ``patience`` steps without a new best, after ``max_steps`` steps, once the swaps evaluated
    reach ``budget.limit``, or at ``budget.deadline``. Only the deadline depends on the
    machine: a search it cuts short says so (``timed_out``).
    """
    search = _Search(problem, start)
    search.budget = budget
    if all(len(tables) < 2 for tables in start):  # one table: nobody to swap with
        return Outcome(search.snapshot(), search.cost, 0, False)
    best_cost = search.cost
    best = search.snapshot()
    tabu: dict[tuple[int, int, int], int] = {}
    step = 0
    since_best = 0
    restart_after = max(50, 4 * problem.players)
    timed_out = False
    while step < max_steps and since_best < patience and not budget.spent_up():
        if step % 16 == 0 and budget.past_deadline():
            timed_out = True
            break
        if search.settled():
            # The first plan at its floors: better than any kept so far, which were not.
            best_cost = search.cost
            best = search.snapshot()
            break
        candidates = search.conflicted()
        # The scan for conflicts is work too: for a small field it costs more than the swaps.
        budget.spent += len(start) * problem.players
        if not candidates:  # pragma: no cover - a plan above its floors has conflicts
            break
        if len(candidates) > MOST_CANDIDATES:
            candidates = rng.sample(candidates, MOST_CANDIDATES)
        step += 1
        since_best += 1
        move = _best_swap(search, candidates, tabu, step, best_cost, rng)
        if move is not None:
            r, a, b, d = move
            search.swap(r, a, b)
            search.cost += d
            tabu[(r, a, b) if a < b else (r, b, a)] = step + rng.randint(4, 12)
        if search.cost < best_cost:
            best_cost = search.cost
            best = search.snapshot()
            since_best = 0
        elif since_best % restart_after == 0:
            # Start again from the best plan, shaken by a few random swaps.
            search.load([[table[:] for table in tables] for tables in best])
            for _ in range(rng.randint(1, 3)):
                r = rng.randrange(len(best))
                a, b = rng.sample(range(problem.players), 2)
                if search.where[r][a] != search.where[r][b]:
                    search.cost += search.delta(r, a, b)
                    search.swap(r, a, b)
            tabu.clear()
    if search.cost != best_cost:
        search.load(best)
    if problem.rank_cost is not None or problem.odd_weight:
        _polish(search, budget)
        timed_out = timed_out or budget.timed_out
        if search.cost < best_cost:
            best_cost = search.cost
            best = search.snapshot()
    return Outcome(best, best_cost, step, timed_out)


def _best_swap(
    search: _Search,
    candidates: list[tuple[int, int]],
    tabu: dict[tuple[int, int, int], int],
    step: int,
    best_cost: int,
    rng: random.Random,
) -> tuple[int, int, int, int] | None:
    """The best swap for a conflicted player, ties broken at random; a tabu swap only if it
    beats the best plan so far.

    The repeat term of ``_Search.delta`` unrolled for speed: swapping ``a`` (table A) with
    ``b`` (table B) adds whom b already met at A and a at B, and removes the repeats a leaves
    at A and b at B; the parts that depend on one side only are counted once.
    """
    problem = search.problem
    steps = problem.steps
    light = search.has_apart or problem.rank_cost is not None
    w_odd = problem.odd_weight if any(problem.odd_table) else 0
    odd_table = problem.odd_table
    odd = search.odd
    met = search.met
    best_delta = 0
    moves: list[tuple[int, int, int]] = []
    leaving: dict[int, list[int]] = {}
    for r, a in candidates:
        tables = search.rounds[r]
        if r not in leaving:
            # leaving[r][p]: the repeats p leaves behind at his table in round r.
            left = [0] * problem.players
            for table in tables:
                for p in table:
                    row = met[p]
                    n_left = 0
                    for q in table:  # met[p][p] stays 0: p does not count himself
                        n_left += steps[row[q]]
                    left[p] = n_left
            leaving[r] = left
        left = leaving[r]
        ta = search.where[r][a]
        search.budget.spent += problem.players - len(tables[ta])  # the swaps weighed for a
        ma = met[a]
        others = [x for x in tables[ta] if x != a]
        for t, table in enumerate(tables):
            if t == ta:
                continue
            known = -left[a]
            for y in table:
                known += steps[ma[y] + 1]
            shift = odd_table[t] - odd_table[ta] if w_odd else 0
            for b in table:
                mb = met[b]
                d = known - steps[ma[b] + 1] - left[b]
                for x in others:
                    d += steps[mb[x] + 1]
                if light:
                    d += search.light_delta(r, a, b)
                elif shift:
                    d += w_odd * (2 * shift * (odd[a] - odd[b]) + 2)
                if moves and d > best_delta:
                    continue
                if search.cost + d >= best_cost:
                    key = (r, a, b) if a < b else (r, b, a)
                    if tabu.get(key, 0) > step:
                        continue
                if not moves or d < best_delta:
                    best_delta = d
                    moves = [(r, a, b)]
                else:
                    moves.append((r, a, b))
    if not moves:
        return None
    r, a, b = moves[rng.randrange(len(moves))]
    return r, a, b, best_delta


def _polish(search: _Search, budget: Budget) -> None:
    """Makes every swap that lowers the cost until none is left (steepest for each player), or
    the budget is spent."""
    problem = search.problem
    odd = problem.odd_table
    improved = True
    while improved and not budget.spent_up() and not budget.past_deadline():
        improved = False
        for r, tables in enumerate(search.rounds):
            movers = list(range(problem.players))
            if problem.rank_cost is None:
                # Only the fairness of odd tables is left to gain: someone there must move.
                movers = [a for t, table in enumerate(tables) if odd[t] for a in table]
            for a in movers:
                ta = search.where[r][a]
                budget.spent += problem.players - len(tables[ta])
                best_delta = 0
                best_b = -1
                for t, table in enumerate(tables):
                    if t == ta or (problem.rank_cost is None and odd[t] == odd[ta]):
                        continue  # without ranks, only a move to or from an odd table gains
                    for b in table:
                        d = search.delta(r, a, b)
                        if d < best_delta:
                            best_delta = d
                            best_b = b
                if best_b >= 0:
                    search.swap(r, a, best_b)
                    search.cost += best_delta
                    improved = True
