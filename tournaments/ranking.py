"""Pure ranking: the standings row, a round's cell, the ranking key and the ranked groups a
cut makes. No query: the selectors hand it rows they read.

Each rule has its one home here, and every reader uses it: the stored standings
(``standings.store``: ``cell`` and ``tie_breaks`` fill a row), the standings read from the
stored rows and recomputed from the score lines (``standings.selectors``: ``ranking_key``,
``ranked``) and the database's ordering of a page (``RANKING_COLUMNS``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

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


def cell(points: int, bye: int, penalties: int) -> int:
    """A round's cell of a player seated in it (a replaced player and a bye count as seated):
    his counted points at his table, plus a bye's points, minus the round's live penalties."""
    return points + bye - penalties


def tie_breaks(cells: Iterable[int | None]) -> tuple[int, int, int]:
    """The total, the best round and the last round played of these cells, in round order
    (None: not seated)."""
    played = [c for c in cells if c is not None]
    return sum(played), max(played, default=0), played[-1] if played else 0


def stage_cells(per_round: dict[str, int], numbers: list[int], first: int) -> tuple[int, int, int]:
    """``tie_breaks`` of the stored cells counted from round ``first`` (after a cut that did
    not carry the scores over)."""
    return tie_breaks(per_round[str(n)] for n in numbers if n >= first and str(n) in per_round)


# The ranking's numeric keys, best first (docs/tournaments.md): the stored columns the
# database orders a page on; the name breaks what they leave equal.
RANKING_COLUMNS = ("total", "best_round", "last_round")

# The group of the players still in: before every group of players cut.
_STILL_IN = -(2**31)


class RankingKey(NamedTuple):
    """What ranks a player, smallest first: his cut group (the players still in first; then
    those cut after the latest round, and so on back), the higher total, the better best round,
    the better last round played, then the name (docs/tournaments.md)."""

    group: int
    total: int  # negated, as best and last: the higher first
    best: int
    last: int
    name: str

    def ties(self, other: RankingKey) -> bool:
        """The same rank: equal on everything but the name."""
        return self[:4] == other[:4]


def ranking_key(
    total: int, best: int, last: int, name: str, eliminated_after: int | None = None
) -> RankingKey:
    group = _STILL_IN if eliminated_after is None else -eliminated_after
    return RankingKey(group, -total, -best, -last, name.casefold())


def tie_break_key(total: int, rounds: list[int | None], name: str) -> RankingKey:
    """The ranking key of a player still in with these cells (``total``: those counted)."""
    _sum, best, last = tie_breaks(rounds)
    return ranking_key(total, best, last, name)


def ranked(rows: list[tuple[RankingKey, StandingRow]]) -> list[StandingRow]:
    """Sorted by their keys; players whose keys tie share a rank, and a cut group's ranks
    follow the group above it. Two players with the same name and keys come in the order they
    were registered as players (the player id), not in whatever order the database returned
    them."""
    rows.sort(key=lambda kr: (kr[0], kr[1].player.pk))
    out: list[StandingRow] = []
    previous: RankingKey | None = None
    for i, (key, row) in enumerate(rows):
        rank = out[-1].rank if previous is not None and key.ties(previous) else i + 1
        out.append(dataclasses.replace(row, rank=rank))
        previous = key
    return out
