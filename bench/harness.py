"""What the web benchmarks share: a throwaway database, gunicorn on loopback, a keep-alive HTTP
client logged in through a real session, bulk seeding of a club, and timing.

Everything stays on 127.0.0.1; every loop is bounded in count and time.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PYTHON = sys.executable
GUNICORN = str(Path(PYTHON).with_name("gunicorn"))


def bench_database(kind: str, name: str) -> str:
    """A fresh, empty database URL: a SQLite file under /tmp, or a PostgreSQL database."""
    if kind == "sqlite":
        path = Path("/tmp") / f"{name}.sqlite3"
        path.unlink(missing_ok=True)
        return f"sqlite:///{path}"
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        c.execute(f'CREATE DATABASE "{name}"')
    return f"postgres://postgres@127.0.0.1:5432/{name}"


# The bench process writes the sessions the server reads: both sign with this key.
SECRET_KEY = secrets.token_urlsafe(32)


def django_setup(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SECRET_KEY"] = SECRET_KEY
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_scores.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """gunicorn serving the project on loopback against ``database_url``."""

    database_url: str
    workers: int = 2
    threads: int = 1
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": SECRET_KEY,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_STATIC_ROOT": "/tmp/tarot-bench-static",
            "CALCULATOR_THROTTLE_RATE": "100000/min",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
        subprocess.run(
            [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        self.process = subprocess.Popen(
            [
                GUNICORN,
                "tarot_scores.wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(self.workers),
                "--threads",
                str(self.threads),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not answer /healthz within 30 s")

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                pids.append(int(stat.parent.name))
        return pids

    def peak_memory_mb(self) -> dict[int, float]:
        """Each worker's peak resident memory (VmHWM), in MB."""
        out = {}
        for pid in self.worker_pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    out[pid] = int(line.split()[1]) / 1024
        return out

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()


@contextmanager
def serving(database_url: str, **kw: Any) -> Iterator[Server]:
    server = Server(database_url, **kw).start()
    try:
        yield server
    finally:
        server.stop()


def session_for(username: str) -> str:
    """A logged-in session key for this user, written where the server reads sessions."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore

    user = get_user_model().objects.get(username=username)
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    return str(store.session_key)


class Client:
    """One keep-alive connection, with a session cookie and a CSRF token like a browser's."""

    def __init__(self, port: int, session_key: str | None = None, language: str = "fr") -> None:
        self.port = port
        self.csrf = secrets.token_hex(16)  # 32 characters: Django accepts it unmasked
        cookies = {"csrftoken": self.csrf, "django_language": language}
        if session_key:
            cookies["sessionid"] = session_key
        self.cookie = "; ".join(f"{k}={v}" for k, v in cookies.items())
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.etag: str | None = None  # the last answer's ETag

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
    ) -> tuple[int, bytes]:
        sent = {
            "Cookie": self.cookie,
            "X-CSRFToken": self.csrf,
            "Host": "127.0.0.1",
            **(headers or {}),
        }
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                self.etag = response.getheader("ETag")  # what a browser's cache would keep
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, data: Any) -> tuple[int, Any]:
        status, body = self.request(
            method,
            path,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json"},
        )
        return status, json.loads(body) if body else None


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def seed_club(deals: int, *, seed: int = 1, players: int = 12, per_game: int = 25) -> Any:
    """A club with ``deals`` deals at 4-player tables over three seasons, written in bulk:
    each deal scored by the engine, with its score lines, revision and statistics rows.
    Returns the club. Adds to an existing bench club when called again."""
    import datetime
    import random
    from collections import defaultdict

    from django.contrib.auth import get_user_model

    from tarot_scores.clubs import services as club_services
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services as game_services
    from tarot_scores.games.seats import TableSeats
    from tarot_scores.games.setup import frozen_rules_for
    from tarot_scores.models import (
        Club,
        Deal,
        DealRevision,
        Game,
        Membership,
        PlayerSeason,
        ScoreLine,
        Seat,
    )

    rng = random.Random(seed)
    club = Club.objects.filter(slug="bench").first()
    if club is None:
        user = get_user_model().objects.create_user("bench", password="bench")
        club = Club.objects.create(name="Bench", slug="bench")
        Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANISER)
        for i in range(players):
            club_services.player_create(club=club, name=f"Joueur {i + 1:02d}")
    roster = list(club.players.all())
    start = datetime.date(2023, 9, 1)
    stats: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    made = 0
    while made < deals:
        table = rng.sample(roster, 4)
        game = Game.objects.create(
            club=club,
            variant="fft",
            rules=frozen_rules_for(variant="fft", house_rules=None),
            date=start + datetime.timedelta(days=rng.randrange(3 * 365)),
            status=Game.Status.FINISHED,
        )
        Seat.objects.bulk_create(Seat(game=game, player=p, position=i) for i, p in enumerate(table))
        view = TableSeats(list(game.seats.select_related("player")))
        season = club.season_of(game.date)
        new_deals, results = [], []
        for number in range(1, min(per_game, deals - made) + 1):
            payload = random_tarot_payload(rng, [p.pk for p in table], number)
            result, _view = game_services.deal_score(
                game=game, payload=payload, number=number, table=view
            )
            scores = view.scores_by_id(result)
            new_deals.append(
                Deal(
                    game=game,
                    number=number,
                    payload=payload,
                    dealer=view.dealer(number),
                    taker_id=payload["taker"],
                    contract=payload["contract"],
                    won=result.won,
                    margin=result.margin,
                )
            )
            results.append(scores)
        Deal.objects.bulk_create(new_deals)
        lines, revisions = [], []
        for deal, scores in zip(new_deals, results, strict=True):
            for pid, points in scores.items():
                lines.append(ScoreLine(deal=deal, player_id=pid, points=points))
                row = stats[(season, pid)]
                taken = 1 if pid == deal.taker_id else 0
                row[0] += points
                row[1] += 1
                row[2] += taken
                row[3] += taken if deal.won else 0
            revisions.append(
                DealRevision(
                    deal=deal,
                    version=1,
                    action="created",
                    payload=deal.payload,
                    scores={str(k): v for k, v in scores.items()},
                )
            )
        ScoreLine.objects.bulk_create(lines)
        DealRevision.objects.bulk_create(revisions)
        made += len(new_deals)
    for (season, pid), (points, count, taken, won) in stats.items():
        row, _created = PlayerSeason.objects.get_or_create(
            club=club, season=season, kind="tarot", table_size=4, player_id=pid
        )
        PlayerSeason.objects.filter(pk=row.pk).update(
            points=row.points + points,
            deals=row.deals + count,
            taken=row.taken + taken,
            taken_won=row.taken_won + won,
        )
    return club
