"""The home page: for a signed-in reader their clubs, their open games and their tournaments
today, in a number of queries that does not grow with them; the anonymous page as it was."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Game
from tests.factories import ClubFactory, UserFactory, make_club, make_tournament
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def home(client: Client, language: str = "en") -> str:
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def part(html: str, element_id: str) -> str:
    return html.split(f'id="{element_id}"', 1)[1].split("</ul>", 1)[0]


def seated_game(club: Club, players: list[Player], label: str = "") -> Game:
    return game_services.game_create(
        club=club, players=players, variant="fft", by=None, label=label
    )


def a_tournament_today(club: Club, me: Player) -> Tournament:
    tournament = make_tournament(club, 0, name=f"Open {club.name}", date=timezone.localdate())
    for n in range(7):
        registration_services.entry_add(tournament=tournament, name=f"Invité {n}", checked_in=True)
    registration_services.entry_add(tournament=tournament, player=me, checked_in=True)
    round_services.round_seat_next(tournament=tournament, by=None)
    return tournament


@pytest.fixture
def reader(club: Club, member: User, players: list[Player]) -> Player:
    """``member`` plays as Aurélie in ``club``."""
    return club_services.player_link_user(player=players[0], user=member)


def test_the_anonymous_home_is_unchanged(client: Client) -> None:
    html = home(client)
    assert "Score calculator" in html and "API documentation" in html
    assert "Your clubs" not in html and "Your open games" not in html


def test_a_reader_sees_their_clubs_open_games_and_tournaments_today(
    client: Client, club: Club, member: User, players: list[Player], reader: Player
) -> None:
    mine = seated_game(club, players[:4], label="Jeudi soir")
    finished = seated_game(club, players[:4], label="Partie close")
    game_services.game_set_status(game=finished, status=Game.Status.FINISHED)
    seated_game(club, players[1:5], label="Sans moi")
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    seated_game(other, list(other.players.all()[:4]), label="Ailleurs")
    today = a_tournament_today(club, reader)
    tomorrow = make_tournament(
        club, 8, name="Demain", date=timezone.localdate() + datetime.timedelta(days=1)
    )
    client.force_login(member)

    html = home(client)

    assert club.name in part(html, "home-clubs") and "Autre club" not in part(html, "home-clubs")
    games = part(html, "home-games")
    assert reverse("games:detail", args=[mine.pk]) in games and "Jeudi soir" in games
    assert "Partie close" not in games and "Sans moi" not in games and "Ailleurs" not in games
    tournaments = part(html, "home-tournaments")
    assert today.name in tournaments and tomorrow.name not in tournaments
    table = next(
        s.table
        for s in round_selectors.round_tables(round_=today.round_set.get())
        if reader in s.players
    )
    assert f"Round 1: your table is table {table.number}" in tournaments
    assert reverse("games:detail", args=[table.game_id]) in tournaments
    french = home(client, "fr")
    assert "Vos clubs" in french and "Vos parties en cours" in french
    assert "Vos tournois du jour" in french


def test_a_reader_with_nothing_yet_is_shown_where_to_start(client: Client) -> None:
    client.force_login(UserFactory.create(username="nouveau"))
    html = home(client)
    assert "You belong to no club yet." in html and reverse("clubs:list") in html
    assert "No open game where you sit." in html
    assert 'id="home-tournaments"' not in html  # nothing today: no empty section


def test_the_signed_in_home_reads_a_fixed_number_of_queries(
    client: Client,
    club: Club,
    member: User,
    players: list[Player],
    reader: Player,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    seated_game(club, players[:4])
    a_tournament_today(club, reader)
    client.force_login(member)
    home(client)  # the session and the translations, read once

    with CaptureQueriesContext(connection) as few:
        home(client)
    for n in range(4):
        more = ClubFactory.create(name=f"Club {n}")
        more.memberships.create(user=member, role="member")
        reader.clubs.add(more)
        others = [Player.objects.create(name=f"P{n}{i}") for i in range(3)]
        for other in others:
            other.clubs.add(more)
        seated_game(more, [reader, *others])
        a_tournament_today(more, reader)
    with django_assert_max_num_queries(len(few.captured_queries)):
        html = home(client)
    assert part(html, "home-games").count("<li>") == 5
    assert part(html, "home-tournaments").count("<li>") == 5
