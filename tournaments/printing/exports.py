"""CSV export of a tournament's standings, for spreadsheets and federation returns.

Built on the club's ``CsvExport`` base: a header line, then one line per player in rank order
with the per-round scores (empty where the player was not seated, "bye" for a bye; penalties
taken off), the points the penalties took off (a column only when someone has one), the
total and, after a championship's cuts, the round after which each player cut was
eliminated; then the substitutes, ranked apart, under a line "Substitutes". A duplicate
tournament's ranking has its own columns (``DuplicateStandingsCsv``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.text import slugify
from django.utils.translation import gettext as _

from tarot_scores.core.exports import CsvExport, RowWriter
from tournaments.models import Tournament
from tournaments.ranking import StandingRow
from tournaments.standings.duplicate import DuplicateRow, duplicate_columns
from tournaments.standings.selectors import TeamRow


class StandingsCsv(CsvExport):
    def __init__(
        self,
        tournament: Tournament,
        rows: Sequence[StandingRow],
        round_names: Sequence[str],
        teams: Sequence[TeamRow] = (),
        series: str = "",
        substitutes: Sequence[StandingRow] = (),
    ) -> None:
        self.tournament = tournament
        self.rows = rows
        self.substitutes = substitutes
        self.round_names = list(round_names)
        self.has_teams = bool(teams)
        self.has_penalties = any(r.penalties for r in rows)
        # A championship's cuts: a column saying after which round each player was cut.
        self.has_cuts = any(r.eliminated_after is not None for r in rows)
        slug = slugify(tournament.name) or "tournament"
        suffix = f"-{series}" if series else ""
        self.filename = f"{slug}-{tournament.date.isoformat()}-standings{suffix}.csv"

    def header(self) -> list[str]:
        team = [_("Team")] if self.has_teams else []
        penalties = [_("Penalties")] if self.has_penalties else []
        cut = [_("Eliminated after round")] if self.has_cuts else []
        return [_("Rank"), _("Player"), *team, *self.round_names, *penalties, _("Total"), *cut]

    def write_rows(self, writer: RowWriter) -> None:
        for row in self.rows:
            team = [row.team] if self.has_teams else []
            rounds = [bye_cell(points, bye) for points, bye in row.cells]
            penalties = [-row.penalties if row.penalties else ""] if self.has_penalties else []
            cut = [row.eliminated_after or ""] if self.has_cuts else []
            writer.writerow(
                [row.rank, row.player.label, *team, *rounds, *penalties, row.total, *cut]
            )
        if self.substitutes:
            # Ranked apart: a line of their own, then the substitutes as the players above.
            writer.writerow([])
            writer.writerow([_("Substitutes")])
            for row in self.substitutes:
                team = [""] if self.has_teams else []
                rounds = ["" if r is None else r for r in row.rounds]
                penalties = [-row.penalties if row.penalties else ""] if self.has_penalties else []
                cut = [""] if self.has_cuts else []
                writer.writerow(
                    [row.rank, row.player.label, *team, *rounds, *penalties, row.total, *cut]
                )


class DuplicateStandingsCsv(CsvExport):
    """A duplicate tournament's ranking: rank, player, boards, then matchpoints, maximum,
    percentage and tops (or the total difference from the boards' averages and tops), and the
    penalties when someone has one (``duplicate_columns``)."""

    def __init__(
        self, tournament: Tournament, rows: Sequence[DuplicateRow], series: str = ""
    ) -> None:
        self.rows = rows
        average = tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE
        self.head, self.cells = duplicate_columns(
            average=average, penalties=any(r.penalties for r in rows)
        )
        slug = slugify(tournament.name) or "tournament"
        suffix = f"-{series}" if series else ""
        self.filename = f"{slug}-{tournament.date.isoformat()}-standings{suffix}.csv"

    def header(self) -> list[str]:
        return self.head

    def write_rows(self, writer: RowWriter) -> None:
        for row in self.rows:
            writer.writerow([row.rank, row.player.label, *self.cells(row)])


def bye_cell(points: int | None, bye: bool) -> str | int:
    """A round's cell: empty where the player was not seated, "bye" (with its points when not
    0) for a bye, else the points."""
    if points is None:
        return ""
    if bye:
        return _("bye") if points == 0 else f"{_('bye')} ({points})"
    return points
