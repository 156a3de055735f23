"""A deal's event delivered by a real worker process (``manage.py worker`` on a database file of
its own) to a real receiver on 127.0.0.1, signed with the webhook's secret."""

import hashlib
import hmac
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import MANAGE, PYTHON, ROOT, child_env
from tests.webhooks.receiver import Receiver, receiver

__all__ = ["receiver"]  # a fixture

SETUP = """
from tarot_scores.clubs import services as clubs
from tarot_scores.games import services as games
from tarot_scores.webhooks import services as webhooks
from django.contrib.auth.models import User

olga = User.objects.create_user("olga")
club = clubs.club_create(name="Club du worker", by=olga)
players = [clubs.player_create(club=club, name=name) for name in ("Ana", "Bob", "Cyd", "Dan")]
hook = webhooks.webhook_create(club=club, url={url!r}, by=olga)
game = games.game_create(club=club, players=players, variant="fft", by=None)
deal = games.deal_record(
    game=game,
    payload={{"taker": players[0].pk, "contract": "garde", "points": 49, "oudlers": 2}},
    by=None,
).deal
print(hook.secret, deal.pk)
"""

STATUS = (
    "from tarot_scores.webhooks.models import Delivery; "
    "print(','.join(Delivery.objects.values_list('status', flat=True)))"
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[dict[str, str]]:
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="database",
        DJANGO_SETTINGS_MODULE="tests.webhooks.worker_settings",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    yield env


def _shell(env: dict[str, str], code: str) -> str:
    out = subprocess.run(
        [PYTHON, MANAGE, "shell", "-v0", "-c", code],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip().splitlines()[-1]


def test_a_real_worker_delivers_a_signed_deal_event(
    site: dict[str, str], receiver: Receiver
) -> None:
    secret, deal_id = _shell(site, SETUP.format(url=receiver.url)).split()
    assert _shell(site, STATUS) == "pending"
    assert receiver.requests == []  # nothing leaves before a worker takes it
    worker = subprocess.Popen(
        [PYTHON, MANAGE, "worker", "--interval", "0.2"],
        cwd=ROOT,
        env=site,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120  # waits for the event, not for a speed
        while not receiver.requests and time.monotonic() < deadline:
            time.sleep(0.1)
        assert receiver.requests, "the worker sent nothing"
        deadline = time.monotonic() + 60
        while _shell(site, STATUS) != "delivered" and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    [got] = receiver.requests
    signed = got.headers["X-Tarot-Timestamp"].encode() + b"." + got.body
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(expected, got.headers["X-Tarot-Signature"])
    body = json.loads(got.body)
    assert body["type"] == got.headers["X-Tarot-Event"] == "deal.recorded"
    assert body["data"]["deal"] == int(deal_id)
    assert _shell(site, STATUS) == "delivered"
