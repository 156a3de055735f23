"""Scale-out: two app servers, started as the Dockerfile starts them (gunicorn, debug off,
static files collected), behind no proxy, on one PostgreSQL database and one Redis.

Tables enter deals through the public API, half through each server, all tables at once; every
deal number is sent by both servers at the same instant, as two phones at one table would: with
one client_id (a phone sending again) the second answer is the replay of the first deal (200),
with two (two phones) the second is refused with 409 and the deal that won. Then there must be
exactly one deal per number, and both servers must answer the same standings, equal to the
sums of the tables' sheets. The calculator's throttle must count a client across both servers.

The database (tarot_scale_test_<random>) is created, migrated once (the release step of
docs/operations.md) and dropped; Redis keys are written under a prefix of their own and
deleted. Skipped, saying which, when PostgreSQL or Redis is unreachable.
"""

import http.client
import json
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.processes import (
    MANAGE,
    PYTHON,
    ROOT,
    child_env,
    forget_keys,
    postgres_or_skip,
    redis_or_skip,
    unique_name,
)

pytestmark = pytest.mark.scaleout

TABLES = 4
DEALS_PER_TABLE = 6
PASSWORD = "festival-referee-password"
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))

SEED = f"""
import json
from django.contrib.auth.models import User
from tarot_scores.clubs import services as clubs
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

referee = User.objects.create_user("referee", password={PASSWORD!r})
club = clubs.club_create(name="Festival national", by=referee)
tournament = registration_services.tournament_create(
    club=club, name="Festival", by=referee, rounds=1, deals_per_round={DEALS_PER_TABLE}, seed=1
)
for i in range({TABLES * 4}):
    registration_services.entry_add(
        tournament=tournament, name=f"Joueur {{i + 1:02d}}", checked_in=True
    )
round_ = round_services.round_seat_next(tournament=tournament, by=referee)
round_services.round_start(round_=round_)
tables = [
    {{"game": s.table.game_id, "players": [p.pk for p in s.players]}}
    for s in round_selectors.round_tables(round_=round_)
]
print(json.dumps({{"tournament": tournament.pk, "tables": tables}}))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Api:
    """One keep-alive connection to one server, signed in with a token once it has one."""

    port: int
    token: str = ""

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Host": "127.0.0.1", "Accept-Language": "en"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A fresh database, migrated and seeded, and the environment both servers share."""
    admin_url = postgres_or_skip()
    redis_url = redis_or_skip()
    name = unique_name("db")
    tmp_path = tmp_path_factory.mktemp("scale_out")
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    database_url = admin_url.rsplit("/", 1)[0] + f"/{name}"
    env = child_env(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CACHE_KEY_PREFIX=name,
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="test-only-secret-key-for-the-scale-out-test-0123456789-abcdef",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_LOG_LEVEL="WARNING",
        CALCULATOR_THROTTLE_RATE="4/min",
    )
    try:
        for args in (["collectstatic", "--noinput", "-v0"], ["migrate", "--noinput", "-v0"]):
            done = subprocess.run(
                [PYTHON, MANAGE, *args], cwd=ROOT, env=env, capture_output=True, timeout=120
            )
            assert done.returncode == 0, done.stderr.decode()
        seeded = subprocess.run(
            [PYTHON, MANAGE, "shell", "-c", SEED],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert seeded.returncode == 0, seeded.stderr
        world = json.loads(seeded.stdout.strip().splitlines()[-1])
        yield {"env": env, "database_url": database_url, "logs": tmp_path, **world}
    finally:
        forget_keys(redis_url, name)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def servers(site: dict[str, Any]) -> Iterator[list[int]]:
    """Two gunicorn servers of two workers each, as the Dockerfile runs them."""
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    try:
        for n in (1, 2):
            port = free_port()
            log = (site["logs"] / f"gunicorn-{n}.log").open("wb")
            command = [GUNICORN, "tarot_scores.wsgi:application", "--bind", f"127.0.0.1:{port}"]
            command += ["--workers", "2", "--access-logfile", "-"]
            process = subprocess.Popen(
                command, cwd=ROOT, env=site["env"], stdout=log, stderr=subprocess.STDOUT
            )
            started.append((process, port))
        for process, port in started:
            wait_for_health(process, port)
        yield [port for _process, port in started]
    finally:
        for process, _port in started:
            process.send_signal(signal.SIGTERM)
        for process, _port in started:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def workers(site: dict[str, Any]) -> Iterator[None]:
    """Two workers of the task queue (database backend), one beside each server."""
    started = []
    try:
        for n in (1, 2):
            log = (site["logs"] / f"worker-{n}.log").open("wb")
            started.append(
                subprocess.Popen(
                    [PYTHON, MANAGE, "worker", "--interval", "0.2", "--worker-id", f"w{n}"],
                    cwd=ROOT,
                    env=site["env"],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        yield
    finally:
        for process in started:
            process.send_signal(signal.SIGTERM)
        for process in started:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


# Run in the site's database by a child process: the ratings the workers kept, then a rebuild
# from the deals, compared.
RATINGS_CHECK = """
from tarot_scores.ratings.models import PlayerRating, RatingsBehind, RatingStep
from tarot_scores.ratings.services import ratings_rebuild

def snapshot():
    rows = PlayerRating.objects.values_list("club_id", "player_id", "mu", "sigma", "deals")
    rows = sorted(rows, key=lambda r: (r[0] or 0, r[1]))
    steps = RatingStep.objects.count()
    return [(c, p, round(m, 9), round(s, 9), n) for c, p, m, s, n in rows], steps

assert not RatingsBehind.objects.exists()
kept = snapshot()
ratings_rebuild()
print("same" if snapshot() == kept and kept[1] > 0 else f"differ {kept[1]}")
"""


def wait_for_health(process: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert process.poll() is None, f"gunicorn on port {port} stopped"
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz", headers={"Host": "127.0.0.1"})
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"gunicorn on port {port} did not answer /healthz within 30 s")


def deal_body(players: list[int], number: int, client_id: str) -> dict[str, Any]:
    return {
        "number": number,
        "client_id": client_id,
        "taker": players[number % 4],
        "contract": "garde" if number % 3 else "prise",
        "points": 40 + 3 * number,
        "oudlers": 2,
    }


def at_once(apis: list[Api], path: str, bodies: list[Any]) -> list[tuple[int, Any]]:
    """POST each body through its own server, released together."""
    together = threading.Barrier(len(apis))
    got: list[tuple[int, Any]] = [(0, None)] * len(apis)

    def send(i: int) -> None:
        together.wait()
        got[i] = apis[i].call("POST", path, bodies[i])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(apis))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return got


def play_table(ports: list[int], token: str, table: dict[str, Any], answers: list[Any]) -> None:
    """Every deal of one table sent by both servers at once: odd numbers with one client_id
    (a resend), even numbers with two (two phones)."""
    apis = [Api(port, token) for port in ports]
    path = f"/api/v1/games/{table['game']}/deals/"
    for number in range(1, DEALS_PER_TABLE + 1):
        same = number % 2 == 1
        ids = [str(uuid.uuid4())] * 2 if same else [str(uuid.uuid4()), str(uuid.uuid4())]
        bodies = [deal_body(table["players"], number, client_id) for client_id in ids]
        answers.append((table["game"], number, same, at_once(apis, path, bodies)))


def test_two_servers_on_one_database_and_redis(
    site: dict[str, Any], servers: list[int], workers: None
) -> None:
    a, b = (Api(port) for port in servers)
    status, body = a.call(
        "POST", "/api/v1/auth/token/", {"username": "referee", "password": PASSWORD}
    )
    assert status == 200, body
    a.token = b.token = body["token"]
    standings = f"/api/v1/tournaments/{site['tournament']}/standings/"
    # Both servers draw (and cache) the standings before any deal.
    assert a.call("GET", standings)[1] == b.call("GET", standings)[1]

    answers: list[Any] = []
    tables = [
        threading.Thread(target=play_table, args=(servers, a.token, table, answers))
        for table in site["tables"]
    ]
    for thread in tables:
        thread.start()
    for thread in tables:
        thread.join(timeout=60)

    assert len(answers) == TABLES * DEALS_PER_TABLE
    for game, number, same, got in answers:
        statuses = sorted(status for status, _body in got)
        assert 201 in statuses, (game, number, got)
        (first,) = [body for status, body in got if status == 201]
        if same:  # one phone sending again: the replay of the deal stored
            assert statuses == [200, 201], got
            assert got[0][1]["id"] == got[1][1]["id"]
        else:  # two phones: one deal, the other refused with the deal that won
            assert statuses == [201, 409], got
            (refused,) = [body for status, body in got if status == 409]
            if "current" in refused:
                assert refused["current"]["id"] == first["id"]
            else:
                # The winner was the table's last deal and finished its game: the refusal
                # says so (the number is checked after whether the game is open).
                assert number == DEALS_PER_TABLE, refused
                assert "This game is finished" in refused["detail"], refused
        assert (first["game"], first["number"]) == (game, number)

    with psycopg.connect(site["database_url"]) as conn:
        per_number = conn.execute(
            "SELECT game_id, number, count(*) FROM tarot_scores_deal GROUP BY game_id, number"
        ).fetchall()
    assert Counter(count for _game, _number, count in per_number) == {1: TABLES * DEALS_PER_TABLE}

    from_a, from_b = a.call("GET", standings), b.call("GET", standings)
    assert from_a == from_b
    assert from_a[0] == 200 and from_a[1]["count"] == TABLES * 4
    sheets: dict[int, int] = defaultdict(int)
    for table in site["tables"]:
        for server in (a, b):
            status, sheet = server.call("GET", f"/api/v1/games/{table['game']}/")
            assert status == 200
            assert [d["number"] for d in sheet["deals"] if not d["deleted"]] == list(
                range(1, DEALS_PER_TABLE + 1)
            )
        for row in sheet["ranking"]:
            sheets[row["player"]] += row["total"]
    assert {row["player"]: row["total"] for row in from_a[1]["results"]} == sheets
    assert any(sheets.values())

    # The two workers took every deal into the ratings, as a rebuild would. They may be slow on
    # a busy machine: the test fails only when no job has ended for two minutes.
    jobs = "SELECT status, count(*) FROM django_tasks_database_dbtaskresult GROUP BY status"
    with psycopg.connect(site["database_url"], autocommit=True) as conn:
        left, deadline = -1, 0.0
        while True:
            counts: dict[str, int] = dict(conn.execute(jobs).fetchall())
            waiting = counts.get("READY", 0) + counts.get("RUNNING", 0)
            if not waiting:
                break
            if waiting != left:
                left, deadline = waiting, time.monotonic() + 120
            assert time.monotonic() < deadline, f"no job ended for two minutes: {counts}"
            time.sleep(0.2)
        by_status: dict[str, int] = dict(conn.execute(jobs).fetchall())
        behind = conn.execute("SELECT count(*) FROM tarot_scores_ratingsbehind").fetchone()
    assert set(by_status) == {"SUCCESSFUL"}, by_status
    assert behind == (0,)
    checked = subprocess.run(
        [PYTHON, MANAGE, "shell", "-v0", "-c", RATINGS_CHECK],
        cwd=ROOT,
        env=site["env"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.stdout.strip().splitlines()[-1:] == ["same"], checked.stderr


def test_the_calculator_throttle_counts_across_both_servers(servers: list[int]) -> None:
    a, b = (Api(port) for port in servers)
    body: dict[str, Any] = {"variant": "fft", "players": ["A", "B", "C", "D"], "taker": "C"}
    body |= {"contract": "garde", "points": 49, "oudlers": 2}

    statuses = [api.call("POST", "/api/v1/score/", body)[0] for api in (a, a, b, b, a, b)]

    # 4 a minute per client address, counted in Redis by four workers on two servers.
    assert statuses == [200, 200, 200, 200, 429, 429]
