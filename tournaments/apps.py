"""App config for tournaments: formats, seating, rounds, tables, standings, brackets."""

from django.apps import AppConfig
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tarot_scores.core.sections import on_club_page, on_home_page
        from tarot_scores.games.selectors import on_grouped_elsewhere
        from tarot_scores.games.services import on_deal_change
        from tournaments.sections import club_tournaments, home_tournaments_today
        from tournaments.services import round_after_deal

        # Every way a deal is written (table link, game page, API) closes a complete round.
        on_deal_change(round_after_deal)
        # A tournament's tables are listed under it on the club's page, not among its games.
        on_grouped_elsewhere(Q(tournament_table__isnull=False))
        on_club_page(club_tournaments)
        on_home_page(home_tournaments_today)
