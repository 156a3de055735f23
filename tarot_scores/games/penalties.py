"""Penalties (pénalités) as a score sheet shows them: points a referee took off a player at this
table, on one of its deals or on the whole sitting, with the reason.

The games give no penalty: another app does (a tournament's referees, ``tournaments.penalties``)
and registers at start-up, from its AppConfig's ``ready``, a source that reads them for the
games it runs, so that the games never import it. A club's own game has no source: its sheet
reads nothing more. A removed penalty is kept (the deal's history shows it) and counts no more:
the sheet marks and takes off only the live ones.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from tarot_scores.clubs.models import Player
from tarot_scores.core.hooks import Hook
from tarot_scores.games.models import Game
from tarot_scores.games.selectors import GameSheet, Ranked, rank_players


@dataclass(frozen=True)
class PenaltyMark:
    """One penalty of a player at this table, as the sheet and the deal's history show it."""

    key: int  # the penalty's id: the sheet's footnote links to it
    player_id: int
    points: int  # taken off (positive)
    reason: str
    deal_id: int | None  # the deal it is about; None: the sitting's (the round's)
    deal_number: int | None
    given_by: str
    given_at: datetime
    removed_by: str = ""
    removed_at: datetime | None = None
    removal_reason: str = ""

    @property
    def live(self) -> bool:
        return self.removed_at is None


class PenaltySource(Protocol):
    """The penalties of ``game``'s players there (of one deal if ``deal_id``), removed ones
    included, in the order given; None for a game this source does not run (no query)."""

    def __call__(self, *, game: Game, deal_id: int | None = None) -> list[PenaltyMark] | None: ...


penalty_sources: Hook[PenaltySource] = Hook("games.penalties.penalty_sources")
# Have a source asked for the penalties of every game's sheet and deal history.
on_penalties = penalty_sources.register


def penalties_of(*, game: Game, deal_id: int | None = None) -> list[PenaltyMark]:
    """The first source's penalties for this game (or one of its deals); none for a game no
    source runs."""
    found = penalty_sources.first(lambda source: source(game=game, deal_id=deal_id))
    return found if found is not None else []


@dataclass(frozen=True)
class SheetPenalties:
    """A sheet's live penalties: marked on their deal's cell, listed below the sheet, and the
    totals before and after them, per seat."""

    marks: list[PenaltyMark] = field(default_factory=list)  # live ones, in the order given
    listed: list[tuple[str, PenaltyMark]] = field(default_factory=list)  # (player's label, mark)
    by_cell: dict[tuple[int, int], list[PenaltyMark]] = field(default_factory=dict)
    taken: list[int] = field(default_factory=list)  # per seat: the points taken off
    after: list[int] = field(default_factory=list)  # per seat: the total after penalties
    ranking: list[Ranked] = field(default_factory=list)  # by the totals after penalties

    def __bool__(self) -> bool:
        return bool(self.marks)

    def on(self, deal_id: int, player_id: int) -> list[PenaltyMark]:
        """The live penalties marked on this player's cell of this deal."""
        return self.by_cell.get((deal_id, player_id), [])


def sheet_penalties(sheet: GameSheet) -> SheetPenalties:
    """The live penalties of the sheet's players (one query for a table some source runs, none
    for a club's own game), with each seat's total before and after them."""
    given = [m for m in penalties_of(game=sheet.game) if m.live]
    if not given:
        return SheetPenalties()
    position = {p.pk: i for i, p in enumerate(sheet.players)}
    marks = [m for m in given if m.player_id in position]
    by_cell: dict[tuple[int, int], list[PenaltyMark]] = defaultdict(list)
    taken = [0] * len(sheet.players)
    for mark in marks:
        taken[position[mark.player_id]] += mark.points
        if mark.deal_id is not None:
            by_cell[(mark.deal_id, mark.player_id)].append(mark)
    after = [total - off for total, off in zip(sheet.totals, taken, strict=True)]
    players: list[Player] = sheet.players
    return SheetPenalties(
        marks=marks,
        listed=[(sheet.table.labels[m.player_id], m) for m in marks],
        by_cell=dict(by_cell),
        taken=taken,
        after=after,
        ranking=rank_players(list(zip(players, after, strict=True))),
    )
