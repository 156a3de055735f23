"""The task queue on Redis (TASKS_BACKEND=rq), for several servers: jobs asked for by one
process are run by two worker processes (``manage.py worker``, an RQ worker each), every job
exactly once. The test starts its own redis-server on a free port and stops only that one."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.processes import MANAGE, PYTHON, ROOT, child_env

JOBS = 12


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    server = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_two_rq_workers_run_every_job_once(own_redis: str, tmp_path: Path) -> None:
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="rq",
        TASKS_REDIS_URL=own_redis,
        DJANGO_DEBUG="1",
    )
    folder = tmp_path / "jobs"
    folder.mkdir()
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run(
        [
            PYTHON,
            MANAGE,
            "shell",
            "-v0",
            "-c",
            "from tarot_scores.core.jobs import enqueue; "
            "from tests.core.jobs_for_tests import note_run; "
            f"[enqueue(note_run, folder={str(folder)!r}, n=n) for n in range({JOBS})]",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    workers = [
        subprocess.Popen(
            [PYTHON, MANAGE, "worker", "--batch"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]
    for worker in workers:
        assert worker.wait(timeout=300) == 0
    runs = (folder / "runs").read_text().split("\n")
    numbers = sorted(int(line.split()[0]) for line in runs if line)
    assert numbers == list(range(JOBS))  # every job, once
