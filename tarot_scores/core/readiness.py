"""Readiness: whether this server can do its work now, part by part (``/readyz``), beside the
liveness check ``/healthz`` (the process answers at all; no query).

- the database: one ``SELECT 1``. Without it the site cannot serve: the answer is 503.
- the cache (Redis, with ``REDIS_URL``): a ping. Without it the site answers from the database,
  slower (``core.cache``): the answer stays 200 and says ``degraded``.
- the task queue: with the database backend, a worker heard from within
  ``TASKS_WORKER_LOST_SECONDS`` (``manage.py worker`` says it is alive every few seconds); with
  RQ, its Redis answers a ping. Without it jobs wait (mails, rating replays), pages do not:
  200, ``degraded``.

A load balancer takes a server out on 503 only, so a Redis or a worker down never takes the
whole site out with it; a monitor reads ``status`` to be told. What failed is logged, never
shown (no host names in a public answer).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import caches
from django.db import connection

from tarot_scores.core.cache import ForgivingRedisCache
from tarot_scores.core.jobs import worker_heard

logger = logging.getLogger("tarot_scores.readiness")

OK = "ok"
DOWN = "down"
NOT_USED = "not used"


@dataclass(frozen=True)
class Readiness:
    database: str
    cache: str
    queue: str

    @property
    def serving(self) -> bool:
        return self.database == OK

    @property
    def status(self) -> str:
        if not self.serving:
            return "unavailable"
        return "ok" if {self.cache, self.queue} <= {OK, NOT_USED} else "degraded"


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


def readiness() -> Readiness:
    database = _database()
    return Readiness(database=database, cache=_cache(), queue=_queue(database))
