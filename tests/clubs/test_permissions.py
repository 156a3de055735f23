"""The request's ``Access``: each role and seat is read once per request, never carried over to
another reader (the permission rules themselves are tested page by page in test_access.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import RequestFactory
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Club

pytestmark = pytest.mark.django_db


def test_a_request_reads_a_role_once(
    club: Club, organiser: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    request = RequestFactory().get("/")
    request.user = organiser

    with django_assert_num_queries(1):
        assert permissions.can_view_club(request, club)
        assert permissions.is_member(request, club)
        assert permissions.is_organiser(request, club)
    assert permissions.access(request) is permissions.access(request)


def test_a_bare_user_is_read_for_each_question(
    club: Club, member: User, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(2):
        assert permissions.is_member(member, club)
        assert not permissions.is_organiser(member, club)


def test_another_user_of_the_same_request_gets_their_own_access(
    club: Club, organiser: User, member: User
) -> None:
    # The API authenticates its own user (a token) after the session's was asked about.
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    assert not permissions.is_member(request, club)
    request.user = organiser
    assert permissions.is_organiser(request, club)
    request.user = member
    assert permissions.is_member(request, club) and not permissions.is_organiser(request, club)
