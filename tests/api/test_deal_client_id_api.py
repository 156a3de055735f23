"""A deal's ``client_id`` over the API: the first request stores the deal (201), the same
request again answers it (200) and stores nothing; the schema says so."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game
from tests.api.helpers import assert_field_errors
from tests.factories import ApiTable, garde, make_game


def enter(table: ApiTable, body: Any, game: Game | None = None, lang: str = "en") -> Any:
    game = game or table.game
    return table.client("seated", lang).post(f"/api/v1/games/{game.pk}/deals/", body, format="json")


def test_a_replayed_request_answers_200_with_the_stored_deal(table: ApiTable) -> None:
    key = str(uuid.uuid4())
    body = {**garde(table.ids[2]), "number": 1, "client_id": key}

    first = enter(table, body)
    again = enter(table, body)

    assert first.status_code == 201, first.content
    assert again.status_code == 200, again.content
    assert again.json() == first.json()
    assert first.json()["client_id"] == key
    assert Deal.objects.count() == 1 and DealRevision.objects.count() == 1
    assert "client_id" not in Deal.objects.get().payload  # the site's field, not the deal's


def test_a_replay_after_a_correction_answers_the_deal_as_it_is_now(table: ApiTable) -> None:
    key = str(uuid.uuid4())
    body = {**garde(table.ids[2]), "client_id": key}
    deal = Deal.objects.get(pk=enter(table, body).json()["id"])
    services.deal_update(deal=deal, payload=garde(table.ids[2], points=56), version=1, by=None)
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)

    again = enter(table, body)

    assert again.status_code == 200
    assert again.json()["version"] == 2 and again.json()["payload"]["points"] == 56


def test_a_new_client_id_is_a_new_deal(table: ApiTable) -> None:
    numbers = [
        enter(table, {**garde(table.ids[2]), "client_id": str(uuid.uuid4())}).json()["number"]
        for _ in range(2)
    ]

    assert numbers == [1, 2]


def test_a_client_id_of_another_games_deal_is_refused(table: ApiTable) -> None:
    key = str(uuid.uuid4())
    enter(table, {**garde(table.ids[2]), "client_id": key})
    other = make_game(club=table.club, players=table.players)

    response = enter(table, {**garde(table.ids[2]), "client_id": key}, game=other)

    assert assert_field_errors(response) == {
        "client_id": ["This client id already names a deal of another game: make a new one."]
    }
    assert not other.deals.exists()


@pytest.mark.parametrize("value", ["not-a-uuid", 12, ["x"], True])
def test_a_client_id_that_is_not_a_uuid_is_refused(table: ApiTable, value: Any) -> None:
    response = enter(table, {**garde(table.ids[2]), "client_id": value})

    errors = assert_field_errors(response)
    assert list(errors) == ["client_id"]
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_the_schema_documents_client_id_and_the_replay(client: Client) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()

    operation = schema["paths"]["/api/v1/games/{id}/deals/"]["post"]
    assert set(operation["responses"]) >= {"200", "201"}
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"]["client_id"]["format"] == "uuid"
    deal = schema["components"]["schemas"]["Deal"]
    assert deal["properties"]["client_id"]["format"] == "uuid"
