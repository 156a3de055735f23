"""The task queue: retries with backoff, jobs that start only with the transaction that asked
for them, and a job never lost with its worker (a real worker process killed mid-job)."""

import datetime
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from pytest_django import Settings

from tarot_scores.core.jobs import ATTEMPT, enqueue, lost_jobs_requeue, worker_alive
from tarot_scores.core.models import WorkerBeat
from tests.core.jobs_for_tests import always_fails
from tests.processes import MANAGE, PYTHON, ROOT, child_env
from tests.queue import database_queue, run_waiting_jobs

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture


def test_a_failed_run_is_kept_with_its_error_and_runs_again_later(database_queue: None) -> None:
    enqueue(always_fails, note="first")
    before = timezone.now()
    run_waiting_jobs()

    failed = DBTaskResult.objects.get(status=TaskResultStatus.FAILED)
    assert "Mail server said no (first)" in failed.traceback
    again = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert again.args_kwargs["kwargs"] == {"note": "first", ATTEMPT: 2}
    # The backoff: 60 s after the first failure, then 120 s.
    assert again.run_after >= before + datetime.timedelta(seconds=60)
    assert again.run_after < before + datetime.timedelta(seconds=90)


def test_attempts_double_their_wait_and_stop_at_the_last(database_queue: None) -> None:
    start = timezone.now()
    # Run each attempt as soon as it is due, as a worker would once its wait is over.
    enqueue(always_fails, note="x")
    waits = []
    for _ in range(3):
        due = DBTaskResult.objects.filter(status=TaskResultStatus.READY)
        if not due.exists():
            break
        row = due.get()
        waits.append(row.run_after)
        due.update(run_after=timezone.now())
        run_waiting_jobs()
    assert DBTaskResult.objects.filter(status=TaskResultStatus.FAILED).count() == 3
    assert not DBTaskResult.objects.filter(status=TaskResultStatus.READY).exists()
    second, third = waits[1] - start, waits[2] - start
    assert datetime.timedelta(seconds=60) <= second < datetime.timedelta(seconds=90)
    assert datetime.timedelta(seconds=120) <= third < datetime.timedelta(seconds=150)


def test_a_job_asked_for_in_a_transaction_that_rolls_back_never_exists(
    database_queue: None,
) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        enqueue(always_fails, note="rolled back")
        raise RuntimeError("the save failed")
    assert not DBTaskResult.objects.exists()


def test_a_running_job_of_a_quiet_worker_goes_back_to_the_queue(
    database_queue: None, settings: Settings
) -> None:
    settings.TASKS_WORKER_LOST_SECONDS = 60
    enqueue(always_fails, note="lost")
    enqueue(always_fails, note="alive")
    lost, alive = DBTaskResult.objects.order_by("enqueued_at")
    lost.claim("quiet-worker")
    alive.claim("busy-worker")
    WorkerBeat.objects.create(
        worker_id="quiet-worker", seen_at=timezone.now() - datetime.timedelta(seconds=61)
    )
    worker_alive("busy-worker")

    assert lost_jobs_requeue() == 1
    lost.refresh_from_db()
    alive.refresh_from_db()
    assert lost.status == TaskResultStatus.READY
    assert alive.status == TaskResultStatus.RUNNING
    # And a running job whose worker never said a word is lost too.
    alive.claim("unknown-worker")
    assert lost_jobs_requeue() == 1


def test_staff_see_pending_and_failed_jobs_with_the_last_error(
    database_queue: None, client: Client, superuser: User
) -> None:
    enqueue(always_fails, note="smtp refused")
    run_waiting_jobs()
    client.force_login(superuser)
    page = client.get(reverse("admin:django_tasks_database_dbtaskresult_changelist"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "RuntimeError: Mail server said no (smtp refused)" in text
    assert text.count("always_fails") == 2  # the failed run and the next one, waiting
    failed = client.get(
        reverse("admin:django_tasks_database_dbtaskresult_changelist") + "?status=FAILED"
    ).content.decode()
    assert failed.count("always_fails") == 1


def _run_now(client: Client, rows: "list[DBTaskResult[Any, Any]]") -> str:
    url = reverse("admin:django_tasks_database_dbtaskresult_changelist")
    answer = client.post(
        url,
        {"action": "run_now", "_selected_action": [str(row.pk) for row in rows]},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 200
    return answer.content.decode()


def test_staff_run_a_waiting_retry_now_and_ask_again_for_a_job_that_gave_up(
    database_queue: None, client: Client, superuser: User
) -> None:
    """The mail server is back: staff hurry a retry waiting for its backoff, and ask again
    for a job that failed its last attempt. A failed run whose next attempt waits already is
    left alone (running it too would send the mail twice)."""
    client.force_login(superuser)
    enqueue(always_fails, note="waiting")
    run_waiting_jobs()
    waiting = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert waiting.run_after > timezone.now()  # its backoff: a minute
    first_failure = DBTaskResult.objects.get(status=TaskResultStatus.FAILED)

    page = _run_now(client, [waiting, first_failure])
    assert "1 waiting, 0 asked for again; 1 left as they were" in page
    waiting.refresh_from_db()
    assert waiting.run_after <= timezone.now()
    assert DBTaskResult.objects.count() == 2  # nothing asked twice

    # Its attempts run out (3): the job gave up.
    run_waiting_jobs(due_now=True)
    run_waiting_jobs(due_now=True)
    failed = list(DBTaskResult.objects.filter(status=TaskResultStatus.FAILED))
    assert len(failed) == 3
    assert not DBTaskResult.objects.filter(status=TaskResultStatus.READY).exists()

    page = _run_now(client, failed)
    assert "0 waiting, 1 asked for again; 2 left as they were" in page
    again = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert again.args_kwargs["kwargs"] == {"note": "waiting"}  # attempts counted anew
    assert DBTaskResult.objects.ready().filter(pk=again.pk).exists()  # due now


def test_only_the_operator_may_run_jobs_staff_may_look(
    database_queue: None, client: Client
) -> None:
    enqueue(always_fails, note="seen")
    viewer = User.objects.create_user("viewer", password="x", is_staff=True)
    viewer.user_permissions.add(
        Permission.objects.get(
            codename="view_dbtaskresult", content_type__app_label="django_tasks_database"
        )
    )
    client.force_login(viewer)
    page = client.get(reverse("admin:django_tasks_database_dbtaskresult_changelist"))
    assert page.status_code == 200
    assert "always_fails" in page.content.decode()
    assert 'value="run_now"' not in page.content.decode()


# -- A real worker, killed in the middle of a job --------------------------------------------


@pytest.fixture
def site_database(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A database file of its own, migrated, for processes started by the test."""
    env = child_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        TASKS_BACKEND="database",
        TASKS_WORKER_LOST_SECONDS="3",
        DJANGO_DEBUG="1",
    )
    subprocess.run([PYTHON, MANAGE, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    yield env


def _worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [PYTHON, MANAGE, "worker", "--interval", "0.2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _wait_for(condition: object, what: str, seconds: float = 120) -> None:
    # Generous: the test waits for events, not for a speed.
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError(f"Timed out waiting for {what}")


def _job_status(env: dict[str, str]) -> str:
    out = subprocess.run(
        [
            PYTHON,
            MANAGE,
            "shell",
            "-v0",
            "-c",
            "from django_tasks_db.models import DBTaskResult as R; "
            "print(','.join(R.objects.values_list('status', flat=True)))",
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return out.stdout.strip()


def test_a_job_whose_worker_is_killed_runs_again_on_another(
    site_database: dict[str, str], tmp_path: Path
) -> None:
    env = site_database
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
    runs = folder / "runs"
    first = _worker(env)
    second = None
    try:
        _wait_for(runs.exists, "the first worker to start the job")
        os.kill(first.pid, signal.SIGKILL)  # mid-job: no chance to say anything
        first.wait()
        assert _job_status(env) == TaskResultStatus.RUNNING

        second = _worker(env)
        _wait_for(lambda: len(runs.read_text().split()) == 2, "the job to run again")
        (folder / "release").touch()
        _wait_for(lambda: _job_status(env) == TaskResultStatus.SUCCESSFUL, "the job to finish")
        first_pid, second_pid = runs.read_text().split()
        assert first_pid == str(first.pid)
        assert second_pid == str(second.pid)
    finally:
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)


def test_the_worker_gives_way_to_the_site_on_the_cpu(
    site_database: dict[str, str], tmp_path: Path
) -> None:
    """TASKS_WORKER_NICE: the worker lowers its own priority, so a long replay does not take
    the cores deal entry needs on a machine both share (bench/replay.py --during-replay)."""
    env = {**site_database, "TASKS_WORKER_NICE": "7"}
    subprocess.run(
        [
            PYTHON,
            MANAGE,
            "shell",
            "-v0",
            "-c",
            "from tarot_scores.core.jobs import enqueue; "
            "from tests.core.jobs_for_tests import note_niceness as job; "
            f"enqueue(job, folder={str(tmp_path)!r})",
        ],
        cwd=ROOT,
        env=env,
        check=True,
    )
    subprocess.run([PYTHON, MANAGE, "worker", "--batch"], cwd=ROOT, env=env, check=True)
    assert int((tmp_path / "nice").read_text()) == min(os.nice(0) + 7, 19)
