"""The rating rankings: a club's page and the federation's, ranked players best first with the
rating shown rounded, the others apart below the minimum of deals, the season filter, who may
see what, the words that say what a rating is, and a query count that ignores the deals."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import Settings

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Game
from tarot_scores.ratings.models import PlayerRating, RatingStep
from tarot_scores.ratings.rating import conservative
from tests.clubs.helpers import text_of
from tests.factories import garde

pytestmark = pytest.mark.django_db

AUTUMN = datetime.date(2025, 10, 4)  # season 2025 (seasons start in September)
SPRING = datetime.date(2025, 3, 1)  # season 2024


@pytest.fixture(autouse=True)
def _two_deals_to_be_ranked(settings: Settings) -> None:
    settings.RATING_MIN_DEALS = 2


def play(club: Club, seats: list[Player], takers: list[int], date: datetime.date = AUTUMN) -> Game:
    game = services.game_create(club=club, players=seats, variant="fft", by=None, date=date)
    for taker in takers:
        services.deal_record(game=game, payload=garde(seats[taker].pk, points=60), by=None)
    return game


def rows(html: str, table: str) -> list[list[str]]:
    part = (
        html.split(f' {table}" aria-labelledby', 1)[1]
        .split("<tbody>", 1)[1]
        .split("</tbody>", 1)[0]
    )
    return [
        [text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", part, re.S)
    ]


def page(client: Client, url: str, language: str = "en", **query: str) -> str:
    response = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def shown(club: Club | None, player: Player) -> str:
    row = PlayerRating.objects.get(club=club, player=player)
    return str(round(conservative(row.mu, row.sigma)))


def test_the_club_ranks_players_best_first_and_lists_the_others_apart(
    client: Client, club: Club, players: list[Player]
) -> None:
    a, b, c, d, e = players
    play(club, [a, b, c, d], [0, 0])  # Aurélie wins two gardes
    play(club, [a, b, c, e], [])  # a game without a deal rates no one
    play(club, [b, c, d, e], [0])  # Emma: one deal only

    html = page(client, reverse("clubs:ratings", args=[club.slug]))

    ranked = rows(html, "ranking")
    assert [r[0] for r in ranked] == ["1", "2", "3", "4"]
    assert ranked[0] == ["1", a.name, shown(club, a), "2"]
    assert {r[1] for r in ranked} == {a.name, b.name, c.name, d.name}
    ratings = [int(r[2]) for r in ranked]
    assert ratings == sorted(ratings, reverse=True)
    assert rows(html, "unranked") == [[e.name, "1"]]
    assert "Not yet ranked" in html


def test_with_no_rated_deal_the_page_says_so(client: Client, club: Club) -> None:
    html = page(client, reverse("clubs:ratings", args=[club.slug]))
    assert rows(html, "ranking") == [["No player is ranked yet."]]
    assert "unranked" not in html


def test_the_page_says_what_a_rating_is_in_french_and_in_english(
    client: Client, club: Club
) -> None:
    url = reverse("clubs:ratings", args=[club.slug])
    english = text_of(page(client, url, "en"))
    french = text_of(page(client, url, "fr"))
    assert "the level we are almost sure the player is at least" in english
    assert "rises as you play and win" in english
    assert "ranked from 2 deals" in english
    assert "le niveau que le joueur a presque sûrement au moins" in french
    assert "Pas encore classés" not in french  # no one unranked here
    assert "Cotes" in french and "Aujourd'hui (toutes les donnes)" in french


def test_a_season_ranks_the_ratings_as_it_ended_with_its_deals(
    client: Client, club: Club, players: list[Player]
) -> None:
    a, b, c, d, _e = players
    play(club, [a, b, c, d], [0, 1, 2], date=SPRING)
    play(club, [a, b, c, d], [3, 3, 3], date=AUTUMN)
    url = reverse("clubs:ratings", args=[club.slug])

    spring = rows(page(client, url, season="2024"), "ranking")
    today = rows(page(client, url), "ranking")

    last_of_spring = RatingStep.objects.get(club=club, player=d, season=2024, number=3)
    row_d = next(r for r in spring if r[1] == d.name)
    assert row_d[2:] == [str(round(conservative(last_of_spring.mu, last_of_spring.sigma))), "3"]
    assert today[0][1] == d.name  # three gardes won in the autumn
    assert next(r for r in today if r[1] == d.name)[3] == "6"
    assert "2024–2025" in page(client, url, season="2024")


@pytest.mark.parametrize("season", ["1999", "abc", "2024.5"])
def test_an_unknown_season_falls_back_to_today(
    client: Client, club: Club, players: list[Player], season: str
) -> None:
    play(club, players[:4], [0, 1])
    url = reverse("clubs:ratings", args=[club.slug])
    assert rows(page(client, url, season=season), "ranking") == rows(page(client, url), "ranking")


def test_the_club_counts_its_own_deals_and_the_federation_every_club(
    client: Client, club: Club, private_club: Club, players: list[Player], member: User
) -> None:
    a, b, c, d, _e = players
    private_club.players.add(a, b, c, d)
    play(club, [a, b, c, d], [0, 0])
    play(private_club, [a, b, c, d], [1, 1], date=AUTUMN + datetime.timedelta(days=1))

    club_rows = rows(page(client, reverse("clubs:ratings", args=[club.slug])), "ranking")
    everyone = rows(page(client, reverse("ratings")), "ranking")

    assert next(r for r in club_rows if r[1] == a.name)[2:] == [shown(club, a), "2"]
    assert next(r for r in everyone if r[1] == a.name)[2:] == [shown(None, a), "4"]


def test_the_federation_lists_only_players_of_clubs_the_visitor_sees(
    client: Client, private_club: Club, member: User
) -> None:
    secret = list(private_club.players.order_by("name"))
    play(private_club, secret[:4], [0, 0])
    url = reverse("ratings")

    assert rows(page(client, url), "ranking") == [["No player is ranked yet."]]
    client.force_login(member)
    assert len(rows(page(client, url), "ranking")) == 4


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_private_club_ranking_does_not_exist_for_outsiders(
    client: Client, private_club: Club, outsider: User, who: str
) -> None:
    if who == "outsider":
        client.force_login(outsider)
    response = client.get(reverse("clubs:ratings", args=[private_club.slug]))
    assert response.status_code == 404


def test_a_member_sees_a_private_club_ranking(
    client: Client, private_club: Club, member: User
) -> None:
    client.force_login(member)
    assert client.get(reverse("clubs:ratings", args=[private_club.slug])).status_code == 200


def test_htmx_gets_the_ranking_alone(client: Client, club: Club, players: list[Player]) -> None:
    play(club, players[:4], [0, 0])
    response = client.get(
        reverse("clubs:ratings", args=[club.slug]), {"season": "2025"}, HTTP_HX_REQUEST="true"
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="ranking"') and "<h1>" not in html


def test_the_club_page_and_the_leaderboard_link_to_the_ranking(client: Client, club: Club) -> None:
    url = reverse("clubs:ratings", args=[club.slug])
    assert f'href="{url}"' in page(client, reverse("clubs:detail", args=[club.slug]))
    assert f'href="{url}"' in page(client, reverse("clubs:leaderboard", args=[club.slug]))


@pytest.mark.parametrize("name", ["club", "federation"])
def test_the_queries_do_not_grow_with_the_deals(
    client: Client, club: Club, players: list[Player], name: str
) -> None:
    url = reverse("clubs:ratings", args=[club.slug]) if name == "club" else reverse("ratings")
    counts = []
    for deals in (2, 12):
        play(club, players[:4], [n % 4 for n in range(deals)])
        for season in ("", "2025"):
            with CaptureQueriesContext(connection) as queries:
                page(client, url, season=season)
            counts.append(len(queries))
    assert counts[:2] == counts[2:]
    assert max(counts) <= 6


def test_the_minimum_of_deals_comes_from_the_settings(
    client: Client, club: Club, players: list[Player], settings: Settings
) -> None:
    play(club, players[:4], [0])
    url = reverse("clubs:ratings", args=[club.slug])
    assert len(rows(page(client, url), "unranked")) == 4
    settings.RATING_MIN_DEALS = 1
    html = page(client, url)
    assert len(rows(html, "ranking")) == 4 and "Not yet ranked" not in html
