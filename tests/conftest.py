"""Fixtures shared by the whole suite: settings for tests, and people and clubs (an organiser,
a member, an outsider, a superuser, a public and a private club with five players each)."""

import os
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from pytest_django import Settings

from tarot_scores.clubs.models import Club, Player
from tarot_scores.settings import tasks_from
from tests.factories import UserFactory, make_club

# Property tests that leave the number of examples to the profile: few while working (`make
# test`), the full 10,000 deals in CI (`.ci/run` sets HYPOTHESIS_PROFILE=ci).
hypothesis_settings.register_profile("dev", max_examples=200)
hypothesis_settings.register_profile("ci", max_examples=10_000)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Settings) -> None:
    # The production hashers are slow on purpose; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _results_never_lag(settings: Settings) -> None:
    # Every reader sees a deal at once; tests of the lag itself (tests/core/test_results.py)
    # set their own window and clock.
    settings.RESULTS_LAG_SECONDS = 0


@pytest.fixture(autouse=True)
def _jobs_run_at_once(settings: Settings) -> None:
    # A job asked for in a test runs there and then (the immediate backend), inside the test's
    # transaction; the tests of the queue itself (tests/core/test_jobs.py) run a real worker.
    settings.TASKS_BACKEND = "immediate"
    settings.TASKS = tasks_from("immediate", "")


@pytest.fixture(autouse=True)
def _site_language_afterwards() -> Iterator[None]:
    # LocaleMiddleware leaves the last request's language active in the thread; tests that ask
    # for English must not change the language of the tests that run after them.
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    # Cached pages are keyed on database state that each test rebuilds from scratch.
    yield
    cache.clear()


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
