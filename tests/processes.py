"""What the tests of a site spread over several processes share: the local Redis and
PostgreSQL (the test is skipped, saying why, when one is not reachable), a child process's
environment, and forgetting a test's keys in Redis afterwards.

CI has both up (`.ci/run`); elsewhere `TEST_REDIS_URL` and `TEST_POSTGRES_URL` point the tests
at other servers. Redis db 5 by default, and every test writes under its own key prefix, so a
test neither reads nor clears anybody else's keys.
"""

import os
import secrets
import sys
from pathlib import Path

import psycopg
import pytest
import redis
from django.conf import settings

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/5")
TEST_POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
ROOT = Path(settings.BASE_DIR)
MANAGE = str(ROOT / "manage.py")
PYTHON = sys.executable


def redis_or_skip() -> str:
    try:
        redis.Redis.from_url(TEST_REDIS_URL, socket_connect_timeout=3).ping()
    except redis.RedisError as exc:
        pytest.skip(f"Redis is not reachable at {TEST_REDIS_URL} (TEST_REDIS_URL): {exc}")
    return TEST_REDIS_URL


def postgres_or_skip() -> str:
    try:
        psycopg.connect(TEST_POSTGRES_URL, connect_timeout=3).close()
    except psycopg.Error as exc:
        pytest.skip(
            f"PostgreSQL is not reachable at {TEST_POSTGRES_URL} (TEST_POSTGRES_URL): {exc}"
        )
    return TEST_POSTGRES_URL


def unique_name(kind: str) -> str:
    """``tarot_scale_test_<kind>_<random>``: a database name, or a key prefix in Redis."""
    return f"tarot_scale_test_{kind}_{secrets.token_hex(4)}"


def child_env(**overrides: str) -> dict[str, str]:
    """The environment of a process started by a test: none of this run's site settings (the
    suite's own database, cache or debug flag), only what the test gives."""
    site = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "CACHE_URL", "CACHE_KEY_PREFIX")
    env = {key: value for key, value in os.environ.items() if not key.startswith(site)}
    env["DJANGO_SETTINGS_MODULE"] = "tarot_scores.settings"
    # Debug is off unless asked for; a child asks for it (and so the development key) unless
    # the test says otherwise.
    env["DJANGO_DEBUG"] = "1"
    env.update(overrides)
    return env


def forget_keys(redis_url: str, prefix: str) -> None:
    """Delete the keys the site wrote under ``prefix`` (Django writes ``prefix:version:key``)."""
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
    if keys:
        client.delete(*keys)
