"""Clubs, players and tokens over the API: create, list (paginated), read; refusals per field."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tarot_scores.api.models import ApiToken
from tarot_scores.clubs.models import Club, Membership, Player
from tests.api.helpers import assert_field_errors, codes_of
from tests.factories import ApiTable, ClubFactory, PlayerFactory, UserFactory, token_client

CLUBS = "/api/v1/clubs/"
PLAYERS = "/api/v1/players/"
TOKEN = "/api/v1/auth/token/"


def test_the_urls_are_named() -> None:
    assert reverse("api:clubs") == CLUBS
    assert reverse("api:club", args=[3]) == "/api/v1/clubs/3/"
    assert reverse("api:players") == PLAYERS
    assert reverse("api:token") == TOKEN


# --- tokens -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_username_and_password_give_a_new_token_stored_hashed() -> None:
    user = UserFactory.create(username="olga")

    response = APIClient().post(
        TOKEN, {"username": "olga", "password": "secret-pass"}, format="json"
    )

    assert response.status_code == 200
    key = response.json()["token"]
    assert len(key) == 40
    stored = ApiToken.objects.get(user=user)
    assert stored.digest == hashlib.sha256(key.encode()).hexdigest()
    assert stored.prefix == key[:8]


@pytest.mark.django_db
def test_the_token_then_signs_requests_in() -> None:
    UserFactory.create(username="olga")
    key = (
        APIClient()
        .post(TOKEN, {"username": "olga", "password": "secret-pass"}, format="json")
        .json()["token"]
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    response = client.post(CLUBS, {"name": "Les Bouts"}, format="json")

    assert response.status_code == 201
    assert Membership.objects.get(club__name="Les Bouts").user.username == "olga"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "Unable to log in with provided credentials."),
        ("fr", "Impossible de se connecter avec les informations d'identification fournies."),
    ],
)
def test_a_wrong_password_is_a_400_in_the_readers_language(lang: str, message: str) -> None:
    UserFactory.create(username="olga")

    response = token_client(None, lang).post(
        TOKEN, {"username": "olga", "password": "nope"}, format="json"
    )

    assert assert_field_errors(response) == {"non_field_errors": [message]}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body", ["[1, 2]", '{"username": {"a": 1}, "password": 3}', '{"username": "a\\u0000"}', "{"]
)
def test_odd_token_bodies_are_refused_not_crashed(body: str) -> None:
    response = APIClient().post(TOKEN, body, content_type="application/json")

    assert_field_errors(response)


@pytest.mark.django_db
def test_a_bad_token_is_a_401_even_on_public_reads() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    response = client.get(CLUBS)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


# --- clubs ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_new_club_has_a_slug_and_its_creator_as_organiser() -> None:
    user = UserFactory.create(username="olga")

    response = token_client(user).post(
        CLUBS, {"name": "  Tarot Club de Lyon ", "public": False}, format="json"
    )

    assert response.status_code == 201
    body = response.json()
    club = Club.objects.get()
    assert body == {
        "id": club.pk,
        "name": "Tarot Club de Lyon",
        "slug": "tarot-club-de-lyon",
        "public": False,
    }
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.ORGANISER


@pytest.mark.django_db
def test_a_club_is_public_unless_said_otherwise() -> None:
    response = token_client(UserFactory.create()).post(CLUBS, {"name": "Les Bouts"}, format="json")

    assert response.json()["public"] is True


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"),
    [("en", "A club with this name already exists."), ("fr", None)],
)
def test_a_club_name_is_unique_whatever_its_case(lang: str, message: str | None) -> None:
    ClubFactory.create(name="Les Bouts")

    response = token_client(UserFactory.create(), lang).post(
        CLUBS, {"name": "les bouts"}, format="json"
    )

    errors = assert_field_errors(response)
    assert list(errors) == ["name"]
    if message:
        assert errors["name"] == [message]
    assert Club.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "body", "expected"),
    [
        ("en", {}, {"name": ["This field is required."]}),
        ("fr", {}, {"name": ["Ce champ est obligatoire."]}),
        ("en", {"name": "  "}, {"name": ["This field may not be blank."]}),
        ("fr", {"name": "  "}, {"name": ["Ce champ ne peut être vide."]}),
        (
            "en",
            {"name": "x" * 121},
            {"name": ["Ensure this field has no more than 120 characters."]},
        ),
        ("en", {"name": "Club", "public": "maybe"}, {"public": ["Must be a valid boolean."]}),
        ("fr", {"name": "Club", "public": "maybe"}, {"public": ["Doit être un booléen valide."]}),
        ("en", [1], {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}),
    ],
)
def test_club_fields_are_refused_per_field(lang: str, body: Any, expected: Any) -> None:
    response = token_client(UserFactory.create(), lang).post(CLUBS, body, format="json")

    assert assert_field_errors(response) == expected
    assert not Club.objects.exists()


@pytest.mark.django_db
def test_clubs_are_listed_by_name_50_a_page() -> None:
    for i in range(53):
        ClubFactory.create(name=f"Club {i:02d}")

    first = APIClient().get(CLUBS).json()
    second = APIClient().get(CLUBS, {"page": 2}).json()

    assert first["count"] == 53 and len(first["results"]) == 50
    assert first["results"][0]["name"] == "Club 00"
    assert first["next"].endswith("?page=2") and first["previous"] is None
    assert [c["name"] for c in second["results"]] == ["Club 50", "Club 51", "Club 52"]
    assert APIClient().get(CLUBS, {"page": 3}).status_code == 404


def test_the_list_holds_public_clubs_and_the_callers_own(
    table: ApiTable, private_table: ApiTable
) -> None:
    other_private = ClubFactory.create(name="Autre cercle", public=False)

    def names(role: str, source: ApiTable) -> set[str]:
        results = source.client(role).get(CLUBS).json()["results"]
        return {c["name"] for c in results}

    public = {table.club.name}
    assert names("anonymous", table) == public
    assert names("outsider", table) == public
    assert names("member", private_table) == public | {private_table.club.name}
    assert names("superuser", private_table) == public | {
        private_table.club.name,
        other_private.name,
    }


def test_a_club_reads_the_same_as_it_was_created(table: ApiTable) -> None:
    response = APIClient().get(f"{CLUBS}{table.club.pk}/")

    assert response.status_code == 200
    assert response.json() == {
        "id": table.club.pk,
        "name": table.club.name,
        "slug": table.club.slug,
        "public": True,
    }


@pytest.mark.django_db
def test_an_unknown_club_is_a_404_even_with_a_huge_id() -> None:
    assert APIClient().get(f"{CLUBS}424242/").status_code == 404
    assert APIClient().get(f"{CLUBS}{'9' * 40}/").status_code == 404


# --- players ----------------------------------------------------------------------------------


def test_a_member_adds_a_player_to_the_club(table: ApiTable) -> None:
    response = table.client("member").post(
        PLAYERS,
        {"name": " Fanny Roux ", "nickname": "Fanny", "licence": "123456", "club": table.club.pk},
        format="json",
    )

    assert response.status_code == 201
    player = Player.objects.get(name="Fanny Roux")
    assert response.json() == {
        "id": player.pk,
        "name": "Fanny Roux",
        "nickname": "Fanny",
        "licence": "123456",
        "label": "Fanny",
    }
    assert list(player.clubs.all()) == [table.club]


def test_a_player_only_needs_a_name(table: ApiTable) -> None:
    response = table.client("member").post(
        PLAYERS, {"name": "Fanny", "club": table.club.pk}, format="json"
    )

    assert response.status_code == 201
    assert response.json()["label"] == "Fanny"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "bruno"}, "name"),
        ({"name": "Bruno Petit", "nickname": "BRUNO"}, "nickname"),
        ({"name": "Chloé Petit", "nickname": "CHLOÉ"}, "nickname"),  # case folds past ASCII
    ],
)
def test_two_players_of_a_club_cannot_share_a_label(
    table: ApiTable, body: dict[str, Any], field: str
) -> None:
    response = table.client("member", "en").post(
        PLAYERS, {**body, "club": table.club.pk}, format="json"
    )

    errors = assert_field_errors(response)
    assert list(errors) == [field]
    assert "already called" in errors[field][0]


@pytest.mark.parametrize(
    ("lang", "body", "expected"),
    [
        ("en", {"club": 1}, {"name": ["This field is required."]}),
        ("fr", {"club": 1}, {"name": ["Ce champ est obligatoire."]}),
        (
            "en",
            {"club": 1, "name": "Fanny", "licence": "1" * 21},
            {"licence": ["Ensure this field has no more than 20 characters."]},
        ),
        ("en", {"name": "Fanny"}, {"club": ["This field is required."]}),
        ("fr", {"name": "Fanny"}, {"club": ["Ce champ est obligatoire."]}),
        (
            "en",
            {"name": "Fanny", "club": 999999},
            {"club": ['Invalid pk "999999" - object does not exist.']},
        ),
        (
            "fr",
            {"name": "Fanny", "club": 999999},
            {"club": ["Clé primaire «\xa0999999\xa0» non valide - l'objet n'existe pas."]},
        ),
        (
            "en",
            {"name": "Fanny", "club": "1"},
            {"club": ["Incorrect type. Expected pk value, received str."]},
        ),
        (
            "en",
            {"name": "Fanny", "club": 10**30},
            {"club": ["Incorrect type. Expected pk value, received int."]},
        ),
    ],
)
def test_player_fields_are_refused_per_field(
    table: ApiTable, lang: str, body: dict[str, Any], expected: Any
) -> None:
    if body.get("club") == 1:
        body = {**body, "club": table.club.pk}
    before = Player.objects.count()

    response = table.client("member", lang).post(PLAYERS, body, format="json")

    assert assert_field_errors(response) == expected
    assert Player.objects.count() == before


def test_players_are_listed_by_club_and_name(table: ApiTable) -> None:
    other = ClubFactory.create(name="Autre club")
    PlayerFactory.create(name="Zoé", clubs=[other])

    body = APIClient().get(PLAYERS, {"club": table.club.pk}).json()

    assert body["count"] == 4
    assert [p["name"] for p in body["results"]] == ["Aurélie", "Bruno", "Chloé", "Denis"]
    assert set(body["results"][0]) == {"id", "name", "nickname", "licence", "label"}


def test_players_are_paginated(table: ApiTable) -> None:
    for i in range(50):
        PlayerFactory.create(name=f"Joueur {i:02d}", clubs=[table.club])

    first = APIClient().get(PLAYERS, {"club": table.club.pk}).json()
    second = APIClient().get(PLAYERS, {"club": table.club.pk, "page": 2}).json()

    assert first["count"] == 54 and len(first["results"]) == 50
    assert len(second["results"]) == 4 and second["next"] is None


def test_without_a_club_the_players_of_every_readable_club_are_listed(
    table: ApiTable, private_table: ApiTable
) -> None:
    anonymous = {p["id"] for p in APIClient().get(PLAYERS).json()["results"]}
    member = {p["id"] for p in private_table.client("member").get(PLAYERS).json()["results"]}

    assert anonymous == set(table.ids)
    assert member == set(table.ids) | set(private_table.ids)


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["abc", "0", "-3", "9" * 30])
def test_a_club_filter_that_is_not_an_id_is_a_400(value: str) -> None:
    errors = assert_field_errors(APIClient().get(PLAYERS, {"club": value}))

    assert list(errors) == ["club"]


@pytest.mark.django_db
def test_a_club_filter_naming_no_club_is_a_404() -> None:
    assert APIClient().get(PLAYERS, {"club": 424242}).status_code == 404


def test_a_players_user_is_not_exposed(table: ApiTable) -> None:
    user = User.objects.get(username="seated")

    body = APIClient().get(PLAYERS, {"club": table.club.pk}).content.decode()

    assert user.username not in body


@pytest.mark.django_db
def test_the_schema_validates_and_documents_the_club_api(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    text = out.read_text()
    for path in (
        "/api/v1/auth/token/",
        "/api/v1/clubs/",
        "/api/v1/clubs/{id}/",
        "/api/v1/players/",
        "/api/v1/games/",
        "/api/v1/games/{id}/",
        "/api/v1/games/{id}/finish/",
        "/api/v1/games/{id}/reopen/",
        "/api/v1/games/{id}/deals/",
        "/api/v1/deals/{id}/",
        "/api/v1/deals/{id}/restore/",
        "/api/v1/deals/{id}/history/",
    ):
        assert f"  {path}:" in text, path


# --- any body at all: never a 500 -------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children)
    ),
    max_leaves=15,
)
CLUB_OR_PLAYER = JSON_VALUES | st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=130) | JSON_VALUES,
        "public": JSON_VALUES,
        "nickname": st.text(max_size=70) | JSON_VALUES,
        "licence": JSON_VALUES,
        "club": st.just("@club") | JSON_VALUES,
        "username": JSON_VALUES,
        "password": JSON_VALUES,
    },
)


@hypothesis_settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=CLUB_OR_PLAYER, url=st.sampled_from([CLUBS, PLAYERS, TOKEN]))
def test_random_bodies_are_never_a_500(table: ApiTable, body: Any, url: str) -> None:
    if isinstance(body, dict) and body.get("club") == "@club":
        body = {**body, "club": table.club.pk}

    response = table.client("member").post(url, json.dumps(body), content_type="application/json")

    assert response.status_code in (200, 201, 400), (body, response.content)
    if response.status_code == 400:
        assert_field_errors(response)


@pytest.mark.django_db
def test_a_nul_character_is_refused_with_the_codes_the_docs_give(organiser: User) -> None:
    """docs/api.md's table of statuses: ``nul_character`` on a query parameter (refused at the
    door), ``null_characters_not_allowed`` on the field of a JSON body that holds one."""
    api = token_client(organiser)
    in_query = api.get("/api/v1/players/?club=1%00")
    assert assert_codes(in_query) == {"club": ["nul_character"]}
    in_body = api.post("/api/v1/clubs/", {"name": "Tarot\x00Club"}, format="json")
    assert assert_codes(in_body) == {"name": ["null_characters_not_allowed"]}
    assert not Club.objects.filter(name__startswith="Tarot").exists()


def assert_codes(response: Any) -> dict[str, list[str]]:
    body = response.json()
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    return codes_of(body)
