"""The change feed's clock: where a change (a game, a deal, a tournament, a tournament's
standings) stands in the order consumers read changes in, and the cursor that says how far a
consumer has read (``?updated_since=`` in the API, docs/api.md "The change feed").

Every change is stamped, in the transaction that makes it, with a position ``(xact, seq)``:

- PostgreSQL: ``xact`` is the writing transaction's id (``pg_current_xact_id()``, 64 bits,
  never reused) and ``seq`` a number from a sequence (in the order the stamps were taken). A
  reader serves only the positions whose ``xact`` is below the oldest transaction still in
  progress (``served_below``: its snapshot's ``xmin``, narrowed to this database): every
  transaction below it has ended, so no change can still arrive below it, whatever order
  transactions commit in. A transaction that stamped first and commits last holds the bound
  back until it ends; then its changes are served, after the cursor of everything served so
  far. Nothing is skipped.
- SQLite: write transactions run one at a time (``transaction_mode`` IMMEDIATE in the
  settings), so a counter (``FeedClock``) taken inside the write is in commit order; ``xact``
  and ``seq`` are both that tick, and everything committed can be served.

A stamped row keeps the position of its latest change only, so a list asked ``after`` a cursor
gives each changed item once, in its state now, ordered by ``(xact, seq, id)``: a row stamped
again moves to its new place, and the consumer sees it there. ``id`` orders the rows one
stamp wrote, and the rows written before the feed existed (all at position 0).

The cursor is opaque to consumers: the position of the last item served, as text.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext

from tarot_scores.core.errors import Code, Refusal
from tarot_scores.core.models import FeedClock

# PostgreSQL's sequence the stamps number from (created by the site's migration).
SEQUENCE = "tarot_feed_seq"
# The query parameter that asks a list for its changes.
UPDATED_SINCE = "updated_since"
# What ``updated_since`` may say for "from the beginning", besides nothing at all.
FROM_THE_START = frozenset({"", "0"})

M = TypeVar("M", bound=Model)


@dataclass(frozen=True, order=True)
class Position:
    """Where a change stands in the feed: ordered by transaction, then stamp, then row id."""

    xact: int
    seq: int
    pk: int = 0

    def fields(self, prefix: str = "feed") -> dict[str, int]:
        """The columns a stamped row keeps (``feed_xact``, ``feed_seq``), for a save or an
        UPDATE."""
        return {f"{prefix}_xact": self.xact, f"{prefix}_seq": self.seq}

    def cursor(self) -> str:
        raw = f"1.{self.xact}.{self.seq}.{self.pk}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")


# Before every change (the rows written before the feed existed stand at 0, 0, their id).
START = Position(0, 0, 0)


def next_stamp() -> Position:
    """The position of a change written now, by the current transaction (call it inside the
    transaction that writes the change: on SQLite the tick is only in commit order there)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"SELECT pg_current_xact_id()::text::bigint, nextval('{SEQUENCE}')"  # noqa: S608
            )
            xact, seq = cursor.fetchone()
            return Position(int(xact), int(seq))
        table = connection.ops.quote_name(FeedClock._meta.db_table)
        cursor.execute(
            f"INSERT INTO {table} (id, value) VALUES (1, 1) "  # noqa: S608
            "ON CONFLICT (id) DO UPDATE SET value = value + 1 RETURNING value"
        )
        (tick,) = cursor.fetchone()
        return Position(int(tick), int(tick))


def stamp(instance: Model, prefix: str = "feed") -> Position:
    """Give ``instance`` the position of a change made now (before it is saved: its own save
    writes the columns)."""
    position = next_stamp()
    for name, value in position.fields(prefix).items():
        setattr(instance, name, value)
    return position


# What the bound is made of, read in one statement: the snapshot's ``xmax`` (every transaction
# below it that is not in progress has ended), the reader's own transaction id if it has one,
# and the 32-bit ids of the other transactions of this database still in progress.
# pg_stat_activity's ``datid`` and ``backend_xid`` are among the columns PostgreSQL shows every
# role, whoever's the session (the query's text is not): the site's role needs no privilege.
_IN_PROGRESS = """
SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint,
       pg_current_xact_id_if_assigned()::text::bigint,
       ARRAY(SELECT backend_xid::text::bigint
               FROM pg_stat_activity
              WHERE datid = (SELECT oid FROM pg_database WHERE datname = current_database())
                AND pid <> pg_backend_pid()
                AND backend_xid IS NOT NULL)
"""
_WRAP = 2**32


def _widened(xid32: int, near: int) -> int:
    """A 32-bit transaction id as the 64-bit one within 2**31 of ``near`` (a 64-bit id)."""
    step = (xid32 - near) % _WRAP
    return near + (step - _WRAP if step >= _WRAP // 2 else step)


def served_below() -> int | None:
    """The transaction id below which every change is final, or None where everything
    committed may be served (SQLite).

    On PostgreSQL: the oldest transaction of this database still in progress when the
    reader looks, other than the reader's own, or the snapshot's ``xmax`` if it is lower
    (PostgreSQL counts every id from ``xmax`` up as still running). Every transaction below it
    has ended, so no change can still appear below it, and the rows the reader then reads (a
    later statement: a later snapshot) hold all of theirs. This is the ``xmin`` of the
    reader's snapshot (``pg_snapshot_xmin(pg_current_snapshot())``) narrowed to this database,
    so that a long transaction in another database of the server never holds the feed back.

    A reader inside a transaction that wrote (a test) also reads its own changes, when no other
    transaction of this database older than its own is in progress: every transaction below
    its own has then ended. The activity is read afresh each time (PostgreSQL otherwise keeps
    what it read first for the whole transaction)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(_IN_PROGRESS)
        xmax, own, others32 = cursor.fetchone()
    others = [_widened(int(x), int(xmax)) for x in others32]
    bound = min([int(xmax), *others])
    if own is not None and all(int(own) < other for other in others):
        bound = max(bound, int(own) + 1)
    return bound


def changed_after(
    queryset: QuerySet[M], after: Position, *, prefix: str = "feed", below: int | None = None
) -> QuerySet[M]:
    """The rows of ``queryset`` whose latest change stands after ``after`` (and, with
    ``below``, whose transaction is below it), oldest change first."""
    xact, seq = f"{prefix}_xact", f"{prefix}_seq"
    later = (
        Q(**{f"{xact}__gt": after.xact})
        | Q(**{xact: after.xact, f"{seq}__gt": after.seq})
        | Q(**{xact: after.xact, seq: after.seq, "pk__gt": after.pk})
    )
    rows = queryset.filter(later)
    if below is not None:
        rows = rows.filter(**{f"{xact}__lt": below})
    return rows.order_by(xact, seq, "pk")


def position_of(row: Any, prefix: str = "feed") -> Position:
    return Position(
        int(getattr(row, f"{prefix}_xact")), int(getattr(row, f"{prefix}_seq")), int(row.pk)
    )


def cursor_refusal() -> Refusal:
    return Refusal.on(
        UPDATED_SINCE,
        Code.CURSOR_INVALID,
        gettext(
            "This is not a cursor of this list: send the cursor an answer gave, or nothing to "
            "read from the beginning."
        ),
    )


def read_cursor(raw: str) -> Position:
    """The position a cursor names; an empty cursor (or ``0``) is the beginning. Anything else
    that is not a cursor this site gave is refused on ``updated_since`` (``cursor_invalid``)."""
    text = raw.strip()
    if text in FROM_THE_START:
        return START
    if len(text) > 200 or not text.isascii():
        raise cursor_refusal()
    try:
        decoded = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise cursor_refusal() from None
    parts = decoded.split(".")
    if len(parts) != 4 or parts[0] != "1":
        raise cursor_refusal()
    numbers = parts[1:]
    if not all(part.isascii() and part.isdigit() and len(part) <= 19 for part in numbers):
        raise cursor_refusal()
    xact, seq, pk = (int(part) for part in numbers)
    if max(xact, seq, pk) > 2**63 - 1:
        raise cursor_refusal()
    return Position(xact, seq, pk)


def cursor_after(rows: list[Any], after: Position, prefix: str = "feed") -> str:
    """The cursor to send next: the last row served, or the one read when none was."""
    return (position_of(rows[-1], prefix) if rows else after).cursor()
