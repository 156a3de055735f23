"""The task queue as tests drive it: the database backend switched on for one test, and its
waiting jobs run in the test's own process and transaction, by the engine's own code
(django-tasks-db's ``Worker.run_task``, after the claim its loop makes). The tests of the
worker process itself (tests/core/test_jobs.py) start real ``manage.py worker`` processes."""

from typing import Any

import pytest
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult
from pytest_django import Settings

from tarot_scores.settings import tasks_from

DATABASE_QUEUE = tasks_from("database", "")


@pytest.fixture
def database_queue(settings: Settings) -> None:
    """Jobs wait in the database for a worker, as in production (the suite runs them at once
    otherwise: tests/conftest.py)."""
    settings.TASKS_BACKEND = "database"
    settings.TASKS = DATABASE_QUEUE


def run_waiting_jobs(*, due_now: bool = False) -> list[Any]:
    """Run the jobs due now, oldest first, as a worker would; return their results (a failed
    job's is None). ``due_now``: also the retries still waiting for their time."""
    worker = db_worker.Worker(
        queue_names=["*"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    )
    results: list[Any] = []
    while True:
        if due_now:
            DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
        row = DBTaskResult.objects.ready().order_by("enqueued_at").first()
        if row is None:
            return results
        row.claim(worker.worker_id)
        worker.run_task(row)
        row.refresh_from_db()
        results.append(row.return_value)
