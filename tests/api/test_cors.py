"""CORS for the API: an origin listed in API_CORS_ORIGINS may call /api/ from a browser (a
preflight answered, the answer readable), never the site's pages, never with cookies; without
the setting, only the public calculator and standings are readable, from any origin."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from pytest_django import Settings

from tests.factories import build_world

pytestmark = pytest.mark.django_db

APP = "https://scores.example.org"


def preflight(
    client: Client, path: str, origin: str = APP, asks: str = "authorization, content-type"
) -> Any:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": asks,
        },
    )


def test_cors_is_off_by_default() -> None:
    answer = Client().get("/api/v1/clubs/", headers={"Origin": APP})
    assert answer.status_code == 200
    assert "Access-Control-Allow-Origin" not in answer


def test_a_listed_origin_may_call_the_api_and_read_its_headers(settings: Settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [APP]
    client = Client()

    answer = preflight(client, "/api/v1/clubs/")
    assert answer["Access-Control-Allow-Origin"] == APP
    assert "authorization" in answer["Access-Control-Allow-Headers"]
    read = client.get("/api/v1/clubs/", headers={"Origin": APP})
    assert read["Access-Control-Allow-Origin"] == APP
    assert "ETag" in read["Access-Control-Expose-Headers"]
    assert "Access-Control-Allow-Credentials" not in read


def test_other_origins_and_the_pages_get_nothing(settings: Settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [APP]
    client = Client()
    other = client.get("/api/v1/clubs/", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other
    page = client.get("/", headers={"Origin": APP})
    assert "Access-Control-Allow-Origin" not in page


def test_a_page_may_send_if_none_match_and_read_the_etag(settings: Settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [APP]
    answer = Client().options(
        "/api/v1/clubs/",
        headers={
            "Origin": APP,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "if-none-match",
        },
    )
    assert "if-none-match" in answer["Access-Control-Allow-Headers"]


def test_the_calculator_and_the_standings_are_readable_from_any_origin() -> None:
    """No setting: the public answers are open to every origin, with no token."""
    world = build_world(tag="cors")
    client = Client()
    deal = {
        "variant": "fft",
        "players": ["A", "B", "C", "D"],
        "taker": "A",
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
    }
    asked = preflight(
        client, "/api/v1/score/", origin="https://anywhere.example", asks="content-type"
    )
    assert asked["Access-Control-Allow-Origin"] == "https://anywhere.example"
    scored = client.post(
        "/api/v1/score/",
        deal,
        content_type="application/json",
        headers={"Origin": "https://anywhere.example"},
    )
    assert scored.status_code == 200
    assert scored["Access-Control-Allow-Origin"] == "https://anywhere.example"
    standings = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
    read = client.get(standings, headers={"Origin": "https://anywhere.example"})
    assert read.status_code == 200 and read["Access-Control-Allow-Origin"]
    assert "ETag" in read["Access-Control-Expose-Headers"]
    again = client.get(
        standings, headers={"Origin": "https://anywhere.example", "If-None-Match": read["ETag"]}
    )
    assert again.status_code == 304 and again["Access-Control-Allow-Origin"]


def test_private_endpoints_and_tokens_stay_with_the_listed_origins(settings: Settings) -> None:
    settings.CORS_ALLOWED_ORIGINS = [APP]
    world = build_world(tag="cors")
    client = Client()
    other = "https://anywhere.example"
    for path in ["/api/v1/clubs/", f"/api/v1/tournaments/{world.tournament.pk}/"]:
        assert "Access-Control-Allow-Origin" not in client.get(path, headers={"Origin": other})
        assert "Access-Control-Allow-Origin" not in preflight(client, path, origin=other)
    # The standings with a token: a private reading, for the listed origins only.
    standings = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
    asked = preflight(client, standings, origin=other)
    assert "Access-Control-Allow-Origin" not in asked  # it asks to send authorization
    assert preflight(client, standings)["Access-Control-Allow-Origin"] == APP
