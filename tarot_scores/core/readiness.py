"""Readiness: whether this server can do its work now, part by part (``/readyz``), beside the
liveness check ``/healthz`` (the process answers at all; no query).

- the database: one ``SELECT 1``. Without it the site cannot serve: the answer is 503.
- the cache (Redis, with ``REDIS_URL``): a ping. Without it the site answers from the database,
  slower (``core.cache``): the answer stays 200 and says ``degraded``.
- the task queue: with the database backend, a worker heard from within
  ``TASKS_WORKER_LOST_SECONDS`` (``manage.py worker`` says it is alive every few seconds); with
  RQ, its Redis answers a ping. Without it jobs wait (mails, rating replays), pages do not:
  200, ``degraded``.
- each queue by kind (``core.queues``): how many jobs are due and how long the oldest has
  waited, and every job running for longer than ``TASKS_RUNNING_LIMIT_SECONDS``. A queue whose
  oldest job due has waited more than ``TASKS_WAITING_LIMIT_SECONDS``, or a job running too
  long, makes the queue ``behind``: 200, ``degraded`` (a stuck slot is seen, not guessed).

A load balancer takes a server out on 503 only, so a Redis or a worker down never takes the
whole site out with it; a monitor reads ``status`` to be told. What failed is logged, never
shown (no host names in a public answer).
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass, field
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.db.models import Count, Min
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from rq.queue import Queue as RQQueue
from rq.registry import StartedJobRegistry

from tarot_scores.core.cache import ForgivingRedisCache
from tarot_scores.core.jobs import worker_heard
from tarot_scores.core.queues import QUEUES

logger = logging.getLogger("tarot_scores.readiness")

OK = "ok"
DOWN = "down"
NOT_USED = "not used"
BEHIND = "behind"


@dataclass(frozen=True)
class QueueState:
    """One queue: its jobs due now, and how long the oldest of them has waited (seconds)."""

    waiting: int = 0
    oldest_seconds: int | None = None


@dataclass(frozen=True)
class LongJob:
    """A job running for longer than ``TASKS_RUNNING_LIMIT_SECONDS``."""

    queue: str
    job: str
    running_seconds: int


@dataclass(frozen=True)
class Readiness:
    database: str
    cache: str
    queue: str
    queues: dict[str, QueueState] = field(default_factory=dict)
    running_too_long: list[LongJob] = field(default_factory=list)

    @property
    def serving(self) -> bool:
        return self.database == OK

    @property
    def status(self) -> str:
        if not self.serving:
            return "unavailable"
        return "ok" if {self.cache, self.queue} <= {OK, NOT_USED} else "degraded"

    def as_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "database": self.database,
            "cache": self.cache,
            "queue": self.queue,
            "queues": {
                name: {"waiting": state.waiting, "oldest_waiting_seconds": state.oldest_seconds}
                for name, state in self.queues.items()
            },
            "running_too_long": [
                {"queue": j.queue, "job": j.job, "running_seconds": j.running_seconds}
                for j in self.running_too_long
            ],
        }


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure is "down", and is logged
        logger.warning("Readiness: the database does not answer: %s", error)
        return DOWN
    return OK


def _cache() -> str:
    shared = caches["default"]
    if not isinstance(shared, ForgivingRedisCache):
        return NOT_USED  # local memory, per process: nothing to reach
    try:
        shared.ping()
    except Exception as error:  # noqa: BLE001
        logger.warning("Readiness: the cache (Redis) does not answer: %s", error)
        return DOWN
    return OK


def _queue(database: str) -> str:
    kind = getattr(settings, "TASKS_BACKEND", "")
    if kind == "database":
        if database != OK:
            return DOWN
        try:
            alive = bool(worker_heard())
        except Exception as error:  # noqa: BLE001
            logger.warning("Readiness: the task queue cannot be read: %s", error)
            return DOWN
        if not alive:
            logger.warning("Readiness: no worker of the task queue heard from (manage.py worker)")
            return "no worker"
        return OK
    if kind == "rq":
        try:
            redis.Redis.from_url(
                settings.TASKS_REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
            ).ping()
        except redis.RedisError as error:
            logger.warning("Readiness: the task queue's Redis does not answer: %s", error)
            return DOWN
        return OK
    return NOT_USED  # immediate: jobs run in the request that asks for them


def _seconds(since: datetime.datetime | None, now: datetime.datetime) -> int | None:
    return None if since is None else max(0, int((now - since).total_seconds()))


def _database_queues() -> tuple[dict[str, QueueState], list[LongJob]]:
    """Two queries: the jobs due per queue with the oldest's time, and the jobs running long."""
    now = timezone.now()
    rows = (
        DBTaskResult.objects.ready()  # the engine's own "due now" (no run_after, or past)
        .values("queue_name")
        .annotate(waiting=Count("id"), oldest=Min("enqueued_at"))
        .order_by()
    )
    states = {name: QueueState() for name in QUEUES}
    for row in rows:
        states[row["queue_name"]] = QueueState(row["waiting"], _seconds(row["oldest"], now))
    limit = now - datetime.timedelta(seconds=settings.TASKS_RUNNING_LIMIT_SECONDS)
    running = DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=limit
    ).order_by("started_at")[:20]
    late = [
        LongJob(r.queue_name, str(r.pk), _seconds(r.started_at, now) or 0)
        for r in running.only("id", "queue_name", "started_at")
    ]
    return states, late


def _rq_queues() -> tuple[dict[str, QueueState], list[LongJob]]:
    """The same from Redis: each queue's length and its first job's time, and the started
    jobs' times (a queue has as many as its slots)."""
    client = redis.Redis.from_url(
        settings.TASKS_REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
    )
    now = timezone.now()
    limit = settings.TASKS_RUNNING_LIMIT_SECONDS
    states: dict[str, QueueState] = {}
    late: list[LongJob] = []
    for name in QUEUES:
        queue = RQQueue(name, connection=client)
        first = queue.get_jobs(0, 1)
        since = first[0].enqueued_at if first else None
        states[name] = QueueState(queue.count, _seconds(_aware(since), now))
        for job_id in StartedJobRegistry(queue=queue).get_job_ids():
            job = queue.fetch_job(job_id)
            running = _seconds(_aware(job.started_at), now) if job is not None else None
            if running is not None and running > limit:
                late.append(LongJob(name, job_id, running))
    return states, late


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """RQ's times are UTC, with or without their zone."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=datetime.UTC)


def _queues(queue: str) -> tuple[dict[str, QueueState], list[LongJob]]:
    kind = getattr(settings, "TASKS_BACKEND", "")
    if queue != OK or kind not in ("database", "rq"):
        return {}, []
    try:
        return _database_queues() if kind == "database" else _rq_queues()
    except Exception as error:  # noqa: BLE001 - the answer stays, without the detail
        logger.warning("Readiness: the queues cannot be read: %s", error)
        return {}, []


def readiness() -> Readiness:
    database = _database()
    queue = _queue(database)
    queues, late = _queues(queue)
    waited = settings.TASKS_WAITING_LIMIT_SECONDS
    if late or any((s.oldest_seconds or 0) > waited for s in queues.values()):
        logger.warning(
            "Readiness: a queue is behind (%s; %d job(s) running too long)", queues, len(late)
        )
        queue = BEHIND
    return Readiness(database, _cache(), queue, queues, late)
