"""The version every results page (leaderboard, standings, projector) is cached under, and the
cache keys and entity tags (ETag) that name it: a write bumps the version, so no key read
before it is used again, and a reader polling with an older tag gets the new answer.

A tournament's results pages are shared differently (``shared_results``): at a festival a deal
lands every quarter of a second, so a page cached per version would be drawn again for nearly
every reader. Each page keeps its latest drawing, with the version it shows and when it was
drawn, and serves it to every reader for ``RESULTS_LAG_SECONDS`` after it was drawn even if
deals landed since; then one worker draws it again while the others keep serving the previous
one. Its ETag names the version served, so it stays honest."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F
from django.http import HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags

from tarot_scores.clubs.models import Club

ResponseT = TypeVar("ResponseT", bound=HttpResponseBase)
BodyT = TypeVar("BodyT")


def results_changed(*, club_id: int) -> None:
    """Something the club's results pages show has changed (a deal, a round, a registration):
    bump the version they are cached under, never waiting inside the caller's transaction, and
    once a transaction however many changes it makes (a deal at a tournament table changes the
    club's statistics and the tournament's standings: one bump).

    Every table of a festival belongs to one club: a bump that waited for the club row's lock
    would make each deal's transaction wait for every other one's to end. On PostgreSQL, inside
    a transaction, the row is bumped there only if no other transaction holds it (SKIP LOCKED:
    then the new version and the change become visible together, at the commit). If another
    holds it, the bump is made just after the commit, outside the transaction, holding nothing
    (a reader between the commit and that bump may see the change under the previous version:
    for that moment only, the next bump names it). SQLite writes one transaction at a time: the
    row is bumped in the transaction."""
    if not _in_a_transaction_of_ours():
        Club.objects.filter(pk=club_id).update(stats_version=F("stats_version") + 1)
        return
    if _bumped_in_this_transaction(club_id):
        return
    after_commit = False
    if connection.vendor == "postgresql":
        after_commit = not _bump(club_id, skip_locked=True)
    else:
        Club.objects.filter(pk=club_id).update(stats_version=F("stats_version") + 1)
    transaction.on_commit(_Bumped(club_id, after_commit))


@dataclass(frozen=True)
class _Bumped:
    """The club's version is bumped by this transaction: kept with its commit hooks, so Django
    drops it with a savepoint rolled back (the bump went with it) and at the transaction's end.
    ``after_commit``: the row was held by another transaction; the bump is made after the
    commit."""

    club_id: int
    after_commit: bool

    def __call__(self) -> None:
        if self.after_commit:
            _bump(self.club_id, skip_locked=False)


def _in_a_transaction_of_ours() -> bool:
    """Inside a transaction the site's code opened. The test suite wraps each test in
    transactions of its own (Django marks them): a call made there outside the site's is one
    made outside any transaction in production."""
    return connection.in_atomic_block and not getattr(
        connection.atomic_blocks[-1], "_from_testcase", False
    )


def _bumped_in_this_transaction(club_id: int) -> bool:
    """True if this transaction bumped the club's version already, in the savepoint open now
    or one around it (a savepoint released since counts as another write: the test suite runs
    every request inside one transaction, whose commit hooks never run)."""
    open_now = set(connection.savepoint_ids)
    # Django keeps each hook as (the savepoints open when it was added, the hook, robust).
    hooks: list[Any] = connection.run_on_commit
    return any(
        isinstance(entry[1], _Bumped) and entry[1].club_id == club_id and entry[0] <= open_now
        for entry in hooks
    )


def _bump(club_id: int, *, skip_locked: bool) -> bool:
    """Bump the club's version; False (nothing done) if ``skip_locked`` and another
    transaction holds the row."""
    table = connection.ops.quote_name(Club._meta.db_table)
    skip = " SKIP LOCKED" if skip_locked else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET stats_version = stats_version + 1 WHERE id = "
            f"(SELECT id FROM {table} WHERE id = %s FOR NO KEY UPDATE{skip})",
            [club_id],
        )
        return bool(cursor.rowcount)


def _version(club: Club) -> str:
    # The creation time too: a club id can be reused after a deletion (SQLite), a version can't.
    return f"{club.created_at.timestamp()}:{club.stats_version}"


def results_version(club: Club) -> str:
    """The club's results version, as the keys above name it (for a document drawn once per
    version, such as a big tournament's standings PDF)."""
    return _version(club)


def leaderboard_key(*, club: Club, language: str | None, filters: str) -> str:
    """The club's leaderboard table for these filters (as a query string) and language. The slug
    too: the table's links carry it, and the admin may change it."""
    return f"leaderboard:{club.pk}:{club.slug}:{_version(club)}:{language}:{filters}"


def player_page_key(*, club: Club, player_id: int, season: int, language: str | None) -> str:
    """A player's figures on his club page (season row, curves, rating, statistics, games) for
    the season shown as current and this language."""
    return f"player:{club.pk}:{club.slug}:{_version(club)}:{player_id}:{season}:{language}"


def results_etag(*, club: Club, parts: Iterable[object], version: str | None = None) -> str:
    """An entity tag for a results answer: the club's results version (or ``version``, the one
    a shared drawing shows) and whatever else the answer depends on (the page asked, the
    language, the reader...). Polling readers send it back (If-None-Match) and get 304 Not
    Modified, without a render, until what they would be served changes."""
    raw = "\x1f".join([version or _version(club), *(str(p) for p in parts)])
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


def etag_matches(headers: Mapping[str, str], etag: str) -> bool:
    """The request (its ``headers``) already holds this answer: its If-None-Match names the tag
    (weak or not: a gzipped answer's tag comes back weak, ``W/"..."``, and If-None-Match
    compares weakly)."""
    header = headers.get("If-None-Match", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    return etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in parse_etags(header)}


def not_modified(etag: str) -> HttpResponseNotModified:
    response = HttpResponseNotModified()
    return with_etag(response, etag)


def with_etag(response: ResponseT, etag: str) -> ResponseT:
    """Tag the answer; the reader keeps it but asks again each time (no-cache), and a shared
    cache never keeps it (private: a private club's results)."""
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ["HX-Request"])
    return response


# --- a tournament's results pages, shared by their readers ---------------------------------------


def tournament_page_key(
    *, club: Club, tournament_id: int, page: str, language: str | None, htmx: bool
) -> str:
    """Where one results page of a tournament keeps its latest drawing (``shared_results``):
    no results version in it, the drawing holds the version it shows. The club's creation
    time: a club id can be reused after a deletion (SQLite)."""
    created = club.created_at.timestamp()
    return f"results-latest:{page}:{tournament_id}:{club.pk}:{created}:{language}:{htmx}"


@dataclass(frozen=True)
class Drawing:
    """A results page as drawn for one results version, at ``drawn_at`` (seconds since the
    epoch: every worker's clock)."""

    version: str
    drawn_at: float
    body: Any


# The clock the lag is measured with (tests set their own).
clock: Callable[[], float] = time.time

# A worker drawing a page holds this long at most: one that died lets another draw it then.
DRAWING_SECONDS = 20


def shared_results(
    *,
    key: str,
    club: Club,
    tag: Callable[[str], str],
    headers: Mapping[str, str],
    draw: Callable[[], BodyT],
    fresh: Callable[[], bool] | None = None,
    timeout: int = 600,
) -> tuple[str, BodyT | None]:
    """One results page as its readers share it: the ETag of what is served and its body, or
    None for the body when the reader's copy (If-None-Match) is already it.

    The drawing kept under ``key`` is served when it shows the club's current results version,
    or when it is younger than ``RESULTS_LAG_SECONDS`` (a burst of deals moves the page at most
    about once in that time); otherwise ``draw`` draws it anew and it is kept, and while one
    worker draws, the others serve the previous drawing. A reader for whom ``fresh()`` is true
    (an organiser, who writes results; asked only when the drawing is behind) gets the current
    version, drawn for him alone. ``tag`` names the version served as an ETag, so a reader's
    tag changes exactly when what he reads changes."""
    current = _version(club)
    stored: Drawing | None = cache.get(key)
    lag = settings.RESULTS_LAG_SECONDS
    served: Drawing | None = None
    alone = False  # drawn for this reader only: the others keep the shared drawing
    drawing_lock = ""
    if stored is not None:
        if stored.version == current:
            served = stored
        elif lag > 0 and fresh is not None and fresh():
            alone = True
        elif lag > 0:
            if clock() - stored.drawn_at < lag:
                served = stored
            elif cache.add(f"{key}:drawing", 1, DRAWING_SECONDS):
                drawing_lock = f"{key}:drawing"
            else:
                served = stored  # another worker is drawing it
    try:
        etag = tag(served.version if served is not None else current)
        if etag_matches(headers, etag):
            return etag, None
        if served is not None:
            return etag, served.body
        body = draw()
        if not alone:
            cache.set(key, Drawing(current, clock(), body), timeout)
        return etag, body
    finally:
        if drawing_lock:
            cache.delete(drawing_lock)
