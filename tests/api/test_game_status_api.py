"""Finishing and reopening a game over the API: the answer is the score sheet, the same rule and
service as the sheet's buttons (so a finished game's deals are refused until it is reopened),
asking twice changes nothing, and no body or caller makes it answer 500."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tests.api.helpers import assert_field_errors
from tests.factories import ApiTable, garde

FINISHED = "This game is finished: reopen it to enter or correct deals."


def finish_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/finish/"


def reopen_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/reopen/"


def status_of(game: Game) -> str:
    return Game.objects.get(pk=game.pk).status


def test_the_urls_are_named() -> None:
    assert reverse("api:game-finish", args=[7]) == "/api/v1/games/7/finish/"
    assert reverse("api:game-reopen", args=[7]) == "/api/v1/games/7/reopen/"


# --- the answer -------------------------------------------------------------------------------


def test_finishing_answers_the_score_sheet_as_get_reads_it(table: ApiTable) -> None:
    table.record()
    client = table.client("seated")

    response = client.post(finish_url(table.game))

    assert response.status_code == 200, response.content
    sheet = response.json()
    assert sheet["status"] == "finished"
    assert sheet == client.get(f"/api/v1/games/{table.game.pk}/").json()
    assert sheet["totals"] == {
        str(pk): p for pk, p in zip(table.ids, [-66, -66, 198, -66], strict=True)
    }
    assert status_of(table.game) == Game.Status.FINISHED


def test_reopening_answers_the_score_sheet_open_again(table: ApiTable) -> None:
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)

    response = table.client("seated").post(reopen_url(table.game))

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "open"
    assert response.json()["id"] == table.game.pk
    assert status_of(table.game) == Game.Status.OPEN


@pytest.mark.parametrize(
    ("url", "before", "after"),
    [(finish_url, "finished", "finished"), (reopen_url, "open", "open")],
)
def test_asking_for_the_status_the_game_has_changes_nothing(
    table: ApiTable, url: Any, before: str, after: str
) -> None:
    """As the page's buttons: a request sent twice (the answer lost on the way) does no harm."""
    services.game_set_status(game=table.game, status=before)

    response = table.client("organiser").post(url(table.game))

    assert response.status_code == 200, response.content
    assert response.json()["status"] == after
    assert status_of(table.game) == after


@pytest.mark.parametrize("action", ["finish", "reopen"])
def test_an_unknown_game_is_a_404_even_for_a_superuser(table: ApiTable, action: str) -> None:
    response = table.client("superuser", "en").post(f"/api/v1/games/424242/{action}/")

    assert assert_field_errors(response, 404) == {"non_field_errors": ["Not found."]}


@pytest.mark.parametrize("action", ["finish", "reopen"])
def test_reading_the_action_is_a_405(table: ApiTable, action: str) -> None:
    response = table.client("organiser", "en").get(f"/api/v1/games/{table.game.pk}/{action}/")

    assert assert_field_errors(response, 405) == {"non_field_errors": ['Method "GET" not allowed.']}
    assert status_of(table.game) == Game.Status.OPEN


# --- the deals of a finished game -------------------------------------------------------------


def test_a_game_finished_over_the_api_refuses_deals_until_reopened(table: ApiTable) -> None:
    client = table.client("seated", "en")
    deals = f"/api/v1/games/{table.game.pk}/deals/"
    first = client.post(deals, garde(table.ids[2]), format="json")

    finished = client.post(finish_url(table.game))
    refused = client.post(deals, garde(table.ids[0]), format="json")
    correction = client.patch(
        f"/api/v1/deals/{first.json()['id']}/", {**garde(table.ids[1]), "version": 1}, format="json"
    )
    reopened = client.post(reopen_url(table.game))
    accepted = client.post(deals, garde(table.ids[0]), format="json")

    assert (first.status_code, finished.status_code, reopened.status_code) == (201, 200, 200)
    assert assert_field_errors(refused, 409) == {"non_field_errors": [FINISHED]}
    assert assert_field_errors(correction, 409) == {"non_field_errors": [FINISHED]}
    assert accepted.status_code == 201, accepted.content
    assert list(Deal.objects.values_list("number", "taker_id").order_by("number")) == [
        (1, table.ids[2]),
        (2, table.ids[0]),
    ]


def test_the_refusal_is_in_french_by_default(table: ApiTable) -> None:
    table.client("seated").post(finish_url(table.game))

    refused = table.client("seated").post(
        f"/api/v1/games/{table.game.pk}/deals/", garde(table.ids[0]), format="json"
    )

    assert assert_field_errors(refused, 409) == {
        "non_field_errors": [
            "Cette partie est terminée : rouvrez-la pour saisir ou corriger des donnes."
        ]
    }


def test_the_page_and_the_api_finish_and_reopen_the_same_game(table: ApiTable) -> None:
    seated = table.users["seated"]
    assert seated is not None
    page = Client()
    page.force_login(seated)

    api = table.client("seated")
    sheet_page = reverse("games:detail", args=[table.game.pk])

    page.post(reverse("games:status", args=[table.game.pk]), {"status": "finished"})
    seen_by_api = api.get(f"/api/v1/games/{table.game.pk}/").json()["status"]
    api.post(reopen_url(table.game))
    reopened_page = page.get(sheet_page).content.decode()
    api.post(finish_url(table.game))
    finished_page = page.get(sheet_page).content.decode()

    assert seen_by_api == "finished"
    assert 'id="new-deal"' in reopened_page and 'id="reopen-game"' not in reopened_page
    assert 'id="reopen-game"' in finished_page and 'id="new-deal"' not in finished_page


# --- who may ----------------------------------------------------------------------------------


def test_a_session_finishes_a_game_with_the_csrf_token_only(table: ApiTable) -> None:
    user = table.users["seated"]
    assert user is not None
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(user)
    secret = "k" * 32  # what the csrftoken cookie holds; a form or htmx sends it back

    refused = session.post(finish_url(table.game))
    unchanged = status_of(table.game)
    session.cookies[settings.CSRF_COOKIE_NAME] = secret
    accepted = session.post(finish_url(table.game), HTTP_X_CSRFTOKEN=secret)

    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert unchanged == Game.Status.OPEN
    assert accepted.status_code == 200, accepted.content
    assert status_of(table.game) == Game.Status.FINISHED


@pytest.mark.parametrize("action", ["finish", "reopen"])
def test_an_anonymous_caller_gets_401_before_anything_is_looked_up(
    private_table: ApiTable, action: str
) -> None:
    for pk in (private_table.game.pk, 424242):
        response = APIClient().post(f"/api/v1/games/{pk}/{action}/")

        assert assert_field_errors(response, 401)
        assert response["WWW-Authenticate"] == "Token"
    assert status_of(private_table.game) == Game.Status.OPEN


def test_a_member_seated_at_another_table_cannot_finish_this_one(table: ApiTable) -> None:
    elsewhere = services.game_create(
        club=table.club,
        players=[table.players[0], table.players[2], table.players[3]],
        variant="fft",
        by=None,
    )

    response = table.client("seated", "en").post(finish_url(elsewhere))

    assert assert_field_errors(response, 403) == {
        "non_field_errors": ["You do not have permission to perform this action."]
    }
    assert status_of(elsewhere) == Game.Status.OPEN


def test_a_database_still_locked_answers_503_and_changes_nothing(
    table: ApiTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    def locked(**kwargs: Any) -> Game:
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "game_set_status", locked)

    response = table.client("seated", "en").post(finish_url(table.game))

    assert assert_field_errors(response, 503) == {
        "non_field_errors": ["The database is busy: try again in a moment."]
    }
    assert status_of(table.game) == Game.Status.OPEN


def test_finishing_takes_the_same_queries_for_5_and_40_deals(
    table: ApiTable, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    client = table.client("seated")
    counts = []
    for deals in (5, 40):
        services.game_set_status(game=table.game, status=Game.Status.OPEN)
        while table.game.deals.count() < deals:
            table.record(garde(table.ids[table.game.deals.count() % 4]))
        with django_assert_max_num_queries(12) as captured:
            response = client.post(finish_url(table.game))
        assert len(response.json()["deals"]) == deals
        counts.append(len(captured.captured_queries))

    assert counts[0] == counts[1]


# --- any body at all: never a 500 -------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children)
    ),
    max_leaves=15,
)
BODIES = JSON_VALUES.map(json.dumps) | st.text(max_size=40) | st.just("{" * 10_000)
CONTENT_TYPES = st.sampled_from(
    ["application/json", "text/plain", "multipart/form-data", "application/octet-stream"]
)


@hypothesis_settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=BODIES,
    content_type=CONTENT_TYPES,
    action=st.sampled_from(["finish", "reopen"]),
    role=st.sampled_from(["member", "seated"]),
)
def test_any_body_is_ignored_or_refused_and_never_a_500(
    table: ApiTable, body: str, content_type: str, action: str, role: str
) -> None:
    url = f"/api/v1/games/{table.game.pk}/{action}/"

    status_before = Game.objects.get(pk=table.game.pk).status
    response = table.client(role).generic("POST", url, body, content_type)

    if response.status_code == 400:
        # A body that is no JSON, or names a field these take none of, is refused in the one
        # shape (parse_error, unknown_field; a NUL outside JSON at the door) and changes nothing.
        assert_field_errors(response, 400)
        assert Game.objects.get(pk=table.game.pk).status == status_before
    elif role == "seated":
        assert response.status_code == 200, (body, response.content)
        assert response.json()["status"] == ("finished" if action == "finish" else "open")
    else:
        assert_field_errors(response, 403)


# --- the schema -------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["finish", "reopen"])
def test_the_schema_documents_finishing_and_reopening(client: Client, action: str) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()

    operation = schema["paths"][f"/api/v1/games/{{id}}/{action}/"]["post"]

    assert operation["operationId"] == f"games_{action}"
    assert operation["tags"] == ["games"]
    assert "requestBody" not in operation
    assert set(operation["responses"]) == {"200", "400", "401", "403", "404", "503"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/GameSheet"
    }
