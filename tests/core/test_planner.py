"""The planner's statistics after a bulk write (``core.planner``): gathered on PostgreSQL for
50 rows or more, in the writer's transaction (its own new rows counted); nothing on SQLite or
for a few rows."""

from __future__ import annotations

import pytest
from django.db import connection
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Player, label_key
from tarot_scores.core.planner import BULK_ROWS, statistics_refresh
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="ANALYZE is PostgreSQL's: run with DATABASE_URL=postgres://...",
)


def _players(count: int) -> None:
    club = ClubFactory.create()
    Player.objects.bulk_create(
        Player(club=club, name=f"Joueur {n}", label_key=label_key(f"Joueur {n}", ""))
        for n in range(count)
    )


def _rows_the_planner_knows() -> float:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE oid = %s::regclass",
            [Player._meta.db_table],
        )
        return float(cursor.fetchone()[0])


def test_a_few_rows_or_sqlite_cost_no_query(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    with django_assert_num_queries(0):
        statistics_refresh(Player, rows=BULK_ROWS - 1)
    if connection.vendor != "postgresql":
        with django_assert_num_queries(0):
            statistics_refresh(Player, rows=10_000)


@postgresql_only
def test_a_bulk_write_is_analyzed_with_its_own_new_rows() -> None:
    _players(BULK_ROWS + 30)
    statistics_refresh(Player, rows=BULK_ROWS + 30)
    # A small table is read whole: the planner knows exactly the rows this transaction sees.
    assert _rows_the_planner_knows() == Player.objects.count() >= BULK_ROWS + 30
    _players(BULK_ROWS)
    statistics_refresh(Player, rows=BULK_ROWS)
    assert _rows_the_planner_knows() == Player.objects.count()
    known = _rows_the_planner_knows()
    _players(10)
    statistics_refresh(Player, rows=10)  # a few rows: left to autovacuum
    assert _rows_the_planner_knows() == known < Player.objects.count()
