"""What the site keeps for itself rather than for a club: the task queue's workers, and the
PDFs its jobs draw."""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone


class WorkerBeat(models.Model):
    """A worker of the task queue (database backend), and when it last said it was alive: a
    running job whose worker went quiet is given to another (``core.jobs``)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.seen_at:%Y-%m-%d %H:%M:%S})"


class PreparedPdf(models.Model):
    """A PDF too big to draw in a request (a 1,000-player tournament's table sheets), drawn by
    a job (``core.prepared``) for the person who asked, who waits on its "ready" page. A PDF
    every reader shares (a big tournament's standings) has a ``key`` instead of an owner (its
    tournament, results version and language): one drawing for all its readers, the database
    refusing a second row for the same key."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=40)  # which drawing (registered with on_prepared_pdf)
    args = models.JSONField(default=dict)
    filename = models.CharField(max_length=200)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=200, null=True, blank=True, unique=True)
    asked_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)
    # Its drawing failed every attempt (the job gave up): the reader is told to ask again.
    failed_at = models.DateTimeField(null=True, blank=True)
    content = models.BinaryField(null=True, blank=True)

    def __str__(self) -> str:
        return self.filename


class FeedClock(models.Model):
    """SQLite's clock for the change feed (``core.feed``): one row, ticked inside each write
    transaction; writes run one at a time there, so the ticks are in commit order. PostgreSQL
    stamps with the transaction's id and a sequence instead, and never uses this row."""

    value = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return str(self.value)
