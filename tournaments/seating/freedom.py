"""The greedy start of Triska and Musliu ("An effective greedy heuristic for the Social Golfer
Problem", 2012): tables filled one player at a time by *freedom*.

The freedom of a set of players is how many players still unseated in the round have met none of
them (nor must be kept apart from one: a teammate, a pair the organiser keeps apart): a table that
keeps many of them open can still be completed without a repeat, and so can the tables after it.
Each table starts from the unseated player with the fewest such partners left (the hardest to
place), then takes, among those who have met nobody at the table yet, the one that leaves the table
the most freedom; when nobody fits, the one with the fewest players he is kept apart from, then
repeats, there. A greedy start can paint itself into a corner (the last table takes who is left):
the search mends that. Player sets are bit masks (Python integers), so a freedom is one ``&`` and a
bit count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .search import Tables, apart_from_teams


def freedom_rounds(
    players: int,
    sizes: Sequence[int],
    rounds: int,
    *,
    met: Sequence[Sequence[int]],
    rng: random.Random,
    team: Sequence[int] | None = None,
    apart: Sequence[Sequence[bool]] | None = None,
) -> list[Tables]:
    """``rounds`` rounds of ``players`` at tables of ``sizes``, each after the ones before it
    (and after ``met``, the meetings of the rounds already played). Who must not share a table:
    ``apart[a][b]``, or else players of one ``team`` (see ``search.Problem``)."""
    if apart is None:
        numbers = list(team) if team is not None else [-1 - a for a in range(players)]
        apart = apart_from_teams(numbers)
    everyone = (1 << players) - 1
    fresh = [everyone & ~(1 << a) for a in range(players)]
    for a in range(players):
        for b in range(players):
            if b != a and (met[a][b] or apart[a][b]):
                fresh[a] &= ~(1 << b)
    mates = [sum(1 << b for b in range(players) if apart[a][b]) for a in range(players)]
    planned: list[Tables] = []
    for _ in range(rounds):
        tables = _round(players, sizes, fresh, mates, rng)
        planned.append(tables)
        for table in tables:
            for a in table:
                for b in table:
                    if b != a:
                        fresh[a] &= ~(1 << b)
    return planned


def _round(
    players: int, sizes: Sequence[int], fresh: list[int], mates: list[int], rng: random.Random
) -> Tables:
    open_ = (1 << players) - 1
    order = list(range(players))
    rng.shuffle(order)  # ties are drawn
    tables: Tables = []
    for size in sizes:
        first = min(
            (a for a in order if open_ >> a & 1), key=lambda a: (fresh[a] & open_).bit_count()
        )
        table = [first]
        open_ &= ~(1 << first)
        common = fresh[first] & open_
        while len(table) < size:
            best = -1
            best_key = (0, 0, 0)
            for c in order:
                if not open_ >> c & 1:
                    continue
                clashes = sum(mates[c] >> x & 1 for x in table)
                repeats = sum(not fresh[c] >> x & 1 for x in table)
                key = (clashes, repeats, -(common & fresh[c]).bit_count())
                if best < 0 or key < best_key:
                    best, best_key = c, key
            table.append(best)
            open_ &= ~(1 << best)
            common &= fresh[best] & open_
        tables.append(table)
    return tables
