"""Referees: organisers and a tournament's referees settle results; nobody else does."""

import pytest

from tests import factories
from tournaments.permissions import can_referee, is_referee


@pytest.mark.django_db
def test_referee_organiser_and_others():
    club = factories.ClubFactory.create()
    tournament = factories.make_tournament(club, 0)
    other_event = factories.make_tournament(club, 0, name="Autre")
    organiser = factories.UserFactory.create()
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    member = factories.UserFactory.create()
    factories.MembershipFactory.create(club=club, user=member, role="member")
    referee = factories.UserFactory.create()  # from another club, named for this event
    tournament.referees.add(referee)

    assert can_referee(organiser, tournament) and not is_referee(organiser, tournament)
    assert is_referee(referee, tournament) and can_referee(referee, tournament)
    assert not can_referee(referee, other_event)
    assert not can_referee(member, tournament)
    assert not can_referee(None, tournament)
