"""A worker that heals: a real ``manage.py worker`` on a PostgreSQL database of its own loses
its connections (``pg_terminate_backend``) and cannot open new ones for a while (the database
refuses connections); it says so, waits and tries again, and once the database is back it runs
the next job, never having ended.

PostgreSQL only: terminating a server's connections is PostgreSQL's (the test is skipped,
saying why, when PostgreSQL is not reachable: tests/processes.py)."""

import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.processes import (
    MANAGE,
    PYTHON,
    ROOT,
    TEST_POSTGRES_URL,
    child_env,
    postgres_or_skip,
    unique_name,
)

MAIL = (
    "from django.core.mail import send_mail; "
    "send_mail('Reset your password', 'Follow the link.', None, ['ana@example.org'])"
)


def _wait_for(condition: Callable[[], object], what: str, seconds: float = 180) -> None:
    deadline = time.monotonic() + seconds  # generous: the test waits for events, not a speed
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"Timed out waiting for {what}")


@pytest.fixture
def own_database() -> Iterator[str]:
    """A PostgreSQL database of the test's own, dropped afterwards; its name."""
    postgres_or_skip()
    name = unique_name("worker")
    with psycopg.connect(TEST_POSTGRES_URL, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    yield name
    with psycopg.connect(TEST_POSTGRES_URL, autocommit=True) as admin:
        admin.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def _url(name: str) -> str:
    return TEST_POSTGRES_URL.rsplit("/", 1)[0] + "/" + name


def _connections(admin: psycopg.Connection, name: str, *, allowed: bool) -> None:
    """Let the database take connections again, or refuse new ones and end those it has."""
    admin.execute(
        sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
            sql.Identifier(name), sql.Literal(allowed)
        )
    )
    if not allowed:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )


def _mails_sent(name: str) -> int:
    with psycopg.connect(_url(name)) as db:
        row = db.execute(
            "SELECT count(*) FROM django_tasks_database_dbtaskresult "
            "WHERE queue_name = 'mail' AND status = 'SUCCESSFUL'"
        ).fetchone()
    return int(row[0]) if row else 0


def test_the_worker_outlives_its_database_connections(own_database: str, tmp_path: Path) -> None:
    env = child_env(
        DATABASE_URL=_url(own_database),
        TASKS_BACKEND="database",
        TASKS_RECONNECT_SECONDS="0.5",
        TASKS_RECONNECT_MAX_SECONDS="2",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    log_path = tmp_path / "worker.log"
    log = log_path.open("w")
    worker = subprocess.Popen(
        [PYTHON, MANAGE, "worker", "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    admin = psycopg.connect(TEST_POSTGRES_URL, autocommit=True)
    try:
        _wait_for(lambda: "serving" in log_path.read_text(), "the worker to start")
        subprocess.run([PYTHON, MANAGE, "shell", "-v0", "-c", MAIL], cwd=ROOT, env=env, check=True)
        _wait_for(lambda: _mails_sent(own_database) == 1, "the first mail")

        # The database goes: its connections ended, new ones refused.
        _connections(admin, own_database, allowed=False)
        _wait_for(
            # More than its five slots' first word: they tried again, and again.
            lambda: log_path.read_text().count("lost the database") >= 10,
            "the worker to find the database gone, and try again",
        )
        assert worker.poll() is None, "the worker ended with its database"
        _connections(admin, own_database, allowed=True)

        subprocess.run([PYTHON, MANAGE, "shell", "-v0", "-c", MAIL], cwd=ROOT, env=env, check=True)
        _wait_for(lambda: _mails_sent(own_database) == 2, "the mail asked for once it is back")
        # Once more, while it is busy polling: ended connections only.
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [own_database],
        )
        subprocess.run([PYTHON, MANAGE, "shell", "-v0", "-c", MAIL], cwd=ROOT, env=env, check=True)
        _wait_for(lambda: _mails_sent(own_database) == 3, "a third mail")
        assert worker.poll() is None
    finally:
        _connections(admin, own_database, allowed=True)
        admin.close()
        worker.terminate()
        ended = worker.wait(timeout=60)
        log.close()
    assert ended == 0  # stopped by the test, cleanly, between two jobs
