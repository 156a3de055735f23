"""API tokens are stored as the SHA-256 of their key: the key is shown once (the token
endpoint's answer, or the admin's next page), and what the database holds cannot sign in."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from rest_framework.test import APIClient

from tarot_scores.api.models import ApiToken
from tarot_scores.api.tokens import MAX_TOKENS, token_digest, token_issue
from tests.factories import UserFactory

CLUBS = "/api/v1/clubs/"
TOKEN = "/api/v1/auth/token/"


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def signs_in(key: str) -> bool:
    return with_key(key).get(CLUBS).status_code == 200


@pytest.mark.django_db
def test_each_request_gives_a_new_key_and_each_key_signs_in() -> None:
    UserFactory.create(username="olga")
    ask = {"username": "olga", "password": "secret-pass"}

    first = APIClient().post(TOKEN, ask, format="json").json()["token"]
    second = APIClient().post(TOKEN, ask, format="json").json()["token"]

    assert first != second
    assert signs_in(first) and signs_in(second)
    assert ApiToken.objects.count() == 2


@pytest.mark.django_db
def test_the_database_holds_no_key_and_its_digest_does_not_sign_in() -> None:
    user = UserFactory.create()
    key = token_issue(user=user)

    stored = ApiToken.objects.get()
    columns = [str(value) for value in ApiToken.objects.values_list().get()]
    assert key not in columns
    assert stored.digest == hashlib.sha256(key.encode()).hexdigest() == token_digest(key)
    assert not signs_in(stored.digest)
    assert with_key(stored.digest).get(CLUBS).status_code == 401


@pytest.mark.django_db
def test_an_account_keeps_its_newest_tokens_the_oldest_is_revoked() -> None:
    user = UserFactory.create()
    keys = [token_issue(user=user) for _ in range(MAX_TOKENS + 1)]

    assert ApiToken.objects.filter(user=user).count() == MAX_TOKENS
    assert not signs_in(keys[0])
    assert signs_in(keys[1]) and signs_in(keys[-1])


@pytest.mark.django_db
def test_an_inactive_accounts_token_no_longer_signs_in() -> None:
    user = UserFactory.create()
    key = token_issue(user=user)
    User.objects.filter(pk=user.pk).update(is_active=False)

    response = with_key(key).get(CLUBS)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "message"), [("en", "Invalid token."), ("fr", "Token non valide.")]
)
def test_an_unknown_key_is_refused_in_the_readers_language(lang: str, message: str) -> None:
    response = with_key("0" * 40).get(CLUBS, headers={"accept-language": lang})

    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
    assert response.json()["detail"] == message


@pytest.mark.django_db
def test_the_admin_issues_a_key_shows_it_once_and_revokes_it() -> None:
    boss = UserFactory.create(username="boss", is_staff=True, is_superuser=True)
    olga = UserFactory.create(username="olga")
    admin = APIClient()
    admin.force_login(boss)

    page = admin.post(reverse("admin:tarot_scores_apitoken_add"), {"user": olga.pk}, follow=True)

    token = ApiToken.objects.get(user=olga)
    shown = [str(m) for m in page.context["messages"]]
    key = next(word for m in shown for word in m.split() if len(word) == 40)
    assert token_digest(key) == token.digest and signs_in(key)
    listing = admin.get(reverse("admin:tarot_scores_apitoken_changelist")).content.decode()
    assert token.prefix in listing and key not in listing
    detail = admin.get(reverse("admin:tarot_scores_apitoken_change", args=[token.pk]))
    assert key not in detail.content.decode()

    admin.post(reverse("admin:tarot_scores_apitoken_delete", args=[token.pk]), {"post": "yes"})

    assert not signs_in(key)


@pytest.mark.django_db(transaction=True)
def test_the_migration_hashes_the_keys_kept_in_clear_and_drops_their_table() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate([("tarot_scores", "0008_club_other_games")])
    user = UserFactory.create(username="olga")
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    stamp = "timestamp with time zone" if connection.vendor == "postgresql" else "datetime"
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            f"created {stamp} NOT NULL, user_id integer NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, %s, %s)",
            [key, "2025-01-02 10:00:00", user.pk],
        )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert "authtoken_token" not in connection.introspection.table_names()
    token = ApiToken.objects.get()
    assert (token.user_id, token.prefix) == (user.pk, key[:8])
    assert token.created_at.year == 2025
    assert signs_in(key)
