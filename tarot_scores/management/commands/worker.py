"""Run the jobs of the task queues (docs/operations.md, "The worker").

One command serves every queue by kind (``core.queues``: mail, webhooks, ratings, documents),
each with its own slots (``TASKS_WORKERS``), so a slow webhook receiver holds only the webhooks'
slots while a password reset, a rating or a PDF goes on. ``--queue`` serves only the queues
named (several machines may split them).

With the database backend (the default) each slot is a thread running django-tasks-db's worker
loop on its queue; the worker says it is alive every few seconds and gives back to the queue
the jobs of workers that went quiet (killed in the middle of a job). A slot that loses the
database (a restart, a terminated connection) waits and tries again, longer each time up to
``TASKS_RECONNECT_MAX_SECONDS``, and gives back the job it was running: the process never ends
for it.

With ``TASKS_BACKEND=rq`` each slot is a child process running django-rq's ``rqworker`` on its
queue, with RQ's scheduler (the retries' delays) and the same heartbeat on Redis
(``core.rq_workers``); a child that ends (Redis gone at its start, a crash) is started again
after the same growing wait.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections, connection
from django.utils.crypto import get_random_string
from django_tasks import TaskResultStatus
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult

from tarot_scores.core import rq_workers
from tarot_scores.core.jobs import lost_jobs_requeue, worker_alive
from tarot_scores.core.models import WorkerBeat
from tarot_scores.core.queues import LEGACY, QUEUES, Queue

logger = logging.getLogger("tarot_scores.worker")


def _reconnect_waits() -> Callable[[], float]:
    """The waits before each new try after a lost connection: 1 s, 2 s, 4 s... up to the most."""
    wait = [settings.TASKS_RECONNECT_SECONDS]

    def next_wait() -> float:
        now = wait[0]
        wait[0] = min(now * 2, settings.TASKS_RECONNECT_MAX_SECONDS)
        return now

    return next_wait


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
                    logger.exception("Worker heartbeat failed")
                    _close_quietly()
        finally:
            connection.close()


def _close_quietly() -> None:
    try:
        connection.close()
    except Exception:  # noqa: BLE001 - a connection already dead cannot be closed cleanly
        logger.debug("Closing a lost database connection failed", exc_info=True)


class _SlotWorker(db_worker.Worker):
    """django-tasks-db's worker loop, remembering the job it runs: if the database goes while
    the job's end cannot be written, the slot gives the job back to the queue once the database
    is back (else the row would stay "running", its worker alive, for ever)."""

    current: Any = None

    def run_task(self, db_task_result: DBTaskResult[Any, Any]) -> None:
        self.current = db_task_result.pk
        super().run_task(db_task_result)  # raises only when the result cannot be written
        self.current = None


@dataclass
class _Slot:
    """One thread serving one queue (with the database backend)."""

    queue: str
    number: int
    worker_id: str
    interval: float
    batch: bool
    stopping: threading.Event
    worker: _SlotWorker | None = None
    given_back: list[Any] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.queue}-{self.number}"

    def queue_names(self) -> list[str]:
        # What was asked for before the queues by kind ("default") is run by the documents.
        return [self.queue, LEGACY] if self.queue == Queue.DOCUMENTS else [self.queue]

    def run(self) -> None:
        next_wait = _reconnect_waits()
        try:
            while not self.stopping.is_set():
                self.worker = _SlotWorker(
                    queue_names=self.queue_names(),
                    interval=self.interval,
                    batch=self.batch,
                    backend_name="default",
                    startup_delay=False,
                    max_tasks=None,
                    worker_id=self.worker_id,
                    excluded_queue_names=[],
                )
                started = time.monotonic()
                try:
                    self._give_back()
                    self.worker.run()
                    return  # stopped, or (--batch) its queue is empty
                except Exception as error:  # noqa: BLE001 - the database lost: wait, try again
                    if self.worker.current is not None:
                        self.given_back.append(self.worker.current)
                    if time.monotonic() - started > settings.TASKS_RECONNECT_MAX_SECONDS:
                        next_wait = _reconnect_waits()  # it had served well since: start over
                    wait = next_wait()
                    logger.warning(
                        "Worker slot %s lost the database (%s); trying again in %.0f s",
                        self.name,
                        str(error).strip().splitlines()[0] if str(error).strip() else error,
                        wait,
                    )
                    _close_quietly()
                    self.stopping.wait(wait)
        finally:
            connection.close()

    def _give_back(self) -> None:
        """The jobs this slot was running when the database went: to the queue again."""
        if not self.given_back:
            return
        close_old_connections()
        back = DBTaskResult.objects.filter(
            pk__in=self.given_back, status=TaskResultStatus.RUNNING
        ).update(status=TaskResultStatus.READY)
        if back:
            logger.warning("Worker slot %s gave %d interrupted job(s) back", self.name, back)
        self.given_back = []

    def stop(self) -> None:
        self.stopping.set()
        if self.worker is not None:
            self.worker.running = False  # after the job it runs, if any


class Command(BaseCommand):
    help = "Run the background jobs (mail, webhooks, ratings, documents) until stopped."

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
        parser.add_argument(
            "--queue",
            action="append",
            choices=QUEUES,
            help="Serve only this queue (repeat for several; default: every queue).",
        )
        # A child of an RQ worker's supervisor: one RQ worker on its queues, in this process.
        parser.add_argument("--rq-slot", action="store_true", help="(internal)")

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.TASKS_BACKEND == "immediate":
            self.stdout.write("TASKS_BACKEND=immediate: every job runs in its request, no worker.")
            return
        if settings.TASKS_WORKER_NICE > 0 and not options["rq_slot"]:
            # The jobs are background work: deal entry on the same machine goes first. The
            # threads, RQ's children and their work horses inherit it.
            os.nice(min(settings.TASKS_WORKER_NICE, 19))
        queues: list[str] = list(dict.fromkeys(options["queue"] or QUEUES))
        worker_id = options["worker_id"] or get_random_string(24)
        every = max(1.0, settings.TASKS_WORKER_LOST_SECONDS / 4)
        if settings.TASKS_BACKEND == "rq":
            if options["rq_slot"] or options["batch"]:
                self.rq_work(queues, worker_id, every=every, batch=options["batch"])
            else:
                self.rq_supervise(queues, worker_id, options)
            return
        self.database_work(queues, worker_id, every=every, options=options)

    # -- The database backend: a thread per slot ------------------------------------------------

    def database_work(
        self, queues: list[str], worker_id: str, *, every: float, options: dict[str, Any]
    ) -> None:
        def beat() -> None:
            worker_alive(worker_id)
            lost_jobs_requeue()

        # Alive before the first job: requeue what a previous run of this machine left running.
        self._first(beat)
        heart = _Heart(beat, every)
        heart.start()
        stopping = threading.Event()
        slots = [
            _Slot(queue, n, worker_id, options["interval"], options["batch"], stopping)
            for queue in queues
            for n in range(1, settings.TASKS_WORKERS[queue] + 1)
        ]
        threads = [
            threading.Thread(target=slot.run, name=f"worker-{slot.name}", daemon=True)
            for slot in slots
        ]

        def stop_all() -> None:
            for slot in slots:
                slot.stop()

        stops = self._on_signals(stop_all)
        logger.info(
            "Worker %s serving %s",
            worker_id,
            ", ".join(f"{q} x{settings.TASKS_WORKERS[q]}" for q in queues),
        )
        try:
            for thread in threads:
                thread.start()
            while any(thread.is_alive() for thread in threads):
                for thread in threads:
                    thread.join(timeout=0.5)
        finally:
            stops()
            heart.stopped.set()
            heart.join()
            # Stopped cleanly, between two jobs: nothing of this worker's is left running.
            try:
                WorkerBeat.objects.filter(worker_id=worker_id).delete()
            except Exception:  # noqa: BLE001 - the database away: the beat expires by itself
                logger.warning("Worker %s could not say it stopped", worker_id)

    def _first(self, beat: Callable[[], None]) -> None:
        """The first beat, waiting for the database (or Redis) as long as it takes."""
        next_wait = _reconnect_waits()
        while True:
            try:
                beat()
                return
            except Exception as error:  # noqa: BLE001
                wait = next_wait()
                logger.warning("Worker cannot start yet (%s); trying again in %.0f s", error, wait)
                _close_quietly()
                time.sleep(wait)

    def _on_signals(self, stop: Callable[[], object]) -> Callable[[], None]:
        """SIGTERM or SIGINT: finish the jobs running, take no other, then end. A second one
        ends at once (the jobs cut short are given back by the next worker's heartbeat)."""
        asked = threading.Event()

        def handler(signum: int, frame: FrameType | None) -> None:
            if asked.is_set():
                logger.warning("%s again: stopping now", signal.strsignal(signum))
                os._exit(1)
            asked.set()
            logger.warning("%s: stopping after the jobs running", signal.strsignal(signum))
            stop()

        for name in ("SIGTERM", "SIGINT", "SIGQUIT"):
            if hasattr(signal, name):
                signal.signal(getattr(signal, name), handler)

        def stops() -> None:
            stop()

        return stops

    # -- RQ: a child process per slot ------------------------------------------------------------

    def rq_supervise(self, queues: list[str], worker_id: str, options: dict[str, Any]) -> None:
        """Start one ``worker --rq-slot`` child per slot and keep it running: a child that ends
        while the worker is not stopping is started again after a growing wait."""
        manage = str(settings.BASE_DIR / "manage.py")
        slots = [
            (queue, n) for queue in queues for n in range(1, settings.TASKS_WORKERS[queue] + 1)
        ]
        stopping = threading.Event()
        children: dict[tuple[str, int], subprocess.Popen[bytes]] = {}
        waits = {slot: _reconnect_waits() for slot in slots}
        due = dict.fromkeys(slots, 0.0)

        def start(slot: tuple[str, int]) -> None:
            queue, n = slot
            command = [sys.executable, manage, "worker", "--rq-slot", "--queue", queue]
            command += ["--worker-id", f"{worker_id}-{queue}-{n}"]
            children[slot] = subprocess.Popen(command, cwd=settings.BASE_DIR)
            due[slot] = time.monotonic()

        def stop() -> None:
            stopping.set()
            for child in children.values():
                if child.poll() is None:
                    child.send_signal(signal.SIGTERM)

        self._on_signals(stop)
        for slot in slots:
            start(slot)
        try:
            while not stopping.is_set():
                for slot in slots:
                    child = children.get(slot)
                    if child is not None and child.poll() is None:
                        continue
                    if child is not None:
                        ran = time.monotonic() - due[slot]
                        if ran > settings.TASKS_RECONNECT_MAX_SECONDS:
                            waits[slot] = _reconnect_waits()
                        wait = waits[slot]()
                        logger.warning(
                            "RQ worker of %s ended (%s); started again in %.0f s",
                            slot[0],
                            child.returncode,
                            wait,
                        )
                        children.pop(slot)
                        due[slot] = time.monotonic() + wait
                    if time.monotonic() >= due[slot]:
                        start(slot)
                stopping.wait(0.5)
        finally:
            stop()
            for child in children.values():
                child.wait()

    def rq_work(self, queues: list[str], worker_id: str, *, every: float, batch: bool) -> None:
        """RQ's worker under this name on these queues, beside a heart that says so on Redis
        and gives back the jobs of RQ workers that died (RQ would leave them failed:
        core.rq_workers)."""
        if not queues:
            raise CommandError("No queue to serve.")

        def beat() -> None:
            rq_workers.rq_worker_alive(worker_id)
            rq_workers.rq_lost_jobs_requeue()

        self._first(beat)
        heart = _Heart(beat, every)
        heart.start()
        names = [*queues, LEGACY] if Queue.DOCUMENTS in queues else queues
        try:
            call_command(
                "rqworker",
                *names,
                name=worker_id,
                job_class="django_tasks_rq.backend.Job",  # runs the Task, not a plain function
                with_scheduler=True,
                burst=batch,
            )
        finally:
            heart.stopped.set()
            heart.join()
            try:
                rq_workers.rq_worker_stopped(worker_id)
            except Exception:  # noqa: BLE001 - Redis away: the beat expires by itself
                logger.warning("RQ worker %s could not say it stopped", worker_id)
