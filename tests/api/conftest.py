"""The API tests' table (tests.factories.build_api_table): a club with a game of four, and an
API client for each kind of caller the API tells apart: anonymous, signed in with a token but in
no club (outsider), member not seated, member seated at the game, organiser, superuser."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.factories import ApiTable, build_api_table


@pytest.fixture
def table(db: None) -> ApiTable:
    return build_api_table()


@pytest.fixture
def private_table(db: None) -> ApiTable:
    return build_api_table(public=False, tag="p")


@pytest.fixture
def make_table(db: None) -> Callable[..., ApiTable]:
    return build_api_table
