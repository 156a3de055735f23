"""Byes: who sits a round out when the head count cannot be seated.

The fewest players sit out (``plan.fewest_byes``); who they are follows one rule, documented in
docs/tournaments.md ("Byes"): those who have had the fewest byes so far, then the lowest in the
standings (the smallest total), then a seeded draw. A bye never falls twice on one player while
another has had none, and the leaders are the last to lose a round's play.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def who_sits_out(
    players: Sequence[P],
    count: int,
    *,
    byes_so_far: Mapping[P, int],
    totals: Mapping[P, float],
    seed: int,
    round_number: int,
) -> list[P]:
    """The ``count`` players of ``players`` who sit round ``round_number`` out, in the order
    the rule picks them: fewest byes so far, then lowest total (a missing player counts 0
    of each), then the draw (seeded by the tournament's seed and the round)."""
    order = list(players)
    random.Random(f"byes/{seed}/{round_number}").shuffle(order)
    order.sort(key=lambda p: (byes_so_far.get(p, 0), totals.get(p, 0.0)))
    return order[:count]
