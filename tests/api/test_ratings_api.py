"""GET /api/v1/clubs/{id}/ratings/: the ranked players best first with their rating, mu, sigma
and deals, paginated; a season; 400 for a season that is not a year; 404 for a private club
the caller cannot see; documented in the schema with an example."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import Settings
from rest_framework.pagination import PageNumberPagination

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.ratings.models import PlayerRating, RatingStep
from tarot_scores.ratings.rating import conservative
from tests.api.helpers import messages_of
from tests.factories import garde, token_client

pytestmark = pytest.mark.django_db

AUTUMN = datetime.date(2025, 10, 4)  # season 2025
SPRING = datetime.date(2025, 3, 1)  # season 2024


@pytest.fixture(autouse=True)
def _two_deals_to_be_ranked(settings: Settings) -> None:
    settings.RATING_MIN_DEALS = 2


def play(club: Club, seats: list[Player], takers: list[int], date: datetime.date = AUTUMN) -> None:
    game = services.game_create(club=club, players=seats, variant="fft", by=None, date=date)
    for taker in takers:
        services.deal_record(game=game, payload=garde(seats[taker].pk, points=60), by=None)


def url(club: Club) -> str:
    return reverse("api:club-ratings", args=[club.pk])


def test_the_ranked_players_best_first_with_their_ratings(
    club: Club, players: list[Player]
) -> None:
    a, b, c, d, e = players
    play(club, [a, b, c, d], [0, 0])
    play(club, [b, c, d, e], [3])  # Emma: one deal, not ranked

    body = token_client(None).get(url(club)).json()

    assert body["count"] == 4 and body["next"] is None
    first = body["results"][0]
    row = PlayerRating.objects.get(club=club, player=a)
    assert first == {
        "rank": 1,
        "player": {"id": a.pk, "name": a.name},
        "rating": round(conservative(row.mu, row.sigma)),
        "mu": row.mu,
        "sigma": row.sigma,
        "deals": 2,
    }
    assert [r["rank"] for r in body["results"]] == [1, 2, 3, 4]
    assert e.pk not in {r["player"]["id"] for r in body["results"]}
    ratings = [r["rating"] for r in body["results"]]
    assert ratings == sorted(ratings, reverse=True)


def test_a_season_gives_the_ratings_as_it_ended(club: Club, players: list[Player]) -> None:
    a, b, c, d, _e = players
    play(club, [a, b, c, d], [0, 1], date=SPRING)
    play(club, [a, b, c, d], [3, 3, 3], date=AUTUMN)

    body = token_client(None).get(url(club), {"season": "2024"}).json()

    step = RatingStep.objects.get(club=club, player=d, season=2024, number=2)
    row = next(r for r in body["results"] if r["player"]["id"] == d.pk)
    assert (row["mu"], row["sigma"], row["deals"]) == (step.mu, step.sigma, 2)
    assert token_client(None).get(url(club), {"season": "1999"}).json()["count"] == 0


@pytest.mark.parametrize("season", ["abc", "2024.5", "-1", "99999"])
def test_a_season_that_is_not_a_year_is_refused(club: Club, season: str) -> None:
    response = token_client(None).get(url(club), {"season": season})
    assert response.status_code == 400
    assert list(messages_of(response.json())) == ["season"]


def test_the_list_is_paginated(
    club: Club, players: list[Player], settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.RATING_MIN_DEALS = 1
    monkeypatch.setattr(PageNumberPagination, "page_size", 5)
    seated = list(players)
    for n in range(11):
        extra = Player.objects.create(name=f"Joueur {n}")
        extra.clubs.add(club)
        seated.append(extra)
    for start in range(0, 16, 4):
        play(club, seated[start : start + 4], [0])

    first = token_client(None).get(url(club)).json()
    second = token_client(None).get(url(club), {"page": "2"}).json()

    assert first["count"] == 16 and first["next"] and first["previous"] is None
    assert [r["rank"] for r in first["results"]] == [1, 2, 3, 4, 5]
    assert [r["rank"] for r in second["results"]] == [6, 7, 8, 9, 10]


@pytest.mark.parametrize("season", ["", "2025"])
def test_the_queries_do_not_grow_with_the_deals(
    club: Club, players: list[Player], season: str
) -> None:
    client = token_client(None)
    counts = []
    for deals in (2, 12):
        play(club, players[:4], [n % 4 for n in range(deals)])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(club), {"season": season}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_private_club_is_404_for_outsiders(private_club: Club, outsider: User, who: str) -> None:
    user = outsider if who == "outsider" else None
    assert token_client(user).get(url(private_club)).status_code == 404


def test_a_member_reads_a_private_club(private_club: Club, member: User) -> None:
    assert token_client(member).get(url(private_club)).status_code == 200


def test_an_unknown_club_is_404() -> None:
    assert token_client(None).get(reverse("api:club-ratings", args=[999999])).status_code == 404


def test_the_schema_documents_the_ratings_with_an_example(client: Client) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/clubs/{id}/ratings/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"id", "season", "page"}
    content = operation["responses"]["200"]["content"]["application/json"]
    assert content["examples"]["Ranking"]["value"]["results"][0]["rank"] == 1
    assert set(operation["responses"]) >= {"200", "400", "404"}
