"""Results pages are cached under their valid filters only: a made-up parameter or value in the
query string is the page it falls back to, never a new cache entry."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import build_world, play

pytestmark = pytest.mark.django_db

JUNK = [
    "?x=random",
    "?x=random2&y=1",
    "?season=abc",
    "?season=1900",
    "?sort=evil",
    "?kind=nope",
    "?size=99",
    "?page=3&q=whatever",
    "?series=elite",
    "?series=S1",
]


def entries() -> int:
    return len(cache._cache)  # type: ignore[attr-defined]  # LocMemCache, the tests' cache


@pytest.mark.parametrize("page", ["clubs:leaderboard", "clubs:records"])
def test_made_up_filters_make_no_new_cache_entry(page: str) -> None:
    world = build_world()
    play(world.round, seed=3)
    client = Client()
    url = reverse(page, args=[world.club.slug])
    first = client.get(url)
    assert first.status_code == 200
    before = entries()

    for junk in JUNK:
        response = client.get(url + junk)
        assert response.status_code == 200

    assert entries() == before


def test_a_real_filter_is_its_own_entry() -> None:
    world = build_world()
    client = Client()
    url = reverse("clubs:leaderboard", args=[world.club.slug])
    client.get(url)
    before = entries()
    client.get(url + "?season=all")
    assert entries() == before + 1


@pytest.mark.parametrize("page", ["tournaments:standings", "tournaments:projector"])
def test_tournament_results_ignore_the_query_string(page: str) -> None:
    world = build_world()
    client = Client()
    url = reverse(page, args=[world.tournament.pk])
    client.get(url)
    before = entries()
    for junk in JUNK:
        assert client.get(url + junk).status_code == 200
    assert entries() == before


def test_a_real_series_is_its_own_standings_entry() -> None:
    world = build_world()
    entry = world.tournament.entries.order_by("id").first()
    assert entry is not None
    entry.series = "s1"
    entry.save(update_fields=["series"])
    client = Client()
    url = reverse("tournaments:standings", args=[world.tournament.pk])
    client.get(url)
    before = entries()
    client.get(url + "?series=s1")
    assert entries() == before + 1
    client.get(url + "?series=s1&junk=1")
    assert entries() == before + 1
