"""The API's contract with the programs built on it: a schema a client generator can trust
(request and response components apart, open reads declared, every answer declared, English),
and one error shape (RFC 9457 problem details) for every refusal under /api/."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from tarot_scores.clubs.models import Club
from tarot_scores.core.outage import server_error
from tests.api.helpers import assert_problem, codes_of
from tests.factories import ClubFactory, token_client

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        answer = Client().get(
            reverse("api-schema"), {"format": "json"}, headers={"Accept-Language": "fr"}
        )
    assert answer.status_code == 200
    return dict(answer.json())


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def test_request_and_response_components_are_apart(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    club_request = components["ClubRequest"]
    assert "id" not in club_request["properties"] and "slug" not in club_request["properties"]
    assert club_request["required"] == ["name"]
    assert {"id", "slug"} <= set(components["Club"]["properties"])


def test_the_schema_is_in_english_whatever_the_readers_language() -> None:
    for headers, query in [({"Accept-Language": "fr"}, {}), ({}, {"lang": "fr"})]:
        answer = Client().get(reverse("api-schema"), {"format": "json", **query}, headers=headers)
        text = answer.content.decode()
        assert answer["Content-Language"] == "en"
        assert '"title": "Nom"' not in text and '"Nom"' not in text
        assert "Ce champ" not in text


def test_open_reads_are_declared_open_and_writes_need_a_token(schema: dict[str, Any]) -> None:
    clubs = schema["paths"]["/api/v1/clubs/"]
    assert {} in clubs["get"]["security"]
    assert {} not in clubs["post"]["security"]
    standings = schema["paths"]["/api/v1/tournaments/{id}/standings/"]["get"]
    assert {} in standings["security"]


def test_every_error_is_the_one_shared_problem_component(schema: dict[str, Any]) -> None:
    problem = {"$ref": "#/components/schemas/Problem"}
    seen = 0
    for path, method, operation in operations(schema):
        for code, response in operation["responses"].items():
            if int(code) >= 400:
                assert response["content"] == {
                    "application/problem+json": {
                        **response["content"]["application/problem+json"],
                        "schema": problem,
                    }
                }, (path, method, code)
                seen += 1
        # Anything may meet a busy or unreachable database; a token may be wrong on any read.
        assert "Retry-After" in operation["responses"]["503"]["headers"], (path, method)
        if any(operation.get("security", [{}])):
            assert "401" in operation["responses"], (path, method)
    assert seen > 100
    assert "Problem" in schema["components"]["schemas"]


def test_a_cached_answer_declares_its_etag_and_304(schema: dict[str, Any]) -> None:
    standings = schema["paths"]["/api/v1/tournaments/{id}/standings/"]["get"]
    assert "ETag" in standings["responses"]["200"]["headers"]
    assert "ETag" in standings["responses"]["304"]["headers"]
    assert any(p["name"] == "If-None-Match" for p in standings["parameters"])


def test_seating_a_round_declares_its_byes_body(schema: dict[str, Any]) -> None:
    operation = schema["paths"]["/api/v1/tournaments/{id}/rounds/"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    name = body.rsplit("/", 1)[1]
    assert schema["components"]["schemas"][name]["properties"]["byes"]["type"] == "boolean"


# --- one error shape ------------------------------------------------------------------------


def test_a_service_refusal_carries_its_stable_code_in_the_readers_language(
    django_user_model: Any,
) -> None:
    user = django_user_model.objects.create_user("olga", password="pw")
    Club.objects.create(name="Les Bouts", slug="les-bouts")
    for lang, words in [("en", "already"), ("fr", "porte déjà ce nom")]:
        answer = token_client(user, lang).post(
            "/api/v1/clubs/", {"name": "Les Bouts"}, format="json"
        )
        body = assert_problem(answer, 400)
        assert codes_of(body) == {"name": ["club_name_taken"]}
        assert body["code"] == "club_name_taken" and words in body["detail"]


def test_a_serializer_refusal_names_field_and_code() -> None:
    answer = APIClient().post("/api/v1/auth/token/", {"username": "x"}, format="json")
    body = assert_problem(answer, 400)
    assert {"field": "password", "code": "required", "message": body["errors"][0]["message"]} in (
        body["errors"]
    )


def test_refusals_without_fields_have_their_own_code() -> None:
    assert assert_problem(Client().get("/api/v1/clubs/abc/"), 404)["code"] == "not_found"
    unauthenticated = APIClient().post("/api/v1/clubs/", {"name": "X"}, format="json")
    assert assert_problem(unauthenticated, 401)["code"] == "not_authenticated"
    assert unauthenticated["WWW-Authenticate"].startswith("Token")
    wrong = APIClient().get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert assert_problem(wrong, 401)["code"] == "authentication_failed"
    wrong_method = APIClient().get("/api/v1/score/")
    assert assert_problem(wrong_method, 405)["code"] == "method_not_allowed"


def test_a_server_error_under_the_api_is_a_problem_too() -> None:
    answer = server_error(RequestFactory().get("/api/v1/clubs/"))
    assert answer.status_code == 500
    assert answer["Content-Type"] == "application/problem+json"
    assert b'"code": "server_error"' in answer.content
    page = server_error(RequestFactory().get("/clubs/"))
    assert page["Content-Type"].startswith("text/html")


# --- every list paged the same way, unknown parameters refused -------------------------------


LISTS = [
    "/api/v1/clubs/",
    "/api/v1/players/",
    "/api/v1/games/",
    "/api/v1/tournaments/",
    "/api/v1/tournaments/{id}/entries/",
    "/api/v1/tournaments/{id}/rounds/",
    "/api/v1/tournaments/{id}/standings/",
    "/api/v1/tournaments/{id}/teams/standings/",
    "/api/v1/tournaments/{id}/standings/substitutes/",
    "/api/v1/tournaments/{id}/penalties/",
    "/api/v1/tournaments/{id}/confirmations/",
    "/api/v1/tournaments/{id}/referees/",
    "/api/v1/tournaments/{id}/apart/",
    "/api/v1/deals/{id}/history/",
    "/api/v1/clubs/{id}/ratings/",
    "/api/v1/clubs/{id}/leaderboard/",
    "/api/v1/players/{id}/history/",
    "/api/v1/tournaments/{id}/rounds/{number}/links/",
    "/api/v1/clubs/{id}/webhooks/",
    "/api/v1/tournaments/{id}/webhooks/",
    "/api/v1/webhooks/{id}/deliveries/",
]


def test_no_list_is_a_bare_array(schema: dict[str, Any]) -> None:
    """Every 200 of a GET that answers many things is a page (LISTS above, and any new one)."""
    for path, method, operation in operations(schema):
        answer = operation["responses"].get("200", {}).get("content", {}).get("application/json")
        if method == "get" and answer is not None:
            assert answer["schema"].get("type") != "array", path


def test_every_list_is_declared_paged_with_a_bounded_page_size(schema: dict[str, Any]) -> None:
    for path in LISTS:
        operation = schema["paths"][path]["get"]
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
        name = answer["$ref"].rsplit("/", 1)[1]
        assert name.startswith("Paginated"), path
        paged = schema["components"]["schemas"][name]
        assert {"count", "next", "previous", "results"} <= set(paged["properties"]), path
        size = next(p for p in operation["parameters"] if p["name"] == "page_size")
        assert size["schema"]["maximum"] == 200, path


def test_page_size_is_read_and_bounded(django_user_model: Any) -> None:
    user = django_user_model.objects.create_user("olga", password="pw")
    for n in range(3):
        Club.objects.create(name=f"Club {n}", slug=f"club-{n}")
    client = token_client(user, "en")
    first = client.get("/api/v1/clubs/", {"page_size": 2}).json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["next"]
    assert "page_size=2" in first["next"]
    for bad in ["0", "201", "x", "-1"]:
        body = assert_problem(client.get("/api/v1/clubs/", {"page_size": bad}), 400)
        assert codes_of(body) == {"page_size": ["page_size_invalid"]}


def test_an_unknown_query_parameter_is_refused_not_ignored(django_user_model: Any) -> None:
    club = Club.objects.create(name="Les Bouts", slug="les-bouts")
    client = APIClient()
    body = assert_problem(client.get("/api/v1/players/", {"clubb": club.pk}), 400)
    assert codes_of(body) == {"clubb": ["unknown_parameter"]}
    assert "club" in body["detail"] and "page_size" in body["detail"]
    detail = assert_problem(client.get(f"/api/v1/clubs/{club.pk}/", {"page": 1}), 400)
    assert codes_of(detail) == {"page": ["unknown_parameter"]}
    assert client.get("/api/v1/players/", {"club": club.pk}).status_code == 200


def test_a_pages_members_are_the_ones_its_schema_declares(schema: dict[str, Any]) -> None:
    """A generated client knows a page's members from the schema: a page that adds its own
    (the feed's ``cursor``, the ratings' ``ratings_behind_since``) declares them."""
    club = ClubFactory.create()
    components = schema["components"]["schemas"]
    for path, url in [
        ("/api/v1/clubs/{id}/ratings/", f"/api/v1/clubs/{club.pk}/ratings/"),
        ("/api/v1/games/", "/api/v1/games/"),
        ("/api/v1/clubs/", "/api/v1/clubs/"),
    ]:
        operation = schema["paths"][path]["get"]
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]
        declared = components[answer["$ref"].rsplit("/", 1)[1]]
        body = APIClient().get(url).json()
        assert set(body) == set(declared["properties"]), path
        assert set(declared["required"]) <= set(body), path


def test_only_a_read_declares_a_page(schema: dict[str, Any]) -> None:
    """A write reads no ``page`` or ``page_size`` (400 ``unknown_parameter``), so its schema
    declares none, and a write answering a list (naming a referee answers them all) declares
    the list it sends: a generated client neither sends page_size nor reads a page there."""
    for path, method, operation in operations(schema):
        if method == "get":
            continue
        names = {p["name"] for p in operation.get("parameters", [])}
        assert not names & {"page", "page_size"}, (method, path)
        for answer in operation["responses"].values():
            body = answer.get("content", {}).get("application/json", {}).get("schema", {})
            assert not body.get("$ref", "").rsplit("/", 1)[-1].startswith("Paginated"), path
    named = schema["paths"]["/api/v1/tournaments/{id}/referees/"]["post"]["responses"]["201"]
    listed = named["content"]["application/json"]["schema"]
    assert listed == {"type": "array", "items": {"$ref": "#/components/schemas/Referee"}}
