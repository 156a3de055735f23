"""What the site keeps for itself rather than for a club: the task queue's workers."""

from django.db import models


class WorkerBeat(models.Model):
    """A worker of the task queue (database backend), and when it last said it was alive: a
    running job whose worker went quiet is given to another (``core.jobs``)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker_id} ({self.seen_at:%Y-%m-%d %H:%M:%S})"
