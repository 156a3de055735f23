"""Accounts a person makes alone (django-allauth): sign-up, the confirmation link, sign-in by
user name or e-mail address, password reset, e-mail change, the sign-up rate limit, and the rule
that an account starts a club only once its address is confirmed."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, Membership
from tarot_scores.core.errors import WHOLE, Refusal
from tests.clubs.helpers import field_errors

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-tarot-secret"


def sign_up(client: Client, **changes: str) -> object:
    data = {
        "username": "sophie",
        "email": "sophie@example.org",
        "password1": PASSWORD,
        "password2": PASSWORD,
        **changes,
    }
    return client.post(reverse("account_signup"), data, HTTP_ACCEPT_LANGUAGE="fr")


def link_in_last_mail() -> str:
    match = re.search(r"https?://\S+/accounts/confirm-email/[-:\w]+/", str(mail.outbox[-1].body))
    assert match is not None, mail.outbox[-1].body
    return match.group(0)


@pytest.mark.parametrize(("language", "heading"), [("fr", "Créer un compte"), ("en", "Sign up")])
def test_sign_up_page_in_the_site_frame(client: Client, language: str, heading: str) -> None:
    response = client.get(reverse("account_signup"), HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{language}">' in html
    assert 'class="site-header"' in html  # the site's base template
    assert f"<h1>{heading}</h1>" in html
    for name in ("username", "email", "password1", "password2"):
        assert f'name="{name}"' in html
        assert f'<label for="id_{name}"' in html


def test_sign_up_is_offered_on_the_home_and_login_pages(client: Client) -> None:
    signup = reverse("account_signup")
    assert signup in client.get(reverse("home")).content.decode()
    assert signup in client.get(reverse("login")).content.decode()


def test_sign_up_sends_a_link_that_confirms_and_signs_in(client: Client) -> None:
    response = sign_up(client)
    assert response.status_code == 302  # type: ignore[attr-defined]
    assert response["Location"] == reverse("account_email_verification_sent")  # type: ignore[index]
    user = User.objects.get(username="sophie")
    assert EmailAddress.objects.get(user=user).verified is False
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["sophie@example.org"]
    assert "_auth_user_id" not in client.session  # not signed in before the link is opened

    link = link_in_last_mail()
    page = client.get(link)
    assert page.status_code == 200
    confirmed = client.post(link)
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(user=user).verified is True
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"email": "not-an-address"}, "id_email", "Saisissez une adresse e-mail valide."),
        ({"password2": "something-else"}, "id_password2", None),
        ({"username": ""}, "id_username", "Ce champ est obligatoire."),
        ({"password1": "123", "password2": "123"}, "id_password1", None),
    ],
)
def test_bad_sign_up_says_why_beside_the_field_and_stores_nothing(
    client: Client, changes: dict[str, str], field: str, message: str | None
) -> None:
    response = sign_up(client, **changes)
    html = response.content.decode()  # type: ignore[attr-defined]
    assert response.status_code == 200  # type: ignore[attr-defined]
    errors = field_errors(html, field)
    assert errors, html
    if message is not None:
        assert message in errors
    assert not User.objects.exists()
    assert not EmailAddress.objects.exists()
    assert mail.outbox == []


def test_a_name_taken_is_refused_an_address_taken_is_not_told(client: Client, member: User) -> None:
    EmailAddress.objects.create(user=member, email=member.email, verified=True, primary=True)
    taken_name = sign_up(client, username="marc", email="other@example.org")
    assert field_errors(taken_name.content.decode(), "id_username")  # type: ignore[attr-defined]
    # An address already used answers as a new one would (nobody learns whose address it is);
    # its holder gets a mail saying an account exists, and nothing is stored.
    taken_email = sign_up(client, username="someone", email=member.email)
    assert taken_email["Location"] == reverse("account_email_verification_sent")  # type: ignore[index]
    assert mail.outbox[-1].to == [member.email]
    assert User.objects.count() == 1


def test_sign_up_is_rate_limited_per_client(client: Client, settings: Settings) -> None:
    settings.ACCOUNT_RATE_LIMITS = {"signup": "2/h/ip"}
    for n in range(2):
        sign_up(client, username=f"p{n}", email=f"p{n}@example.org")
        client.logout()
    refused = sign_up(client, username="p2", email="p2@example.org")
    assert refused.status_code == 429  # type: ignore[attr-defined]
    assert not User.objects.filter(username="p2").exists()
    # Another client address still signs up.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert sign_up(other, username="p3", email="p3@example.org").status_code == 302  # type: ignore[attr-defined]


def test_a_made_up_forwarded_address_does_not_escape_the_limit(
    client: Client, settings: Settings
) -> None:
    settings.ACCOUNT_RATE_LIMITS = {"signup": "1/h/ip"}
    sign_up(client, username="p0", email="p0@example.org", HTTP_X_FORWARDED_FOR="1.2.3.4")
    again = client.post(
        reverse("account_signup"),
        {
            "username": "p1",
            "email": "p1@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        HTTP_X_FORWARDED_FOR="5.6.7.8",
    )
    assert again.status_code == 429


@pytest.mark.parametrize("identifier", ["marc", "marc@example.org", "MARC@example.org"])
def test_sign_in_by_user_name_or_address(client: Client, member: User, identifier: str) -> None:
    response = client.post(reverse("login"), {"username": identifier, "password": "secret-pass"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(member.pk)


def test_login_page_says_name_or_address(client: Client) -> None:
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "User name or e-mail address" in html


def test_wrong_password_by_address_counts_for_the_lockout(
    client: Client, member: User, settings: Settings
) -> None:
    settings.AXES_FAILURE_LIMIT = 2
    for _n in range(2):
        client.post(reverse("login"), {"username": member.email, "password": "nope"})
    locked = client.post(reverse("login"), {"username": member.email, "password": "secret-pass"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


def test_password_reset_by_mail_for_a_signed_up_account(client: Client) -> None:
    sign_up(client)
    client.post(link_in_last_mail())
    client.logout()
    response = client.post(reverse("password_reset"), {"email": "sophie@example.org"})
    assert response.status_code == 302
    assert "/accounts/reset/" in mail.outbox[-1].body


def test_email_change_sends_a_link_to_the_new_address(client: Client) -> None:
    sign_up(client)
    client.post(link_in_last_mail())
    page = client.get(reverse("account_email"), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    assert "sophie@example.org" in page.content.decode()
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "sophie@new.example.org"}
    )
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["sophie@new.example.org"]
    added = EmailAddress.objects.get(email="sophie@new.example.org")
    assert added.verified is False
    client.post(link_in_last_mail())
    added.refresh_from_db()
    assert added.verified is True


def test_an_unconfirmed_account_cannot_start_a_club(client: Client) -> None:
    sign_up(client)
    user = User.objects.get(username="sophie")
    client.force_login(user)
    page = client.get(reverse("clubs:list")).content.decode()
    assert "Confirmez d'abord votre adresse e-mail" in page and 'name="name"' not in page
    response = client.post(reverse("clubs:list"), {"name": "Les Excuses", "public": "on"})
    assert response.status_code == 400
    assert not Club.objects.exists()
    with pytest.raises(Refusal) as refused:
        services.club_create(name="Les Excuses", by=user)
    assert refused.value.codes() == {WHOLE: ["email_unconfirmed"]}

    EmailAddress.objects.filter(user=user).update(verified=True)
    response = client.post(reverse("clubs:list"), {"name": "Les Excuses", "public": "on"})
    assert response.status_code == 302
    club = Club.objects.get()
    assert Membership.objects.get(club=club).user == user


def test_accounts_made_by_an_administrator_need_no_confirmation(
    client: Client, member: User
) -> None:
    client.force_login(member)
    response = client.post(reverse("clubs:list"), {"name": "Les Excuses", "public": "on"})
    assert response.status_code == 302


def test_an_address_confirmed_in_another_browser_is_said_on_the_login_page(
    client: Client,
) -> None:
    # The mail app opens the link in a browser without the sign-up's session: allauth sends it
    # to the login page with its "confirmed" message, which that page must show.
    sign_up(client)
    elsewhere = Client()
    confirmed = elsewhere.post(link_in_last_mail(), HTTP_ACCEPT_LANGUAGE="fr")
    assert confirmed["Location"] == reverse("account_login")
    login_page = elsewhere.get(confirmed["Location"], HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Vous avez confirmé sophie@example.org" in login_page
    assert "_auth_user_id" not in elsewhere.session


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Connectez-vous : la page des adresses e-mail de votre compte renvoie le lien"),
        ("en", "or a mistake in the address? Log in: your account"),
    ],
)
def test_the_link_sent_page_says_what_to_do_when_no_mail_comes(
    client: Client, language: str, words: str
) -> None:
    sign_up(client)
    page = client.get(
        reverse("account_email_verification_sent"), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert words in page
    assert f'href="{reverse("account_email")}"' in page
    assert "contact" not in page.lower()  # allauth's "contact us", with nobody to contact


def test_a_link_asked_again_too_soon_says_why_none_was_sent(client: Client) -> None:
    sign_up(client)
    client.post(link_in_last_mail())
    client.post(reverse("account_email"), {"action_add": "", "email": "sophie@new.example.org"})
    sent = len(mail.outbox)
    again = client.post(
        reverse("account_email"),
        {"action_send": "", "email": "sophie@new.example.org"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert len(mail.outbox) == sent  # allauth's few minutes between two links
    assert (
        "Un lien a été envoyé à sophie@new.example.org il y a quelques minutes"
        in again.content.decode()
    )


def test_the_last_address_of_an_account_stays(client: Client) -> None:
    sign_up(client)
    client.post(link_in_last_mail())
    response = client.post(
        reverse("account_email"),
        {"action_remove": "", "email": "sophie@example.org"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert EmailAddress.objects.filter(email="sophie@example.org").exists()
    assert "Vous ne pouvez pas retirer votre adresse e-mail principale" in response.content.decode()
    # With another address, the one that is not primary goes.
    client.post(reverse("account_email"), {"action_add": "", "email": "sophie@new.example.org"})
    client.post(reverse("account_email"), {"action_remove": "", "email": "sophie@new.example.org"})
    assert not EmailAddress.objects.filter(email="sophie@new.example.org").exists()


def test_the_menu_leads_to_the_address_and_password_pages(client: Client, member: User) -> None:
    client.force_login(member)
    menu = client.get(reverse("clubs:list"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'<a href="{reverse("account_email")}">E-mail et mot de passe</a>' in menu
    addresses = client.get(reverse("account_email"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f'<a href="{reverse("password_change")}">Changer mon mot de passe</a>' in addresses


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", "Aucun compte ne correspond à ce nom d&#x27;utilisateur ou à cette adresse e-mail"),
        ("en", "No account matches this user name or e-mail address with this password."),
    ],
)
def test_a_wrong_sign_in_names_both_ways_in_and_the_way_out(
    client: Client, member: User, language: str, words: str
) -> None:
    response = client.post(
        reverse("login"),
        {"username": member.email, "password": "nope"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    html = response.content.decode()
    assert words in html
    assert f'value="{member.email}"' in html  # what was typed stays
