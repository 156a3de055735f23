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
        deadline = time.monotonic() + 120  # a machine shared with other work starts slowly
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return self
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not answer /healthz within 120 s")

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


def copy_text(value: Any) -> str:
    r"""A value in PostgreSQL COPY's text format."""
    if value is None:
        return r"\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if hasattr(value, "isoformat"):
        return str(value.isoformat())
    text = str(value)
    if "\\" in text or "\t" in text or "\n" in text or "\r" in text:
        text = (
            text.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return text


class BulkRows:
    """Rows of one model's table written in bulk with ids given here: PostgreSQL's ``COPY``
    (text format), or one statement sent for many rows on SQLite. Every column the model has
    is written: the ones given to ``add`` by name, the others their model default (computed
    once). Ids follow the table's highest; ``sequences_catch_up`` moves the id sequences past
    them at the end. One writer at a time (a bench's own database)."""

    def __init__(self, model: Any, given: tuple[str, ...]) -> None:
        from django.db import connection, models

        self.model = model
        fields = [f for f in model._meta.concrete_fields if not f.primary_key]
        self.columns = [model._meta.pk.column, *(f.column for f in fields)]
        template: list[Any] = []
        self.slots: list[int] = []
        for name in given:
            self.slots.append(1 + [f.attname for f in fields].index(name))
        for f in fields:
            if f.attname in given:
                template.append(None)
            elif f.has_default() or f.null or f.empty_strings_allowed:
                template.append(f.get_default())  # its default, else None or ""
            else:
                raise ValueError(f"{model.__name__}.{f.attname} has no default: give it")
        self.template = [None, *template]
        self.json = [1 + i for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
        self.prepare = [model._meta.pk, *fields]  # SQLite: each value as Django would send it
        self.postgres = connection.vendor == "postgresql"
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {model._meta.db_table}")
            self.last_id = int(cursor.fetchone()[0])
        self.rows: list[Any] = []
        # COPY: the defaults' text once; each row formats only the values it is given.
        self.text = [
            copy_text(json.dumps(v) if i in self.json and v is not None else v)
            for i, v in enumerate(self.template)
        ]
        self.given_json = [slot in self.json for slot in self.slots]

    def add(self, *values: Any) -> int:
        """A row with these values of the ``given`` fields, in their order; its id."""
        self.last_id += 1
        if self.postgres:
            text = list(self.text)
            text[0] = str(self.last_id)
            for slot, value, is_json in zip(self.slots, values, self.given_json, strict=True):
                text[slot] = copy_text(
                    json.dumps(value) if is_json and value is not None else value
                )
            self.rows.append("\t".join(text) + "\n")
            return self.last_id
        row = list(self.template)
        row[0] = self.last_id
        for slot, value in zip(self.slots, values, strict=True):
            row[slot] = value
        from django.db import connection

        self.rows.append(
            [f.get_db_prep_save(v, connection) for f, v in zip(self.prepare, row, strict=True)]
        )
        return self.last_id

    def flush(self) -> None:
        from django.db import connection

        if not self.rows:
            return
        table = connection.ops.quote_name(self.model._meta.db_table)
        columns = ", ".join(connection.ops.quote_name(c) for c in self.columns)
        with connection.cursor() as cursor:
            if self.postgres:
                with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                    copy.write("".join(self.rows))
            else:
                marks = ", ".join(["%s"] * len(self.columns))
                cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", self.rows)
        self.rows.clear()


def sequences_catch_up(*models: Any) -> None:
    """PostgreSQL: each table's id sequence past the ids written by ``BulkRows``."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return  # SQLite's next id follows the highest row by itself
    with connection.cursor() as cursor:
        for model in models:
            table = model._meta.db_table
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT COALESCE(MAX(id), 1) FROM {table}))"
            )


# Deals between two writes of the buffers: a few tens of MB of rows at most.
SEED_CHUNK = 20000


def seed_club(deals: int, *, seed: int = 1, players: int = 12, per_game: int = 25) -> Any:
    """A club with ``deals`` deals at 4-player tables over three seasons, written in bulk:
    each deal scored by the engine, with its score lines, revision and statistics rows.
    Returns the club. Adds to an existing bench club when called again.

    Fast enough for a million deals: the rows are written with PostgreSQL's ``COPY``
    (``BulkRows``; foreign keys not checked row by row while loading, in one transaction),
    and a deal is scored by the site's engine (``games.services.deal_score``) once per
    distinct deal at a table: the random deals are drawn with the table's seats (0 to 3) in
    place of the players, scored once on a table of the club's first four players, and each
    deal takes those scores with its own players put in. The deals drawn are the same as when
    each was scored on its own game (the same draws from the same seed)."""
    import datetime
    import random
    from collections import defaultdict

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

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
    roster = list(club.players.order_by("pk"))
    rules = frozen_rules_for(variant="fft", house_rules=None)
    # The table every distinct deal is scored on: the club's first four players, seats 0 to 3.
    model_game = Game(club=club, variant="fft", rules=rules)
    model_table = TableSeats(
        [Seat(game=model_game, player=p, position=i) for i, p in enumerate(roster[:4])]
    )
    model_ids = [p.pk for p in roster[:4]]
    scored: dict[str, tuple[list[int], bool, int | None]] = {}

    def score(by_seat: dict[str, Any]) -> tuple[list[int], bool, int | None]:
        key = json.dumps(by_seat, sort_keys=True)
        known = scored.get(key)
        if known is None:
            payload = seated(by_seat, model_ids)
            result, _view = game_services.deal_score(
                game=model_game, payload=payload, number=1, table=model_table
            )
            by_id = model_table.scores_by_id(result)
            known = scored[key] = ([by_id[pk] for pk in model_ids], result.won, result.margin)
        return known

    start = datetime.date(2023, 9, 1)
    stats: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    games = BulkRows(Game, ("club_id", "date", "rules", "status", "variant"))
    seats = BulkRows(Seat, ("game_id", "player_id", "position"))
    deal_rows = BulkRows(
        Deal,
        ("game_id", "number", "payload", "dealer_id", "taker_id", "contract", "won", "margin"),
    )
    lines = BulkRows(ScoreLine, ("deal_id", "player_id", "points"))
    revisions = BulkRows(DealRevision, ("deal_id", "version", "action", "payload", "scores"))
    everything = (games, seats, deal_rows, lines, revisions)
    made = 0
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                # Consistent by construction: no foreign-key trigger per row while loading.
                cursor.execute("SET LOCAL session_replication_role = replica")
        while made < deals:
            table = rng.sample(roster, 4)
            ids = [p.pk for p in table]
            day = start + datetime.timedelta(days=rng.randrange(3 * 365))
            game_id = games.add(club.pk, day, rules, Game.Status.FINISHED, "fft")
            for position, pk in enumerate(ids):
                seats.add(game_id, pk, position)
            season = club.season_of(day)
            for number in range(1, min(per_game, deals - made) + 1):
                by_seat = random_tarot_payload(rng, [0, 1, 2, 3], number)
                points, won, margin = score(by_seat)
                payload = seated(by_seat, ids)
                deal_id = deal_rows.add(
                    game_id,
                    number,
                    payload,
                    ids[(number - 1) % 4],
                    payload["taker"],
                    payload["contract"],
                    won,
                    margin,
                )
                by_player = {}
                for pk, pts in zip(ids, points, strict=True):
                    lines.add(deal_id, pk, pts)
                    by_player[str(pk)] = pts
                    row = stats[(season, pk)]
                    taken = 1 if pk == payload["taker"] else 0
                    row[0] += pts
                    row[1] += 1
                    row[2] += taken
                    row[3] += taken if won else 0
                revisions.add(deal_id, 1, "created", payload, by_player)
                made += 1
                if made % SEED_CHUNK == 0:
                    for rows in everything:
                        rows.flush()
        for rows in everything:
            rows.flush()
    sequences_catch_up(Game, Seat, Deal, ScoreLine, DealRevision)
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
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return club


def seated(by_seat: dict[str, Any], ids: list[int]) -> dict[str, Any]:
    """A deal drawn with seats (0 to 3) in place of players, with the table's players put in."""
    payload = dict(by_seat)
    for key in ("taker", "partner", "sitting_out"):
        if payload.get(key) is not None:
            payload[key] = ids[payload[key]]
    payload["handfuls"] = [{**h, "player": ids[h["player"]]} for h in payload["handfuls"]]
    return payload
