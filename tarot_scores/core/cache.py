"""The shared cache (Redis) as the site uses it: a help, never a need.

Every cached thing (the leaderboard, a tournament's drawn standings, the sessions' copy, the
throttle counts) has a database path, so when Redis does not answer the site reads the
database: a page is slower, not an error. ``ForgivingRedisCache`` is Django's ``RedisCache``
whose every call, when Redis fails, answers what an empty cache would (a miss, nothing stored)
and logs once that the cache is down. After a failure it leaves Redis alone for
``RETRY_SECONDS`` (no page waits on a dead server for each of its cache calls), then tries
again, and logs when it answers again.

``ping()`` asks Redis itself, failures included: the readiness check (``core.readiness``)
says whether the cache is up.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger("tarot_scores.cache")

# How long a failed Redis is left alone before the next try.
RETRY_SECONDS = 5.0

T = TypeVar("T")


class _ReusedClient(RedisCacheClient):
    """Django's Redis client maker, keeping one client per connection pool: Django builds a
    new ``redis.Redis`` (its callbacks, its options) for every cache call, a tenth of the CPU
    of a poll answered 304 (docs/performance.md). A client is safe to share between threads:
    each command takes a connection from the pool."""

    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's own helpers, which django-stubs does not declare
        pool = django._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = django._client(connection_pool=pool)
        return client


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache that answers like an empty cache while Redis is down."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusedClient
        self._down_until = 0.0
        self._down = False

    def _soft(self, call: Callable[[], T], fallback: T) -> T:
        if self._down and time.monotonic() < self._down_until:
            return fallback
        try:
            answer = call()
        except (RedisError, OSError) as error:
            if not self._down:
                logger.warning(
                    "The cache (Redis) is down; pages are read from the database until it "
                    "answers again: %s",
                    error,
                )
            self._down = True
            self._down_until = time.monotonic() + RETRY_SECONDS
            return fallback
        if self._down:
            self._down = False
            logger.warning("The cache (Redis) answers again.")
        return answer

    def ping(self) -> bool:
        """Whether Redis answers now (raises what the client raises when it does not)."""
        return bool(self._cache.get_client(write=True).ping())

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        return self._soft(
            lambda: super(ForgivingRedisCache, self).add(key, value, timeout, version), False
        )

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._soft(
            lambda: super(ForgivingRedisCache, self).get(key, default, version), default
        )

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        self._soft(lambda: super(ForgivingRedisCache, self).set(key, value, timeout, version), None)

    def touch(self, key: Any, timeout: Any = None, version: int | None = None) -> bool:
        return self._soft(
            lambda: super(ForgivingRedisCache, self).touch(key, timeout, version), False
        )

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._soft(lambda: super(ForgivingRedisCache, self).delete(key, version), False)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return self._soft(lambda: super(ForgivingRedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._soft(lambda: super(ForgivingRedisCache, self).has_key(key, version), False)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        missing = object()
        got = self._soft(
            lambda: super(ForgivingRedisCache, self).incr(key, delta, version), missing
        )
        if got is missing:
            raise ValueError(f"Key '{key}' not found.")  # what an empty cache says
        assert isinstance(got, int)
        return got

    def set_many(
        self, data: dict[Any, Any], timeout: Any = None, version: int | None = None
    ) -> list[Any]:
        return self._soft(
            lambda: super(ForgivingRedisCache, self).set_many(data, timeout, version), list(data)
        )

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        self._soft(lambda: super(ForgivingRedisCache, self).delete_many(keys, version), None)

    def clear(self) -> None:
        self._soft(lambda: super(ForgivingRedisCache, self).clear(), None)
