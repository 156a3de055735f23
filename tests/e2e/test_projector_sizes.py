"""The projector fills the wall at 1920x1080 and at 1280x720: 22 players on one page in two
columns that use the screen (not two pages of eight), up to 60 on one page in four columns,
every row whole on the screen in type still read from the back of a hall, the line under the
heading (only confirmed deals count) in the board's type, and no accessibility violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.a11y import assert_accessible
from tests.e2e.test_phone_entry import SHOTS
from tests.factories import ClubFactory, make_tournament, play
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import PROJECTOR_ROWS

SIZES = [(1920, 1080), (1280, 720)]


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def wall(
    request: pytest.FixtureRequest, browser: Browser, live_server: LiveServer
) -> Iterator[Page]:
    width, height = request.param
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": height}, locale="fr-FR"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def field(players: int) -> Tournament:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(
        club, 0, name="Open de Lyon", deals_per_round=4, require_confirmation=True
    )
    for n in range(players):
        name = f"Joueuse {n + 1} au nom très long de la région" if n % 5 == 0 else f"Joueur {n + 1}"
        registration_services.entry_add(tournament=tournament, name=name, checked_in=True)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    play(round_, deals=1)
    return tournament


def rows_on_screen(page: Page, rows: int) -> list[Any]:
    size = page.viewport_size
    assert size is not None
    items = page.locator("#standings li")
    expect(items).to_have_count(rows)
    boxes = []
    for i in range(rows):
        box = items.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5, i
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5, i
        boxes.append(box)
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    return boxes


def font_px(page: Page, selector: str) -> float:
    return float(
        page.locator(selector).first.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
    )


@pytest.mark.parametrize("players", [22, 60])
def test_the_wall_shows_the_field_on_one_page(wall: Page, players: int) -> None:
    size = wall.viewport_size
    assert size is not None
    tournament = field(players)

    wall.goto(f"/tournaments/{tournament.pk}/projector/")
    wall.screenshot(path=str(SHOTS / f"projector-{players}-{size['width']}.png"))

    boxes = rows_on_screen(wall, players)
    expect(wall.locator(".board-pages")).to_have_count(0)  # one page: nothing to turn
    columns = len({round(b["x"]) for b in boxes})
    assert columns == (2 if players == 22 else 4)
    # The rows use the screen: the tallest column reaches past half its height.
    assert max(b["y"] + b["height"] for b in boxes) > 0.5 * size["height"]
    # Read from the back of a hall: rows of at least 2.4% of the screen's height (26 px on
    # 1080 lines) up to 22 players, 1.8% with 60.
    row_px = font_px(wall, "#standings li")
    assert row_px >= (0.024 if players == 22 else 0.018) * size["height"], row_px
    # The line under the heading is in the board's type, not a footnote.
    assert font_px(wall, "#deals-waiting") >= 0.75 * font_px(wall, "body")
    assert_accessible(wall)


def two_rounds(players: int) -> Tournament:
    """A field that played a round and is playing its second: a score a round to show."""
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 0, name="Open de Lyon", deals_per_round=1)
    for n in range(players):
        name = f"Joueuse {n + 1} au nom très long de la région" if n % 5 == 0 else f"Joueur {n + 1}"
        registration_services.entry_add(tournament=tournament, name=name, checked_in=True)
    first = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=first)
    play(first)  # the round closes itself when its last deal is in
    second = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=second)
    play(second)
    return tournament


@pytest.fixture
def full_hd(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1920, "height": 1080}, locale="fr-FR"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.mark.parametrize("players", [12, 60, 200])
def test_the_wall_uses_the_screen_and_shows_each_round(full_hd: Page, players: int) -> None:
    """At 1920x1080: a dozen players fill most of the screen's height in one column of names
    larger than 40 px; 60 share it in columns; 200 page through it. Nothing is cut or scrolled
    (every score whole inside its row), and each row shows its score in each round."""
    tournament = two_rounds(players)
    shown = min(players, PROJECTOR_ROWS)

    full_hd.goto(f"/tournaments/{tournament.pk}/projector/?page=1")
    full_hd.screenshot(path=str(SHOTS / f"projector-rounds-{players}.png"))

    boxes = rows_on_screen(full_hd, shown)
    assert full_hd.evaluate("document.documentElement.scrollWidth") <= 1920
    # Nothing cut inside a row: each round's score and the total lie within the row's box.
    overflowing = full_hd.evaluate(
        """() => [...document.querySelectorAll('#standings li')].filter((li) => {
            const row = li.getBoundingClientRect();
            return [...li.querySelectorAll('.board-rounds > *, .board-total')].some((cell) => {
                const box = cell.getBoundingClientRect();
                return box.left < row.left - 0.5 || box.right > row.right + 0.5
                    || box.width === 0 || cell.scrollWidth > Math.ceil(box.width);
            });
        }).length"""
    )
    assert overflowing == 0
    used = max(b["y"] + b["height"] for b in boxes) - min(b["y"] for b in boxes)
    names = font_px(full_hd, "#standings .board-name")
    columns = len({round(b["x"]) for b in boxes})
    if players == 12:
        assert columns == 1
        assert used >= 0.7 * 1080, used
        assert names >= 40, names
    else:
        assert columns == 4
        assert used >= 0.6 * 1080, used
        assert names >= 0.02 * 1080, names
    if players > PROJECTOR_ROWS:
        expect(full_hd.locator("#board-page")).to_be_visible()  # pages through as before

    # The per-round column: its heads (R1, R2), and each row's score in each round.
    expect(full_hd.locator("#board-heads p").first.locator("abbr")).to_have_count(2)
    first = standings_selectors.standings_for(tournament=tournament)[0]
    cells = full_hd.get_by_test_id(f"board-rounds-{first.player.pk}").locator("span")
    expect(cells).to_have_text([str(points) for points in first.rounds])
    expect(full_hd.locator("#standings .board-rounds")).to_have_count(shown)
    assert_accessible(full_hd)
