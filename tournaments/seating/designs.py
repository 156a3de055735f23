"""Schedules where nobody meets twice, built from resolvable designs for fields of tables of 4.

A schedule here is a list of rounds on player numbers ``0..n-1``, each round a partition into
tables of 4 in which no pair shares a table twice (the social golfer problem). The search finds
such schedules for small fields but stalls short of them for larger ones; these constructions
give them instantly.

- **Resolvable transversal designs** (``4q`` players, ``q`` rounds, ``q`` a prime power of 4 or
  more: 16, 20, 28, 32, 36, 44, 52, 64...). The players are four groups of ``q``, player
  ``x`` of group ``i`` standing for ``(i, x)`` with ``x`` in the field GF(q). Choose four
  distinct elements ``a_1..a_4`` of GF(q). Round ``y`` (one per element ``y``) seats, for each
  ``x``, the table ``{(i, x + a_i * y)}``: one player of each group. Two tables of one round are
  disjoint (``x -> x + a_i y`` is one-to-one); two tables of different rounds ``y != y'`` share
  group ``i``'s player only when ``x - x' = a_i (y' - y)``, which holds for one ``i`` at most
  since the ``a_i`` differ. Two tables share at most one player, so no pair meets twice, and
  members of one group never meet: this is the resolvable TD(4, q) that three mutually
  orthogonal Latin squares of order ``q`` give.
- **Then each group among itself**: when ``q`` is itself a multiple of 4, the four groups are
  seated side by side with a schedule for ``q`` players (the same construction again, or one
  round of ``q / 4`` tables). 16 players get 4 + 1 = 5 rounds (this is the affine plane
  AG(2, 4)), 32 get 8 + 1 = 9, 64 get 16 + 5 = 21 (every pair meets exactly once).
- **Not here: 32 players over 10 rounds** (8-4-10, first solved by Aguado in 2004). The
  construction above gives 9 rounds; a tenth needs another structure (a resolvable 4-GDD of
  type 2^16), which we have not built: the search adds the tenth round, with repeats.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from .search import Tables


def schedule_without_repeats(players: int) -> list[Tables]:
    """The longest schedule known here for ``players`` at tables of 4, nobody meeting twice;
    empty when ``players`` is not a multiple of 4 or no construction fits."""
    if players % 4 or players < 4:
        return []
    q = players // 4
    if q < 4 or _prime_power(q) is None:
        return [[list(range(t * 4, t * 4 + 4)) for t in range(q)]]  # one round: anything goes
    rounds = _transversal(q)
    inner = schedule_without_repeats(q)
    for within in inner:
        # Group i holds players i*q .. i*q + q - 1: each group seated by the inner schedule.
        rounds.append([[i * q + x for x in table] for i in range(4) for table in within])
    return rounds


def _transversal(q: int) -> list[Tables]:
    """The ``q`` rounds of the resolvable TD(4, q): player ``i * q + x`` is ``(i, x)``."""
    add, mul = _field(q)
    a = (0, 1, 2, 3)  # any four distinct elements
    return [[[i * q + add[x][mul[a[i]][y]] for i in range(4)] for x in range(q)] for y in range(q)]


def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q = p ** k`` and ``p`` prime, or ``None``."""
    for p in range(2, q + 1):
        if q % p == 0:
            k = 0
            while q % p == 0:
                q //= p
                k += 1
            return (p, k) if q == 1 else None
    return None


@cache
def _field(q: int) -> tuple[list[list[int]], list[list[int]]]:
    """Addition and multiplication tables of GF(q), elements ``0..q-1`` read as polynomials in
    base ``p`` (digit ``j`` is the coefficient of ``X**j``), modulo the first irreducible monic
    polynomial of degree ``k``; ``1`` is the unit and ``0`` the zero."""
    power = _prime_power(q)
    if power is None:
        raise ValueError(f"no field of order {q}")
    p, k = power

    def digits(a: int) -> list[int]:
        return [(a // p**j) % p for j in range(k)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p**j for j, c in enumerate(coefficients))

    add = [[number([(u + v) % p for u, v in zip(digits(a), digits(b), strict=True)]) for b in
            range(q)] for a in range(q)]  # fmt: skip
    for tail in product(range(p), repeat=k):  # X**k + tail: reduce X**k to -tail
        mul = [[0] * q for _ in range(q)]
        for a, b in product(range(q), repeat=2):
            prod = [0] * (2 * k)
            for i, u in enumerate(digits(a)):
                for j, v in enumerate(digits(b)):
                    prod[i + j] = (prod[i + j] + u * v) % p
            for d in range(2 * k - 1, k - 1, -1):
                c = prod[d]
                prod[d] = 0
                for j in range(k):
                    prod[d - k + j] = (prod[d - k + j] - c * tail[j]) % p
            mul[a][b] = number(prod[:k])
        if all(mul[a][b] for a in range(1, q) for b in range(1, q)):  # no zero divisor
            return add, mul
    raise AssertionError("an irreducible polynomial of every degree exists")  # pragma: no cover
