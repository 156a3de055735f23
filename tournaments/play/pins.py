"""A player's personal PIN at the table, and the limit on guessing it.

Where a tournament asks for personal proof (``Tournament.confirmation_proof``), a player who
confirms or disputes a deal on a table's link proves who he is with his entry's PIN
(``Entry.pin``, four digits, on his player card), unless his own account or his card's
personal link proves it. Four digits
are guessed by trying, so wrong PINs are counted per entry, in the database (the site keeps
working with Redis down, and a cache is no safe counter): after ``PIN_ATTEMPTS`` wrong PINs
within ``PIN_ATTEMPTS_MINUTES``, the entry's PIN is refused for ``PIN_LOCK_MINUTES``, whatever
the phone; each wrong PIN says how many more lock it; the right PIN clears the count. A
referee or an organiser may lift the lock (``pin_unlock``).

A wrong PIN refuses the write that asked for it, whose transaction rolls back: the miss is
counted after it, in a transaction of its own (``counting_misses``, around the services that
check a PIN), by one UPDATE that adds one to the stored count (never a count read, then
written), so phones trying at the same instant each count.
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable
from secrets import compare_digest
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import Code, PinLocked, TournamentRefusal
from tournaments.models import Entry, Tournament

P = ParamSpec("P")
R = TypeVar("R")


class PinMissed(TournamentRefusal):
    """A wrong PIN for ``entry_id``: raised inside the write's transaction, counted after it
    (``counting_misses``). Uncounted, it still refuses as a wrong PIN."""

    def __init__(self, entry_id: int) -> None:
        super().__init__(TournamentRefusal.on("pin", Code.PIN_WRONG, _wrong()).reasons)
        self.entry_id = entry_id


def _wrong() -> str:
    return _("This PIN is not yours: nothing was changed.")


def _wrong_counted(left: int) -> str:
    """A counted wrong PIN: what to do, and how many more wrong PINs lock it (a player who
    mistyped checks his card before the lock surprises him)."""
    return ngettext(
        "This PIN is not yours: nothing was changed. Check the PIN on your player card: "
        "%(left)s more wrong PIN and your PIN is locked for %(minutes)s minutes.",
        "This PIN is not yours: nothing was changed. Check the PIN on your player card: "
        "%(left)s more wrong PINs and your PIN is locked for %(minutes)s minutes.",
        left,
    ) % {"left": left, "minutes": settings.PIN_LOCK_MINUTES}


def locked_words(until: datetime.datetime) -> str:
    """What a player reads while his PIN is locked: until when, and what else to do."""
    at = formats.time_format(timezone.localtime(until), "H:i")
    return _(
        "Too many wrong PINs: this PIN is locked until %(time)s. Try again then, or call a referee."
    ) % {"time": at}


def locked_until(entry: Entry) -> datetime.datetime | None:
    """When the entry's PIN may be typed again, or None when it may be now."""
    until = entry.pin_locked_until
    return until if until is not None and until > timezone.now() else None


def pin_check(entry: Entry | None, typed: str | None) -> None:
    """The PIN typed for ``entry`` (the acting player's; None: he has none here): refused when
    missing, while the entry's PIN is locked (``PinLocked``, whatever was typed), or when wrong
    (``PinMissed``, to be counted). The right PIN clears the count of misses, in the caller's
    transaction."""
    typed = "".join((typed or "").split())
    if not typed:
        raise TournamentRefusal.on(
            "pin",
            Code.PIN_REQUIRED,
            _("Type your PIN: it is on your player card."),
        )
    if entry is None:
        raise TournamentRefusal.on("pin", Code.PIN_WRONG, _wrong())
    until = locked_until(entry)
    if until is not None:
        raise PinLocked(locked_words(until), until=until)
    if not compare_digest(typed, entry.pin):
        raise PinMissed(entry.pk)
    if entry.pin_misses:
        Entry.objects.filter(pk=entry.pk).update(pin_misses=0, pin_missed_from=None)


def pin_missed(entry_id: int) -> TournamentRefusal:
    """Count a wrong PIN for the entry, in a transaction of its own, and answer the refusal to
    give: the wrong PIN, or ``PinLocked`` when this miss (or one at the same instant) reached
    the limit."""
    now = timezone.now()
    window = Q(pin_missed_from__gte=now - datetime.timedelta(minutes=settings.PIN_ATTEMPTS_MINUTES))
    with transaction.atomic():
        # One statement reads and writes the count: concurrent misses queue on the row.
        Entry.objects.filter(pk=entry_id).update(
            pin_misses=Case(When(window, then=F("pin_misses") + 1), default=Value(1)),
            pin_missed_from=Case(When(window, then=F("pin_missed_from")), default=Value(now)),
        )
        Entry.objects.filter(pk=entry_id, pin_misses__gte=settings.PIN_ATTEMPTS).update(
            pin_locked_until=now + datetime.timedelta(minutes=settings.PIN_LOCK_MINUTES),
            pin_misses=0,
            pin_missed_from=None,
        )
        until, misses = Entry.objects.filter(pk=entry_id).values_list(
            "pin_locked_until", "pin_misses"
        ).first() or (None, 0)
    if until is not None and until > now:
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
            raise pin_missed(missed.entry_id) from None

    return counted


def locked_entries(*, tournament: Tournament) -> list[Entry]:
    """The tournament's entries whose PIN is locked now, the soonest unlocked first (for the
    referee's page)."""
    return list(
        Entry.objects.filter(tournament=tournament, pin_locked_until__gt=timezone.now())
        .select_related("player")
        .order_by("pin_locked_until")
    )


@transaction.atomic
def pin_unlock(*, entry: Entry) -> Entry:
    """A referee or an organiser lifts the lock on the entry's PIN (the player called him):
    the PIN is taken again at once, with a fresh count of misses."""
    Entry.objects.filter(pk=entry.pk).update(
        pin_locked_until=None, pin_misses=0, pin_missed_from=None
    )
    entry.pin_locked_until, entry.pin_misses, entry.pin_missed_from = None, 0, None
    return entry
