"""A waiting "standings changed" delivery stands for later changes only while it cannot leave
before them: the transaction that counts on it holds its row, so a worker taking it waits for
that commit and the receiver, told after it, reads the standings with the change. Another
transaction meanwhile does not wait: it writes its own delivery. PostgreSQL only (SQLite
writes one transaction at a time)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery, Event
from tests.factories import make_tournament
from tests.queue import database_queue
from tests.webhooks.receiver import Receiver, receiver
from tournaments.webhooks import standings_changed_announce, tournament_webhook_create

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["database_queue", "receiver"]  # fixtures


def test_a_worker_waits_for_the_transaction_that_counts_on_the_waiting_delivery(
    database_queue: None, receiver: Receiver, club: Club, organiser: User
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    tournament = make_tournament(club, 8)
    hook = tournament_webhook_create(tournament=tournament, url=receiver.url, by=organiser)
    standings_changed_announce(tournament)
    waiting = Delivery.objects.get(webhook=hook, event=Event.STANDINGS_CHANGED)

    holding, release, committed = threading.Event(), threading.Event(), threading.Event()
    told_after_commit: list[bool] = []
    errors: list[BaseException] = []
    original = receiver.answers

    def change() -> None:
        try:
            with transaction.atomic():
                standings_changed_announce(tournament)  # counts on the waiting row, locks it
                holding.set()
                release.wait(600)
            committed.set()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def worker() -> None:
        try:
            services.delivery_send.call(waiting.pk)
            told_after_commit.append(committed.is_set())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    changer = threading.Thread(target=change)
    changer.start()
    assert holding.wait(120)
    # Meanwhile another change does not wait for the locked row: it writes its own delivery.
    standings_changed_announce(tournament)
    assert Delivery.objects.filter(webhook=hook, event=Event.STANDINGS_CHANGED).count() == 2
    sender = threading.Thread(target=worker)
    sender.start()
    try:
        # The worker is stopped on the row's lock (PostgreSQL says so), nothing sent yet.
        for _ in range(1200):
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                )
                if cursor.fetchone()[0]:
                    break
            sender.join(0.1)
        else:
            pytest.fail("the worker did not wait for the lock")
        assert receiver.requests == []
    finally:
        release.set()
        changer.join()
        sender.join()
    assert errors == []
    assert original == []
    assert told_after_commit == [True]
    assert len(receiver.requests) == 1
    waiting.refresh_from_db()
    assert waiting.status == Delivery.Status.DELIVERED
