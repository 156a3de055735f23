"""Pairs of players that a seating can keep apart, drawn for the seating's tests and its
benchmark (bench/seating.py): pairs seated at different tables by one seating of the plan."""

import random
from itertools import combinations

from tournaments.seating import plan_tables


def pairs_kept_apart(players: int, count: int, rng: random.Random) -> list[tuple[int, int]]:
    """``count`` pairs (fewer if the field has fewer) that one seating of the plan keeps apart:
    the players shuffled by ``rng`` and seated in that order, then pairs of players at two
    different tables drawn by ``rng``."""
    order = list(range(players))
    rng.shuffle(order)
    table_of: dict[int, int] = {}
    at = 0
    for t, size in enumerate(plan_tables(players).sizes):
        for p in order[at : at + size]:
            table_of[p] = t
        at += size
    apart = [(a, b) for a, b in combinations(range(players), 2) if table_of[a] != table_of[b]]
    return rng.sample(apart, min(count, len(apart)))
