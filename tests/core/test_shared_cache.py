"""With REDIS_URL every process shares one cache: what one worker caches, another reads, and
the calculator's throttle (DRF's, counted in the default cache) counts a client's requests
whichever worker or server answers them. Without it, each process keeps its own (local memory).

Each case runs in fresh processes, the way gunicorn's workers each load the settings."""

import json
import subprocess
from collections.abc import Iterator

import pytest
from django.core.exceptions import ImproperlyConfigured

from tarot_scores.settings import cache_from_url
from tests.processes import PYTHON, ROOT, child_env, forget_keys, redis_or_skip, unique_name


@pytest.fixture
def shared() -> Iterator[dict[str, str]]:
    """REDIS_URL and a key prefix of this test's own, forgotten afterwards."""
    url = redis_or_skip()
    prefix = unique_name("cache")
    yield {"REDIS_URL": url, "CACHE_KEY_PREFIX": prefix}
    forget_keys(url, prefix)


def in_a_process(code: str, env: dict[str, str]) -> object:
    """Runs ``code`` after ``django.setup()`` in a new Python process; returns what it prints
    last, read as JSON."""
    script = "import django, json\ndjango.setup()\n" + code
    result = subprocess.run(
        [PYTHON, "-c", script],
        cwd=ROOT,
        env=child_env(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_without_redis_url_each_process_keeps_its_own_cache() -> None:
    assert cache_from_url("") == {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}


def test_redis_url_gives_the_forgiving_redis_cache_with_the_key_prefix() -> None:
    assert cache_from_url("redis://cache:6379/1", key_prefix="scores") == {
        "BACKEND": "tarot_scores.core.cache.ForgivingRedisCache",
        "LOCATION": "redis://cache:6379/1",
        "KEY_PREFIX": "scores",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def test_an_unknown_cache_scheme_stops_the_site() -> None:
    with pytest.raises(ImproperlyConfigured, match="memcached"):
        cache_from_url("memcached://cache:11211")


def test_a_value_cached_by_one_process_is_read_by_another(shared: dict[str, str]) -> None:
    written = in_a_process(
        "from django.core.cache import cache, caches\n"
        "cache.set('standings', {'Chloé': 198}, 60)\n"
        "print(json.dumps(type(caches['default']).__name__))",
        shared,
    )
    read = in_a_process(
        "from django.core.cache import cache\nprint(json.dumps(cache.get('standings')))", shared
    )

    assert written == "ForgivingRedisCache"
    assert read == {"Chloé": 198}


CALCULATOR_TWICE = """
from django.test import Client
body = {"variant": "fft", "players": ["A", "B", "C", "D"], "taker": "C", "contract": "garde",
        "points": 49, "oudlers": 2}
statuses = [
    Client().post("/api/v1/score/", body, content_type="application/json").status_code
    for _ in range(2)
]
print(json.dumps(statuses))
"""


def calculator_env(**extra: str) -> dict[str, str]:
    # Django's test client calls itself "testserver"; 3 requests a minute per client address.
    return {"DJANGO_ALLOWED_HOSTS": "testserver", "CALCULATOR_THROTTLE_RATE": "3/min", **extra}


def test_the_calculator_throttle_counts_across_processes(shared: dict[str, str]) -> None:
    first = in_a_process(CALCULATOR_TWICE, calculator_env(**shared))
    second = in_a_process(CALCULATOR_TWICE, calculator_env(**shared))

    # One client address, two clients in two processes: the fourth request is one too many.
    assert first == [200, 200]
    assert second == [200, 429]


def test_without_redis_url_the_throttle_counts_per_process() -> None:
    first = in_a_process(CALCULATOR_TWICE, calculator_env())
    second = in_a_process(CALCULATOR_TWICE, calculator_env())

    assert first == second == [200, 200]
