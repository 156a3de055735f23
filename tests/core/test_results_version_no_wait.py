"""The results version moves without a deal's transaction waiting for the club row: while
another transaction holds the row (another table's deal, between its bump and its commit), a
deal is saved and committed, and its bump follows the commit. PostgreSQL only: SQLite writes one
transaction at a time, whatever the site does."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import results_changed
from tarot_scores.games import services
from tarot_scores.games.models import Deal
from tests.factories import garde, make_game

pytestmark = pytest.mark.django_db(transaction=True)


def version(club: Club) -> int:
    return Club.objects.values_list("stats_version", flat=True).get(pk=club.pk)


def test_a_deal_commits_while_another_transaction_holds_the_club_row() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    game = make_game(players=4)
    club = game.club
    taker = game.seats.first().player_id  # type: ignore[union-attr]
    holding, release = threading.Event(), threading.Event()
    saved = threading.Event()
    errors: list[BaseException] = []

    def other_table() -> None:
        try:
            with transaction.atomic():
                results_changed(club_id=club.pk)  # holds the club row until its commit
                holding.set()
                release.wait(600)  # longer than the test waits for the deal
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def this_table() -> None:
        try:
            services.deal_record(game=game, payload=garde(taker), by=None)
            saved.set()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    before = version(club)
    holder = threading.Thread(target=other_table)
    holder.start()
    assert holding.wait(120)
    saver = threading.Thread(target=this_table)
    saver.start()
    try:
        # The deal's transaction commits while the other still holds the row: its save did not
        # wait for it (its bump waits after the commit, holding nothing).
        for _ in range(1200):
            if Deal.objects.filter(game=game).exists():
                break
            saver.join(0.1)
        assert Deal.objects.filter(game=game).exists(), "the deal's transaction waited"
    finally:
        release.set()
        holder.join()
        saver.join()
    assert errors == []
    assert saved.is_set()
    assert version(club) >= before + 2  # the other's bump and this deal's, after its commit
