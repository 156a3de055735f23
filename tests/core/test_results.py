"""The results cache keys: a write that bumps the club's results version changes every key."""

from __future__ import annotations

import pytest

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import leaderboard_key, results_changed, tournament_results_key
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _keys(club: Club) -> tuple[str, str]:
    club = Club.objects.get(pk=club.pk)
    return (
        leaderboard_key(club=club, language="fr", filters="season=2025"),
        tournament_results_key(
            club=club, tournament_id=3, page="standings", language="fr", htmx=False
        ),
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

    def key(page: str, htmx: bool = False, slot: int = 0) -> str:
        return tournament_results_key(
            club=club, tournament_id=1, page=page, language="fr", htmx=htmx, slot=slot
        )

    keys = {
        key("standings"),
        key("standings", htmx=True),
        key("projector"),
        key("projector", slot=1),
    }
    assert len(keys) == 4
