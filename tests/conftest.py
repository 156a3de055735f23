"""Fixtures shared by the whole suite."""

from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.utils import translation
from pytest_django import Settings


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Settings) -> None:
    # The production hashers are slow on purpose; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
