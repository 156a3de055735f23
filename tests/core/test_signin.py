"""Password guessing is slowed down: the login page, the API token endpoint and the password reset
form refuse a client past the limit, per account and per client, with a clear message."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings
from rest_framework.test import APIClient

from tarot_scores.api.models import ApiToken
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LIMIT = 3
TOKEN = "/api/v1/auth/token/"
RIGHT = "secret-pass"  # the factories' password


@pytest.fixture(autouse=True)
def _small_limit(settings: Settings) -> None:
    settings.AXES_FAILURE_LIMIT = LIMIT
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    settings.AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]


def login(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def token(client: APIClient, username: str, password: str, **extra: Any) -> Any:
    return client.post(TOKEN, {"username": username, "password": password}, format="json", **extra)


# --- the login page ---------------------------------------------------------------------------


def test_the_page_refuses_the_right_password_after_the_limit(member: User) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        assert login(client, "marc", "wrong").status_code == 200
    # The failure that reaches the limit is already answered with the lock.
    assert login(client, "marc", "wrong").status_code == 429

    response = login(client, "marc", RIGHT)

    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Trop de connexions échouées"), ("en", "Too many failed sign-ins")],
)
def test_the_lock_is_a_page_in_the_readers_language(
    member: User, language: str, words: str
) -> None:
    client = Client()
    for _ in range(LIMIT):
        response = login(client, "marc", "wrong", HTTP_ACCEPT_LANGUAGE=language)

    html = response.content.decode()
    assert response.status_code == 429
    assert f'<html lang="{language}">' in html
    assert words in html
    assert "15" in html  # the minutes to wait
    assert reverse("password_reset") in html
    assert response["Retry-After"] == str(15 * 60)


def test_below_the_limit_the_right_password_signs_in_and_the_count_starts_again(
    member: User,
) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        login(client, "marc", "wrong")

    assert login(client, "marc", RIGHT).status_code == 302
    assert not AccessAttempt.objects.filter(username="marc").exists()
    client.logout()
    for _ in range(LIMIT - 1):
        assert login(client, "marc", "wrong").status_code == 200
    assert login(client, "marc", RIGHT).status_code == 302


def test_the_account_is_locked_from_every_client(member: User) -> None:
    for n in range(LIMIT):
        login(Client(REMOTE_ADDR=f"10.0.0.{n + 1}"), "marc", "wrong")

    assert login(Client(REMOTE_ADDR="10.0.9.9"), "marc", RIGHT).status_code == 429


def test_the_client_is_locked_for_every_account(member: User, organiser: User) -> None:
    client = Client(REMOTE_ADDR="10.0.0.7")
    for n in range(LIMIT):
        login(client, f"nobody-{n}", "wrong")

    assert login(client, "olga", RIGHT).status_code == 429
    assert login(Client(REMOTE_ADDR="10.0.0.8"), "olga", RIGHT).status_code == 302


def test_counting_each_account_per_client_leaves_the_room_alone(
    settings: Settings, member: User, organiser: User
) -> None:
    settings.AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
    client = Client(REMOTE_ADDR="10.0.0.7")
    for _ in range(LIMIT):
        login(client, "marc", "wrong")

    assert login(client, "marc", RIGHT).status_code == 429
    assert login(client, "olga", RIGHT).status_code == 302


def test_signing_in_to_ones_own_account_does_not_reset_the_guessed_one(
    member: User, organiser: User, settings: Settings
) -> None:
    # Only the account counter here, so that the attacker's own sign-in is not refused.
    settings.AXES_LOCKOUT_PARAMETERS = ["username"]
    attacker = Client(REMOTE_ADDR="10.0.0.66")
    for _ in range(LIMIT - 1):
        login(attacker, "marc", "wrong")
    assert login(attacker, "olga", RIGHT).status_code == 302
    attacker.logout()

    assert login(attacker, "marc", "wrong").status_code == 429


def test_the_lock_ends_after_the_cool_off(member: User) -> None:
    client = Client()
    for _ in range(LIMIT):
        login(client, "marc", "wrong")
    assert login(client, "marc", RIGHT).status_code == 429

    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))

    assert login(client, "marc", RIGHT).status_code == 302


def test_behind_a_proxy_the_forwarded_address_is_the_client(
    settings: Settings, member: User, organiser: User
) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    for _ in range(LIMIT):
        login(Client(HTTP_X_FORWARDED_FOR="203.0.113.5"), "nobody", "wrong")

    assert login(Client(HTTP_X_FORWARDED_FOR="203.0.113.5"), "olga", RIGHT).status_code == 429
    assert login(Client(HTTP_X_FORWARDED_FOR="203.0.113.6"), "olga", RIGHT).status_code == 302


def test_without_proxies_a_made_up_forwarded_address_changes_nothing(
    member: User, organiser: User
) -> None:
    for n in range(LIMIT):
        login(Client(HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"), "nobody", "wrong")

    assert login(Client(HTTP_X_FORWARDED_FOR="198.51.100.99"), "olga", RIGHT).status_code == 429


def test_tests_start_with_no_attempts_left_over() -> None:
    # The attempts live in the database, which every test rolls back.
    assert not AccessAttempt.objects.exists()


def test_force_login_and_the_test_clients_login_still_work(member: User) -> None:
    client = Client()
    client.force_login(member)
    assert client.get(reverse("password_change")).status_code == 200
    assert Client().login(username="marc", password=RIGHT)


# --- the API token endpoint -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Trop de connexions échouées"), ("en", "Too many failed sign-ins")],
)
def test_the_token_endpoint_refuses_the_right_password_after_the_limit(
    language: str, words: str
) -> None:
    UserFactory.create(username="olga")
    client = APIClient()
    for _ in range(LIMIT - 1):
        assert token(client, "olga", "wrong").status_code == 400

    locked = token(client, "olga", "wrong", HTTP_ACCEPT_LANGUAGE=language)
    response = token(client, "olga", RIGHT, HTTP_ACCEPT_LANGUAGE=language)

    assert locked.status_code == 429
    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "locked_out" and response.json()["status"] == 429
    assert words in response.json()["detail"]
    assert response["Retry-After"] == str(15 * 60)
    assert not ApiToken.objects.exists()


def test_the_page_and_the_token_endpoint_share_the_count(member: User) -> None:
    for _ in range(LIMIT - 1):
        login(Client(), "marc", "wrong")
    assert token(APIClient(), "marc", "wrong").status_code == 429
    assert login(Client(), "marc", RIGHT).status_code == 429


def test_a_token_with_the_right_password_resets_the_count(member: User) -> None:
    for _ in range(LIMIT - 1):
        token(APIClient(), "marc", "wrong")
    assert token(APIClient(), "marc", RIGHT).status_code == 200
    assert not AccessAttempt.objects.filter(username="marc").exists()


# --- the password reset form ------------------------------------------------------------------


def reset(client: Client, email: str, **extra: Any) -> Any:
    return client.post(reverse("password_reset"), {"email": email}, **extra)


@pytest.fixture
def _reset_rates(settings: Settings) -> None:
    settings.PASSWORD_RESET_RATES = {"account": "2/hour", "client": "4/hour"}


@pytest.mark.usefixtures("_reset_rates")
@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Trop de demandes"), ("en", "Too many password reset requests")],
)
def test_the_reset_form_refuses_an_address_past_its_rate(
    member: User, language: str, words: str
) -> None:
    for n in range(2):
        response = reset(Client(REMOTE_ADDR=f"10.0.1.{n}"), "marc@example.org")
        assert response.status_code == 302
    assert len(mail.outbox) == 2

    response = reset(
        Client(REMOTE_ADDR="10.0.1.9"), "MARC@example.org", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 429
    assert words in response.content.decode()
    assert len(mail.outbox) == 2


@pytest.mark.usefixtures("_reset_rates")
def test_the_reset_form_refuses_a_client_past_its_rate(member: User) -> None:
    client = Client(REMOTE_ADDR="10.0.2.1")
    for n in range(4):
        assert reset(client, f"someone-{n}@example.org").status_code == 302

    assert reset(client, "marc@example.org").status_code == 429
    assert mail.outbox == []
    assert reset(Client(REMOTE_ADDR="10.0.2.2"), "marc@example.org").status_code == 302
    assert len(mail.outbox) == 1


@pytest.mark.usefixtures("_reset_rates")
def test_failed_sign_ins_do_not_stop_the_reset(member: User) -> None:
    client = Client()
    for _ in range(LIMIT):
        login(client, "marc", "wrong")

    assert reset(client, "marc@example.org").status_code == 302
    assert len(mail.outbox) == 1
