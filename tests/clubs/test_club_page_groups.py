"""A club's page: its games in pages of thirty (links that work without JavaScript), and its
tournaments' tables grouped under each tournament, round by round, not among its games; a
fixed number of queries whatever the number of tournaments and tables."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.clubs.views import GAMES_PER_PAGE
from tarot_scores.games import services as game_services
from tests.factories import make_tournament, play
from tournaments.models import Table, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def page(client: Client, club: Club, query: str = "", **headers: str) -> str:
    url = reverse("clubs:detail", args=[club.slug]) + query
    response = client.get(url, headers={"Accept-Language": "en", **headers})
    assert response.status_code == 200
    return response.content.decode()


def games_part(html: str) -> str:
    return html.split('id="games"', 1)[1].split("</section>", 1)[0]


def linked_games(fragment: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'href="/games/(\d+)/"', fragment)]


def seated_tournament(club: Club, name: str, rounds: int = 1) -> Tournament:
    tournament = make_tournament(club, 0, name=name, rounds=rounds)
    for n in range(9):
        registration_services.entry_add(tournament=tournament, name=f"{name} {n}", checked_in=True)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    if rounds > 1:
        play(round_)  # its last deal closes the round
        round_services.round_seat_next(tournament=tournament, by=None)
    return tournament


def test_tournament_tables_are_grouped_under_their_tournament(
    client: Client, club: Club, players: list[Player]
) -> None:
    evening = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    tournament = seated_tournament(club, "Open de Lyon", rounds=2)
    tables = list(
        Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    )

    html = page(client, club)

    assert linked_games(games_part(html)) == [evening.pk]  # no table among the games
    section = html.split('id="club-tournaments"', 1)[1].split("</section>", 1)[0]
    assert "Open de Lyon" in section
    assert section.index("Round 1") < section.index("Round 2")
    assert linked_games(section) == [t.game_id for t in tables]
    assert "2 tables" not in section and f"{len(tables)} tables" in section


def test_the_games_come_in_pages_whose_links_work_without_javascript(
    client: Client, club: Club, players: list[Player]
) -> None:
    start = datetime.date(2025, 1, 1)
    games = [
        game_services.game_create(
            club=club,
            players=players[:4],
            variant="fft",
            by=None,
            date=start + datetime.timedelta(days=n),
        )
        for n in range(GAMES_PER_PAGE + 5)
    ]
    newest_first = [g.pk for g in reversed(games)]

    first = page(client, club)
    assert linked_games(games_part(first)) == newest_first[:GAMES_PER_PAGE]
    assert 'href="?page=2"' in first  # a real link; htmx only makes it quicker
    second = page(client, club, "?page=2")
    assert linked_games(games_part(second)) == newest_first[GAMES_PER_PAGE:]
    assert 'href="?page=1"' in second
    fragment = page(client, club, "?page=2", HX_Request="true")
    assert "<html" not in fragment and linked_games(fragment) == newest_first[GAMES_PER_PAGE:]
    assert page(client, club, "?page=x")  # nonsense reads as the first page, never a 500


def test_the_club_page_reads_a_fixed_number_of_queries(
    client: Client,
    club: Club,
    players: list[Player],
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    seated_tournament(club, "Premier")
    page(client, club)
    with CaptureQueriesContext(connection) as few:
        page(client, club)
    for n in range(3):
        seated_tournament(club, f"Tournoi {n}", rounds=2)
        game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = page(client, club)
    assert html.count('class="tournament-group"') == 4
