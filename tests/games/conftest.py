"""The game pages' table (tests.factories.build_table): a club with a game of four and one user
for each role the game pages tell apart."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.factories import Table, build_table


@pytest.fixture
def table(db: None) -> Table:
    return build_table()


@pytest.fixture
def private_table(db: None) -> Table:
    return build_table(public=False)


@pytest.fixture
def make_table(db: None) -> Callable[..., Table]:
    return build_table
