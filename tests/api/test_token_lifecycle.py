"""Accounts and tokens: a password changed or reset revokes the account's API tokens and its
other sessions; a holder lists and revokes his own tokens (page and API); invitations expire;
no answer tells whether an e-mail address has an account."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import Settings

from tarot_scores.api.models import ApiToken
from tarot_scores.api.tokens import token_issue
from tarot_scores.clubs import selectors, services
from tarot_scores.clubs.models import Invitation, Membership
from tarot_scores.core.errors import Refusal
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    UserFactory,
    make_tournament,
    signed_in_client,
    token_client,
)

pytestmark = pytest.mark.django_db

PASSWORD = "an-old-password-1234"


def holder() -> User:
    user = UserFactory.create(username="olga", email="olga@example.org")
    user.set_password(PASSWORD)
    user.save()
    return user


def clubs_create(key: str) -> int:
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.post(
        "/api/v1/clubs/", {"name": f"Club {key[:6]}"}, content_type="application/json"
    )
    return response.status_code


def test_a_password_change_revokes_tokens_and_other_sessions() -> None:
    user = holder()
    key = token_issue(user=user)
    assert clubs_create(key) == 201
    here, elsewhere = Client(), Client()
    for client in (here, elsewhere):
        assert client.login(username="olga", password=PASSWORD)

    response = here.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "a-new-password-5678",
            "new_password2": "a-new-password-5678",
        },
    )
    assert response.status_code == 302

    assert clubs_create(key) == 401  # the old token creates nothing any more
    assert not ApiToken.objects.filter(user=user).exists()
    assert here.get(reverse("account_tokens")).status_code == 200  # this session goes on
    other = elsewhere.get(reverse("account_tokens"))
    assert other.status_code == 302 and "/login/" in other["Location"]  # the other one ended


def test_a_password_reset_revokes_tokens() -> None:
    user = holder()
    token_issue(user=user)
    user.set_password("a-reset-password-999")
    user.save()
    assert not ApiToken.objects.filter(user=user).exists()


def test_saving_an_account_without_changing_its_password_keeps_tokens() -> None:
    user = holder()
    token_issue(user=user)
    user.first_name = "Olga"
    user.save()
    Client().login(username="olga", password=PASSWORD)  # last_login is saved too
    assert ApiToken.objects.filter(user=user).count() == 1


def test_a_hash_from_an_older_django_upgraded_at_sign_in_keeps_tokens(settings: Settings) -> None:
    """Django re-hashes at sign-in a password hashed with fewer iterations (an older release's
    default): the password is the same, so the tokens stay. The production hasher here (the
    suite's fast one is no upgrade)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    user = holder()
    older = PBKDF2PasswordHasher().encode(PASSWORD, "oldsalt1234567890", iterations=600_000)
    user.password = older
    user.save()
    key = token_issue(user=user)

    assert Client().login(username="olga", password=PASSWORD)
    user.refresh_from_db()
    assert user.password != older  # the hash was upgraded...
    assert user.password.startswith("pbkdf2_sha256$")
    assert clubs_create(key) == 201  # ...and the token still works


def test_setting_the_same_password_again_keeps_tokens() -> None:
    user = holder()
    token_issue(user=user)
    user.set_password(PASSWORD)  # a new salt, so a new hash string: the same password
    user.save()
    assert ApiToken.objects.filter(user=user).count() == 1


def test_a_password_made_unusable_revokes_tokens() -> None:
    user = holder()
    token_issue(user=user)
    user.set_unusable_password()
    user.save()
    assert not ApiToken.objects.filter(user=user).exists()


def test_a_reactivated_account_starts_without_its_old_tokens() -> None:
    user = holder()
    key = token_issue(user=user)
    user.is_active = False
    user.save(update_fields=["is_active"])
    user.is_active = True
    user.save()
    assert not ApiToken.objects.filter(user=user).exists()
    assert clubs_create(key) == 401


def test_a_holder_lists_and_revokes_his_tokens_through_the_api() -> None:
    user, other = holder(), UserFactory.create()
    first = token_issue(user=user)
    token_issue(user=user)
    theirs = token_issue(user=other)
    api = token_client(None)
    api.credentials(HTTP_AUTHORIZATION=f"Token {first}")

    listed = api.get("/api/v1/auth/tokens/")
    assert listed.status_code == 200
    assert [t["prefix"] for t in listed.json()["results"]] == [
        t.prefix for t in ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
    ]
    assert all(set(t) == {"id", "prefix", "created_at"} for t in listed.json()["results"])

    their_id = ApiToken.objects.get(user=other).pk
    assert api.delete(f"/api/v1/auth/tokens/{their_id}/").status_code == 404
    assert clubs_create(theirs) == 201

    mine = ApiToken.objects.get(user=user, prefix=first[:8]).pk
    assert api.delete(f"/api/v1/auth/tokens/{mine}/").status_code == 204
    assert api.get("/api/v1/auth/tokens/").status_code == 401  # that was this very token
    assert token_client(None).get("/api/v1/auth/tokens/").status_code == 401


def test_the_tokens_page_lists_and_revokes() -> None:
    user, other = holder(), UserFactory.create()
    key = token_issue(user=user)
    theirs = ApiToken.objects.get(pk=ApiToken.objects.create(user=other, digest="x" * 64).pk)
    client = signed_in_client(user)
    page = client.get(reverse("account_tokens")).content.decode()
    assert key[:8] in page
    token = ApiToken.objects.get(user=user)
    assert client.post(reverse("account_tokens"), {"token": theirs.pk}).status_code == 404
    assert client.post(reverse("account_tokens"), {"token": "²"}).status_code == 404
    assert client.post(reverse("account_tokens"), {"token": token.pk}).status_code == 302
    assert clubs_create(key) == 401
    assert 'id="no-tokens"' in client.get(reverse("account_tokens")).content.decode()
    assert ApiToken.objects.filter(pk=theirs.pk).exists()


def test_an_invitation_expires_after_the_days_set(settings: Settings) -> None:
    settings.INVITATION_DAYS = 14
    club = ClubFactory.create()
    user = holder()
    invitation = services.invitation_create(
        club=club, by=None, role=Membership.Role.MEMBER, user=user
    )
    assert list(selectors.invitations_for(user=user)) == [invitation]
    Invitation.objects.filter(pk=invitation.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=14, minutes=1)
    )
    invitation.refresh_from_db()
    assert invitation.is_expired and not invitation.is_pending
    assert list(selectors.invitations_for(user=user)) == []
    with pytest.raises(Refusal) as refused:
        services.invitation_accept(invitation=invitation, user=user)
    assert refused.value.codes() == {"non_field_errors": ["invitation_expired"]}
    assert not Membership.objects.filter(club=club, user=user).exists()

    client = signed_in_client(user)
    url = reverse("invitations:answer", args=[invitation.token])
    assert 'id="invitation-expired"' in client.get(url).content.decode()
    assert client.post(url, {"action": "accept"}).status_code == 409
    assert not Membership.objects.filter(club=club, user=user).exists()

    settings.INVITATION_DAYS = 30  # a setting: a club that wants longer gets longer
    assert Invitation.objects.get(pk=invitation.pk).is_pending


def test_naming_a_referee_by_e_mail_says_nothing_about_the_account(settings: Settings) -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 0)
    organiser = MembershipFactory.create(
        club=club, user=UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    holder()
    page = signed_in_client(organiser)
    url = reverse("tournaments:referees", args=[tournament.pk])
    answers = [
        page.post(url, {"referee-identifier": email}, headers={"Accept-Language": "en"})
        for email in ("olga@example.org", "nobody@example.org")
    ]
    assert [a.status_code for a in answers] == [400, 400]
    # The same page but for the address typed back and the form's CSRF token.
    bodies = [
        re.sub(r"[A-Za-z0-9]{64}", "", a.content.decode().replace(e, ""))
        for a, e in zip(answers, ("olga@example.org", "nobody@example.org"), strict=True)
    ]
    assert bodies[0] == bodies[1]
    assert not tournament.referees.exists()

    api = token_client(organiser, "en")
    api_url = f"/api/v1/tournaments/{tournament.pk}/referees/"
    by_api = [
        api.post(api_url, {"user": e}, format="json") for e in ("olga@example.org", "x@example.org")
    ]
    assert [a.status_code for a in by_api] == [400, 400]
    assert by_api[0].json() == by_api[1].json()
    # By user name: the account it names.
    assert api.post(api_url, {"user": "olga"}, format="json").status_code in (200, 201)
    assert tournament.referees.filter(username="olga").exists()


def test_inviting_by_e_mail_does_not_show_whose_address_it_is() -> None:
    club = ClubFactory.create()
    organiser = MembershipFactory.create(
        club=club, user=UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    holder()
    client = signed_in_client(organiser)
    url = reverse("clubs:members", args=[club.slug])
    response = client.post(
        url, {"action": "add", "add-identifier": "olga@example.org", "add-role": "member"}
    )
    assert response.status_code in (200, 302)
    invitation = Invitation.objects.get(club=club)
    assert invitation.user_id is None and invitation.email == "olga@example.org"
    assert "olga</p>" not in client.get(url).content.decode()
