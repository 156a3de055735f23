"""App config for the club domain: clubs, players, games, deals and their score lines."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TarotScoresConfig(AppConfig):
    name = "tarot_scores"
    verbose_name = _("Tarot scores")

    def ready(self) -> None:
        from tarot_scores.games.services import on_deal_change
        from tarot_scores.stats.services import ratings_after_deal

        # The ratings follow every way a deal is written (game page, table link, API).
        on_deal_change(ratings_after_deal)
