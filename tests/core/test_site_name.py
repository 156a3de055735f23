"""The mails name the site ("Bonjour, c'est Tarot Scores !", or ``SITE_NAME``), never the host
the request came by; allauth's pages and subjects read in sentence case, in both languages."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-tarot-secret"


def sign_up(client: Client, language: str = "fr") -> None:
    client.post(
        reverse("account_signup"),
        {
            "username": "sophie",
            "email": "sophie@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_the_sign_up_mail_names_the_site(client: Client) -> None:
    sign_up(client)
    sent = mail.outbox[-1]
    assert sent.body.startswith("Bonjour, c'est Tarot Scores !")
    assert "testserver" not in sent.body.splitlines()[0]
    assert sent.subject == "Confirmez votre adresse e-mail"


def test_the_site_name_is_a_setting(client: Client, settings: Settings) -> None:
    settings.SITE_NAME = "Tarot du Lac"
    sign_up(client, "en")
    assert mail.outbox[-1].body.startswith("Hello from Tarot du Lac!")
    assert mail.outbox[-1].subject == "Confirm your e-mail address"


def test_the_password_reset_mail_names_the_site(client: Client, member: User) -> None:
    client.post(reverse("password_reset"), {"email": member.email}, HTTP_ACCEPT_LANGUAGE="en")
    body = mail.outbox[-1].body
    assert "on Tarot Scores." in body and "The Tarot Scores team" in body
    assert "testserver" not in mail.outbox[-1].subject


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Confirm your e-mail address"), ("fr", "Confirmez votre adresse e-mail")],
)
def test_the_confirmation_page_in_sentence_case(client: Client, language: str, title: str) -> None:
    sign_up(client)
    link = re.search(r"https?://\S+/accounts/confirm-email/[-:\w]+/", str(mail.outbox[-1].body))
    assert link is not None
    html = client.get(link.group(0), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f"<title>{title}" in html
    assert "Confirm Email Address" not in html


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["E-mail addresses", "Make it the main address", "Add an e-mail address"]),
        ("fr", ["Adresses e-mail", "En faire l'adresse principale", "Ajouter une adresse e-mail"]),
    ],
)
def test_the_email_page_in_sentence_case(
    client: Client, member: User, language: str, words: list[str]
) -> None:
    EmailAddress.objects.create(user=member, email=member.email, verified=True, primary=True)
    client.force_login(member)
    html = client.get(reverse("account_email"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for word in words:
        assert word in html.replace("&#x27;", "'")
    for capitals in ("Email Addresses", "Make Primary", "Re-send Verification", "Add Email"):
        assert capitals not in html
