"""Referees: organisers and a tournament's referees settle results; nobody else does."""

import pytest
from django.urls import reverse

from tests import factories
from tests.api.helpers import messages_of
from tournaments.rules import can_referee, is_referee


@pytest.mark.django_db
def test_referee_organiser_and_others() -> None:
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


@pytest.mark.django_db
def test_organisers_name_and_remove_referees_on_the_page() -> None:
    club = factories.ClubFactory.create(public=False)
    tournament = factories.make_tournament(club, 0)
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    member = factories.UserFactory.create(username="rita", email="rita@example.org")
    factories.MembershipFactory.create(club=club, user=member)
    stranger = factories.UserFactory.create(username="remi")
    page = factories.signed_in_client(organiser)
    url = reverse("tournaments:referees", args=[tournament.pk])

    # By user name (any case); an e-mail address is not looked up (test_token_lifecycle).
    by_email = page.post(url, {"action": "add", "referee-identifier": "rita@example.org"})
    assert by_email.status_code == 400 and not is_referee(member, tournament)
    named = page.post(url, {"action": "add", "referee-identifier": "RITA"})
    assert named.status_code == 302
    assert is_referee(member, tournament)
    refused = page.post(
        url, {"action": "add", "referee-identifier": "remi"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert refused.status_code == 400
    assert "not a member of this private club" in refused.content.decode()
    assert not is_referee(stranger, tournament)

    referee_page = factories.signed_in_client(member)
    assert referee_page.get(url).status_code == 200
    assert referee_page.post(url, {"action": "remove", "user": member.pk}).status_code == 403
    assert page.post(url, {"action": "remove", "user": member.pk}).status_code == 302
    assert not is_referee(member, tournament)
    assert referee_page.get(url).status_code == 403


@pytest.mark.django_db
def test_organisers_name_referees_through_the_api() -> None:
    club = factories.ClubFactory.create()
    tournament = factories.make_tournament(club, 0)
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    rita = factories.UserFactory.create(username="rita")
    url = f"/api/v1/tournaments/{tournament.pk}/referees/"
    api = factories.token_client(organiser, "en")

    assert (
        factories.token_client(rita).post(url, {"user": "rita"}, format="json").status_code == 403
    )
    added = api.post(url, {"user": "rita"}, format="json")
    assert added.status_code == 201
    assert added.json() == [{"id": rita.pk, "username": "rita"}]
    assert factories.token_client(rita).get(url).status_code == 200
    again = api.post(url, {"user": "rita"}, format="json")
    assert again.status_code == 400 and list(messages_of(again.json())) == ["user"]
    unknown = api.post(url, {"user": "nobody"}, format="json")
    assert unknown.status_code == 400
    assert messages_of(unknown.json()) == {
        "user": [
            "No account has this user name. An e-mail address is not looked up: ask the "
            "person for the user name they sign in with."
        ]
    }
    assert api.delete(f"{url}{rita.pk}/").status_code == 204
    assert api.delete(f"{url}{rita.pk}/").status_code == 404
    assert not is_referee(rita, tournament)
