"""The access checks every concern's views share: log in first (htmx or not), and a private
club does not exist for outsiders."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.test import RequestFactory
from django_htmx.middleware import HtmxDetails

from tarot_scores.clubs.permissions import club_for, club_readable
from tarot_scores.core.access import login_first
from tarot_scores.core.htmx import HtmxHttpRequest
from tests.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def _request(*, htmx: bool = False) -> HtmxHttpRequest:
    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().get("/", headers=headers)
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    request.user = AnonymousUser()
    return request  # type: ignore[return-value]


def test_a_plain_request_is_redirected_to_the_login_page_and_back() -> None:
    response = login_first(_request(), "/games/7/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/games/7/"


def test_htmx_is_told_to_load_the_login_page_whole() -> None:
    response = login_first(_request(htmx=True), "/games/7/")
    assert response.status_code == 200
    assert response["HX-Redirect"] == "/accounts/login/?next=/games/7/"


def test_a_private_club_does_not_exist_for_outsiders() -> None:
    club = ClubFactory.create(public=False)
    request = _request()
    with pytest.raises(Http404):
        club_for(request, club.slug)
    with pytest.raises(Http404):
        club_for(request, "no-such-club")  # the same answer as a club that does not exist
    request.user = UserFactory.create()
    with pytest.raises(Http404):
        club_readable(request, club)
    request.user = MembershipFactory.create(club=club).user
    assert club_for(request, club.slug) == club
    club_readable(request, club)


def test_a_public_club_is_there_for_everyone() -> None:
    club = ClubFactory.create(public=True)
    assert club_for(_request(), club.slug) == club
