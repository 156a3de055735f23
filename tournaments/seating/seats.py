"""Seat order within a table: nobody keeps seat 1, nobody always sits after the same player.

Seat numbers matter at a tarot table: the deal passes to the right and the player after the
dealer cuts and plays first. A table's order is chosen among all its orders (at most 5! = 120)
to lower how often each player already held that seat number, plus how often he already sat
right after the same neighbour (seat order is a circle: seat 1 comes after the last seat).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations

from .search import Tables


class SeatMemory:
    """What each player's past seats were: seat numbers held, and who sat just before him."""

    def __init__(self, players: int) -> None:
        self.seat_count = [[0] * 5 for _ in range(players)]
        self.after: dict[tuple[int, int], int] = {}

    def record(self, tables: Sequence[Sequence[int | None]]) -> None:
        """Adds a round's seat orders (``None``: a player who is no longer here)."""
        for table in tables:
            for i, p in enumerate(table):
                if p is None:
                    continue
                if i < len(self.seat_count[p]):
                    self.seat_count[p][i] += 1
                before = table[i - 1]
                if before is not None:
                    pair = (p, before)
                    self.after[pair] = self.after.get(pair, 0) + 1

    def cost(self, order: tuple[int, ...]) -> int:
        after = self.after
        total = 0
        for i, p in enumerate(order):
            total += self.seat_count[p][i] + after.get((p, order[i - 1]), 0)
        return total

    def order(self, tables: Tables, rng: random.Random) -> Tables:
        """Each table in its best seat order, ties broken by the seeded ``rng``."""
        ordered: Tables = []
        for table in tables:
            shuffled = table[:]
            rng.shuffle(shuffled)
            best = min(permutations(shuffled), key=self.cost)
            ordered.append(list(best))
        return ordered
