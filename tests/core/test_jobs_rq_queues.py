"""The queues by kind on Redis (TASKS_BACKEND=rq): each job goes to the RQ queue of its kind,
and one ``manage.py worker`` serves every queue with workers of its own (a child process per
slot), so a job held in one queue does not delay another queue's job asked for after it."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import redis
from pytest_django import Settings
from rq.queue import Queue

from tarot_scores.core.jobs import enqueue
from tarot_scores.settings import tasks_from
from tests.core.jobs_for_tests import always_fails, note_run
from tests.core.test_jobs_rq import own_redis
from tests.processes import MANAGE, PYTHON, ROOT, child_env

__all__ = ["own_redis"]  # a fixture


def _wait_for(condition: Callable[[], bool], what: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds  # generous: the test waits for events, not a speed
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"Timed out waiting for {what}")


def test_each_job_goes_to_the_rq_queue_of_its_kind(own_redis: str, settings: Settings) -> None:
    settings.TASKS_BACKEND = "rq"
    settings.TASKS = tasks_from("rq", own_redis)
    settings.RQ_QUEUES = {
        name: {"URL": own_redis} for name in ("mail", "webhooks", "ratings", "documents", "default")
    }
    enqueue(note_run, folder="/nonexistent", n=1)
    enqueue(always_fails, note="queued")
    connection = redis.Redis.from_url(own_redis)
    counts = {name: Queue(name, connection=connection).count for name in settings.RQ_QUEUES}
    assert counts == {"mail": 1, "webhooks": 0, "ratings": 1, "documents": 0, "default": 0}


def test_a_job_held_in_one_queue_does_not_delay_another_queue(
    own_redis: str, tmp_path: Path
) -> None:
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="rq",
        TASKS_REDIS_URL=own_redis,
        DJANGO_DEBUG="1",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    held, quick = tmp_path / "held", tmp_path / "quick"
    held.mkdir()
    quick.mkdir()

    def ask(code: str) -> None:
        subprocess.run(
            [
                PYTHON,
                MANAGE,
                "shell",
                "-v0",
                "-c",
                f"from tarot_scores.core.jobs import enqueue; {code}",
            ],
            cwd=ROOT,
            env=env,
            check=True,
        )

    worker = subprocess.Popen(
        [PYTHON, MANAGE, "worker"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # A document that takes as long as the test wants (the documents' only slot).
        ask(
            "from tests.core.jobs_for_tests import held_until_released as job; "
            f"enqueue(job, folder={str(held)!r})"
        )
        _wait_for((held / "runs").exists, "the documents' job to start")
        ask(
            "from tests.core.jobs_for_tests import note_run as job; "
            f"enqueue(job, folder={str(quick)!r}, n=7)"
        )
        _wait_for((quick / "runs").exists, "the ratings' job asked for after it to run")
        assert not (held / "release").exists()  # the document was still being drawn
        (held / "release").touch()
    finally:
        worker.terminate()
        assert worker.wait(timeout=120) == 0
    assert (quick / "runs").read_text().split()[0] == "7"
