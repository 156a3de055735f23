"""The job queues, one per kind of work, each served by its own share of the worker: a slow or
hostile webhook receiver holds only the webhooks' slots, never a password reset (mail), a
rating or a PDF (documents). Plain Python (no Django): the settings read it too.

``TASKS_WORKERS`` (settings, docs/operations.md) says how many jobs of each queue one
``manage.py worker`` runs at once: ``"mail=1,webhooks=2,ratings=1,documents=1"`` by default.
"""

from __future__ import annotations

from enum import StrEnum


class Queue(StrEnum):
    """A kind of job, and the name of its queue in either backend (a database column, or RQ's
    queue of that name)."""

    MAIL = "mail"
    WEBHOOKS = "webhooks"
    RATINGS = "ratings"
    DOCUMENTS = "documents"


QUEUES: tuple[str, ...] = tuple(q.value for q in Queue)

# Jobs asked for before the queues by kind waited in django-tasks' "default" queue: the
# documents' slots run what is left of them.
LEGACY = "default"

# One ratings job at a time is all a scope takes (each holds its scope's lock); two webhook
# slots let one slow receiver hold one while the other deliveries go on.
DEFAULT_CAPACITY = {"mail": 1, "webhooks": 2, "ratings": 1, "documents": 1}


def capacity_from(text: str) -> dict[str, int]:
    """``"mail=1,webhooks=2"`` as a capacity per queue, the defaults for the queues not named.
    Raises ValueError, naming the fault, for an unknown queue or a count below 1."""
    capacity = dict(DEFAULT_CAPACITY)
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, count = part.partition("=")
        name = name.strip()
        if name not in QUEUES:
            raise ValueError(f"Unknown queue {name!r} (known: {', '.join(QUEUES)}).")
        try:
            slots = int(count)
        except ValueError:
            raise ValueError(f"Queue {name!r}: {count!r} is not a whole number.") from None
        if slots < 1:
            raise ValueError(f"Queue {name!r}: at least 1 slot.")
        capacity[name] = slots
    return capacity
