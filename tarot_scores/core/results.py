"""The version every results page (leaderboard, standings, projector) is cached under, and the
cache keys that name it: a write bumps the version, so no key read before it is used again."""

from __future__ import annotations

from django.db.models import F

from tarot_scores.clubs.models import Club


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
