"""What players call a fair seating, as one comparable score, and how good a seating can be.

**The objective.** Players judge a schedule first by the pair that meets most often: nobody
should meet a third time while a schedule where nobody meets more than twice exists. So a
schedule is compared, in this order, on:

1. pairs kept apart seated together (a rule the organiser set, not an aim: it outranks all);
2. ``most``: the largest number of meetings of any pair;
3. how many pairs meet ``most`` times, then ``most - 1`` times, and so on down to twice;
4. then today's lighter aims: tables of 5 (or 3) spread evenly, or the Swiss rank bands.

It is written as one integer, a convex cost the search can add up swap by swap: the ``m``-th
meeting of a pair costs ``step[m]`` (``meeting_steps``), where ``step[2]`` outweighs every
lighter aim together and each ``step[m + 1]`` outweighs every pair of the field taken to
``m`` meetings, so comparing two totals is comparing the tuples above (``Meetings.key``).
Swiss is the one exception, by design: a second meeting there weighs ``SWISS_REPEAT`` places
of distance from a player's rank band (the Swiss trade of old), while a third meeting still
outweighs any band.

**How good it can be** (``schedule_floor``): a proven lower bound on that score for a field
and a number of rounds, by counting.

- Each round makes ``sum C(s, 2)`` meetings over the tables' sizes ``s``; spread over the
  ``C(n, 2)`` pairs, a pair meets at least ``ceil(meetings / pairs)`` times.
- A player meets ``s - 1`` others per round, so at least ``rounds * (smallest - 1)`` over his
  ``n - 1`` others: when that is more than ``n - 1``, some of his pairs meet twice.
- Pigeonhole between two rounds: the ``s`` players of one table of a round sit at the ``T``
  tables of another round, so, spread as evenly as can be, some pairs of them share a table
  again. Summed over the tables and over every two rounds, this counts
  ``sum over pairs C(m, 2)``: 12 players at 3 tables of 4 cannot play 2 rounds without 3
  repeats, and 13 players (4 + 4 + 5) over 3 rounds make 12 such pair-rounds at least.

The floor is the least score of any histogram of meeting counts that meets the three counts
(found level by level, the highest first), so a search that reaches it has nothing left to
gain and stops. ``played_floor`` counts the same for rounds as they were played (who was
there, the tables' sizes), and ``quality_of`` sets a schedule's meetings against it: what the
round page and the seating list tell the organiser. With rounds already played (a plan that
left its draw), the search's floor is the water-filling one: the new meetings spread as evenly
as counts allow, overall and per player.

Pure Python on player numbers; nothing here depends on the order of a set or a dict.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

SWISS_REPEAT = 20
"""In ``swiss``, what a second meeting weighs in places of distance from a player's rank band."""


@dataclass(frozen=True, slots=True)
class Meetings:
    """How often the pairs of a schedule met: ``(m, count)`` in ``pairs_at`` when ``count``
    pairs met ``m`` times (m >= 2).

    ``most`` is the largest number of meetings of any pair (0 for a field that never sat, 1
    when no pair met twice); ``repeats`` the meetings past the first, summed over pairs."""

    most: int
    pairs_at: tuple[tuple[int, int], ...] = ()
    """``(m, count)`` for each ``m >= 2`` some pair reached, highest ``m`` first."""

    @property
    def at_most(self) -> int:
        """Pairs at ``most`` (0 when ``most`` < 2)."""
        return self.pairs_at[0][1] if self.pairs_at else 0

    @property
    def repeats(self) -> int:
        return sum((m - 1) * count for m, count in self.pairs_at)

    def key(self) -> tuple[int, ...]:
        """The comparable score: smaller is fairer (most, then the pairs at each level down)."""
        counts = dict(self.pairs_at)
        return (self.most, *(counts.get(m, 0) for m in range(self.most, 1, -1)))


def meetings_of(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> Meetings:
    """The meetings of a schedule: each round a list of tables of players (any hashables)."""
    met: Counter[tuple[int, int]] = Counter()
    number: dict[Hashable, int] = {}
    for tables in rounds:
        for table in tables:
            ids = sorted(number.setdefault(p, len(number)) for p in table)
            for a, b in combinations(ids, 2):
                met[(a, b)] += 1
    return _histogram(met.values())


def _histogram(counts: Iterable[int]) -> Meetings:
    seen = [c for c in counts if c >= 1]
    levels = Counter(c for c in seen if c >= 2)
    most = max(levels) if levels else (1 if seen else 0)
    return Meetings(most, tuple(sorted(levels.items(), reverse=True)))


def meeting_steps(*, pairs: int, levels: int, second: int, light: int) -> list[int]:
    """``step[m]``: what a pair's ``m``-th meeting adds to the score, for ``m`` in
    ``0..levels``: nothing for the first, ``second`` for the second, then each level more than
    every pair of the field at the level below plus every lighter aim (``light``, the most
    the lighter terms can differ by) together. ``pairs``: pairs of players in the field."""
    steps = [0, 0]
    total = 0  # what one pair at the level below costs in all
    for m in range(2, levels + 1):
        step = second if m == 2 else pairs * total + light + 1
        total += step
        steps.append(step)
    return steps


def meeting_score(meetings: Meetings, steps: Sequence[int]) -> int:
    """The meeting part of the score of a histogram (``steps`` as ``meeting_steps`` gives)."""
    cumulative = [0]
    for step in steps[1:]:
        cumulative.append(cumulative[-1] + step)
    return sum(count * cumulative[min(m, len(cumulative) - 1)] for m, count in meetings.pairs_at)


def _even_overlap(size: int, tables: int, caps: Sequence[int] | None = None) -> int:
    """Pairs of ``size`` players who must share a table again when seated at ``tables`` tables
    (of sizes ``caps``): spread as evenly as the tables allow."""
    if tables <= 0:
        return 0
    low, extra = divmod(size, tables)
    if caps is None or low + (extra > 0) <= min(caps):
        return extra * (low + 1) * low // 2 + (tables - extra) * low * (low - 1) // 2
    load = [0] * tables
    capacity = list(caps) if caps is not None else [size] * tables
    for _ in range(size):
        # The emptiest table with room: a greedy even spread minimises sum C(load, 2).
        best = -1
        for t in range(tables):
            if load[t] < capacity[t] and (best < 0 or load[t] < load[best]):
                best = t
        if best < 0:
            break
        load[best] += 1
    return sum(x * (x - 1) // 2 for x in load)


def schedule_floor(players: int, rounds: Sequence[Sequence[int]]) -> Meetings:
    """The least meetings any schedule of ``players`` over ``rounds`` can have (each round the
    sizes of its tables, everyone seated every round): the counting bounds of the module's
    docstring, combined level by level from the highest."""
    everyone = frozenset(range(players))
    return _floor([(everyone, tuple(sizes)) for sizes in rounds])


def played_floor(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> Meetings:
    """The least meetings any schedule can have with the same players present in each round
    at tables of the same sizes as ``rounds`` (each a list of tables of players): players who
    came late, left or sat a round out count only where they were seated."""
    shapes = []
    for tables in rounds:
        present = frozenset(p for table in tables for p in table)
        shapes.append((present, tuple(sorted(len(table) for table in tables))))
    return _floor(shapes)


def _spread(count: int, caps: tuple[int, ...]) -> list[int]:
    """``count`` players over tables of sizes ``caps``, as evenly as the sizes allow."""
    load = [0] * len(caps)
    for _ in range(count):
        best = -1
        for t, cap in enumerate(caps):
            if load[t] < cap and (best < 0 or load[t] < load[best]):
                best = t
        if best < 0:
            break
        load[best] += 1
    return load


@cache
def _overlap(both: int, first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """Pairs of the ``both`` players seated in two rounds (tables ``first``, then ``second``)
    who share a table in both: the least, spread evenly in each (the count is convex)."""
    loads = list(first) if both == sum(first) else _spread(both, first)
    return sum(_even_overlap(x, len(second), second) for x in loads)


def _floor(shapes: Sequence[tuple[frozenset[Hashable], tuple[int, ...]]]) -> Meetings:
    """``schedule_floor`` for rounds given as (players present, sizes of the tables)."""
    if not shapes:
        return Meetings(0)
    total = sum(s * (s - 1) // 2 for _present, sizes in shapes for s in sizes)
    everyone = frozenset().union(*(present for present, _sizes in shapes))
    order = sorted(everyone, key=repr)
    number = {p: i for i, p in enumerate(order)}
    n = len(order)
    masks = [sum(1 << number[p] for p in present) for present, _sizes in shapes]
    # Pairs that can meet at all: both present in some round.
    partners = [0] * n
    for mask in masks:
        for i in range(n):
            if mask >> i & 1:
                partners[i] |= mask & ~(1 << i)
    pairs = sum(m.bit_count() for m in partners) // 2
    if total == 0 or pairs == 0:
        return Meetings(0)
    # Pigeonhole: sum over pairs of C(m, 2) >= the overlaps forced between any two rounds.
    forced = 0
    for i, j in combinations(range(len(shapes)), 2):
        both = (masks[i] & masks[j]).bit_count()
        first, second = shapes[i][1], shapes[j][1]
        forced += max(_overlap(both, first, second), _overlap(both, second, first))
    # Per player: the fewest meetings he makes (smallest table of each round he plays), over
    # the others he can meet.
    each = [0] * n
    for mask, (_present, sizes) in zip(masks, shapes, strict=True):
        for i in range(n):
            if mask >> i & 1:
                each[i] += min(sizes) - 1
    others = [max(1, m.bit_count()) for m in partners]
    most = max(1, -(-total // pairs), *(-(-e // o) for e, o in zip(each, others, strict=True)))
    while not _feasible(total, pairs, most, forced):
        most += 1
    counts: list[tuple[int, int]] = []
    left_total, left_pairs, left_forced = total, pairs, forced
    for level in range(most, 1, -1):
        x = 0
        if level == most:
            # A player with more meetings than (most - 1) x his others has that many partners
            # at ``most``; each such pair counted from both ends.
            over = sum(max(0, e - (most - 1) * o) for e, o in zip(each, others, strict=True))
            x = -(-over // 2)
        while not _feasible(
            left_total - x * level,
            left_pairs - x,
            level - 1,
            left_forced - x * level * (level - 1) // 2,
        ):
            x += 1
        if x:
            counts.append((level, x))
        left_total -= x * level
        left_pairs -= x
        left_forced -= x * level * (level - 1) // 2
    return Meetings(most, tuple(counts))


@dataclass(frozen=True, slots=True)
class Quality:
    """How fair the rounds played so far are, and the best any schedule of them could be."""

    meetings: Meetings
    floor: Meetings

    @property
    def best_possible(self) -> bool:
        """No schedule of these rounds does better: the floor is reached."""
        return self.meetings.key() <= self.floor.key()


def quality_of(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> Quality:
    """The meetings of ``rounds`` (each a list of tables of players) against their floor."""
    return Quality(meetings_of(rounds), played_floor(rounds))


def _feasible(total: int, pairs: int, level: int, forced: int) -> bool:
    """Can ``total`` meetings sit on at most ``pairs`` pairs, none above ``level``, with
    ``sum C(m, 2)`` reaching ``forced``? The most concentrated spread (pairs filled to
    ``level``) gives the largest ``sum C(m, 2)``."""
    if total < 0 or pairs < 0:
        return False
    if total > level * pairs:
        return False
    if level <= 0:
        return total == 0 and forced <= 0
    full, rest = divmod(total, level)
    return full * level * (level - 1) // 2 + rest * (rest - 1) // 2 >= forced


def water_floor(met: Sequence[Sequence[int]], made: Sequence[int], steps: Sequence[int]) -> int:
    """A lower bound on the meeting score the planned rounds add to ``met`` (the counts so
    far), when player ``p`` makes at least ``made[p]`` new meetings: the new meetings spread
    as evenly as possible, over all pairs and over each player's partners (the score is
    convex, so the even spread is the cheapest); the larger of the two."""
    n = len(met)
    top = len(steps) - 1

    def fill(counts: list[int], units: int) -> int:
        """The cheapest way to add ``units`` meetings to pairs at ``counts``."""
        if units <= 0 or not counts:
            return 0
        counts = sorted(counts)
        cost = 0
        level = counts[0]
        i = 0
        k = len(counts)
        while units > 0:
            while i < k and counts[i] <= level:
                i += 1
            # i pairs sit at ``level`` (those below were raised to it): raise them one step.
            if level + 1 > top:
                return cost  # beyond the steps known: a bound still
            take = min(units, i)
            cost += take * steps[level + 1]
            units -= take
            level += 1
        return cost

    overall = fill([met[a][b] for a in range(n) for b in range(a + 1, n)], sum(made) // 2)
    each = sum(fill([met[p][q] for q in range(n) if q != p], made[p]) for p in range(n))
    return max(overall, (each + 1) // 2)
