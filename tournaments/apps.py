"""App config for tournaments: formats, seating, rounds, tables, standings, brackets."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tarot_scores.games.services import on_deal_change
        from tournaments.services import round_after_deal

        # Every way a deal is written (table link, game page, API) closes a complete round.
        on_deal_change(round_after_deal)
