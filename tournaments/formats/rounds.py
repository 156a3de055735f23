"""Tournaments in rounds (a championship: a set number of rounds, cuts and byes) and knockouts
(stages until one table is left: a table's qualifiers play the next stage). Both seat with the
seating methods of ``tournaments.seating``."""

from __future__ import annotations

import logging

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores.games.models import Seat
from tournaments import seating
from tournaments.errors import Code, TournamentError
from tournaments.formats.base import SeatedTable, TablePlan
from tournaments.models import Round, Table, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.rounds.selectors import bracket
from tournaments.rules import players_for
from tournaments.standings.selectors import standings_for

# A round's seating search is budgeted in work (seating.rounds.WORK_MOVES: the same seed seats
# the same tables on any machine); this wall-clock cap is only a safety net, reported if hit.
SEATING_SECONDS = 20.0
logger = logging.getLogger(__name__)


def meetings_so_far(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables, players in seat order."""
    seats = (
        Seat.objects.filter(game__tournament_table__round__tournament=tournament)
        .values_list(
            "game__tournament_table__round__number", "game__tournament_table__number", "player_id"
        )
        .order_by(
            "game__tournament_table__round__number", "game__tournament_table__number", "position"
        )
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, player_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(player_id)
    return [list(tables.values()) for _n, tables in sorted(rounds.items())]


class RoundsFormat:
    """A championship in a set number of rounds."""

    has_bracket = False
    compares_boards = False
    has_cuts = True
    seats_byes = True
    asks_five_mode = True
    plans_all_rounds = True  # the seating methods may plan the whole session at once

    def players_for(self, tournament: Tournament, number: int) -> list[int]:
        return players_for(tournament, number)

    def seat(self, tournament: Tournament, number: int, players: list[int]) -> TablePlan:
        teams = dict(
            tournament.entries.filter(team__isnull=False).values_list("player_id", "team_id")
        )
        standings: dict[int, float] = {}
        if tournament.seating == Tournament.Seating.SWISS:
            standings = {
                row.player.pk: float(row.total) for row in standings_for(tournament=tournament)
            }
        result = seating.seat_round(
            players,
            round_number=number,
            method=tournament.seating,
            seed=tournament.seed,
            history=meetings_so_far(tournament),
            standings=standings,
            teams=teams or None,
            apart=people_selectors.apart_pairs(tournament),
            allow_threes=tournament.allow_threes,
            time_budget=SEATING_SECONDS,
            total_rounds=tournament.rounds if self.plans_all_rounds else None,
        )
        if result.timed_out:
            # Only the safety net depends on the machine: say that this draw may not replay.
            logger.warning(
                "Seating of round %s of tournament %s stopped by the %s s safety net: the same "
                "seed may seat other tables on another machine.",
                number,
                tournament.pk,
                SEATING_SECONDS,
            )
        return TablePlan(
            tables=tuple(
                SeatedTable(number, tuple(table))
                for number, table in enumerate(result.tables, start=1)
            ),
            repeats=result.repeats,
        )

    def over_refusal(self, tournament: Tournament, last: Round) -> TournamentError | None:
        if last.number < tournament.rounds:
            return None
        return TournamentError.whole(
            Code.ROUNDS_PLAYED,
            ngettext(
                "The %(n)s round has been played.",
                "All %(n)s rounds have been played.",
                tournament.rounds,
            )
            % {"n": tournament.rounds},
        )

    def table_boards(self, table: Table, tables: int) -> tuple[int, ...] | None:
        return None


class KnockoutFormat(RoundsFormat):
    """Stages: the first seats the players checked in, each next one the qualifiers of the
    last; it is over once a stage had one table (the final)."""

    has_bracket = True
    has_cuts = False
    seats_byes = False
    plans_all_rounds = False

    def players_for(self, tournament: Tournament, number: int) -> list[int]:
        if number == 1:
            return players_for(tournament, number)
        return bracket(tournament=tournament).stages[-1].qualified

    def over_refusal(self, tournament: Tournament, last: Round) -> TournamentError | None:
        if last.tables.count() != 1:
            return None
        return TournamentError.whole(Code.ROUNDS_PLAYED, _("The final table has been played."))
