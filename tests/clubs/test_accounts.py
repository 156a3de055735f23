"""Logging in and out, and the password pages, in the site's own templates and languages."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tests.clubs.helpers import field_errors, non_field_errors

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "heading"), [("fr", "<h1>Connexion</h1>"), ("en", "<h1>Log in</h1>")]
)
def test_login_page(client: Client, language: str, heading: str) -> None:
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200
    assert heading in html
    assert f'<html lang="{language}">' in html
    assert reverse("password_reset") in html
    assert 'name="username"' in html and 'name="password"' in html


def test_login_goes_to_the_clubs(client: Client, member: User) -> None:
    response = client.post(reverse("login"), {"username": "marc", "password": "secret-pass"})
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:list")


def test_login_follows_next(client: Client, member: User) -> None:
    response = client.post(
        reverse("login"), {"username": "marc", "password": "secret-pass", "next": "/clubs/x/"}
    )
    assert response["Location"] == "/clubs/x/"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_wrong_password_is_said_in_the_page_language(
    client: Client, member: User, language: str
) -> None:
    response = client.post(
        reverse("login"),
        {"username": "marc", "password": "nope"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    errors = non_field_errors(response.content.decode())
    assert len(errors) == 1
    expected = "Aucun compte ne correspond" if language == "fr" else "No account matches"
    assert errors[0].startswith(expected)


def test_logout_is_a_post_that_goes_home(client: Client, member: User) -> None:
    client.force_login(member)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in client.session


def test_logged_out_page_renders(client: Client, settings: Settings) -> None:
    settings.LOGOUT_REDIRECT_URL = None
    response = client.post(reverse("logout"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "<h1>Logged out</h1>" in response.content.decode()


def test_password_reset_round_trip(client: Client, member: User) -> None:
    page = client.get(reverse("password_reset"), HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>Forgotten your password?</h1>" in page.content.decode()

    response = client.post(reverse("password_reset"), {"email": member.email})
    assert response["Location"] == reverse("password_reset_done")
    assert client.get(reverse("password_reset_done")).status_code == 200
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/reset/\S+/", str(mail.outbox[0].body))
    assert link is not None
    assert "marc" in mail.outbox[0].body

    form = client.get(link.group(0), follow=True)
    set_url = form.redirect_chain[-1][0]
    assert 'name="new_password1"' in form.content.decode()
    done = client.post(
        set_url, {"new_password1": "Excuse-21-petit", "new_password2": "Excuse-21-petit"}
    )
    assert done["Location"] == reverse("password_reset_complete")
    complete = client.get(done["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Password saved</h1>" in complete
    assert client.login(username="marc", password="Excuse-21-petit")


def test_a_used_or_forged_link_says_so(client: Client, member: User) -> None:
    response = client.get(
        reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "nope"}),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert "This link has expired or was already used." in response.content.decode()


def test_password_change_needs_login_then_works(client: Client, member: User) -> None:
    url = reverse("password_change")
    assert client.get(url)["Location"].startswith(reverse("login"))

    client.force_login(member)
    assert client.get(url).status_code == 200
    mismatch = client.post(
        url,
        {"old_password": "secret-pass", "new_password1": "Garde-sans-7", "new_password2": "x"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert field_errors(mismatch.content.decode(), "id_new_password2") == [
        "The two password fields didn’t match."
    ]
    response = client.post(
        url,
        {
            "old_password": "secret-pass",
            "new_password1": "Garde-sans-7",
            "new_password2": "Garde-sans-7",
        },
    )
    assert response["Location"] == reverse("password_change_done")
    assert client.get(response["Location"]).status_code == 200
