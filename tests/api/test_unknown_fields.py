"""A body field an endpoint does not read is refused (400 ``unknown_field``), never dropped:
a webhook sent ``"event"`` for ``"events"`` would hear every event, a tournament sent
``"deal_per_round"`` would get the default. Every write says so in the schema
(``additionalProperties: false``), and what the server refuses the schema declares."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tarot_scores.webhooks import services as webhook_services
from tarot_scores.webhooks.models import Delivery, Webhook
from tests.api.helpers import assert_problem, codes_of
from tests.factories import ApiTable, garde
from tests.queue import database_queue
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]


def writes(table: ApiTable) -> list[tuple[str, dict[str, Any], Any]]:
    """(path, a body with one field too many, the rows that must not change)."""
    club = table.club.pk
    ids = [p.pk for p in table.players]
    return [
        ("/api/v1/clubs/", {"name": "Cercle du Petit", "colour": "red"}, Club.objects),
        ("/api/v1/players/", {"club": club, "name": "Zoé", "age": 9}, Player.objects),
        (
            "/api/v1/games/",
            {"club": club, "players": ids, "variant": "fft", "deal_count": 8},
            Game.objects,
        ),
        (
            "/api/v1/tournaments/",
            {"club": club, "name": "Open", "rounds": 2, "deal_per_round": 4},
            Tournament.objects,
        ),
        (
            f"/api/v1/clubs/{club}/webhooks/",
            {"url": "https://93.184.216.34/hook", "event": ["deal.recorded"]},
            Webhook.objects,
        ),
    ]


def test_an_unknown_body_field_is_refused_and_nothing_is_written(table: ApiTable) -> None:
    client = table.client("organiser", "en")
    for path, body, rows in writes(table):
        before = rows.count()
        answer = client.post(path, body, format="json")
        problem = assert_problem(answer, 400)
        extra = [
            name
            for name in body
            if name not in ("club", "name", "players", "variant", "rounds", "url")
        ]
        assert codes_of(problem) == {extra[0]: ["unknown_field"]}, (path, problem)
        assert problem["errors"][0]["message"] == "Unknown field."
        assert rows.count() == before, path


def test_the_same_bodies_without_the_field_are_taken(table: ApiTable) -> None:
    """The refusal is about the field alone: what the schema allows, the server takes."""
    client = table.client("organiser")
    for path, body, _rows in writes(table):
        wanted = {
            k: v
            for k, v in body.items()
            if k in ("club", "name", "players", "variant", "rounds", "url")
        }
        answer = client.post(path, wanted, format="json")
        assert answer.status_code == 201, (path, answer.content)


def test_a_number_is_not_a_name(table: ApiTable) -> None:
    answer = table.client("organiser").post("/api/v1/clubs/", {"name": 0}, format="json")
    assert codes_of(assert_problem(answer)) == {"name": ["invalid"]}
    assert not Club.objects.filter(name="0").exists()


def test_every_body_of_the_schema_is_closed() -> None:
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    components = schema["components"]["schemas"]
    bodies = 0
    for operations in schema["paths"].values():
        for operation in operations.values():
            for media in operation.get("requestBody", {}).get("content", {}).values():
                body = media["schema"]
                if "$ref" in body:
                    body = components[body["$ref"].rsplit("/", 1)[1]]
                if body.get("type") == "object":
                    bodies += 1
                    assert body.get("additionalProperties") is False, operation["operationId"]
    assert bodies >= 25


def test_an_endpoint_that_reads_no_body_refuses_one_with_fields(
    table: ApiTable, database_queue: None
) -> None:
    """Finishing a game, pinging a webhook, deleting a deal read no body: a JSON object with
    fields sent there is refused on each of them (a client that thinks it sends something is
    told), and nothing changes; an empty body or ``{}`` is taken."""
    client = table.client("organiser", "en")
    game = table.game
    deal = game_services.deal_record(game=game, payload=garde(table.ids[0]), by=None).deal
    hook = webhook_services.webhook_create(
        club=table.club, url="https://93.184.216.34/hook", by=table.users["organiser"]
    )

    finish = f"/api/v1/games/{game.pk}/finish/"
    problem = assert_problem(client.post(finish, {"status": "finished", "at": 1}, format="json"))
    assert codes_of(problem) == {"at": ["unknown_field"], "status": ["unknown_field"]}
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN

    ping = f"/api/v1/webhooks/{hook.pk}/ping/"
    problem = assert_problem(client.post(ping, {"event": "ping"}, format="json"))
    assert codes_of(problem) == {"event": ["unknown_field"]}
    assert not Delivery.objects.exists()

    # The version read goes in the query (a DELETE's body is no part of the schema).
    gone = f"/api/v1/deals/{deal.pk}/?version={deal.version}"
    problem = assert_problem(client.delete(gone, {"version": deal.version}, format="json"))
    assert codes_of(problem) == {"version": ["unknown_field"]}
    assert Deal.objects.get(pk=deal.pk).deleted_at is None

    assert client.post(ping, {}, format="json").status_code == 202
    assert Delivery.objects.filter(webhook=hook).count() == 1
    assert client.delete(gone, format="json").status_code == 200
    assert Deal.objects.get(pk=deal.pk).deleted_at is not None
    assert client.post(finish, format="json").status_code == 200
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_the_schema_declares_no_body_where_none_is_read() -> None:
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    for path, method in (
        ("/api/v1/games/{id}/finish/", "post"),
        ("/api/v1/games/{id}/reopen/", "post"),
        ("/api/v1/webhooks/{id}/ping/", "post"),
        ("/api/v1/deals/{id}/", "delete"),
        ("/api/v1/tournaments/{id}/rounds/{number}/start/", "post"),
    ):
        operation = schema["paths"][path][method]
        assert "requestBody" not in operation, (path, method)
        assert "unknown_field" in operation.get("description", "") or method == "delete", path


def test_a_method_the_endpoint_does_not_take_is_405_whatever_the_body(table: ApiTable) -> None:
    client = table.client("organiser", "en")
    for method in ("PUT", "DELETE"):
        answer = client.generic(method, "/api/v1/players/", '{"name": "Zoé"}', "application/json")
        assert assert_problem(answer, 405)["code"] == "method_not_allowed"
    answer = client.generic(
        "PATCH", f"/api/v1/games/{table.game.pk}/finish/", '{"a": 1}', "application/json"
    )
    assert assert_problem(answer, 405)["code"] == "method_not_allowed"
    assert Game.objects.get(pk=table.game.pk).status == Game.Status.OPEN
