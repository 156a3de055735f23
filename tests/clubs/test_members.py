"""The members page: organisers add people (an invitation link for someone new), change roles,
and link accounts to the club's players."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core import mail
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, Membership, Player
from tests.clubs.helpers import field_errors
from tests.factories import UserFactory, make_club

pytestmark = pytest.mark.django_db


def members_url(club: Club) -> str:
    return reverse("clubs:members", args=[club.slug])


def add(client: Client, club: Club, identifier: str, language: str = "fr", **extra: str) -> Any:
    data = {"action": "add", "add-identifier": identifier, "add-role": "member", **extra}
    return client.post(members_url(club), data, HTTP_ACCEPT_LANGUAGE=language)


def test_page_lists_members_with_role_and_player(
    client: Client, club: Club, organiser: User, member: User, players: list[Player]
) -> None:
    services.player_link_user(player=players[1], user=member)
    client.force_login(organiser)
    page = client.get(members_url(club)).content.decode()
    assert "olga" in page and "marc" in page
    membership = club.memberships.get(user=member)
    assert f'<option value="{players[1].pk}" selected>' in page
    assert f'id="id_m{membership.pk}-role"' in page


def test_add_an_existing_account_by_user_name_or_email(
    client: Client, club: Club, organiser: User, outsider: User
) -> None:
    client.force_login(organiser)
    response = add(client, club, "OTTO")
    assert response.status_code == 302
    assert club.memberships.get(user=outsider).role == Membership.Role.MEMBER
    assert mail.outbox == []

    other = UserFactory.create(username="zoe", email="zoe@example.org")
    assert add(client, club, "Zoe@Example.org", **{"add-role": "organiser"}).status_code == 302
    assert club.memberships.get(user=other).role == Membership.Role.ORGANISER


def test_add_someone_new_by_email_sends_a_link_to_choose_a_password(
    client: Client, club: Club, organiser: User, players: list[Player]
) -> None:
    client.force_login(organiser)
    response = add(client, club, "nina.leroy@example.org", **{"add-player": str(players[2].pk)})
    assert response.status_code == 302

    user = User.objects.get(email="nina.leroy@example.org")
    assert user.username == "ninaleroy"
    assert not user.has_usable_password()
    assert club.memberships.get(user=user).role == Membership.Role.MEMBER
    players[2].refresh_from_db()
    assert players[2].user == user

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["nina.leroy@example.org"]
    assert club.name in mail.outbox[0].subject
    link = re.search(r"https?://\S+/accounts/reset/\S+/", str(mail.outbox[0].body))
    assert link is not None

    # The organiser sees a link for the same account, to pass on some other way. (Its token
    # is made when the page is drawn: it carries that second, so it may differ from the mail's.)
    page = client.get(members_url(club)).content.decode()
    uid_part = link.group(0).rsplit("/", 2)[0] + "/"  # .../accounts/reset/<uid>/
    shown = re.search(re.escape(uid_part) + r"[0-9a-z]+-[0-9a-f]+/", page)
    assert shown is not None
    assert default_token_generator.check_token(user, shown.group(0).rsplit("/", 2)[1])

    # The link lets the new member choose a password, then log in.
    client.logout()
    form_page = client.get(link.group(0), follow=True)
    assert form_page.status_code == 200
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(
        set_url, {"new_password1": "tarot-du-jeudi-42", "new_password2": "tarot-du-jeudi-42"}
    )
    assert done.status_code == 302
    assert client.login(username="ninaleroy", password="tarot-du-jeudi-42")


def test_new_user_names_do_not_collide(client: Client, club: Club, organiser: User) -> None:
    UserFactory.create(username="nina")
    client.force_login(organiser)
    add(client, club, "nina@example.org")
    assert User.objects.filter(email="nina@example.org").get().username == "nina2"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "fr",
            "Aucun compte ne porte ce nom d'utilisateur. Pour ajouter quelqu'un de nouveau, "
            "saisissez son adresse e-mail.",
        ),
        (
            "en",
            "No account has this user name. To add someone new, enter their e-mail address.",
        ),
    ],
)
def test_unknown_user_name_is_refused(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    response = add(client, club, "personne", language)
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_add-identifier") == [message]
    assert not User.objects.filter(username="personne").exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "marc est déjà membre : changez son rôle dans la liste."),
        ("en", "marc is already a member: change their role in the list."),
    ],
)
def test_adding_a_member_twice_is_refused(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    response = add(client, club, "marc", language)
    assert field_errors(response.content.decode(), "id_add-identifier") == [message]


def update(
    client: Client, membership: Membership, role: str, player: str = "", language: str = "fr"
) -> Any:
    prefix = f"m{membership.pk}"
    data = {
        "action": "update",
        "membership": str(membership.pk),
        f"{prefix}-role": role,
        f"{prefix}-player": player,
    }
    return client.post(members_url(membership.club), data, HTTP_ACCEPT_LANGUAGE=language)


def test_change_role_and_linked_player(
    client: Client, club: Club, organiser: User, member: User, players: list[Player]
) -> None:
    client.force_login(organiser)
    membership = club.memberships.get(user=member)
    assert update(client, membership, "organiser", str(players[0].pk)).status_code == 302
    membership.refresh_from_db()
    players[0].refresh_from_db()
    assert membership.role == Membership.Role.ORGANISER
    assert players[0].user == member

    # Another player of the club moves the link; none removes it.
    update(client, membership, "organiser", str(players[3].pk))
    assert Player.objects.get(user=member) == players[3]
    update(client, membership, "member", "")
    assert not Player.objects.filter(user=member).exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Un club a besoin d'au moins un organisateur."),
        ("en", "A club needs at least one organiser."),
    ],
)
def test_last_organiser_stays(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    membership = club.memberships.get(user=organiser)
    response = update(client, membership, "member", language=language)
    assert response.status_code == 400
    assert field_errors(response.content.decode(), f"id_m{membership.pk}-role") == [message]
    membership.refresh_from_db()
    assert membership.role == Membership.Role.ORGANISER


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Ce compte joue déjà sous le nom de Bruno dans un autre club."),
        ("en", "This account already plays as Bruno at another club."),
    ],
)
def test_an_account_playing_elsewhere_is_not_relinked(
    client: Client, club: Club, organiser: User, member: User, language: str, message: str
) -> None:
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    elsewhere = other.players.get(name="Bruno")
    services.player_link_user(player=elsewhere, user=member)
    client.force_login(organiser)
    membership = club.memberships.get(user=member)
    here = club.players.get(name="Chloé")

    response = update(client, membership, "member", str(here.pk), language)

    assert field_errors(response.content.decode(), f"id_m{membership.pk}-player") == [message]
    elsewhere.refresh_from_db()
    assert elsewhere.user == member


def test_membership_of_another_club_cannot_be_changed(
    client: Client, club: Club, organiser: User
) -> None:
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    foreign = other.memberships.first()
    assert foreign is not None
    client.force_login(organiser)
    data = {"action": "update", "membership": str(foreign.pk), f"m{foreign.pk}-role": "member"}
    assert client.post(members_url(club), data).status_code == 404


def test_unknown_action_is_refused(client: Client, club: Club, organiser: User) -> None:
    client.force_login(organiser)
    assert client.post(members_url(club), {"action": "drop"}).status_code == 403


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "fr",
            "Plusieurs comptes utilisent cette adresse e-mail : saisissez le nom d'utilisateur.",
        ),
        ("en", "Several accounts use this e-mail address: enter the user name."),
    ],
)
def test_an_email_shared_by_two_accounts_asks_for_the_user_name(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    UserFactory.create(username="lea", email="famille@example.org")
    UserFactory.create(username="leon", email="Famille@example.org")
    client.force_login(organiser)
    members_before = club.memberships.count()

    response = add(client, club, "famille@example.org", language)

    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_add-identifier") == [message]
    assert club.memberships.count() == members_before
    assert add(client, club, "leon", language).status_code == 302  # the user name is enough


def test_adding_an_account_that_plays_at_another_club_keeps_its_player(
    client: Client, club: Club, organiser: User
) -> None:
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    elsewhere = other.players.get(name="Bruno")
    newcomer = UserFactory.create(username="nina")
    services.player_link_user(player=elsewhere, user=newcomer)
    client.force_login(organiser)
    here = club.players.get(name="Chloé")

    response = add(client, club, "nina", "en", **{"add-player": str(here.pk)})

    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_add-player") == [
        "This account already plays as Bruno at another club."
    ]
    assert not club.memberships.filter(user=newcomer).exists()
    elsewhere.refresh_from_db()
    assert elsewhere.user == newcomer
