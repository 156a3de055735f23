"""The 78-card pack: which card points the attack can really hold.

Every card is worth an odd number of half points (bouts and kings 9, queens 7, knights 5,
jacks 3, the rest 1), so the parity of the attack's half points is the parity of the number of
cards in its pile. The pile is the tricks it won (each of ``n`` cards), plus the dog (or the
taker's discard) unless the contract is a garde contre. From that, and the bouts the attack
holds, follows the exact set of card points a deal can show. Pure and cached: computed once per
(player count, contract, bouts, slam, petit au bout) shape.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

# (half points, number of cards) for the 75 cards that are not bouts.
NON_BOUT_CARDS: tuple[tuple[int, int], ...] = ((9, 4), (7, 4), (5, 4), (3, 4), (1, 59))
# The taker may not discard kings or bouts: a discard comes from these.
DISCARD_CARDS: tuple[tuple[int, int], ...] = ((7, 4), (5, 4), (3, 4), (1, 59))
BOUT_HALF_POINTS = 9
PACK_SIZE = 78
BOUTS = 3
TRUMPS_AND_EXCUSE = 22
FACE_CARDS = 16
TOTAL_HALF_POINTS = 182

TRICKS: dict[int, int] = {3: 24, 4: 18, 5: 15}
DOG: dict[int, int] = {3: 6, 4: 6, 5: 3}


class SlamShape(StrEnum):
    """Who took every trick, as far as the pile is concerned."""

    NONE = "none"
    ATTACK = "attack"
    DEFENCE = "defence"


def _sums_by_count(cards: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """For each number of cards m, a bit set of the half-point totals m of these cards can make."""
    total = sum(count for _, count in cards)
    table = [0] * (total + 1)
    table[0] = 1
    for value, count in cards:
        new = [0] * (total + 1)
        for m, bits in enumerate(table):
            if not bits:
                continue
            for j in range(count + 1):
                if m + j > total:
                    break
                new[m + j] |= bits << (j * value)
        table = new
    return tuple(table)


_NON_BOUT_SUMS = _sums_by_count(NON_BOUT_CARDS)
_DISCARD_SUMS = _sums_by_count(DISCARD_CARDS)


def _pile(cards: int, bouts: int, *, discard_only: bool = False) -> int:
    """Bit set of the half points of a pile of ``cards`` cards holding exactly ``bouts`` bouts."""
    if bouts < 0 or bouts > BOUTS or cards < bouts or PACK_SIZE - cards < BOUTS - bouts:
        return 0
    if discard_only and bouts:
        return 0
    table = _DISCARD_SUMS if discard_only else _NON_BOUT_SUMS
    others = cards - bouts
    if others >= len(table):
        return 0
    return table[others] << (BOUT_HALF_POINTS * bouts)


@lru_cache(maxsize=4096)
def attack_half_points(
    players: int,
    dog_to_attack: bool,
    discard_visible: bool,
    bouts: int,
    slam: SlamShape,
    petit_attack: bool,
    petit_defence: bool,
) -> frozenset[int]:
    """Every half-point total the attack can end with.

    ``players`` counts the active players; ``dog_to_attack`` is false for a garde contre;
    ``discard_visible`` is true when the taker saw the dog and discarded (prise, garde), so that
    a pile made only of the discard holds no king and no bout.
    """
    tricks, dog = TRICKS[players], DOG[players]
    base = dog if dog_to_attack else 0
    bits = 0
    if slam is SlamShape.ATTACK:
        # Every trick; the defence keeps the dog in a garde contre, and keeps an Excuse it played
        # when it never had a card to give back for it.
        kept = 0 if dog_to_attack else dog
        bits |= _pile(PACK_SIZE - kept, bouts)
        if bouts < BOUTS:
            bits |= _pile(PACK_SIZE - kept - 1, bouts)
    elif slam is SlamShape.DEFENCE:
        if discard_visible:
            bits |= _pile(base, bouts, discard_only=True)
            # The taker kept an Excuse he played: nothing to give back for it.
            if bouts >= 1:
                bits |= _pile(base, bouts - 1, discard_only=True) << BOUT_HALF_POINTS
        else:
            bits |= _pile(base, bouts)
            if bouts >= 1:
                bits |= _pile(base, bouts - 1) << BOUT_HALF_POINTS
    else:
        for won in range(1, tricks):
            bits |= _pile(players * won + base, bouts)
    # The side that took the petit in the last trick holds it, and took a trick.
    if petit_attack and (bouts == 0 or slam is SlamShape.DEFENCE):
        bits = 0
    if petit_defence and (bouts == BOUTS or slam is SlamShape.ATTACK):
        bits = 0
    return frozenset(i for i in range(TOTAL_HALF_POINTS + 1) if bits >> i & 1)
