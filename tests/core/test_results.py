"""The results cache keys: a write that bumps the club's results version changes every
versioned key; a tournament's results pages keep their latest drawing under a key without the
version, served for ``RESULTS_LAG_SECONDS`` after it was drawn and then drawn anew."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from pytest_django import Settings

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import (
    leaderboard_key,
    results_changed,
    results_etag,
    shared_results,
    tournament_page_key,
)
from tests.factories import ClubFactory
from tests.results_clock import Clock, clock

pytestmark = pytest.mark.django_db

__all__ = ["clock"]  # a fixture


def _keys(club: Club) -> tuple[str, str]:
    club = Club.objects.get(pk=club.pk)
    return (
        leaderboard_key(club=club, language="fr", filters="season=2025"),
        leaderboard_key(club=club, language="en", filters=""),
    )


def test_a_results_change_makes_every_key_new() -> None:
    club = ClubFactory.create()
    before = _keys(club)
    assert _keys(club) == before  # nothing changed: the cached pages are served
    results_changed(club_id=club.pk)
    after = _keys(club)
    assert all(a != b for a, b in zip(after, before, strict=True))


def test_keys_tell_apart_what_the_pages_show() -> None:
    club = ClubFactory.create()
    other = ClubFactory.create()
    assert leaderboard_key(club=club, language="fr", filters="") != leaderboard_key(
        club=club, language="en", filters=""
    )
    assert leaderboard_key(club=club, language="fr", filters="") != leaderboard_key(
        club=other, language="fr", filters=""
    )

    def key(page: str, htmx: bool = False, of: Club = club, language: str = "fr") -> str:
        return tournament_page_key(
            club=of, tournament_id=1, page=page, language=language, htmx=htmx
        )

    keys = {
        key("standings-1"),
        key("standings-1", htmx=True),
        key("standings-1", language="en"),
        key("standings-2"),
        key("projector-1"),
        key("projector-1", of=other),
    }
    assert len(keys) == 6


# --- the latest drawing of a tournament's results page ---------------------------------------


class Page:
    """One results page read as the views read it; counts its drawings."""

    def __init__(self, club: Club) -> None:
        self.club_id = club.pk
        self.drawn = 0

    def read(self, *, fresh: bool = False, copy: str = "") -> tuple[str, str | None]:
        club = Club.objects.get(pk=self.club_id)  # a new request reads the club anew

        def draw() -> str:
            self.drawn += 1
            return f"drawn at version {club.stats_version}"

        return shared_results(
            key=tournament_page_key(
                club=club, tournament_id=1, page="standings-1", language="fr", htmx=False
            ),
            club=club,
            tag=lambda version: results_etag(club=club, parts=["p"], version=version),
            headers={"If-None-Match": copy} if copy else {},
            draw=draw,
            fresh=lambda: fresh,
        )


def test_the_current_version_is_drawn_once_and_shared(clock: Clock) -> None:
    page = Page(ClubFactory.create())
    first = page.read()
    clock.now += 60
    assert page.read() == first
    assert page.drawn == 1


def test_a_burst_of_deals_moves_the_page_once_per_window(clock: Clock) -> None:
    club = ClubFactory.create()
    page = Page(club)
    etag, body = page.read()
    assert body == "drawn at version 0"

    results_changed(club_id=club.pk)
    clock.now += 1.5
    assert page.read() == (etag, body)  # within the window: the drawing it has, its tag
    assert page.read(copy=etag) == (etag, None)  # and a 304 to a reader who holds it
    results_changed(club_id=club.pk)
    clock.now += 0.6  # 2.1 s after the drawing
    later, shown = page.read()
    assert shown == "drawn at version 2" and later != etag
    assert page.drawn == 2


def test_while_one_worker_draws_the_others_serve_the_previous_drawing(clock: Clock) -> None:
    club = ClubFactory.create()
    page = Page(club)
    etag, body = page.read()
    results_changed(club_id=club.pk)
    clock.now += 5
    key = tournament_page_key(
        club=club, tournament_id=1, page="standings-1", language="fr", htmx=False
    )
    cache.add(f"{key}:drawing", 1)  # another worker is drawing it
    assert page.read() == (etag, body)
    cache.delete(f"{key}:drawing")  # done: the next reader past the window draws
    assert page.read()[1] == "drawn at version 1"
    assert cache.get(f"{key}:drawing") is None  # the drawing lets go of the page


def test_an_organiser_reads_the_current_results_without_sharing_them(clock: Clock) -> None:
    club = ClubFactory.create()
    page = Page(club)
    etag, _ = page.read()
    results_changed(club_id=club.pk)
    clock.now += 0.5
    fresh, body = page.read(fresh=True)
    assert body == "drawn at version 1" and fresh != etag
    assert page.read() == (etag, "drawn at version 0")  # the others keep the shared drawing


def test_without_a_window_every_new_version_is_drawn(settings: Settings) -> None:
    settings.RESULTS_LAG_SECONDS = 0
    club = ClubFactory.create()
    page = Page(club)
    page.read()
    results_changed(club_id=club.pk)
    assert page.read()[1] == "drawn at version 1"
