"""``GET /api/v1/players/{id}/stats/``: a player's statistics as JSON, the query checked per
field, and a player or club private to others answered 404."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tests.api.helpers import messages_of
from tests.factories import PlayerFactory, garde, token_client

pytestmark = pytest.mark.django_db


def url(player: Player) -> str:
    return reverse("api:player-stats", args=[player.pk])


def play(club: Club, seats: list[Player], takers: list[int], day: datetime.date) -> None:
    game = services.game_create(club=club, players=seats, variant="fft", by=None, date=day)
    for taker in takers:
        services.deal_record(game=game, payload=garde(seats[taker].pk), by=None)


def test_the_statistics_as_json(club: Club, players: list[Player]) -> None:
    play(club, players[:4], [0, 0, 1, 2, 3], datetime.date(2025, 10, 1))
    body = token_client(None).get(url(players[0]), {"club": club.pk}).json()
    assert body["player"] == {"id": players[0].pk, "name": "Aurélie"}
    assert (body["club"], body["season"], body["deals"], body["taken"]) == (club.pk, None, 5, 2)
    assert body["contracts"] == [
        {"contract": "garde", "taken": 2, "won": 2, "success": 1.0, "average": 198.0}
    ]
    assert (body["taker_average"], body["defender_average"]) == (198.0, -66.0)
    assert body["partner"] == {"deals": 0, "won": 0, "average": None, "partners": []}
    head_to_head = body["head_to_head"]
    assert head_to_head["min_deals"] == 3
    # Three opponents, all alike: two in the better half (by name), the last one the worst.
    assert [(r["player"]["name"], r["deals"]) for r in head_to_head["best"]] == [
        ("Bruno", 3),
        ("Chloé", 3),
    ]
    assert [r["player"]["name"] for r in head_to_head["worst"]] == ["Denis"]
    assert body["petit_au_bout"] == {"made": 0, "lost": 0}
    assert body["handfuls"] == {}
    assert body["slams"] == {"made": 0, "failed": 0, "against": 0}


def test_a_season_filters_the_deals(club: Club, players: list[Player]) -> None:
    play(club, players[:4], [0], datetime.date(2024, 10, 1))
    play(club, players[:4], [0, 1], datetime.date(2025, 10, 1))
    client = token_client(None)
    assert client.get(url(players[0]), {"season": "2024"}).json()["deals"] == 1
    assert client.get(url(players[0]), {"season": "2025"}).json()["deals"] == 2
    assert client.get(url(players[0])).json()["deals"] == 3


@pytest.mark.parametrize(
    ("query", "fields"),
    [
        ({"club": "abc"}, ["club"]),
        ({"club": "0"}, ["club"]),
        ({"season": "2024.5"}, ["season"]),
        ({"season": "99999"}, ["season"]),
        ({"club": "x", "season": "y"}, ["club", "season"]),
    ],
)
def test_a_wrong_query_is_refused_per_field(
    players: list[Player], query: dict[str, str], fields: list[str]
) -> None:
    response = token_client(None).get(url(players[0]), query)
    assert response.status_code == 400
    body = messages_of(response.json())
    assert sorted(body) == fields and all(body[f] for f in fields)


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_player_only_in_private_clubs_is_404_for_outsiders(
    private_club: Club, outsider: User, who: str
) -> None:
    player = private_club.players.first()
    assert player is not None
    user = outsider if who == "outsider" else None
    assert token_client(user).get(url(player)).status_code == 404


def test_a_member_reads_a_player_of_his_private_club(private_club: Club, member: User) -> None:
    player = private_club.players.first()
    assert player is not None
    assert token_client(member).get(url(player)).status_code == 200


def test_a_private_club_asked_for_is_404(
    club: Club, private_club: Club, players: list[Player]
) -> None:
    response = token_client(None).get(url(players[0]), {"club": private_club.pk})
    assert response.status_code == 404


def test_private_deals_are_left_out_for_outsiders(
    club: Club, private_club: Club, players: list[Player], member: User
) -> None:
    aurelie = players[0]
    aurelie.clubs.add(private_club)
    others = [PlayerFactory.create(name=n, clubs=[private_club]) for n in ("Xavier", "Yves", "Zoé")]
    play(club, players[:4], [0], datetime.date(2025, 10, 1))
    play(private_club, [aurelie, *others], [0, 0], datetime.date(2025, 10, 2))
    assert token_client(None).get(url(aurelie)).json()["deals"] == 1
    assert token_client(member).get(url(aurelie)).json()["deals"] == 3


def test_an_unknown_player_is_404() -> None:
    assert token_client(None).get(reverse("api:player-stats", args=[999999])).status_code == 404


def test_a_player_in_no_club_is_404() -> None:
    loner = PlayerFactory.create()
    assert token_client(None).get(url(loner)).status_code == 404


def test_the_schema_documents_the_statistics_with_an_example(client: Client) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/players/{id}/stats/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"id", "club", "season"}
    content = operation["responses"]["200"]["content"]["application/json"]
    assert content["examples"]["Statistics"]["value"]["contracts"][0]["contract"] == "prise"
    assert set(operation["responses"]) >= {"200", "400", "404"}


def test_the_schema_still_validates(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    assert "  /api/v1/players/{id}/stats/:" in out.read_text()


@pytest.mark.parametrize("query", [{}, {"season": "2025"}])
def test_the_queries_do_not_grow_with_the_deals(
    club: Club, players: list[Player], query: dict[str, str]
) -> None:
    client = token_client(None)
    counts = []
    for deals in (2, 12):
        play(club, players[:4], [n % 4 for n in range(deals)], datetime.date(2025, 10, deals))
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(players[0]), query).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4
