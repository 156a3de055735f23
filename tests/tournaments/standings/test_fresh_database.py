"""A festival's first second on a fresh PostgreSQL database: 1,000 players registered, 250
tables seated, and at once every projector polls. The database has gathered no statistics of
the new rows (autovacuum comes a minute later at best): seating the round gathers them
(``core.planner.statistics_refresh``), so that the reads of the standings are planned for
1,000 rows, not for a handful joined row by row (a nested loop over 1,000 x 1,000 rows: 0.1 s
a read). A poll holding the current ETag reads no standings row at all.

PostgreSQL only (its planner is what is tested): run with ``DATABASE_URL`` pointing at
PostgreSQL; skipped, saying so, on SQLite."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Player, label_key
from tests.factories import ClubFactory
from tournaments.models import Entry, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="the query planner under test is PostgreSQL's: run with DATABASE_URL=postgres://...",
    ),
]

TABLES = 250
HTMX = {"HX-Request": "true"}
BIG = {"tournaments_standing", "tournaments_entry"}


def _festival() -> Tournament:
    """1,000 players checked in, written as a bulk import writes them (no statistics
    gathered), then the first round seated by the service."""
    club = ClubFactory.create()
    tournament = registration_services.tournament_create(
        club=club,
        name="Festival",
        by=None,
        rounds=3,
        deals_per_round=8,
        seating_method=Tournament.Seating.RANDOM,
        seed=3,
    )
    players = Player.objects.bulk_create(
        Player(club=club, name=f"Joueur {n:04d}", label_key=label_key(f"Joueur {n:04d}", ""))
        for n in range(TABLES * 4)
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, checked_in=True) for p in players
    )
    round_services.round_seat_next(tournament=tournament, by=None)
    return Tournament.objects.get(pk=tournament.pk)


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    found = [plan]
    for child in plan.get("Plans", []):
        found += _nodes(child)
    return found


def _tables(node: dict[str, Any]) -> set[str]:
    return {n["Relation Name"] for n in _nodes(node) if "Relation Name" in n}


def _plan(sql: str) -> dict[str, Any]:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql)
        value = cursor.fetchone()[0]
    plans: list[dict[str, Any]] = json.loads(value) if isinstance(value, str) else value
    plan: dict[str, Any] = plans[0]["Plan"]
    return plan


def _looped_scans(plan: dict[str, Any]) -> list[str]:
    """Nested loops joining the two big tables whose inner side is not a lookup by index (a
    scan repeated, or materialised and filtered, once per outer row)."""
    bad = []
    for node in _nodes(plan):
        if node["Node Type"] != "Nested Loop" or not _tables(node) >= BIG:
            continue
        inner = node["Plans"][1]
        lookups = {"Index Scan", "Index Only Scan"}
        if inner["Node Type"] not in lookups or "Index Cond" not in inner:
            bad.append(f"{inner['Node Type']} on {sorted(_tables(inner))}")
    return bad


def test_a_poll_right_after_seating_250_tables(
    django_assert_num_queries: DjangoAssertNumQueries,
) -> None:
    tournament = _festival()
    assert tournament.ranked_players == TABLES * 4
    url = reverse("tournaments:projector", args=[tournament.pk])

    # The first board drawn: its reads of the standings are planned for what was written.
    with CaptureQueriesContext(connection) as drawn:
        first = Client().get(url, headers=HTMX)
    assert first.status_code == 200
    standings_reads = [
        q["sql"] for q in drawn.captured_queries if all(f'"{t}"' in q["sql"] for t in BIG)
    ]
    assert standings_reads, "the board reads the standings"
    for sql in standings_reads:
        assert _looped_scans(_plan(sql)) == [], sql

    # Every other board, holding that ETag: two reads by key, nothing of the standings.
    with (
        django_assert_num_queries(2),
        CaptureQueriesContext(connection) as polled,
    ):
        again = Client().get(url, headers={**HTMX, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    assert not [q for q in polled.captured_queries if "tournaments_standing" in q["sql"]]
