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
- **1-rotational resolvable designs** (28, 40, 52 and 88 players, every pair meeting exactly
  once in ``(n - 1) / 3`` rounds: 9, 13, 17 and 29). Resolvable 2-(v, 4, 1) designs exist for every
  ``v`` that is 4 more than a multiple of 12 (H. Hanani, D. K. Ray-Chaudhuri and R. M. Wilson,
  "On resolvable designs", Discrete Math. 3, 1972); the ones here are 1-rotational, in the
  manner of M. Buratti and F. Zuanni ("G-invariantly resolvable Steiner 2-designs which are
  1-rotational over G", Bull. Belg. Math. Soc. 5, 1998). The points are a group G of order
  ``v - 1`` (Z_39, Z_51, or Z_3^3 for 28) and a point ``infinity``; H is a subgroup of order
  3. The base blocks (``_ROTATIONAL``, found once by a backtracking search and kept as data)
  are 4-sets of G whose differences ``x - y`` cover G outside H exactly once, each meeting
  four cosets of H, together every coset but H itself. One round is ``{infinity} + H`` and
  each base block translated by the three elements of H: a partition of the points (every
  coset of a base block is covered once). The other rounds are that round translated by one
  element of each coset of H. Every block of the developed design (the short orbit of
  ``{infinity} + H`` and the full orbits of the base blocks) falls in exactly one round, and
  the design meets every pair once: ``infinity`` with each point and the pairs whose
  difference is in H in the short orbit, the others by their unique difference. For 88 players
  (G = Z_3 x Z_29, H = Z_3) the seven base blocks are one block ``{(0, 1), (0, 2), (1, 10),
  (1, 22)}`` multiplied, in its Z_29 part, by the powers of 7 (of order 7 mod 29): its four
  residues lie in the four cosets of the powers of 7, and its differences of each lift in
  the four cosets too, so the seven blocks' differences cover G outside H once. For 76 and
  100 players no base blocks were found within a minute: not done here. 40 players
  are also the points of PG(3, 3), whose lines fall into 13 spreads; this design does the same
  work.
- **A published schedule: 32 players over 10 rounds** (the social golfer problem 8-4-10, first
  solved by A. Aguado in 2004; CSPLib problem 10). The construction above gives only 9 rounds
  and a tenth needs another structure, so the schedule is kept as data (``_EIGHT_FOUR_TEN``):
  the solution shown in Wolfram's *Social Golfer Problem* demonstration, its players renamed
  (``p -> 5p + 3 mod 32``) and its rounds and tables sorted, which changes nothing of its
  meetings. A test checks that it is a schedule and that nobody meets twice.
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
    if players == 32:
        return [[list(table) for table in round_] for round_ in _EIGHT_FOUR_TEN]
    found = construction(players)
    if players in _ROTATIONAL and len(found) < (players - 1) // 3:
        return rotational(players)
    return found


def rotational(players: int) -> list[Tables]:
    """The 1-rotational resolvable 2-(``players``, 4, 1) design of ``_ROTATIONAL`` (see the
    module's docstring): every pair meets exactly once in ``(players - 1) / 3`` rounds."""
    mods, h, base = _ROTATIONAL[players]
    elements = list(product(*(range(k) for k in mods)))
    number = {e: i for i, e in enumerate(elements)}
    infinity = len(elements)

    def add(x: tuple[int, ...], y: tuple[int, ...]) -> tuple[int, ...]:
        return tuple((u + v) % k for u, v, k in zip(x, y, mods, strict=True))

    zero = tuple(0 for _ in mods)
    subgroup = [zero, h, add(h, h)]
    # One parallel class: {infinity} and H, then each base block translated by all of H.
    first: list[list[tuple[int, ...] | None]] = [[None, *subgroup]]
    for block in base:
        for shift in subgroup:
            first.append([add(x, shift) for x in block])
    # Its translates by one element of each coset of H are the rounds.
    seen: set[tuple[int, ...]] = set()
    transversal = []
    for e in elements:
        if e not in seen:
            transversal.append(e)
            seen.update(add(e, x) for x in subgroup)
    return [
        [[infinity if x is None else number[add(x, t)] for x in table] for table in first]
        for t in transversal
    ]


def construction(players: int) -> list[Tables]:
    """The transversal design and its groups (below), for a multiple of 4 players."""
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


# 8-4-10: 32 players, 10 rounds of 8 tables of 4, no pair twice (see the module's docstring).
_EIGHT_FOUR_TEN: tuple[tuple[tuple[int, int, int, int], ...], ...] = (
    (
        (0, 1, 3, 31),
        (2, 6, 10, 30),
        (4, 5, 13, 28),
        (7, 8, 9, 11),
        (12, 20, 21, 29),
        (14, 18, 22, 26),
        (15, 16, 17, 19),
        (23, 24, 25, 27),
    ),
    (
        (0, 2, 8, 21),
        (1, 9, 12, 30),
        (3, 26, 27, 29),
        (4, 6, 7, 15),
        (5, 16, 18, 24),
        (10, 11, 13, 19),
        (14, 17, 25, 28),
        (20, 22, 23, 31),
    ),
    (
        (0, 4, 25, 26),
        (1, 13, 22, 24),
        (2, 5, 12, 14),
        (3, 11, 15, 23),
        (6, 8, 17, 29),
        (7, 19, 27, 31),
        (9, 10, 16, 20),
        (18, 21, 28, 30),
    ),
    (
        (0, 5, 10, 27),
        (1, 6, 23, 28),
        (2, 19, 24, 29),
        (3, 8, 13, 18),
        (4, 9, 14, 31),
        (7, 12, 17, 22),
        (11, 16, 21, 26),
        (15, 20, 25, 30),
    ),
    (
        (0, 6, 14, 19),
        (1, 7, 10, 21),
        (2, 13, 25, 31),
        (3, 16, 22, 30),
        (4, 11, 12, 24),
        (5, 17, 23, 26),
        (8, 20, 27, 28),
        (9, 15, 18, 29),
    ),
    (
        (0, 7, 18, 20),
        (1, 11, 14, 29),
        (2, 4, 16, 23),
        (3, 5, 6, 9),
        (8, 12, 26, 31),
        (10, 15, 24, 28),
        (13, 17, 27, 30),
        (19, 21, 22, 25),
    ),
    (
        (0, 9, 17, 24),
        (1, 8, 16, 25),
        (2, 3, 7, 28),
        (4, 10, 22, 29),
        (5, 11, 30, 31),
        (6, 13, 20, 26),
        (12, 18, 19, 23),
        (14, 15, 21, 27),
    ),
    (
        (0, 11, 22, 28),
        (1, 2, 15, 26),
        (3, 14, 20, 24),
        (4, 8, 19, 30),
        (5, 7, 25, 29),
        (6, 12, 16, 27),
        (9, 13, 21, 23),
        (10, 17, 18, 31),
    ),
    (
        (0, 12, 13, 15),
        (1, 5, 19, 20),
        (2, 9, 22, 27),
        (3, 4, 17, 21),
        (6, 11, 18, 25),
        (7, 24, 26, 30),
        (8, 10, 14, 23),
        (16, 28, 29, 31),
    ),
    (
        (0, 23, 29, 30),
        (1, 4, 18, 27),
        (2, 11, 17, 20),
        (3, 10, 12, 25),
        (5, 8, 15, 22),
        (6, 21, 24, 31),
        (7, 13, 14, 16),
        (9, 19, 26, 28),
    ),
)


# 1-rotational resolvable designs (see the module's docstring): for each field, the group as
# cyclic factors, the generator ``h`` of its subgroup H of order 3, and the base blocks, found
# by a backtracking search over the conditions written there and checked by the tests.
_ROTATIONAL: dict[
    int, tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[tuple[int, ...], ...], ...]]
] = {
    28: (
        (3, 3, 3),
        (1, 0, 0),
        (
            ((0, 0, 1), (2, 0, 2), (2, 1, 2), (2, 2, 1)),
            ((0, 1, 0), (0, 1, 1), (2, 2, 0), (1, 2, 2)),
        ),
    ),
    40: (
        (39,),
        (13,),
        (((1,), (18,), (21,), (25,)), ((2,), (3,), (36,), (11,)), ((4,), (32,), (20,), (22,))),
    ),
    52: (
        (51,),
        (17,),
        (
            ((1,), (36,), (42,), (33,)),
            ((3,), (26,), (30,), (15,)),
            ((4,), (22,), (24,), (29,)),
            ((6,), (27,), (28,), (14,)),
        ),
    ),
    88: (
        (3, 29),
        (1, 0),
        (
            ((0, 1), (0, 2), (1, 10), (1, 22)),
            ((0, 7), (0, 14), (1, 12), (1, 9)),
            ((0, 20), (0, 11), (1, 26), (1, 5)),
            ((0, 24), (0, 19), (1, 8), (1, 6)),
            ((0, 23), (0, 17), (1, 27), (1, 13)),
            ((0, 16), (0, 3), (1, 15), (1, 4)),
            ((0, 25), (0, 21), (1, 18), (1, 28)),
        ),
    ),
}
