"""One way to write a date, per language, on every page and chart: Django's DATE_FORMAT
("4 octobre 2025", "Oct. 4, 2025"), never a short form ("04/10/2025") beside it."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tests.clubs.helpers import text_of
from tests.factories import garde

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 10, 4)
WRITTEN = {"fr": "4 octobre 2025", "en": "Oct. 4, 2025"}
SHORT = re.compile(r"\b\d{1,2}/\d{1,2}/\d{2,4}\b|\b2025-10-04\b")


@pytest.mark.parametrize("language", ["fr", "en"])
def test_every_page_and_chart_writes_the_date_the_same_way(
    client: Client, club: Club, players: list[Player], language: str
) -> None:
    game = services.game_create(club=club, players=players[:4], variant="fft", by=None, date=DAY)
    services.deal_record(game=game, payload=garde(players[0].pk), by=None)
    urls = [
        reverse("clubs:detail", args=[club.slug]),
        reverse("clubs:player", args=[club.slug, players[0].pk]),
        reverse("clubs:records", args=[club.slug]),
        reverse("games:detail", args=[game.pk]),
    ]
    for url in urls:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        text = text_of(html.split("<main", 1)[1])
        assert WRITTEN[language] in text, url
        assert not SHORT.findall(text), (url, SHORT.findall(text))
    player_page = client.get(urls[1], HTTP_ACCEPT_LANGUAGE=language).content.decode()
    charts = re.findall(r"<svg.*?</svg>", player_page, re.S)
    assert charts and all(WRITTEN[language] in text_of(svg) for svg in charts)
