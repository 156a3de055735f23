"""The Redis queue's workers that died (``TASKS_BACKEND=rq``): a job is never lost with its worker.

RQ (3.0, the version the site runs) notes each running job in the queue's StartedJobRegistry
with an expiry its worker pushes back every 30 s or so. A worker killed in the middle of a job
(kill -9, a machine lost) stops pushing it back; about 90 s later the next worker's clean-up
(every ten minutes) finds it, and since the site's jobs carry no RQ ``Retry`` (their retries are
``core.jobs.job``'s, after an error), moves it to the FailedJobRegistry with "Moved to
FailedJobRegistry, due to AbandonedJobError": the job would never run again.

As for the database backend (``core.jobs.lost_jobs_requeue``), the site's worker
(``manage.py worker``) says it is alive every few seconds (``rq_worker_alive``: its RQ name and
the time, in one sorted set beside RQ's keys) and gives back to the queue
(``rq_lost_jobs_requeue``):

- every running job whose worker has not said it was alive for ``TASKS_WORKER_LOST_SECONDS``,
  or whose RQ expiry has passed (a worker not started by ``manage.py worker`` says nothing:
  RQ's own sign is waited for then);
- every job RQ's clean-up already moved to the failed jobs as abandoned.

Each such job is taken off its registry by one ``ZREM`` before it is queued again: of two
workers looking at once, only the one whose ``ZREM`` removed the entry queues it, so a lost job
runs again once. The job runs from the start (every job is idempotent).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from typing import cast

import django_rq
from django.conf import settings
from django_tasks_rq.backend import Job as TaskJob
from redis import Redis
from rq.defaults import DEFAULT_FAILURE_TTL, RQ_KEY_PREFIX
from rq.exceptions import InvalidJobOperation, NoSuchJobError
from rq.executions import Execution
from rq.job import JobStatus
from rq.queue import Queue
from rq.registry import FailedJobRegistry, StartedJobRegistry
from rq.results import Result

from tarot_scores.core.queues import LEGACY

logger = logging.getLogger(__name__)

# Worker name -> the last time (Unix seconds) it said it was alive.
BEATS_KEY = f"{RQ_KEY_PREFIX}:tarot:worker-beats"
# What RQ's clean-up writes as the failure of a job whose worker died (rq.registry).
ABANDONED = "due to AbandonedJobError"
# How far back the failed jobs are looked through for abandoned ones: they are found within
# seconds while a site worker runs; a day covers every site worker stopped for a night.
ABANDONED_LOOKBACK = 24 * 3600


def rq_queues() -> list[Queue]:
    """The site's RQ queues (``TASKS``' ``QUEUES``), with the job class that runs a Task."""
    names = list(settings.TASKS["default"].get("QUEUES") or [])
    # And django-tasks' "default" queue, where jobs asked for before the queues by kind wait.
    names += [] if LEGACY in names else [LEGACY]
    return [django_rq.get_queue(name, job_class=TaskJob) for name in names]


def rq_connection() -> Redis:
    return rq_queues()[0].connection


def rq_worker_alive(worker_name: str, *, connection: Redis | None = None) -> None:
    (connection or rq_connection()).zadd(BEATS_KEY, {worker_name: time.time()})


def rq_worker_stopped(worker_name: str, *, connection: Redis | None = None) -> None:
    """A worker stopped cleanly, between two jobs: nothing of its own is left running."""
    (connection or rq_connection()).zrem(BEATS_KEY, worker_name)


def rq_lost_jobs_requeue(*, queues: Iterable[Queue] | None = None, now: float | None = None) -> int:
    """Give back to their queue the jobs of the workers that died (see the module's docstring).
    Returns how many."""
    queues = list(queues if queues is not None else rq_queues())
    if not queues:
        return 0
    connection = queues[0].connection
    now = now if now is not None else time.time()
    limit = now - settings.TASKS_WORKER_LOST_SECONDS
    beats = dict(_scored(connection, BEATS_KEY))
    requeued = 0
    for queue in queues:
        requeued += _started_requeue(queue, beats, now=now, limit=limit)
        requeued += _abandoned_requeue(queue, now=now)
    # A worker quiet for that long has had its jobs given back above: forget it.
    connection.zremrangebyscore(BEATS_KEY, 0, limit)
    if requeued:
        logger.warning("%d job(s) of a lost RQ worker given back to the queue", requeued)
    return requeued


def _scored(connection: Redis, key: str) -> list[tuple[str, float]]:
    """A sorted set's members (as text) and their scores."""
    rows = cast("list[tuple[bytes, float]]", connection.zrange(key, 0, -1, withscores=True))
    return [(member.decode(), float(score)) for member, score in rows]


def _started_requeue(queue: Queue, beats: dict[str, float], *, now: float, limit: float) -> int:
    connection = queue.connection
    registry = StartedJobRegistry(queue=queue, job_class=TaskJob)
    requeued = 0
    for entry, expires in _scored(connection, registry.key):
        job_id, _, execution_id = entry.rpartition(":")
        try:
            execution: Execution | None = Execution.fetch(execution_id, job_id, connection)
        except ValueError:  # its record expired with the worker's last push
            execution = None
        heard = beats.get(execution.worker_name) if execution is not None else None
        if expires >= now and (heard is None or heard >= limit):
            continue  # its worker is alive, or not one of ours and RQ's expiry is not past
        if not connection.zrem(registry.key, entry):
            continue  # another worker took it first
        try:
            job = queue.fetch_job(job_id)
        except NoSuchJobError:
            job = None
        if job is None or job.get_status(refresh=True) != JobStatus.STARTED:
            continue  # finished meanwhile, or gone
        if execution is not None:
            with connection.pipeline() as pipeline:
                execution.delete(job=job, pipeline=pipeline)
                pipeline.execute()
        job.started_at = None
        job.worker_name = None
        queue.enqueue_job(job)
        requeued += 1
    return requeued


def _abandoned_requeue(queue: Queue, *, now: float) -> int:
    registry = FailedJobRegistry(queue=queue, job_class=TaskJob)
    # A failed job's score is when RQ forgets it: the failure's time + DEFAULT_FAILURE_TTL.
    recent = now + DEFAULT_FAILURE_TTL - ABANDONED_LOOKBACK
    requeued = 0
    for raw in cast("list[bytes]", queue.connection.zrangebyscore(registry.key, recent, "+inf")):
        job_id = raw.decode()
        try:
            job = queue.fetch_job(job_id)
        except NoSuchJobError:
            continue
        if job is None:
            continue
        last = job.latest_result()
        if (
            last is None
            or last.type != Result.Type.FAILED
            or ABANDONED not in (last.exc_string or "")
        ):
            continue  # a job that raised: its retries are core.jobs.job's
        try:
            registry.requeue(job)
        except InvalidJobOperation:
            continue  # another worker took it first
        requeued += 1
    return requeued
