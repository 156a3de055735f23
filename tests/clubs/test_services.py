"""The clubs' services keep their rules even when two requests race; invitations change
nothing until their holder accepts, and only a player's own club proposes an account for him."""

from __future__ import annotations

from typing import Any

import pytest

from tarot_scores.clubs import selectors, services
from tarot_scores.clubs.models import Invitation, Membership, Player
from tarot_scores.core.errors import Refusal
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_club_name_taken_at_the_same_instant_is_the_same_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The other request's club is stored after this one looked: the database refuses the row,
    # and the service answers as if it had seen it.
    ClubFactory.create(name="Tarot Club de Lyon", slug="autre")
    looks: list[bool] = []
    real = selectors.club_name_taken

    def first_look_misses(**kwargs: Any) -> bool:
        looks.append(True)
        return len(looks) > 1 and real(**kwargs)

    monkeypatch.setattr(selectors, "club_name_taken", first_look_misses)

    with pytest.raises(Refusal) as refused:
        services.club_create(name="Tarot Club de Lyon", by=None)

    assert refused.value.codes() == {"name": ["club_name_taken"]}
    assert len(looks) == 2


def test_an_organiser_may_step_down_while_another_remains() -> None:
    club = ClubFactory.create()
    first, second = (
        MembershipFactory.create(club=club, role=Membership.Role.ORGANISER) for _ in range(2)
    )

    services.membership_update(membership=first, role=Membership.Role.MEMBER)

    with pytest.raises(Refusal) as refused:
        services.membership_update(membership=second, role=Membership.Role.MEMBER)
    assert refused.value.codes() == {"role": ["last_organiser"]}
    second.refresh_from_db()
    assert second.role == Membership.Role.ORGANISER


def test_inviting_a_member_again_is_refused_and_keeps_their_role() -> None:
    organiser = MembershipFactory.create(role=Membership.Role.ORGANISER)

    with pytest.raises(Refusal) as refused:
        services.invitation_create(
            club=organiser.club, by=None, role=Membership.Role.MEMBER, user=organiser.user
        )

    assert refused.value.codes() == {"user": ["already_member"]}
    organiser.refresh_from_db()
    assert organiser.role == Membership.Role.ORGANISER


def test_a_player_belongs_to_the_club_that_made_him() -> None:
    club = ClubFactory.create()
    player = services.player_create(club=club, name="Chloé")
    assert player.club == club
    assert list(player.clubs.all()) == [club]


def test_an_invitation_changes_nothing_until_its_holder_accepts() -> None:
    club = ClubFactory.create()
    player = services.player_create(club=club, name="Chloé")
    holder = UserFactory.create(username="chloe")
    invitation = services.invitation_create(
        club=club, by=None, role=Membership.Role.MEMBER, user=holder, player=player
    )
    player.refresh_from_db()
    assert player.user is None
    assert not Membership.objects.filter(club=club, user=holder).exists()

    someone_else = UserFactory.create(username="carla")
    with pytest.raises(Refusal) as refused:
        services.invitation_accept(invitation=invitation, user=someone_else)
    assert refused.value.codes() == {"non_field_errors": ["invitation_other_account"]}

    services.invitation_accept(invitation=invitation, user=holder)
    player.refresh_from_db()
    assert player.user == holder
    assert Membership.objects.get(club=club, user=holder).role == Membership.Role.MEMBER
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED

    with pytest.raises(Refusal) as again:
        services.invitation_accept(invitation=invitation, user=holder)
    assert again.value.codes() == {"non_field_errors": ["invitation_answered"]}


def test_only_the_players_own_club_proposes_an_account_for_him() -> None:
    home, host = ClubFactory.create(), ClubFactory.create()
    guest = services.player_create(club=home, name="Chloé")
    guest.clubs.add(host)  # a guest entry in the host's tournament
    with pytest.raises(Refusal) as refused:
        services.invitation_create(club=host, by=None, user=UserFactory.create(), player=guest)
    assert refused.value.codes() == {"player": ["not_own_player"]}
    with pytest.raises(Refusal) as unlink:
        services.player_unlink(club=host, player=guest)
    assert unlink.value.codes() == {"player": ["not_own_player"]}


def test_a_player_with_an_account_is_not_offered_to_another() -> None:
    club = ClubFactory.create()
    owner = UserFactory.create(username="bruno")
    player = PlayerFactory.create(name="Bruno", clubs=[club], user=owner)
    with pytest.raises(Refusal) as refused:
        services.invitation_create(club=club, by=None, user=UserFactory.create(), player=player)
    assert refused.value.codes() == {"player": ["player_has_account"]}


def test_a_player_given_an_account_meanwhile_is_not_taken_over() -> None:
    club = ClubFactory.create()
    player = services.player_create(club=club, name="Denis")
    first, second = UserFactory.create(username="d1"), UserFactory.create(username="d2")
    invitation = services.invitation_create(club=club, by=None, user=first, player=player)
    services.player_link_user(player=player, user=second)
    with pytest.raises(Refusal) as refused:
        services.invitation_accept(invitation=invitation, user=first)
    assert refused.value.codes() == {"player": ["player_has_account"]}
    assert Player.objects.get(pk=player.pk).user == second


def test_an_email_invitation_is_accepted_by_whoever_signs_in_with_its_link() -> None:
    club = ClubFactory.create()
    invitation = services.invitation_create(
        club=club, by=None, role=Membership.Role.ORGANISER, email="nina@example.org"
    )
    nina = services.user_create(
        username="nina", password="tarot-du-jeudi-42", email="nina@example.org"
    )
    services.invitation_accept(invitation=invitation, user=nina)
    assert Membership.objects.get(club=club, user=nina).role == Membership.Role.ORGANISER


def test_declined_and_cancelled_invitations_cannot_be_accepted() -> None:
    club = ClubFactory.create()
    holder = UserFactory.create()
    for status in (Invitation.Status.DECLINED, Invitation.Status.CANCELLED):
        invitation = services.invitation_create(club=club, by=None, role="member", user=holder)
        services.invitation_close(invitation=invitation, status=status)
        with pytest.raises(Refusal):
            services.invitation_accept(invitation=invitation, user=holder)
    assert not Membership.objects.filter(club=club, user=holder).exists()
