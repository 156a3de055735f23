"""Readiness (``/readyz``) per queue by kind: how many jobs are due and how long the oldest has
waited, and any job running too long; a queue past its limits is ``behind`` (200, degraded),
so a stuck slot is seen by a monitor rather than guessed."""

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from pytest_django import Settings

from tarot_scores.core.jobs import enqueue, worker_alive
from tests.core.jobs_for_tests import always_fails, note_run
from tests.queue import database_queue

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture


def _ready() -> dict[str, Any]:
    answer = Client().get(reverse("readyz"))
    assert answer.status_code == 200  # a queue behind never takes the server out
    body: dict[str, Any] = answer.json()
    return body


def test_each_queue_says_its_jobs_due_and_how_long_the_oldest_waited(
    database_queue: None, settings: Settings
) -> None:
    settings.TASKS_WAITING_LIMIT_SECONDS = 300
    worker_alive("w1")
    enqueue(note_run, folder="/nonexistent", n=1)  # the ratings' queue
    enqueue(note_run, folder="/nonexistent", n=2)
    # A retry waiting for its time is not due: not counted, however old.
    later = timezone.now() + datetime.timedelta(hours=1)
    always_fails.using(run_after=later).enqueue(note="later")

    ready = _ready()
    assert (ready["status"], ready["queue"]) == ("ok", "ok")
    assert set(ready["queues"]) == {"mail", "webhooks", "ratings", "documents"}
    assert ready["queues"]["ratings"]["waiting"] == 2
    assert ready["queues"]["ratings"]["oldest_waiting_seconds"] < 300
    assert ready["queues"]["mail"] == {"waiting": 0, "oldest_waiting_seconds": None}
    assert ready["running_too_long"] == []

    # The oldest has waited ten minutes: the queue is behind.
    first = DBTaskResult.objects.filter(queue_name="ratings").order_by("enqueued_at").first()
    assert first is not None
    DBTaskResult.objects.filter(pk=first.pk).update(
        enqueued_at=timezone.now() - datetime.timedelta(minutes=10)
    )
    ready = _ready()
    assert (ready["status"], ready["queue"]) == ("degraded", "behind")
    assert ready["queues"]["ratings"]["oldest_waiting_seconds"] >= 600


def test_a_job_running_too_long_is_named(database_queue: None, settings: Settings) -> None:
    settings.TASKS_RUNNING_LIMIT_SECONDS = 900
    worker_alive("w1")
    enqueue(note_run, folder="/nonexistent", n=1)
    row = DBTaskResult.objects.get()
    DBTaskResult.objects.filter(pk=row.pk).update(
        status=TaskResultStatus.RUNNING,
        started_at=timezone.now() - datetime.timedelta(minutes=5),
        worker_ids=["w1"],
    )
    assert _ready()["running_too_long"] == []  # five minutes: within the limit

    DBTaskResult.objects.filter(pk=row.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=20)
    )
    ready = _ready()
    assert (ready["status"], ready["queue"]) == ("degraded", "behind")
    [late] = ready["running_too_long"]
    assert (late["queue"], late["job"]) == ("ratings", str(row.pk))
    assert late["running_seconds"] >= 1200
