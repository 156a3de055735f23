"""The draw of a duplicate session: which player gets which number of the movement.

The movement (``tournaments.duplicate.movement``) seats numbers 1 to 4T for the whole session;
the draw gives each player present a number, at random from the tournament's seed. Some pairs
of players must never share a table (team-mates, or players an organiser keeps apart): the
draw is made again, with the same seed's next numbers, until no such pair shares a table in
any round of the movement, at most ``tries`` times. When no draw avoids it, the one with the
fewest clashes is kept and its clashes are reported, round by round.

Pure, typed Python: players are any hashable ids (the site's player ids).
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from tournaments.duplicate import Movement

P = TypeVar("P", bound=Hashable)

DRAW_TRIES = 200


@dataclass(frozen=True, slots=True)
class ApartClash(Generic[P]):
    """Two players who must not share a table, seated together at ``table`` in ``round``."""

    round: int
    table: int
    players: tuple[P, P]


@dataclass(frozen=True, slots=True)
class DuplicateDraw(Generic[P]):
    numbers: dict[P, int]  # player -> his number in the movement (1 to 4T)
    clashes: tuple[ApartClash[P], ...]  # empty when every pair kept apart is
    tries: int  # draws made (1 when the first one kept everyone apart)


def _tables_of(plan: Movement) -> list[dict[int, int]]:
    """For each round, movement number -> table."""
    out: list[dict[int, int]] = [{} for _ in range(plan.rounds)]
    for station in plan.stations:
        for number in station.players:
            out[station.round - 1][number] = station.table
    return out


def draw_clashes(
    numbers: dict[P, int], plan: Movement, apart: Collection[frozenset[P]]
) -> tuple[ApartClash[P], ...]:
    """Every round in which a pair kept apart (both drawn) shares a table, round by round."""
    tables = _tables_of(plan)
    clashes: list[ApartClash[P]] = []
    for pair in apart:
        if len(pair) != 2 or not all(p in numbers for p in pair):
            continue
        a, b = sorted(pair, key=numbers.__getitem__)
        for round_index, table_of in enumerate(tables):
            if table_of[numbers[a]] == table_of[numbers[b]]:
                clashes.append(ApartClash(round_index + 1, table_of[numbers[a]], (a, b)))
    return tuple(sorted(clashes, key=lambda c: (c.round, c.table, numbers[c.players[0]])))


def _order(player: Hashable) -> tuple[int, int, str]:
    """Players in a fixed order: ids by value, anything else by its text."""
    if isinstance(player, int):
        return (0, player, "")
    return (1, 0, repr(player))


def draw_movement_numbers(
    players: Sequence[P],
    plan: Movement,
    *,
    seed: int,
    apart: Collection[frozenset[P]] = (),
    tries: int = DRAW_TRIES,
) -> DuplicateDraw[P]:
    """Give each of ``players`` (exactly ``4 x plan.tables`` of them) a movement number, so
    that no pair of ``apart`` shares a table in any round of ``plan`` if a draw within
    ``tries`` does it. The same players, plan, seed and pairs give the same draw."""
    if len(players) != plan.players or len(set(players)) != len(players):
        raise ValueError(f"{plan.players} different players needed, {len(players)} given.")
    known = set(players)
    pairs = [pair for pair in apart if len(pair) == 2 and pair <= known]
    # Sorted first: the draw depends on who plays, not on the order they were read in.
    ordered = sorted(players, key=_order)
    rng = random.Random(f"duplicate-draw:{seed}")
    best: DuplicateDraw[P] | None = None
    for attempt in range(1, max(1, tries) + 1):
        shuffled = list(ordered)
        rng.shuffle(shuffled)
        numbers = {player: i for i, player in enumerate(shuffled, start=1)}
        clashes = draw_clashes(numbers, plan, pairs)
        if best is None or len(clashes) < len(best.clashes):
            best = DuplicateDraw(numbers, clashes, attempt)
        if not clashes:
            break
    assert best is not None
    return DuplicateDraw(best.numbers, best.clashes, attempt)
