"""The Format protocol: what differs between a tournament in rounds, a knockout and a duplicate
session, asked through one object (``format_for(tournament)``) instead of the format tested
wherever it matters.

Four questions: who plays round N (``players_for``), how they sit (``seat``: the tables in seat
order, not stored: ``rounds.services.round_seat_next`` creates them, the same way for every
format), is it over (``over_refusal``), and what a table plays (``table_boards``: a duplicate
table's boards, None where a table plays its deals one after the other). The flags say which
pages and rules a format has (a bracket, boards compared, cuts, byes, tables of five).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tournaments.errors import TournamentError
from tournaments.models import Round, Table, Tournament


@dataclass(frozen=True)
class SeatedTable:
    number: int  # the table's number in its round
    players: tuple[int, ...]  # in seat order (a duplicate table: North, East, South, West)


@dataclass(frozen=True)
class TablePlan:
    """How a round sits: its tables, and the meetings it repeats from earlier rounds."""

    tables: tuple[SeatedTable, ...]
    repeats: int

    @property
    def players(self) -> list[int]:
        return [p for table in self.tables for p in table.players]


class Format(Protocol):
    """What a tournament's format decides."""

    has_bracket: bool  # knockout stages, shown as a bracket (no standings page of its own)
    compares_boards: bool  # duplicate: boards played at every table and compared
    has_cuts: bool  # a championship's cuts between rounds
    seats_byes: bool  # a count that cannot make tables may seat with players sitting out
    asks_five_mode: bool  # tables of five can arise: how they play is asked

    def players_for(self, tournament: Tournament, number: int) -> list[int]:
        """The players round ``number`` seats, by id."""
        ...

    def seat(self, tournament: Tournament, number: int, players: list[int]) -> TablePlan:
        """The tables of round ``number`` (the caller holds the tournament's lock). Raises
        ``seating.SeatingError`` (the caller words it) or a ``TournamentError``."""
        ...

    def over_refusal(self, tournament: Tournament, last: Round) -> TournamentError | None:
        """Is the tournament over once ``last`` is played: why no round follows it, or None."""
        ...

    def table_boards(self, table: Table, tables: int) -> tuple[int, ...] | None:
        """What a table of a round of ``tables`` tables plays: its boards, or None (its deals,
        one after the other)."""
        ...
