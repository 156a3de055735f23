"""The projector on a 1920x1080 screen mid-round: a page of the ranking is whole on the screen
(thirteen players, or a full page of a larger field), with the countdown and the tables still
playing above it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.factories import ClubFactory, make_tournament, play
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import PROJECTOR_ROWS

WIDTH, HEIGHT = 1920, 1080


@pytest.fixture
def wall(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": WIDTH, "height": HEIGHT}, locale="fr-FR"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def mid_round(players: int) -> Tournament:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 0, name="Open de Lyon", deals_per_round=4)
    for n in range(players):
        # Long names too: a name is cut on one line, never wrapped onto two.
        name = f"Joueuse {n + 1} au nom très long de la région lyonnaise" if n % 4 == 0 else ""
        registration_services.entry_add(
            tournament=tournament, name=name or f"Joueur {n + 1}", checked_in=True
        )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    play(round_, deals=1)  # every table still playing
    return tournament


def assert_whole_on_screen(page: Page, rows: int) -> None:
    items = page.locator("#standings li")
    expect(items).to_have_count(rows)
    for i in range(rows):
        box = items.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, f"row {i + 1}"
        assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, f"row {i + 1}"
    assert page.evaluate("document.documentElement.scrollHeight") <= HEIGHT


def test_thirteen_players_are_all_on_screen_mid_round(wall: Page) -> None:
    tournament = mid_round(13)
    wall.goto(f"/tournaments/{tournament.pk}/projector/")
    expect(wall.get_by_test_id("countdown")).to_be_visible()
    expect(wall.locator("#tables-playing li")).to_have_count(3)
    assert_whole_on_screen(wall, 13)
    expect(wall.locator(".board-pages")).to_have_count(0)  # one page: nothing to turn


def test_a_larger_field_shows_a_whole_page_and_links_to_the_others(wall: Page) -> None:
    tournament = mid_round(PROJECTOR_ROWS * 2 + 4)
    wall.goto(f"/tournaments/{tournament.pk}/projector/?page=2")
    assert_whole_on_screen(wall, PROJECTOR_ROWS)
    expect(wall.locator("#board-page")).to_contain_text("2")
    seventeenth = standings_selectors.standings_for(tournament=tournament)[PROJECTOR_ROWS].player
    first = wall.locator("#standings li").first
    expect(first).to_have_attribute("data-player", str(seventeenth.pk))

    wall.locator(".board-pages a", has_text="3").click()
    assert_whole_on_screen(wall, 4)
