"""Pure ranking: the standings row, a round's cell, the ranking key and the ranked groups a
cut makes. No query: the selectors hand it rows they read."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarot_scores.clubs.models import Player


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    total: int  # of the rounds counted (all of them, unless a cut restarted the scores)
    rounds: list[int | None]  # per round, None where the player did not sit; penalties off
    team: str = ""
    penalties: int = 0  # the points the live penalties took off (already out of the rounds)
    # A championship's cuts: the round after which the player was cut (None: still in), and
    # the first round his total counts (after a cut that did not carry the scores over).
    eliminated_after: int | None = None
    counted_from: int = 1

    byes: tuple[int, ...] = ()  # the places in ``rounds`` that are a bye (its points)

    @property
    def cells(self) -> list[tuple[int | None, bool]]:
        """Each round's points and whether they are a bye's."""
        return [(points, i in self.byes) for i, points in enumerate(self.rounds)]


@dataclass(frozen=True)
class CutLine:
    """A confirmed cut as the standings read it (``models.Cut``, ``tournaments.standings.cuts``)."""

    after_round: int
    keep: int
    carry: bool


def counted_from(cuts: Collection[CutLine], eliminated_after: int | None) -> int:
    """The first round a player's total counts: the round after the last cut that did not carry
    the scores over, among the cuts he went through (all of them while he is still in, those
    before his own cut otherwise)."""
    restarts = [
        c.after_round
        for c in cuts
        if not c.carry and (eliminated_after is None or c.after_round < eliminated_after)
    ]
    return max(restarts, default=0) + 1


def _stage_cells(per_round: dict[str, int], numbers: list[int], first: int) -> tuple[int, int, int]:
    """The total, best and last round of the cells counted from round ``first``."""
    played = [per_round[str(n)] for n in numbers if n >= first and str(n) in per_round]
    return sum(played), max(played, default=0), played[-1] if played else 0


def tie_break_key(total: int, rounds: list[int | None], name: str) -> tuple[object, ...]:
    """Documented tie-breaks (docs/tournaments.md): the higher total; then the better best
    round; then the better last round played; then the name."""
    played = [r for r in rounds if r is not None]
    best = max(played, default=0)
    last = played[-1] if played else 0
    return (-total, -best, -last, name.casefold())


# The group of the players still in: before every group of players cut.
_STILL_IN = -(2**31)


def _group(eliminated_after: int | None) -> int:
    """Players still in first; then those cut after the latest round, and so on back."""
    return _STILL_IN if eliminated_after is None else -eliminated_after


def _ranked(rows: list[tuple[tuple[object, ...], StandingRow]]) -> list[StandingRow]:
    """Sorted by their keys (the cut group, then the tie-breaks); equal on the group, the total
    and both tie-break rounds: the same rank. A cut group's ranks follow the group above it.
    Two players with the same name and keys come in the order they were registered as players
    (the player id), not in whatever order the database returned them."""
    rows.sort(key=lambda kr: (kr[0], kr[1].player.pk))
    ranked: list[StandingRow] = []
    previous: tuple[object, ...] | None = None
    for i, (key, row) in enumerate(rows):
        rank = ranked[-1].rank if previous is not None and key[:4] == previous[:4] else i + 1
        ranked.append(dataclasses.replace(row, rank=rank))
        previous = key
    return ranked
