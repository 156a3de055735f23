"""Fixtures shared by the whole suite."""

import pytest
from pytest_django import Settings


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings: Settings) -> None:
    # The production hashers are slow on purpose; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
