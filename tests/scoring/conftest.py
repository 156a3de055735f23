"""tests/scoring runs without Django: the engine is pure Python.

The suite-wide autouse fixture in tests/conftest.py asks for pytest-django's ``settings``; it is
replaced here by a no-op so that these tests also run with ``-p no:django`` (in seconds, with no
settings module and no database).
"""

import pytest


@pytest.fixture(autouse=True)
def _fast_password_hasher() -> None:
    """Nothing to speed up: the scoring tests create no users."""


@pytest.fixture(autouse=True)
def _site_language_afterwards() -> None:
    """No request sets a language here."""


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Nothing is cached here."""
