"""The members page: organisers invite people (an e-mail the holder answers while signed in),
change roles, and propose which of the club's own players an account plays as. Nothing about
an account changes until its holder accepts; the organiser never sees an invitation's link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, Invitation, Membership, Player
from tests.clubs.helpers import field_errors
from tests.factories import UserFactory, make_club

pytestmark = pytest.mark.django_db


def members_url(club: Club) -> str:
    return reverse("clubs:members", args=[club.slug])


def add(client: Client, club: Club, identifier: str, language: str = "fr", **extra: str) -> Any:
    data = {"action": "add", "add-identifier": identifier, "add-role": "member", **extra}
    return client.post(members_url(club), data, HTTP_ACCEPT_LANGUAGE=language)


def mailed_link() -> str:
    """The invitation link of the last mail sent."""
    found = re.search(r"https?://\S+/accounts/invitations/\S+/", str(mail.outbox[-1].body))
    assert found is not None
    return found.group(0)


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


def test_an_existing_account_is_invited_and_joins_only_when_it_accepts(
    client: Client, club: Club, organiser: User
) -> None:
    zoe = UserFactory.create(username="zoe", email="zoe@example.org")
    client.force_login(organiser)
    response = add(client, club, "Zoe@Example.org", "en", **{"add-role": "organiser"})
    assert response.status_code == 302
    assert not club.memberships.filter(user=zoe).exists()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["Zoe@Example.org"]  # as typed
    assert club.name in mail.outbox[0].subject
    link = mailed_link()
    page = client.get(members_url(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # Typed as an address: the page does not say that it is zoe's.
    assert "An invitation was sent to Zoe@Example.org. Nothing changes" in page
    assert "zoe (" not in page
    assert link.rsplit("/", 2)[1] not in page  # the organiser never sees the link

    zoe_client = Client()
    zoe_client.force_login(zoe)
    assert zoe_client.get(link).status_code == 200
    assert zoe_client.post(link, {"action": "accept"}).status_code == 302
    assert club.memberships.get(user=zoe).role == Membership.Role.ORGANISER


def test_someone_new_gets_the_invitation_and_makes_their_own_account(
    client: Client, club: Club, organiser: User, players: list[Player]
) -> None:
    client.force_login(organiser)
    response = add(client, club, "nina.leroy@example.org", **{"add-player": str(players[2].pk)})
    assert response.status_code == 302
    assert not User.objects.filter(email="nina.leroy@example.org").exists()
    assert mail.outbox[0].to == ["nina.leroy@example.org"]
    assert "/accounts/reset/" not in str(mail.outbox[0].body)
    link = mailed_link()
    page = client.get(members_url(club)).content.decode()
    assert link.rsplit("/", 2)[1] not in page and "/accounts/reset/" not in page

    newcomer = Client()
    form_page = newcomer.get(link, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="username"' in form_page and 'name="password1"' in form_page
    done = newcomer.post(
        link,
        {
            "action": "create",
            "username": "nina",
            "password1": "tarot-du-jeudi-42",
            "password2": "tarot-du-jeudi-42",
        },
    )
    assert done.status_code == 302
    nina = User.objects.get(username="nina")
    assert nina.email == "nina.leroy@example.org"
    assert club.memberships.get(user=nina).role == Membership.Role.MEMBER
    players[2].refresh_from_db()
    assert players[2].user == nina
    assert newcomer.get(reverse("clubs:members", args=[club.slug])).status_code == 403
    assert Client().login(username="nina", password="tarot-du-jeudi-42")


def test_an_invitation_for_another_account_changes_nothing(
    client: Client, club: Club, organiser: User, outsider: User
) -> None:
    zoe = UserFactory.create(username="zoe", email="zoe@example.org")
    client.force_login(organiser)
    add(client, club, "zoe")
    link = mailed_link()
    client.force_login(outsider)
    assert client.post(link, {"action": "accept"}).status_code == 403
    assert not club.memberships.filter(user__in=[zoe, outsider]).exists()
    anonymous = Client()
    response = anonymous.post(link, {"action": "accept"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_holder_may_decline_and_the_organiser_cancel(
    client: Client, club: Club, organiser: User
) -> None:
    zoe = UserFactory.create(username="zoe", email="zoe@example.org")
    client.force_login(organiser)
    add(client, club, "zoe")
    zoe_client = Client()
    zoe_client.force_login(zoe)
    assert zoe_client.post(mailed_link(), {"action": "decline"}).status_code == 302
    assert zoe_client.post(mailed_link(), {"action": "accept"}).status_code == 409
    assert not club.memberships.filter(user=zoe).exists()

    add(client, club, "zoe")
    invitation = Invitation.objects.get(user=zoe, status=Invitation.Status.PENDING)
    assert "zoe" in zoe_client.get(reverse("invitations:list")).content.decode()
    cancel = {"action": "cancel", "invitation": str(invitation.pk)}
    assert client.post(members_url(club), cancel).status_code == 302
    assert zoe_client.post(mailed_link(), {"action": "accept"}).status_code == 409
    assert not club.memberships.filter(user=zoe).exists()


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


def test_change_role_at_once_and_player_by_invitation(
    client: Client, club: Club, organiser: User, member: User, players: list[Player]
) -> None:
    client.force_login(organiser)
    membership = club.memberships.get(user=member)
    assert update(client, membership, "organiser", str(players[0].pk)).status_code == 302
    membership.refresh_from_db()
    players[0].refresh_from_db()
    assert membership.role == Membership.Role.ORGANISER
    assert players[0].user is None  # not before marc accepts
    assert mail.outbox[-1].to == ["marc@example.org"]

    marc = Client()
    marc.force_login(member)
    assert marc.post(mailed_link(), {"action": "accept"}).status_code == 302
    assert Player.objects.get(user=member) == players[0]

    # No player any more: at once.
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


def test_a_guest_of_the_clubs_tournament_is_not_offered_to_its_members(
    client: Client, club: Club, organiser: User, member: User
) -> None:
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    guest = other.players.get(name="Bruno")
    guest.clubs.add(club)  # registered as a guest in one of this club's tournaments
    client.force_login(organiser)
    page = client.get(members_url(club)).content.decode()
    assert f'<option value="{guest.pk}"' not in page
    membership = club.memberships.get(user=member)

    response = update(client, membership, "member", str(guest.pk), "en")

    assert response.status_code == 400
    assert field_errors(response.content.decode(), f"id_m{membership.pk}-player")
    added = add(client, club, "someone@example.org", "en", **{"add-player": str(guest.pk)})
    assert added.status_code == 400
    assert Invitation.objects.filter(player=guest).count() == 0


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


def test_an_email_shared_by_two_accounts_is_an_invitation_to_the_address(
    client: Client, club: Club, organiser: User
) -> None:
    # An address is never looked up (the answer would tell who has an account): the invitation
    # goes to the address, and whoever opens its link accepts it with their own account.
    UserFactory.create(username="lea", email="famille@example.org")
    UserFactory.create(username="leon", email="Famille@example.org")
    client.force_login(organiser)

    assert add(client, club, "famille@example.org", "en").status_code == 302
    invitation = club.invitations.get()
    assert invitation.user_id is None and invitation.email == "famille@example.org"
    assert mail.outbox[-1].to == ["famille@example.org"]
    assert add(client, club, "leon", "en").status_code == 302  # the user name names him
    assert mail.outbox[-1].to == ["Famille@example.org"]


def test_an_account_without_email_finds_the_invitation_once_signed_in(
    client: Client, club: Club, organiser: User, outsider: User
) -> None:
    client.force_login(organiser)
    assert add(client, club, "otto", "en").status_code == 302
    assert mail.outbox == []
    page = client.get(members_url(club), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "otto has no e-mail address" in page
    invitation = Invitation.objects.get(user=outsider)
    assert invitation.token not in page

    otto = Client()
    otto.force_login(outsider)
    clubs = otto.get(reverse("clubs:list"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Une invitation attend votre réponse." in clubs
    listed = otto.get(reverse("invitations:list")).content.decode()
    answer = reverse("invitations:answer", args=[invitation.token])
    assert answer in listed
    assert otto.post(answer, {"action": "accept"}).status_code == 302
    assert club.memberships.filter(user=outsider).exists()


def test_an_account_made_from_an_invitation_signs_in_by_its_address_in_any_case(
    client: Client, club: Club, organiser: User
) -> None:
    client.force_login(organiser)
    assert add(client, club, "Nina.Leroy@Example.org").status_code == 302
    newcomer = Client()
    newcomer.post(
        mailed_link(),
        {
            "action": "create",
            "username": "nina",
            "password1": "tarot-du-jeudi-42",
            "password2": "tarot-du-jeudi-42",
        },
    )
    nina = User.objects.get(username="nina")
    # The invitation's mail proved the address: it is the account's, confirmed.
    assert EmailAddress.objects.get(user=nina).verified is True
    for typed in ("nina.leroy@example.org", "Nina.Leroy@Example.org"):
        signed_in = Client()
        response = signed_in.post(
            reverse("login"), {"username": typed, "password": "tarot-du-jeudi-42"}
        )
        assert response.status_code == 302, typed
        assert signed_in.session["_auth_user_id"] == str(nina.pk)


def test_an_invitation_to_an_address_already_confirmed_elsewhere_still_makes_the_account(
    client: Client, club: Club, organiser: User, member: User
) -> None:
    EmailAddress.objects.create(user=member, email="nina@example.org", verified=True, primary=True)
    client.force_login(organiser)
    add(client, club, "nina@example.org")
    Client().post(
        mailed_link(),
        {
            "action": "create",
            "username": "nina",
            "password1": "tarot-du-jeudi-42",
            "password2": "tarot-du-jeudi-42",
        },
    )
    nina = User.objects.get(username="nina")
    assert not EmailAddress.objects.filter(user=nina).exists()  # one address, one account
    assert club.memberships.filter(user=nina).exists()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Cette adresse e-mail n'est pas valide : vérifiez-la (comme nom@exemple.fr)."),
        ("en", "This e-mail address is not valid: check it (like name@example.org)."),
    ],
)
def test_a_mistyped_address_is_called_an_address(
    client: Client, club: Club, organiser: User, language: str, message: str
) -> None:
    client.force_login(organiser)
    response = add(client, club, "marc@", language)
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_add-identifier") == [message]
    assert not Invitation.objects.exists()


def test_the_players_to_choose_read_as_a_french_list(
    client: Client, club: Club, organiser: User
) -> None:
    services.player_create(club=club, name="Zoé")
    client.force_login(organiser)
    page = client.get(members_url(club)).content.decode()
    start = page.index('id="id_add-player"')
    options = re.findall(r'<option value="\d+">([^<]+)</option>', page[start:])
    assert options[:6] == ["Aurélie", "Bruno", "Chloé", "Denis", "Émile", "Zoé"]
