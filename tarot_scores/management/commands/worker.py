"""Run the jobs of the task queue (docs/operations.md, "The worker").

With the database backend (the default) this is django-tasks-db's ``db_worker`` plus what it
leaves to the site: the worker says it is alive every few seconds, and gives back to the queue
the jobs of workers that went quiet (killed in the middle of a job). With ``TASKS_BACKEND=rq``
it is django-rq's ``rqworker`` on the site's queue, with RQ's scheduler (the retries' delays),
and the same heartbeat on Redis: the jobs of RQ workers that died go back to the queue
(``core.rq_workers``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser
from django.db import connection
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands import db_worker

from tarot_scores.core import rq_workers
from tarot_scores.core.jobs import lost_jobs_requeue, worker_alive
from tarot_scores.core.models import WorkerBeat


class _Heart(threading.Thread):
    """Says the worker is alive, and looks for lost jobs, every ``every`` seconds."""

    def __init__(self, beat: Callable[[], None], every: float) -> None:
        super().__init__(name="worker-heartbeat", daemon=True)
        self.beat = beat
        self.every = every
        self.stopped = threading.Event()

    def run(self) -> None:
        try:
            while not self.stopped.wait(self.every):
                try:
                    self.beat()
                except Exception:  # the database or Redis away for a moment: the next beat
                    db_worker.logger.exception("Worker heartbeat failed")
        finally:
            connection.close()


class Command(BaseCommand):
    help = "Run the background jobs (rating replays, mail, PDFs) until stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Run the jobs waiting now, then stop."
        )
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="Seconds between two looks at an empty queue (default 1).",
        )
        parser.add_argument(
            "--worker-id", default="", help="This worker's name, unique among the workers."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.TASKS_BACKEND == "immediate":
            self.stdout.write("TASKS_BACKEND=immediate: every job runs in its request, no worker.")
            return
        if settings.TASKS_WORKER_NICE > 0:
            # The jobs are background work: deal entry on the same machine goes first. RQ's
            # work horses, forked from here, inherit it.
            os.nice(min(settings.TASKS_WORKER_NICE, 19))
        worker_id = options["worker_id"] or get_random_string(32)
        every = max(1.0, settings.TASKS_WORKER_LOST_SECONDS / 4)
        if settings.TASKS_BACKEND == "rq":
            self.rq_work(worker_id, every=every, batch=options["batch"])
            return

        def beat() -> None:
            worker_alive(worker_id)
            lost_jobs_requeue()

        # Alive before the first job: requeue what a previous run of this machine left running.
        beat()
        heart = _Heart(beat, every)
        heart.start()
        try:
            call_command(
                "db_worker",
                queue_name="*",
                interval=options["interval"],
                batch=options["batch"],
                reload=False,
                startup_delay=False,
                worker_id=worker_id,
                verbosity=options["verbosity"],
            )
        finally:
            heart.stopped.set()
            heart.join()
            # Stopped cleanly, between two jobs: nothing of this worker's is left running.
            WorkerBeat.objects.filter(worker_id=worker_id).delete()

    def rq_work(self, worker_id: str, *, every: float, batch: bool) -> None:
        """RQ's worker under this name, beside a heart that says so on Redis and gives back
        the jobs of RQ workers that died (RQ would leave them failed: core.rq_workers)."""

        def beat() -> None:
            rq_workers.rq_worker_alive(worker_id)
            rq_workers.rq_lost_jobs_requeue()

        beat()
        heart = _Heart(beat, every)
        heart.start()
        try:
            call_command(
                "rqworker",
                "default",
                name=worker_id,
                job_class="django_tasks_rq.backend.Job",  # runs the Task, not a plain function
                with_scheduler=True,
                burst=batch,
            )
        finally:
            heart.stopped.set()
            heart.join()
            rq_workers.rq_worker_stopped(worker_id)
