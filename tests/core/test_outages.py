"""The site survives its parts.

Redis down: the test starts a redis-server of its own on a free port, points the cache at it,
then stops it. Signed-in pages, deal entry, the leaderboard, a tournament's standings and
projector, and the calculator (page and API) answer as usual, from the database; the log says
the cache is down, the readiness check too, and the site finds Redis again by itself.

PostgreSQL unreachable: a gunicorn server of the site reaches a database of its own through a
loopback TCP proxy the test runs; the test cuts the proxy (the shared PostgreSQL never stops).
``/api/`` answers a JSON 503 with Retry-After, pages a 503 page, ``/readyz`` 503, ``/healthz``
200; with the proxy back, everything answers again. No answer is any other 5xx.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import select
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tarot_scores.core import cache as forgiving
from tarot_scores.games import services as game_services
from tests.core.test_scale_out import GUNICORN, free_port, wait_for_health
from tests.factories import build_world, garde, make_game, signed_in_client
from tests.processes import MANAGE, PYTHON, ROOT, child_env, postgres_or_skip, unique_name
from tests.tournaments.views.test_pages_world import deal_post

# --- Redis down ---------------------------------------------------------------------------------


@pytest.fixture
def own_redis() -> Iterator[dict[str, Any]]:
    """A redis-server of this test's own (never the shared one), on a free port."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    command = [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
    ]
    server: dict[str, Any] = {"port": port, "url": f"redis://127.0.0.1:{port}/0"}

    def start() -> None:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server["process"] = process
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis(port=port, socket_connect_timeout=0.2).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("the test's redis-server did not start")

    def stop() -> None:
        process = server.get("process")
        if process is not None and process.poll() is None:
            process.terminate()
            process.wait(timeout=10)

    server["start"], server["stop"] = start, stop
    start()
    try:
        yield server
    finally:
        stop()


def _pages(client: Client, world: Any, game: Any) -> dict[str, int]:
    """Status of each page a reader meets (GETs), and of saving a deal."""
    slug = world.club.slug
    paths = {
        "club": reverse("clubs:detail", args=[slug]),
        "deal entry": reverse("games:deal_new", args=[game.pk]),
        "leaderboard": reverse("clubs:leaderboard", args=[slug]),
        "standings": reverse("tournaments:standings", args=[world.tournament.pk]),
        "projector": reverse("tournaments:projector", args=[world.tournament.pk]),
        "calculator": reverse("calculator"),
        "home": reverse("home"),
    }
    got = {name: client.get(path).status_code for name, path in paths.items()}
    number = game.deals.count() + 1
    taker = game.players.all()[0].pk
    saved = client.post(reverse("games:deal_new", args=[game.pk]), deal_post(taker, number))
    got["deal saved"] = saved.status_code
    score = client.post(
        reverse("api:score"),
        json.dumps({"variant": "fft", "players": ["A", "B", "C", "D"], **_calculator_deal()}),
        content_type="application/json",
    )
    got["calculator api"] = score.status_code
    return got


def _calculator_deal() -> dict[str, Any]:
    return {"taker": "A", "contract": "garde", "points": 49, "oudlers": 2}


@pytest.mark.django_db
def test_with_redis_down_pages_answer_from_the_database(
    own_redis: dict[str, Any],
    settings: Settings,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(forgiving, "RETRY_SECONDS", 0.0)  # try Redis again at each call
    settings.CACHES = {
        "default": {
            "BACKEND": "tarot_scores.core.cache.ForgivingRedisCache",
            "LOCATION": own_redis["url"],
            "KEY_PREFIX": unique_name("outage"),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    world = build_world()
    organiser = world.users["organiser"]
    game = make_game(club=world.club, players=list(world.club.players.all()[:4]), by=organiser)
    game_services.deal_record(game=game, payload=garde(game.players.all()[1].pk), by=None)
    client = signed_in_client(organiser)
    client.raise_request_exception = False

    up = _pages(client, world, game)
    assert set(up.values()) <= {200, 201, 302}, up
    assert Client().get(reverse("readyz")).json()["cache"] == "ok"

    own_redis["stop"]()
    deals_before = game.deals.count()
    with caplog.at_level(logging.WARNING, logger="tarot_scores.cache"):
        down = _pages(client, world, game)
    assert down == up  # the same answers, from the database
    assert game.deals.count() == deals_before + 1  # the deal was saved
    assert "The cache (Redis) is down" in caplog.text
    ready = Client().get(reverse("readyz"))
    assert ready.status_code == 200
    assert ready.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "down",
        "queue": ready.json()["queue"],
        "queues": {},  # the suite's jobs run in their requests: no queue to read
        "running_too_long": [],
    }

    # Back: the next try finds it again, and says so.
    own_redis["start"]()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tarot_scores.cache"):
        again = _pages(client, world, game)
    assert again == up
    assert "The cache (Redis) answers again" in caplog.text


# --- PostgreSQL unreachable ---------------------------------------------------------------------


class Proxy:
    """A loopback TCP proxy to PostgreSQL that the test can cut (and mend) at will: cut, it
    closes every connection it carries and refuses new ones."""

    def __init__(self, target_port: int) -> None:
        self.target = ("127.0.0.1", target_port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open = True
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        sockets = [a, b]
        try:
            while True:
                ready, _, _ = select.select(sockets, [], [], 0.5)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (b if sock is a else a).sendall(data)
        except OSError:
            return
        finally:
            for sock in sockets:
                sock.close()

    def cut(self) -> None:
        self.open = False
        with self.lock:
            for a, b in self.pairs:
                for sock in (a, b):
                    with contextlib.suppress(OSError):
                        sock.shutdown(socket.SHUT_RDWR)
            self.pairs.clear()

    def mend(self) -> None:
        self.open = True

    def stop(self) -> None:
        self.stopped = True
        self.cut()
        self.listener.close()


def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Host": "127.0.0.1", "Accept-Language": "en"})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), body


@pytest.fixture
def site_through_proxy(tmp_path: Any) -> Iterator[tuple[int, Proxy]]:
    admin_url = postgres_or_skip()
    name = unique_name("outage")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    parts = urlsplit(admin_url)
    proxy = Proxy(parts.port or 5432)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{proxy.port}"
    base = f"{parts.scheme}://{netloc[0] + '@' if len(netloc) == 2 else ''}{host}"
    env = child_env(
        DATABASE_URL=f"{base}/{name}",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="test-only-secret-key-for-the-outage-test-0123456789-abcdefgh",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_CONN_MAX_AGE="60",
    )
    process = None
    try:
        for args in (["collectstatic", "--noinput", "-v0"], ["migrate", "--noinput", "-v0"]):
            done = subprocess.run(
                [PYTHON, MANAGE, *args], cwd=ROOT, env=env, capture_output=True, timeout=180
            )
            assert done.returncode == 0, done.stderr.decode()
        port = free_port()
        log = (tmp_path / "gunicorn.log").open("wb")
        command = [GUNICORN, "tarot_scores.wsgi:application", "--bind", f"127.0.0.1:{port}"]
        command += ["--workers", "1", "--timeout", "60"]
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        wait_for_health(process, port)
        yield port, proxy
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        proxy.stop()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_with_the_database_cut_the_api_and_pages_answer_503(
    site_through_proxy: tuple[int, Proxy],
) -> None:
    port, proxy = site_through_proxy
    assert _get(port, "/api/v1/clubs/")[0] == 200
    assert _get(port, "/clubs/")[0] == 200
    assert _get(port, "/readyz")[0] == 200

    proxy.cut()
    status, headers, body = _get(port, "/api/v1/clubs/")
    assert status == 503
    assert headers["Content-Type"] == "application/problem+json"
    assert headers["Retry-After"] == "30"
    problem = json.loads(body)
    assert (problem["status"], problem["code"]) == (503, "database_unavailable")
    assert "cannot reach its database" in problem["detail"]

    status, headers, body = _get(port, "/clubs/")
    assert status == 503
    assert headers["Retry-After"] == "30"
    assert b"cannot reach its database" in body and b'class="site-header"' in body

    ready = _get(port, "/readyz")
    assert ready[0] == 503
    assert json.loads(ready[2])["database"] == "down"
    assert _get(port, "/healthz")[0] == 200  # alive: no reason to restart the process

    proxy.mend()
    deadline = time.monotonic() + 20
    while _get(port, "/api/v1/clubs/")[0] != 200:
        assert time.monotonic() < deadline, "the site did not find its database again"
        time.sleep(0.2)
    assert _get(port, "/clubs/")[0] == 200
