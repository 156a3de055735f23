"""App config for tournaments: formats, seating, rounds, tables, standings, brackets."""

from django.apps import AppConfig
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tarot_scores.core.errors import on_codes
        from tarot_scores.core.prepared import on_prepared_pdf
        from tarot_scores.core.sections import on_club_page, on_home_page
        from tarot_scores.games.guards import on_game_access, on_reason_needed
        from tarot_scores.games.penalties import on_penalties
        from tarot_scores.games.seats import on_deal_seats
        from tarot_scores.games.selectors import on_grouped_elsewhere
        from tarot_scores.games.services import on_deal_boards, on_deal_change
        from tarot_scores.webhooks.events import on_deal_audience
        from tournaments.errors import Code
        from tournaments.formats.duplicate import deal_boards
        from tournaments.people.selectors import seats_when_played
        from tournaments.play.deal import table_deal_changed
        from tournaments.play.penalties import table_penalties
        from tournaments.play.permissions import table_access, table_needs_reason
        from tournaments.printing.jobs import (
            PLAYER_CARDS,
            STANDINGS_PDF,
            TABLE_SHEETS,
            describe_player_cards,
            describe_standings_pdf,
            describe_table_sheets,
            draw_player_cards,
            draw_standings_pdf,
            draw_table_sheets,
        )
        from tournaments.views.sections import club_tournaments, home_tournaments_today
        from tournaments.webhooks import deal_audience

        # Every way a deal is written (table link, game page, API): one hook reads the table
        # once, then confirmation, standings and the round's closing, in the order it writes.
        on_deal_change(table_deal_changed)
        # A duplicate table's deal names one of the table's boards (docs/duplicate.md).
        on_deal_boards(deal_boards)
        # A table's deals follow the tournament's rules, on the pages and in the API alike.
        on_game_access(table_access)
        on_reason_needed(table_needs_reason)
        # A deal corrected after a substitute took a seat over is scored with its own players.
        on_deal_seats(seats_when_played)
        # A round's table sheets are drawn by the worker (core.prepared).
        on_prepared_pdf(TABLE_SHEETS, draw_table_sheets, describe=describe_table_sheets)
        # So is a big tournament's standings PDF, once per results version for all its readers.
        on_prepared_pdf(STANDINGS_PDF, draw_standings_pdf, describe=describe_standings_pdf)
        # And the players' cards (a QR code each: about as heavy as a table sheet a page).
        on_prepared_pdf(PLAYER_CARDS, draw_player_cards, describe=describe_player_cards)
        # A table's score sheet and its deals' histories show its penalties.
        on_penalties(table_penalties)
        # A tournament's tables are listed under it on the club's page, not among its games.
        on_grouped_elsewhere(Q(tournament_table__isnull=False))
        # A table's deals are told to its tournament's webhooks too.
        on_deal_audience(deal_audience)
        on_club_page(club_tournaments)
        # A tournament's refusal codes are among those the API may answer (its schema).
        on_codes(Code)
        on_home_page(home_tournaments_today)
