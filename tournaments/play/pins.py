"""A player's personal PIN at the table, and the limit on guessing it.

Where a tournament asks for personal proof (``Tournament.confirmation_proof``), a player who
names himself on a phone of his table, or acts through the table link's API, proves who he is
with his entry's PIN (``Entry.pin``, four digits, on his player card), unless his own account or
his card's personal link proves it. Four digits are guessed by trying, so wrong PINs are
counted, in the database (the site keeps working with Redis down, and a cache is no safe
counter), **where they were typed**, never against the player whose PIN was tried: anyone at a
table could otherwise lock a neighbour's PIN by typing it wrong on purpose.

Two counts answer each wrong PIN (``PinAttempts``): the phone's (its session, or the table's
API, which is no phone) and the table's (all its phones together, so a table cannot try a PIN
from many browsers). After ``PIN_ATTEMPTS`` wrong PINs on one phone within
``PIN_ATTEMPTS_MINUTES``, that phone types no PIN for ``PIN_LOCK_MINUTES``; after
``TABLE_FACTOR`` times as many at one table, none of its phones does. The player himself is never
locked out: his card's link, his account, or another phone of another table still prove him. A
referee or an organiser sees the locked phones and tables on his page and lifts a lock
(``pin_unlock``). The right PIN clears the phone's count (a player who mistyped), never the
table's (or a guesser would clear it with his own PIN between tries).

A wrong PIN refuses the write that asked for it, whose transaction rolls back: the miss is
counted after it, in a transaction of its own (``counting_misses``), by one UPDATE that adds
one to the stored count (never a count read, then written), so phones trying at the same
instant each count.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from dataclasses import dataclass
from secrets import compare_digest
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import Code, PinLocked, TournamentRefusal
from tournaments.models import Entry, PinAttempts, Table, Tournament

P = ParamSpec("P")
R = TypeVar("R")

# A table's phones together may miss this many times a phone's limit before the table types
# no PIN for a while.
TABLE_FACTOR = 3


@dataclass(frozen=True)
class TypedAt:
    """Where a PIN is typed: a phone (``phone:<digest>``) or a table's API (``api:<table>``),
    at one table of a tournament."""

    tournament_id: int
    table_id: int
    place: str

    @property
    def table_place(self) -> str:
        return f"table:{self.table_id}"


def typed_at(table: Table, place: str) -> TypedAt:
    return TypedAt(table.round.tournament_id, table.pk, place)


class PinMissed(TournamentRefusal):
    """A wrong PIN for ``entry_id`` typed ``at``: raised inside the write's transaction, counted
    after it (``counting_misses``). Uncounted, it still refuses as a wrong PIN."""

    def __init__(self, entry_id: int | None, at: TypedAt) -> None:
        super().__init__(TournamentRefusal.on("pin", Code.PIN_WRONG, _wrong()).reasons)
        self.entry_id = entry_id
        self.at = at


def _wrong() -> str:
    return _("This PIN is not yours: nothing was changed.")


def _wrong_counted(left: int) -> str:
    """A counted wrong PIN: what to do, and how many more wrong PINs stop this phone."""
    return ngettext(
        "This PIN is not yours: nothing was changed. Check the PIN on your player card: "
        "%(left)s more wrong PIN and this phone may type no PIN for %(minutes)s minutes.",
        "This PIN is not yours: nothing was changed. Check the PIN on your player card: "
        "%(left)s more wrong PINs and this phone may type no PIN for %(minutes)s minutes.",
        left,
    ) % {"left": left, "minutes": settings.PIN_LOCK_MINUTES}


def locked_words(until: datetime.datetime) -> str:
    """What a phone reads while it may type no PIN: until when, and what else to do."""
    at = formats.time_format(timezone.localtime(until), "H:i")
    return _(
        "Too many wrong PINs were typed here: no PIN is taken on this phone until %(time)s. "
        "Open your player card's link, sign in to your account, or call a referee."
    ) % {"time": at}


def locked_until(at: TypedAt) -> datetime.datetime | None:
    """Until when PINs typed ``at`` are refused (its phone's lock or its table's), or None."""
    now = timezone.now()
    until = (
        PinAttempts.objects.filter(
            tournament_id=at.tournament_id,
            place__in=[at.place, at.table_place],
            locked_until__gt=now,
        )
        .order_by("-locked_until")
        .values_list("locked_until", flat=True)
        .first()
    )
    return until


def pin_check(entry: Entry | None, typed: str | None, *, at: TypedAt) -> None:
    """The PIN typed ``at`` a phone for ``entry`` (the player named; None: he has none here):
    refused when missing, while this phone or its table is locked (``PinLocked``, whatever was
    typed), or when wrong (``PinMissed``, to be counted). The right PIN clears the phone's
    count, in the caller's transaction."""
    typed = "".join((typed or "").split())
    if not typed:
        raise TournamentRefusal.on(
            "pin",
            Code.PIN_REQUIRED,
            _("Type your PIN: it is on your player card."),
        )
    until = locked_until(at)
    if until is not None:
        raise PinLocked(locked_words(until), until=until)
    if entry is None or not compare_digest(typed, entry.pin):
        raise PinMissed(entry.pk if entry is not None else None, at)
    PinAttempts.objects.filter(tournament_id=at.tournament_id, place=at.place, misses__gt=0).update(
        misses=0, missed_from=None
    )


def _count(
    at: TypedAt, place: str, limit: int, entry_id: int | None, now: datetime.datetime
) -> None:
    window = Q(missed_from__gte=now - datetime.timedelta(minutes=settings.PIN_ATTEMPTS_MINUTES))
    PinAttempts.objects.get_or_create(
        tournament_id=at.tournament_id, place=place, defaults={"table_id": at.table_id}
    )
    # One statement reads and writes the count: concurrent misses queue on the row.
    PinAttempts.objects.filter(tournament_id=at.tournament_id, place=place).update(
        misses=Case(When(window, then=F("misses") + 1), default=Value(1)),
        missed_from=Case(When(window, then=F("missed_from")), default=Value(now)),
        tried_id=entry_id,
        table_id=at.table_id,
    )
    PinAttempts.objects.filter(
        tournament_id=at.tournament_id, place=place, misses__gte=limit
    ).update(
        locked_until=now + datetime.timedelta(minutes=settings.PIN_LOCK_MINUTES),
        misses=0,
        missed_from=None,
    )


def pin_missed(missed: PinMissed) -> TournamentRefusal:
    """Count a wrong PIN at its phone and its table, in a transaction of its own, and answer
    the refusal to give: the wrong PIN, or ``PinLocked`` when this miss (or one at the same
    instant) reached a limit."""
    now = timezone.now()
    at = missed.at
    with transaction.atomic():
        _count(at, at.place, settings.PIN_ATTEMPTS, missed.entry_id, now)
        _count(at, at.table_place, settings.PIN_ATTEMPTS * TABLE_FACTOR, missed.entry_id, now)
        misses = (
            PinAttempts.objects.filter(tournament_id=at.tournament_id, place=at.place)
            .values_list("misses", flat=True)
            .first()
        ) or 0
    until = locked_until(at)
    if until is not None:
        return PinLocked(locked_words(until), until=until)
    left = max(settings.PIN_ATTEMPTS - misses, 1)
    return TournamentRefusal.on("pin", Code.PIN_WRONG, _wrong_counted(left))


def counting_misses(write: Callable[P, R]) -> Callable[P, R]:
    """Around a service that checks a PIN inside its transaction: a wrong PIN is counted once
    that transaction has rolled back, and refused as ``pin_missed`` says. The service must be
    called outside any transaction of the caller's (as the views call it), or the count rolls
    back with the caller's."""

    @functools.wraps(write)
    def counted(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return write(*args, **kwargs)
        except PinMissed as missed:
            raise pin_missed(missed) from None

    return counted


def locked_places(*, tournament: Tournament) -> list[PinAttempts]:
    """The tournament's phones and tables that may type no PIN now, the soonest unlocked first
    (for the referee's page), with the table and whose PIN was tried last."""
    return list(
        PinAttempts.objects.filter(tournament=tournament, locked_until__gt=timezone.now())
        .select_related("table__round", "tried__player")
        .order_by("locked_until", "pk")
    )


@transaction.atomic
def pin_unlock(*, attempts: PinAttempts) -> None:
    """A referee or an organiser lifts a lock (he came to the table): that phone, or every
    phone of that table, types PINs again at once, with a fresh count of misses."""
    PinAttempts.objects.filter(pk=attempts.pk).update(locked_until=None, misses=0, missed_from=None)
