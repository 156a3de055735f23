"""One ratings job waiting per club, however many deals ask for it (``RatingsJobWaiting``).

A deal's save notes the deal behind the ratings, then asks ``ratings_job_wanted``: the club's
row is added unless it is there (one INSERT ... ON CONFLICT DO NOTHING: the unique key decides
between two saves at once), and only the save that added it asks the queue for a job. The job
calls ``ratings_job_taken`` first: the row goes, in a transaction of its own, before it reads
the notes, so a deal saved from then on asks for the next job.

On PostgreSQL the row's removal waits for the saves that found it there to commit (they hold
a shared advisory lock of the club from their check to their commit; the job takes it
exclusively, a moment): their notes are then visible to the job that follows. Without that, a
save could find the row, leave its job to the one waiting, and commit only after that job had
read the notes: its deal would wait for the next save. SQLite writes one transaction at a time,
so the save's check and its commit are never split by the job there.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.utils import timezone

from tarot_scores.ratings.models import RatingsJobWaiting

# Any constant of the site's own (the ratings' scope lock is 0x7A207A): with the club's id.
_WAITING_LOCK = 0x7A207B


def ratings_job_wanted(*, club_id: int) -> bool:
    """In the deal's transaction: True when no ratings job of the club was waiting (this save's
    must be asked for), False when one is (it will take this deal's note too)."""
    table = connection.ops.quote_name(RatingsJobWaiting._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # The lock and the check in one statement: the row to insert comes from the lock's
            # CTE, so the lock is held before the insert meets (or not) the club's row.
            cursor.execute(
                "WITH locked AS (SELECT pg_advisory_xact_lock_shared(%s, %s)) "
                f"INSERT INTO {table} (club_id, asked_at) SELECT %s, %s FROM locked "
                "ON CONFLICT (club_id) DO NOTHING RETURNING club_id",
                [_WAITING_LOCK, club_id, club_id, timezone.now()],
            )
        else:
            cursor.execute(
                f"INSERT INTO {table} (club_id, asked_at) VALUES (%s, %s) "
                "ON CONFLICT (club_id) DO NOTHING RETURNING club_id",
                [club_id, timezone.now()],
            )
        return cursor.fetchone() is not None


def ratings_job_taken(*, club_id: int) -> None:
    """The job starts: the club has no job waiting any more (committed at once, after the
    saves that counted on this one)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_WAITING_LOCK, club_id])
        RatingsJobWaiting.objects.filter(club_id=club_id).delete()
