"""The reader's open games on their home page (``core.sections``): the games where the player
linked to their account sits and that are not finished, newest first."""

from __future__ import annotations

from django.http import HttpRequest

from tarot_scores.core.sections import Section
from tarot_scores.games import selectors

OPEN_GAMES_SHOWN = 10


def home_open_games(request: HttpRequest) -> Section:
    games = selectors.open_games_of(user=request.user, limit=OPEN_GAMES_SHOWN)
    return Section("tarot_scores/home/_open_games.html", {"games": games})
