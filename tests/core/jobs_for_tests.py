"""Jobs the tests of the task queue enqueue; a worker started by a test imports them from here
(the worker's working directory is the repository, where ``tests`` is a package)."""

import os
import time
from pathlib import Path

from tarot_scores.core.jobs import job
from tarot_scores.core.queues import Queue


@job(queue=Queue.MAIL, attempts=3, backoff=60)
def always_fails(note: str) -> None:
    raise RuntimeError(f"Mail server said no ({note})")


@job(queue=Queue.DOCUMENTS, attempts=3, backoff=1)
def held_until_released(folder: str) -> str:
    """Writes one line per run to ``folder/runs`` (the worker's process id), then waits for the
    file ``folder/release`` before it finishes."""
    with Path(folder, "runs").open("a") as runs:
        runs.write(f"{os.getpid()}\n")
    while not Path(folder, "release").exists():
        time.sleep(0.05)
    return "done"


@job(queue=Queue.RATINGS, attempts=1)
def note_run(folder: str, n: int) -> int:
    """Writes ``n`` and the worker's process id to ``folder/runs``, one line per run."""
    with Path(folder, "runs").open("a") as runs:
        runs.write(f"{n} {os.getpid()}\n")
    return n


@job(queue=Queue.DOCUMENTS, attempts=1)
def note_niceness(folder: str) -> int:
    """Writes the worker's CPU priority (its nice value) to ``folder/nice``."""
    niceness = os.nice(0)
    Path(folder, "nice").write_text(str(niceness))
    return niceness
