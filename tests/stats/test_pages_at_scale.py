"""The leaderboard and a player's page read as many rows whatever the deals ever played: the
same number of queries after 10 and after 100 deals, drawn anew (cache cleared) or from the
cache; and a player's cached figures follow a new deal at once. The timings at federation
scale are in bench/federation.py."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Deal
from tests.clubs.helpers import garde, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_season(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        "tarot_scores.stats.forms.timezone.localdate", lambda: datetime.date(2025, 11, 1)
    )


def play_until(club: Club, players: list[Player], total: int) -> None:
    """Games of ten deals on different days (each day a point of the curves) up to ``total``."""
    done = Deal.objects.filter(game__club=club).count()
    while done < total:
        seats = players[:4] if done % 20 == 0 else players[1:5]
        game = services.game_create(
            club=club,
            players=seats,
            variant="fft",
            by=None,
            date=datetime.date(2025, 9, 1) + datetime.timedelta(days=done // 10),
        )
        for i in range(10):
            services.deal_record(game=game, payload=garde(seats[i % 4].pk), by=None)
        done += 10


def queries(client: Client, url: str, *, cold: bool) -> int:
    if cold:
        cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("cold", [True, False], ids=["drawn anew", "from the cache"])
def test_leaderboard_and_player_page_queries_do_not_grow_with_the_deals(
    client: Client,
    club: Club,
    players: list[Player],
    cold: bool,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    pages = [
        reverse("clubs:leaderboard", args=[club.slug]),
        reverse("clubs:player", args=[club.slug, players[1].pk]),
    ]
    play_until(club, players, 10)
    at_ten = []
    for url in pages:
        client.get(url)  # warms the cache for the second case
        at_ten.append(queries(client, url, cold=cold))
    play_until(club, players, 100)
    for url, count in zip(pages, at_ten, strict=True):
        client.get(url)
        with django_assert_max_num_queries(count):
            queries(client, url, cold=cold)
    if not cold:
        # From the cache, a page reads the session, the reader, the club, the player and whether
        # the ratings wait for their job only.
        assert max(at_ten) <= 6


def test_the_cached_player_page_follows_a_new_deal_at_once(
    client: Client, club: Club, players: list[Player]
) -> None:
    play_until(club, players, 10)
    url = reverse("clubs:player", args=[club.slug, players[1].pk])

    def deals_played() -> str:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        return text_of(html.split('id="stats"', 1)[1].split("</p>", 1)[0])

    assert "10 tarot deals played" in deals_played()
    assert "10 tarot deals played" in deals_played()  # from the cache
    game = services.game_create(
        club=club, players=players[1:5], variant="fft", by=None, date=datetime.date(2025, 10, 30)
    )
    services.deal_record(game=game, payload=garde(players[1].pk), by=None)
    assert "11 tarot deals played" in deals_played()
