"""One ratings job waiting per club, however many deals ask (``ratings.waiting``): the
database's unique key on ``RatingsJobWaiting`` decides, not a look before enqueueing; the job
takes the row as it starts, so a deal saved after that asks for the next; and on PostgreSQL a
save that found a job waiting has its deal rated by that job, even when it commits while the
job starts."""

from __future__ import annotations

import datetime
import threading
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from tarot_scores.clubs.models import Club
from tarot_scores.games import services
from tarot_scores.games.models import Game
from tarot_scores.ratings.jobs import ratings_catch_up
from tarot_scores.ratings.models import RatingsBehind, RatingsJobWaiting, RatingStep
from tarot_scores.ratings.waiting import ratings_job_taken
from tests.factories import ClubFactory, PlayerFactory, make_game
from tests.queue import DATABASE_QUEUE, database_queue, run_waiting_jobs
from tests.stats.test_ratings import prise

__all__ = ["database_queue"]  # a fixture

AUTUMN = datetime.date(2025, 10, 4)


def _ratings_jobs_waiting() -> list[int]:
    """The club of each ratings job waiting in the queue."""
    return sorted(
        row.args_kwargs["kwargs"]["club_id"]
        for row in DBTaskResult.objects.filter(queue_name="ratings", status=TaskResultStatus.READY)
    )


def _table(club: Club) -> tuple[Game, list[int]]:
    players = [PlayerFactory.create(clubs=[club]) for _ in range(4)]
    game = make_game(club=club, players=players, date=AUTUMN)
    return game, [p.pk for p in players]


def _record(game: Game, payload: dict[str, Any]) -> None:
    services.deal_record(game=game, payload=payload, by=None)


@pytest.mark.django_db
def test_many_deals_queue_one_ratings_job_per_club(database_queue: None) -> None:
    north, south = ClubFactory.create(), ClubFactory.create()
    game_n, seated_n = _table(north)
    game_s, seated_s = _table(south)
    for n in range(15):
        _record(game_n, prise(seated_n[n % 4], 40 + n))
        if n % 3 == 0:
            _record(game_s, prise(seated_s[n % 4], 50 - n))

    assert _ratings_jobs_waiting() == sorted([north.pk, south.pk])
    assert RatingsJobWaiting.objects.count() == 2
    assert RatingsBehind.objects.count() == 2 * (15 + 5)  # every deal noted, club + federation

    results = run_waiting_jobs()

    assert sum(r["rated"] for r in results) == 2 * 20  # every deal, in its club and federation
    assert not RatingsBehind.objects.exists()
    assert not RatingsJobWaiting.objects.exists()
    # The next deal asks for a job again: the one that ran took its row as it started.
    _record(game_n, prise(seated_n[0], 70))
    assert _ratings_jobs_waiting() == [north.pk]


@pytest.mark.django_db
def test_a_second_waiting_row_of_a_club_is_refused_by_the_database() -> None:
    club = ClubFactory.create()
    RatingsJobWaiting.objects.create(club=club)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingsJobWaiting.objects.create(club=club)


@pytest.mark.django_db
def test_a_deal_saved_once_the_job_has_started_asks_for_the_next(database_queue: None) -> None:
    club = ClubFactory.create()
    game, seated = _table(club)
    _record(game, prise(seated[0], 50))
    (row,) = DBTaskResult.objects.filter(queue_name="ratings")
    # The job starts (its first step), then a table saves a deal before it reads the notes.
    ratings_job_taken(club_id=club.pk)
    assert not RatingsJobWaiting.objects.exists()
    _record(game, prise(seated[1], 60))
    assert _ratings_jobs_waiting() == [club.pk, club.pk]  # the one running, and the next
    row.delete()  # (the first, as if it had run)
    run_waiting_jobs()
    assert not RatingsBehind.objects.exists()
    assert RatingStep.objects.filter(club=club).values("deal").distinct().count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_save_that_found_a_job_waiting_is_rated_by_it_even_committing_late(
    settings: Any,
) -> None:
    """A table's save finds the club's job waiting, so asks for none; the job starts before
    the save commits. The job's start waits for that commit, then rates the deal: no note is
    left behind with no job to take it. PostgreSQL only: SQLite writes one transaction at a
    time, so the save's check and its commit are never split there."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: nothing to split")
    settings.TASKS_BACKEND = "database"
    settings.TASKS = DATABASE_QUEUE
    club = ClubFactory.create()
    game, seated = _table(club)
    _record(game, prise(seated[0], 50))  # the club's job is now waiting
    assert RatingsJobWaiting.objects.filter(club=club).exists()
    saved = threading.Event()
    commit = threading.Event()
    errors: list[BaseException] = []

    def late_save() -> None:
        try:
            with transaction.atomic():
                _record(game, prise(seated[1], 61))
                saved.set()
                commit.wait(120)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    def the_job() -> None:
        try:
            ratings_catch_up.call(club_id=club.pk)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    save = threading.Thread(target=late_save)
    save.start()
    assert saved.wait(120)
    job = threading.Thread(target=the_job)
    job.start()
    job.join(5)  # a job that did not wait would be done by now, without the late deal
    commit.set()
    save.join(120)
    job.join(120)
    assert errors == []
    assert not job.is_alive()
    # Every deal rated; nothing waits for a job that will never come.
    assert not RatingsBehind.objects.filter(club=club).exists()
    assert RatingStep.objects.filter(club=club).values("deal").distinct().count() == 2
