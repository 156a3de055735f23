"""The version every results page (leaderboard, standings, projector) is cached under, and the
cache keys and entity tags (ETag) that name it: a write bumps the version, so no key read
before it is used again, and a reader polling with an older tag gets the new answer."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import TypeVar

from django.db.models import F
from django.http import HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags

from tarot_scores.clubs.models import Club

ResponseT = TypeVar("ResponseT", bound=HttpResponseBase)


def results_changed(*, club_id: int) -> None:
    """Something the club's results pages show has changed (a deal, a round, a registration):
    bump the version they are cached under, in the caller's transaction."""
    Club.objects.filter(pk=club_id).update(stats_version=F("stats_version") + 1)


def _version(club: Club) -> str:
    # The creation time too: a club id can be reused after a deletion (SQLite), a version can't.
    return f"{club.created_at.timestamp()}:{club.stats_version}"


def leaderboard_key(*, club: Club, language: str | None, filters: str) -> str:
    """The club's leaderboard table for these filters (as a query string) and language. The slug
    too: the table's links carry it, and the admin may change it."""
    return f"leaderboard:{club.pk}:{club.slug}:{_version(club)}:{language}:{filters}"


def player_page_key(*, club: Club, player_id: int, season: int, language: str | None) -> str:
    """A player's figures on his club page (season row, curves, rating, statistics, games) for
    the season shown as current and this language."""
    return f"player:{club.pk}:{club.slug}:{_version(club)}:{player_id}:{season}:{language}"


def tournament_results_key(
    *, club: Club, tournament_id: int, page: str, language: str | None, htmx: bool, slot: int = 0
) -> str:
    """One results page of a tournament of the club (``page``: standings, projector...), whole
    or as htmx's partial; ``slot`` tells the projector's refresh periods apart."""
    return f"results:{page}:{tournament_id}:{_version(club)}:{language}:{htmx}:{slot}"


def results_etag(*, club: Club, parts: Iterable[object]) -> str:
    """An entity tag for a results answer: the club's results version and whatever else the
    answer depends on (the page asked, the language, the reader...). Polling readers send it
    back (If-None-Match) and get 304 Not Modified, without a render, until a write bumps the
    version."""
    raw = "\x1f".join([_version(club), *(str(p) for p in parts)])
    return '"' + hashlib.sha256(raw.encode()).hexdigest()[:32] + '"'


def etag_matches(headers: Mapping[str, str], etag: str) -> bool:
    """The request (its ``headers``) already holds this answer: its If-None-Match names the tag
    (weak or not)."""
    header = headers.get("If-None-Match", "")
    return bool(header) and (header.strip() == "*" or etag in parse_etags(header))


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
