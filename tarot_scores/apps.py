"""App config for the club domain: clubs, players, games, deals and their score lines."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TarotScoresConfig(AppConfig):
    name = "tarot_scores"
    verbose_name = _("Tarot scores")
