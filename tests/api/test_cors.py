"""CORS for the API: off by default; an origin listed in API_CORS_ORIGINS may call /api/ from
a browser (a preflight answered, the answer readable), never the site's pages, never with
cookies."""

from __future__ import annotations

import pytest
from django.test import Client
from pytest_django import Settings

pytestmark = pytest.mark.django_db

APP = "https://scores.example.org"


def preflight(client: Client, path: str, origin: str = APP) -> object:
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
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
    assert answer["Access-Control-Allow-Origin"] == APP  # type: ignore[index]
    assert "authorization" in answer["Access-Control-Allow-Headers"]  # type: ignore[index]
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
