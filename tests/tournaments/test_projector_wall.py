"""The wall at a festival: the projector lists at most PROJECTOR_TABLES tables still playing
(those furthest behind, and how many others), and reads the same number of queries for 20 or
200 players, the tables' progress in one aggregate query and one page of the ranking."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.games import services as game_services
from tests.factories import ClubFactory, make_tournament, play
from tournaments.models import Round, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.views.results import PROJECTOR_TABLES

pytestmark = pytest.mark.django_db


def festival(players: int) -> tuple[Tournament, Round]:
    tournament = make_tournament(ClubFactory.create(), 0, name="Festival", deals_per_round=2)
    for n in range(players):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1:03d}", checked_in=True
        )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    return tournament, round_


def enter(state: round_selectors.TableState, deals: int) -> None:
    rng = random.Random(state.table.number)
    ids = [p.pk for p in state.players]
    for number in range(1, deals + 1):
        payload = random_tarot_payload(rng, ids, number)
        game_services.deal_record(game=state.table.game, payload=payload, by=None, number=number)


def test_the_tables_furthest_behind_in_table_order_and_how_many_play() -> None:
    _tournament, round_ = festival(4 * (PROJECTOR_TABLES + 8))
    states = round_selectors.round_tables(round_=round_)
    done, behind, going = states[:6], states[-2:], states[6:-2]
    for state in done:
        enter(state, 2)
    for state in going:
        enter(state, 1)

    listed, playing = round_selectors.tables_playing(round_=round_, limit=PROJECTOR_TABLES)

    assert playing == len(states) - 6
    numbers = [t.number for t in listed]
    assert len(numbers) == PROJECTOR_TABLES and numbers == sorted(numbers)
    # The two tables without a deal first, then the lowest numbers of those with one.
    expected = sorted(
        [s.table.number for s in behind] + [s.table.number for s in going][: PROJECTOR_TABLES - 2]
    )
    assert numbers == expected
    assert [t.entered for t in listed if t.number in {s.table.number for s in behind}] == [0, 0]


def test_the_wall_shows_the_tables_furthest_behind_and_counts_the_others() -> None:
    tournament, round_ = festival(4 * (PROJECTOR_TABLES + 3))
    play(round_, deals=1)
    html = Client().get(reverse("tournaments:projector", args=[tournament.pk])).content.decode()
    assert len(re.findall(r'<li data-table="\d+">', html)) == PROJECTOR_TABLES
    assert "et 3 autres tables" in html


WALL_QUERIES = 8


@pytest.mark.parametrize("which", ["page", "board"])
def test_the_wall_costs_the_same_for_20_or_200_players(
    which: str, db: Any, django_assert_max_num_queries: Any
) -> None:
    counts = []
    for players in (20, 200):
        tournament, round_ = festival(players)
        play(round_, deals=1)
        headers = {"HX-Request": "true"} if which == "board" else {}
        url = reverse("tournaments:projector", args=[tournament.pk])
        with (
            django_assert_max_num_queries(WALL_QUERIES),
            CaptureQueriesContext(connection) as captured,
        ):
            assert Client().get(url, headers=headers).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
