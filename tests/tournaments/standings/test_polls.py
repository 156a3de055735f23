"""A poll that changed nothing costs almost nothing, whatever the database knows: the standings
page, its block, the projector, its board and the standings API name their ETag from the
results version and the tournament's stored count of ranked players (read with the tournament,
by its key), so a 304 reads no standings row and counts nothing. A changed poll costs a fixed
number of queries. The count the store keeps on the tournament is the rows' own."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoAssertNumQueries

from tests.factories import ClubFactory, World, build_world, make_tournament, play
from tests.results_clock import Clock, clock
from tests.tournaments.standings.test_standings_pages import enter_deal, festival, shown, urls
from tournaments.models import Standing, Tournament
from tournaments.people import services as people_services
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.standings import store

pytestmark = pytest.mark.django_db

__all__ = ["clock", "festival"]  # fixtures (festival shared with the pages' tests)

POLLS = ["page", "block", "projector", "board", "api"]
# A 304 reads the tournament with its club (one query by key); the projector also its latest
# round (by the tournament's key and number), to name the countdown's minute.
NOT_MODIFIED_QUERIES = {"page": 1, "block": 1, "projector": 2, "board": 2, "api": 1}
# A poll that must draw again: a fixed number, whatever the field (tests/tournaments/views).
CHANGED_QUERIES = {"page": 9, "block": 9, "projector": 9, "board": 9, "api": 4}


@pytest.fixture
def world() -> World:
    world = build_world()
    play(world.round, deals=1)
    return world


def _reads_standings(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries if "tournaments_standing" in q["sql"]]


@pytest.mark.parametrize("which", POLLS)
def test_a_poll_that_changed_nothing_reads_no_standings_row(
    world: World, which: str, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    url, headers = urls(world.tournament)[which]
    client = Client()
    etag = client.get(url, headers=headers)["ETag"]
    with (
        django_assert_num_queries(NOT_MODIFIED_QUERIES[which]),
        CaptureQueriesContext(connection) as captured,
    ):
        response = client.get(url, headers={**headers, "If-None-Match": etag})
    assert response.status_code == 304 and response["ETag"] == etag
    # Nothing whose plan depends on the size of the standings: no row read, nothing counted.
    assert _reads_standings(captured) == []
    assert not [q for q in captured.captured_queries if "COUNT(" in q["sql"].upper()]


@pytest.mark.parametrize("which", POLLS)
def test_a_changed_poll_costs_a_fixed_number_of_queries(
    world: World, which: str, clock: Clock, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    url, headers = urls(world.tournament)[which]
    client = Client()
    etag = client.get(url, headers=headers)["ETag"]
    enter_deal(world)
    clock.now += 3  # the shared drawing's window is over
    with django_assert_max_num_queries(CHANGED_QUERIES[which]):
        response = client.get(url, headers={**headers, "If-None-Match": etag})
    assert response.status_code == 200 and response["ETag"] != etag


@pytest.mark.parametrize("which", POLLS)
def test_the_etag_holds_until_a_deal_changes_it(world: World, which: str, clock: Clock) -> None:
    url, headers = urls(world.tournament)[which]
    first = Client().get(url, headers=headers)["ETag"]
    clock.now += 3
    # Nothing changed: every reader, later, is named the same answer.
    assert Client().get(url, headers=headers)["ETag"] == first
    enter_deal(world)
    clock.now += 3
    changed = Client().get(url, headers=headers)["ETag"]
    assert changed != first
    clock.now += 3
    assert Client().get(url, headers=headers)["ETag"] == changed


# --- the stored count -------------------------------------------------------------------------


def _counted(tournament: Tournament) -> int:
    return Standing.objects.filter(
        tournament=tournament, entry__substitute_for__isnull=True
    ).count()


def test_the_stored_count_follows_the_rows_seated_rebuilt_and_substituted() -> None:
    tournament = make_tournament(ClubFactory.create(), 12, rounds=2)
    assert Tournament.objects.get(pk=tournament.pk).ranked_players == 0
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    tournament.refresh_from_db()
    assert tournament.ranked_players == _counted(tournament) == 12
    assert standings_selectors.standings_count(tournament=tournament) == 12

    # A substitute gets a row of his own, ranked apart: not counted among the players.
    seated = round_.tables.order_by("number").first()
    assert seated is not None
    replaced = seated.game.seats.order_by("position").first()
    assert replaced is not None
    entry = tournament.entries.get(player_id=replaced.player_id)
    people_services.substitute_seat(round_=round_, replaced=entry, name="Remplaçant", by=None)
    play(round_, deals=1)
    tournament.refresh_from_db()
    assert Standing.objects.filter(tournament=tournament).count() == 13
    assert tournament.ranked_players == _counted(tournament) == 12

    # A rebuild makes every row again: the count is the rows', not twice them.
    Tournament.objects.filter(pk=tournament.pk).update(ranked_players=99)
    tournament.refresh_from_db()
    store.standings_rebuild(tournament=tournament)
    tournament.refresh_from_db()
    assert tournament.ranked_players == _counted(tournament) == 12


def test_a_row_removed_takes_its_player_out_of_the_count() -> None:
    tournament = make_tournament(ClubFactory.create(), 8, rounds=2)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    table = round_.tables.order_by("number").first()
    assert table is not None
    pid = table.game.seats.order_by("position").values_list("player_id", flat=True)[0]
    # The player's only round no longer seats him (a correction of the seating's rows): his
    # row goes, and the count with it.
    table.game.seats.filter(player_id=pid).delete()
    tournament.refresh_from_db()
    round_.tournament = tournament
    store.standings_refresh(round_=round_, player_ids=[pid])
    assert Tournament.objects.get(pk=tournament.pk).ranked_players == _counted(tournament) == 7


def test_a_page_beyond_a_series_last_shows_its_last(festival: Tournament) -> None:
    entries = list(festival.entries.order_by("pk"))[:2]
    for entry in entries:
        registration_services.entry_series_set(entry=entry, series="s1")
    url = urls(festival)["page"][0]
    # The whole ranking (two pages) bounds the page asked; the series' own last page (its
    # first: two players) is the one drawn.
    html = Client().get(url, {"series": "s1", "page": "2"}).content.decode()
    assert sorted(shown(html)) == sorted(e.player_id for e in entries)
