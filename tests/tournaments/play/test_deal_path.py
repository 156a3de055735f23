"""The deal's path at a tournament table, measured: the queries of one deal saved on the table's
page (htmx) and of one confirmation, where the tournament asks for confirmation, with the jobs
waiting for a worker as in production (the ratings job is not run inside the request). The
figures are written in docs/architecture.md ("A tournament table's deal"); this test keeps them
bounded.

Run ``pytest tests/tournaments/play/test_deal_path.py -s`` to print them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tarot_scores.games.models import Deal
from tests.queue import database_queue
from tests.tournaments.play.test_pages_confirmation import event, link, phone
from tests.tournaments.views.test_pages_world import deal_post

pytestmark = pytest.mark.django_db


__all__ = ["database_queue"]  # a fixture


def test_a_deal_saved_and_confirmed_at_a_table_costs_a_bounded_number_of_queries(
    database_queue: None,
) -> None:
    e = event()
    state = e.tables[0]
    taker = phone(state, 0)
    defender = phone(state, 2)
    taker.get(link(state))
    with CaptureQueriesContext(connection) as saved:
        answer = taker.post(
            link(state), deal_post(state.players[0].pk, 1), headers={"HX-Request": "true"}
        )
    assert answer.status_code == 200
    deal = Deal.objects.get(game=state.table.game, number=1)
    with CaptureQueriesContext(connection) as confirmed:
        answer = defender.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert answer.status_code == 302
    print(f"\ndeal saved (htmx): {len(saved)} queries; confirmed: {len(confirmed)} queries")
    assert len(saved) <= 90
    assert len(confirmed) <= 40
