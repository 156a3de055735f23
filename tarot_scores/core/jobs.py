"""Background jobs: work that grows with history (a rating replay), waits on another server (a
mail) or draws a big document runs here, in a worker, never in a request.

The engine is Django's Tasks API (the ``django-tasks`` backport until Django 6's
``django.tasks``); the backend is chosen by ``TASKS_BACKEND`` (settings, docs/operations.md).
This module adds the three things the site asks of every job and the engine leaves to it:

- ``job``: a task retried with backoff. A run that raises is recorded as failed (with its
  error, for staff) and the next attempt is enqueued to run later, up to ``attempts`` runs.
- ``enqueue``: a job asked for inside a transaction starts only if the transaction commits. On
  the database backend the job's row is written in the caller's transaction (it commits or
  rolls back with it); on another backend the job is sent once the transaction has committed.
- ``worker_alive`` / ``lost_jobs_requeue``: a worker killed in the middle of a job (kill -9, a
  machine lost) leaves the job "running" for ever in the engine's table; the site's worker
  (``manage.py worker``) says it is alive every few seconds and gives the running jobs of a
  worker not heard of for ``TASKS_WORKER_LOST_SECONDS`` back to the queue.

Every job is written to run twice safely (idempotent): a retried or requeued job runs again
from the start.

Defining and enqueueing a job::

    from tarot_scores.core.jobs import enqueue, job

    @job(queue=Queue.RATINGS, attempts=5, backoff=30)
    def club_ratings_replay(club_id: int) -> int: ...

    enqueue(club_ratings_replay, club_id=club.pk)   # in or out of a transaction
"""

from __future__ import annotations

import datetime
import functools
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar, cast

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus, task
from django_tasks.backends.immediate import ImmediateBackend
from django_tasks.base import Task
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult

from tarot_scores.core.models import WorkerBeat
from tarot_scores.core.queues import Queue

logger = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

# The keyword a job's later attempts carry: how many runs came before.
ATTEMPT = "attempt_"


def job(
    *,
    attempts: int = 5,
    backoff: float = 30,
    queue: Queue,
    priority: int = 0,
    given_up: Callable[..., None] | None = None,
) -> Callable[[Callable[P, T]], Task[P, T]]:
    """A task of the site's queue, retried: a run that raises is recorded as failed (its error
    stays for staff to read) and the job is enqueued again ``backoff`` seconds later, then twice
    that, four times... until ``attempts`` runs have failed; then ``given_up`` is called with
    the job's arguments (a page waiting for the job stops waiting). ``queue``: the kind of work
    (``core.queues``), whose own worker slots run it. The function must be idempotent.
    """

    def decorate(func: Callable[P, T]) -> Task[P, T]:
        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> T:
            attempt = int(kwargs.pop(ATTEMPT, 1))
            try:
                return func(*args, **kwargs)
            except Exception:
                if attempt < attempts:
                    delay = backoff * 2 ** (attempt - 1)
                    logger.warning(
                        "Job %s failed (attempt %d of %d), runs again in %.0f s",
                        the_task.name,
                        attempt,
                        attempts,
                        delay,
                        exc_info=True,
                    )
                    later = timezone.now() + datetime.timedelta(seconds=delay)
                    again: Any = the_task.using(run_after=later)
                    again.enqueue(*args, **kwargs, **{ATTEMPT: attempt + 1})
                else:
                    logger.error("Job %s failed %d times: given up", the_task.name, attempts)
                    if given_up is not None:
                        given_up(*args, **kwargs)
                raise

        the_task = cast("Task[P, T]", task(priority=priority, queue_name=str(queue))(run))
        return the_task

    return decorate


def enqueue(the_task: Task[P, T], *args: P.args, **kwargs: P.kwargs) -> None:
    """Ask for ``the_task`` to run, once the caller's transaction (if any) has committed.

    The database backend writes the job's row in the caller's transaction, so the job and
    what it works on commit together (or neither does); the immediate backend runs it here
    (tests); any other backend (RQ) is sent the job after the commit, never before the data it
    reads is visible."""
    if isinstance(the_task.get_backend(), (DatabaseBackend, ImmediateBackend)):
        the_task.enqueue(*args, **kwargs)
        return
    transaction.on_commit(functools.partial(the_task.enqueue, *args, **kwargs))


# -- Staff's hand on the queue (the admin's "Task results") ---------------------------------------


def attempt_of(row: DBTaskResult[Any, Any]) -> int:
    """Which run of its job a row is (``job``'s retries carry it in their arguments)."""
    return int(row.args_kwargs.get("kwargs", {}).get(ATTEMPT, 1))


def _arguments(row: DBTaskResult[Any, Any]) -> tuple[list[Any], dict[str, Any]]:
    kwargs = dict(row.args_kwargs.get("kwargs", {}))
    kwargs.pop(ATTEMPT, None)
    return list(row.args_kwargs.get("args", [])), kwargs


def _next_attempt_exists(row: DBTaskResult[Any, Any]) -> bool:
    """Whether ``job`` already asked for the run after this failed one (so it was not the
    last): the same job and arguments, the next attempt, asked for once this one started."""
    after = row.started_at or row.enqueued_at
    later = DBTaskResult.objects.filter(task_path=row.task_path, enqueued_at__gte=after).exclude(
        pk=row.pk
    )
    arguments = _arguments(row)
    return any(
        attempt_of(other) == attempt_of(row) + 1 and _arguments(other) == arguments
        for other in later.only("args_kwargs")
    )


@dataclass
class StaffRun:
    """What staff's "run now" did: retries hurried, given-up jobs asked for again, and
    rows left as they were (running, finished, or failed with their next attempt asked for)."""

    hurried: int = 0
    again: int = 0
    left: int = 0


def jobs_run_now(*, ids: Iterable[Any]) -> StaffRun:
    """Staff's "run now" on chosen jobs (the mail server is back, say): a job waiting for its
    time (a retry's backoff) runs at a worker's next look; a job that failed its last attempt
    (given up) is asked for again, its attempts counted anew. A failed run whose next attempt
    is already asked for is left alone: running it too would send a mail twice."""
    done = StaffRun()
    now = timezone.now()
    for row in DBTaskResult.objects.filter(pk__in=list(ids)):
        if row.status == TaskResultStatus.READY:
            done.hurried += DBTaskResult.objects.filter(
                pk=row.pk, status=TaskResultStatus.READY
            ).update(run_after=now)
        elif row.status == TaskResultStatus.FAILED and not _next_attempt_exists(row):
            args, kwargs = _arguments(row)
            row.task.using(run_after=None).enqueue(*args, **kwargs)
            done.again += 1
        else:
            done.left += 1
    return done


# -- Workers that died -------------------------------------------------------------------------


def worker_alive(worker_id: str) -> None:
    WorkerBeat.objects.update_or_create(worker_id=worker_id, defaults={"seen_at": timezone.now()})


def worker_heard() -> bool | None:
    """Whether a worker of the database queue said it was alive within
    ``TASKS_WORKER_LOST_SECONDS``: a page that waits for a job says when none is running. None
    where the site cannot tell (another backend: RQ's workers are watched on Redis)."""
    if settings.TASKS_BACKEND != "database":
        return None
    heard = timezone.now() - datetime.timedelta(seconds=settings.TASKS_WORKER_LOST_SECONDS)
    return WorkerBeat.objects.filter(seen_at__gte=heard).exists()


def lost_jobs_requeue(*, now: datetime.datetime | None = None) -> int:
    """Give back to the queue every running job whose worker has not said it was alive for
    ``TASKS_WORKER_LOST_SECONDS`` (or never did): it runs again, from the start, on whichever
    worker takes it. Returns how many."""
    now = now or timezone.now()
    limit = now - datetime.timedelta(seconds=settings.TASKS_WORKER_LOST_SECONDS)
    alive = set(WorkerBeat.objects.filter(seen_at__gte=limit).values_list("worker_id", flat=True))
    lost = [
        row.pk
        for row in DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).only(
            "id", "worker_ids"
        )
        if not row.worker_ids or row.worker_ids[-1] not in alive
    ]
    if not lost:
        return 0
    requeued = DBTaskResult.objects.filter(pk__in=lost, status=TaskResultStatus.RUNNING).update(
        status=TaskResultStatus.READY
    )
    WorkerBeat.objects.filter(seen_at__lt=limit).delete()
    if requeued:
        logger.warning("%d job(s) of a lost worker given back to the queue", requeued)
    return requeued
