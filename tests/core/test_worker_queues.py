"""Queues by kind, served by one real ``manage.py worker`` process: a webhook receiver on
127.0.0.1 that drips its answer a byte at a time holds only the webhooks' slot, is cut off at
the send's deadline (the delivery failed, to be tried again, and the log says so), while a mail
asked for after it was taken is sent at once by the mail's slot.

The worker runs on a database file of its own; the deadline is lowered for the test
(``WEBHOOKS_DEADLINE_SECONDS``) and the webhooks get one slot, so the webhook's send is still
held when the mail is asked for. The test waits for events with generous timeouts and asserts
their order, never a duration."""

import json
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.processes import MANAGE, PYTHON, ROOT, child_env

SETUP = """
from tarot_scores.clubs import services as clubs
from tarot_scores.games import services as games
from tarot_scores.webhooks import services as webhooks
from django.contrib.auth.models import User

olga = User.objects.create_user("olga")
club = clubs.club_create(name="Club du worker", by=olga)
players = [clubs.player_create(club=club, name=name) for name in ("Ana", "Bob", "Cyd", "Dan")]
webhooks.webhook_create(club=club, url={url!r}, by=olga)
game = games.game_create(club=club, players=players, variant="fft", by=None)
games.deal_record(
    game=game,
    payload={{"taker": players[0].pk, "contract": "garde", "points": 49, "oudlers": 2}},
    by=None,
)
print("ok")
"""

MAIL = """
from django.core.mail import send_mail
send_mail("Reset your password", "Follow the link.", None, ["ana@example.org"])
print("ok")
"""

# The jobs in the order they finished (None: not finished), with their queue and status.
JOBS = """
from django_tasks_db.models import DBTaskResult as R
for r in R.objects.order_by("enqueued_at"):
    print(r.queue_name, r.status, r.finished_at.isoformat() if r.finished_at else None)
"""

DELIVERY = """
from tarot_scores.webhooks.models import Delivery
d = Delivery.objects.get()
print(d.status, d.attempts, d.next_try_at is not None, "|", d.last_error)
"""


@dataclass
class Drip:
    """A receiver that reads the request, then answers one byte every ``every`` seconds: a
    status line, headers and a body far longer than any deadline."""

    port: int = 0
    every: float = 1.0
    requests: int = 0
    cut_off: int = 0  # connections the sender closed before the answer's end
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"


def _serve(drip: Drip, server: socket.socket) -> None:
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 4096\r\n\r\n" + b"x" * 4096
    while not drip.stop.is_set():
        try:
            conn, _ = server.accept()
        except TimeoutError:
            continue  # a look at ``stop`` every second
        except OSError:
            return
        with conn:
            conn.settimeout(30)
            try:
                conn.recv(65536)
                drip.requests += 1
                for byte in answer:
                    if drip.stop.wait(drip.every):
                        return
                    conn.sendall(bytes([byte]))
            except OSError:
                drip.cut_off += 1


@pytest.fixture
def drip() -> Iterator[Drip]:
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(1)
    got = Drip(port=server.getsockname()[1])
    thread = threading.Thread(target=_serve, args=(got, server), daemon=True)
    thread.start()
    yield got
    got.stop.set()
    server.close()
    thread.join(timeout=10)


def _shell(env: dict[str, str], code: str) -> list[str]:
    out = subprocess.run(
        [PYTHON, MANAGE, "shell", "-v0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()


def _wait_for(condition: Callable[[], object], what: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds  # generous: the test waits for events, not a speed
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"Timed out waiting for {what}")


class Site:
    """A Python process of the site, started once and ready: each ``run`` executes code in it
    at once (no start-up between asking for the mail and reading the jobs)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [PYTHON, "-u", "-c", SITE],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.readline() == "ready"

    def readline(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline().strip()

    def run(self, code: str) -> list[str]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(code) + "\n")
        self.process.stdin.flush()
        lines = []
        while (line := self.readline()) != "--end--":
            lines.append(line)
        return lines

    def jobs(self) -> list[list[str]]:
        return [line.split() for line in self.run(JOBS)]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


SITE = """
import json, sys
import django
django.setup()
print("ready", flush=True)
for line in sys.stdin:
    exec(json.loads(line))
    print("--end--", flush=True)
"""


def test_a_dripping_receiver_holds_only_the_webhooks_and_is_cut_off(
    drip: Drip, tmp_path: Path
) -> None:
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="database",
        DJANGO_SETTINGS_MODULE="tests.webhooks.worker_settings",
        WEBHOOKS_DEADLINE_SECONDS="8",
        TASKS_WORKERS="webhooks=1",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    site = Site(env)
    site.run(SETUP.format(url=drip.url))
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(
        [PYTHON, MANAGE, "worker", "--interval", "0.2", "--queue", "webhooks", "--queue", "mail"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # The webhooks' only slot is held by the receiver from here on.
        _wait_for(lambda: drip.requests == 1, "the receiver to be sent the deal's event")
        site.run(MAIL)
        _wait_for(
            lambda: any(q == "mail" and s == "SUCCESSFUL" for q, s, _ in site.jobs()),
            "the mail to be sent",
        )
        # Sent while the delivery asked for before it was still held: nothing waited for it.
        assert drip.cut_off == 0
        assert [(s, f) for q, s, f in site.jobs() if q == "webhooks"] == [("RUNNING", "None")]
        _wait_for(lambda: drip.cut_off == 1, "the sender to cut the dripping answer off")
        _wait_for(
            lambda: site.run(DELIVERY)[-1].startswith("pending 1 True"),
            "the delivery to be marked failed, to be tried again",
        )
        assert drip.requests == 1  # not tried again at once: after its backoff
        status = site.run(DELIVERY)[-1]
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        log.close()
        site.close()
    # The worker speaks the site's language (French) in the row and in its log.
    assert "Pas de réponse complète en 8 s" in status, status
    written = (tmp_path / "worker.log").read_text()
    assert "failed (attempt 1 of 6), tried again at" in written, written
    assert "Pas de réponse complète en 8 s" in written
    assert " delivered" not in written
    assert "Reset your password" in written  # the mail, as the console backend sends it
