"""People and clubs for the club pages: an organiser, a member, an outsider, a superuser, and a
public and a private club with five players each."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tarot_scores.clubs.models import Club, Player
from tests.clubs.helpers import make_club
from tests.factories import UserFactory


@pytest.fixture
def organiser(db: None) -> User:
    return UserFactory.create(username="olga", first_name="Olga", email="olga@example.org")


@pytest.fixture
def member(db: None) -> User:
    return UserFactory.create(username="marc", email="marc@example.org")


@pytest.fixture
def outsider(db: None) -> User:
    return UserFactory.create(username="otto")


@pytest.fixture
def superuser(db: None) -> User:
    return UserFactory.create(username="root", is_superuser=True, is_staff=True)


@pytest.fixture
def club(organiser: User, member: User) -> Club:
    return make_club("Tarot Club de Lyon", organiser, member)


@pytest.fixture
def private_club(organiser: User, member: User) -> Club:
    return make_club("Cercle privé", organiser, member, public=False)


@pytest.fixture
def players(club: Club) -> list[Player]:
    return list(club.players.order_by("name"))
