"""The task queue on Redis (TASKS_BACKEND=rq), for several servers: jobs asked for by one
process are run by two worker processes (``manage.py worker``, an RQ worker each), every job
exactly once; a job whose worker is killed in the middle runs again on another, once
(``core.rq_workers``). The tests start their own redis-server on a free port and stop only
that one; CI has redis-server (``.ci/run``), so there a missing one fails the test instead of
skipping it."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import pytest
import redis
from django_tasks_rq.backend import Job as TaskJob
from pytest_django import Settings
from rq.job import Job, JobStatus
from rq.job_lifecycle import record_job_failure
from rq.queue import Queue
from rq.registry import FailedJobRegistry, StartedJobRegistry
from rq.worker import Worker

from tarot_scores.core.rq_workers import BEATS_KEY, rq_lost_jobs_requeue, rq_worker_alive
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
        if os.environ.get("CI"):
            pytest.fail("redis-server is not installed, and CI must run the Redis queue's tests")
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


# -- A job never lost with its worker ---------------------------------------------------------


def _queue(url: str, name: str = "default") -> Queue:
    return Queue(name, connection=redis.Redis.from_url(url), job_class=TaskJob)


def _started_by(queue: Queue, worker_name: str, n: int) -> str:
    """A job taken from the queue and started by ``worker_name``, as RQ's worker does it
    (the execution with its expiry, the job marked started), left running."""
    job = queue.enqueue("tests.core.jobs_for_tests.note_run", folder="/nonexistent", n=n)
    assert queue.connection.lrem(queue.key, 0, job.id) == 1  # taken off the queue
    worker = Worker([queue], connection=queue.connection, name=worker_name, job_class=TaskJob)
    worker.prepare_execution(job)
    worker.prepare_job_execution(job)
    assert job.get_status(refresh=True) == JobStatus.STARTED
    return job.id


def _queued(queue: Queue) -> list[str]:
    return [raw.decode() for raw in cast("list[bytes]", queue.connection.lrange(queue.key, 0, -1))]


def _job(queue: Queue, job_id: str) -> Job:
    job = queue.fetch_job(job_id)
    assert job is not None
    return job


def test_a_started_job_of_a_quiet_worker_goes_back_to_the_queue_once(
    own_redis: str, settings: Settings
) -> None:
    settings.TASKS_WORKER_LOST_SECONDS = 60
    queue = _queue(own_redis)
    lost = _started_by(queue, "quiet", 1)
    alive = _started_by(queue, "busy", 2)
    now = time.time()
    rq_worker_alive("quiet", connection=queue.connection)
    queue.connection.zadd(BEATS_KEY, {"quiet": now - 61})
    rq_worker_alive("busy", connection=queue.connection)

    assert rq_lost_jobs_requeue(queues=[queue], now=now) == 1
    assert _queued(queue) == [lost]
    assert _job(queue, lost).get_status() == JobStatus.QUEUED
    assert _job(queue, alive).get_status() == JobStatus.STARTED
    started = StartedJobRegistry(queue=queue)
    assert [job_id for job_id, _execution in started.get_job_and_execution_ids(cleanup=False)] == [
        alive
    ]
    # Asked again (another worker's heart, the next beat): nothing more, the job is queued once.
    assert rq_lost_jobs_requeue(queues=[queue], now=now) == 0
    assert _queued(queue) == [lost]
    # The quiet worker is forgotten, its job handled; the busy one is still heard of.
    assert queue.connection.zscore(BEATS_KEY, "quiet") is None
    assert queue.connection.zscore(BEATS_KEY, "busy") is not None


def test_a_worker_that_never_said_a_word_is_judged_by_rqs_own_expiry(
    own_redis: str, settings: Settings
) -> None:
    settings.TASKS_WORKER_LOST_SECONDS = 60
    queue = _queue(own_redis)
    job_id = _started_by(queue, "plain-rq-worker", 1)  # not started by manage.py worker
    assert rq_lost_jobs_requeue(queues=[queue]) == 0
    # Past the expiry its worker would have pushed back (RQ: about 90 s): lost.
    assert rq_lost_jobs_requeue(queues=[queue], now=time.time() + 600) == 1
    assert _queued(queue) == [job_id]


def test_a_job_rq_moved_to_the_failed_jobs_as_abandoned_runs_again_a_failed_one_does_not(
    own_redis: str, settings: Settings
) -> None:
    settings.TASKS_WORKER_LOST_SECONDS = 60
    queue = _queue(own_redis)
    abandoned = _started_by(queue, "gone", 1)
    # RQ's own clean-up, as a worker's maintenance runs it once the expiry has passed.
    StartedJobRegistry(queue=queue, job_class=TaskJob).cleanup(timestamp=time.time() + 600)
    failed = FailedJobRegistry(queue=queue)
    assert failed.get_job_ids(cleanup=False) == [abandoned]
    raised = _started_by(queue, "busy", 2)
    rq_worker_alive("busy", connection=queue.connection)
    job = _job(queue, raised)
    with queue.connection.pipeline() as pipeline:
        record_job_failure(job, "RuntimeError: Mail server said no", pipeline)
        pipeline.execute()

    assert rq_lost_jobs_requeue(queues=[queue]) == 1
    assert _queued(queue) == [abandoned]
    assert failed.get_job_ids(cleanup=False) == [raised]
    assert rq_lost_jobs_requeue(queues=[queue]) == 0


def _wait_for(condition: Callable[[], bool], what: str, seconds: float = 120) -> None:
    # Generous: the test waits for events, not for a speed.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"Timed out waiting for {what}")


def test_a_job_whose_rq_worker_is_killed_runs_again_on_another(
    own_redis: str, tmp_path: Path
) -> None:
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="rq",
        TASKS_REDIS_URL=own_redis,
        TASKS_WORKER_LOST_SECONDS="3",
        DJANGO_DEBUG="1",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    folder = tmp_path / "job"
    folder.mkdir()
    subprocess.run(
        [
            PYTHON,
            MANAGE,
            "shell",
            "-v0",
            "-c",
            "from tarot_scores.core.jobs import enqueue; "
            "from tests.core.jobs_for_tests import held_until_released as job; "
            f"enqueue(job, folder={str(folder)!r})",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    queue = _queue(own_redis, "documents")  # its job's queue
    (job_id,) = _queued(queue)
    runs = folder / "runs"

    def worker() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [PYTHON, MANAGE, "worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    first = worker()
    second = None
    try:
        _wait_for(runs.exists, "the first worker to start the job")
        # RQ runs the job in a child of the worker (its "horse"): the worker and the child both
        # die at once, as with a machine lost, with no chance to say anything.
        (horse,) = runs.read_text().split()
        os.killpg(first.pid, signal.SIGKILL)  # the worker and its scheduler
        os.kill(int(horse), signal.SIGKILL)  # the horse, in a process group of its own
        first.wait()
        assert _job(queue, job_id).get_status() == JobStatus.STARTED

        second = worker()
        _wait_for(lambda: len(runs.read_text().split()) == 2, "the job to run again")
        (folder / "release").touch()
        _wait_for(
            lambda: _job(queue, job_id).get_status() == JobStatus.FINISHED, "the job to finish"
        )
        assert _job(queue, job_id).return_value() == "done"
        first_run, second_run = runs.read_text().split()
        assert first_run == horse
        assert second_run != horse
        # Once: nothing left queued, started or failed, and no third run.
        time.sleep(3)
        assert len(runs.read_text().split()) == 2
        assert _queued(queue) == []
        assert StartedJobRegistry(queue=queue).get_job_ids(cleanup=False) == []
        assert FailedJobRegistry(queue=queue).get_job_ids(cleanup=False) == []
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
            if process is not None:
                with contextlib.suppress(ProcessLookupError):  # its scheduler, if still there
                    os.killpg(process.pid, signal.SIGKILL)
