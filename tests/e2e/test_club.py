"""A club evening on a phone: log in, start a club, add four players one at a time, start a
four-player game (players tapped in seat order) and land on its score sheet. Fields are found
by name so the test reads the same in any language."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tarot_scores.clubs.models import Club
from tarot_scores.games.models import Game
from tests.factories import UserFactory, build_table

PLAYERS = ["Aurélie", "Bruno", "Chloé", "Denis"]


def submit(page: Page, button: str = "button.btn-primary") -> None:
    page.locator(f"main form {button}").first.click()


def test_start_a_club_and_a_game_on_a_phone(page: Page) -> None:
    UserFactory.create(username="marie")

    page.goto("/accounts/login/")
    page.fill("input[name=username]", "marie")
    page.fill("input[name=password]", "secret-pass")
    submit(page)
    expect(page).to_have_url(re.compile(r"/clubs/$"))

    page.fill("input[name=name]", "Les Petits au Bout")
    submit(page)
    club = Club.objects.get(name="Les Petits au Bout")
    # A new club goes on to its players (a pasted list; one at a time is a link away).
    expect(page).to_have_url(re.compile(rf"/clubs/{club.slug}/players/paste/$"))

    page.locator(f"a[href='/clubs/{club.slug}/players/new/']").first.click()
    for name in PLAYERS[:-1]:
        page.fill("input[name=name]", name)
        submit(page, "button[name=another]")
        expect(page.locator(".messages")).to_contain_text(name)
    page.fill("input[name=name]", PLAYERS[-1])
    submit(page)
    expect(page).to_have_url(re.compile(rf"/clubs/{club.slug}/$"))
    for name in PLAYERS:
        expect(page.locator(".player-list")).to_contain_text(name)

    page.locator(f"a[href='/clubs/{club.slug}/games/new/']").first.click()
    for name in PLAYERS:
        page.locator("#field-players label", has_text=name).click()
    submit(page)

    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get(club=club)
    assert page.url.endswith(f"/games/{game.pk}/")
    assert [s.player.name for s in game.seats.select_related("player")] == PLAYERS


def test_the_leaderboard_caption_stays_on_a_phone_screen(page: Page) -> None:
    """The table scrolls sideways on a phone; the line naming it must wrap within the screen."""
    table = build_table()
    table.record()
    page.goto(f"/clubs/{table.club.slug}/leaderboard/")

    caption = page.locator("#leaderboard-caption")
    expect(caption).to_be_visible()
    box = caption.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    scroller = page.locator(".table-scroll")
    assert scroller.evaluate("el => el.scrollWidth > el.clientWidth")  # the table does scroll


def test_the_leaderboard_keeps_the_player_column_while_the_numbers_scroll(page: Page) -> None:
    table = build_table()
    table.record()
    page.goto(f"/clubs/{table.club.slug}/leaderboard/")

    expect(page.locator("#leaderboard-hint")).to_be_visible()  # the phone is told to swipe
    scroller = page.locator(".table-scroll")
    scroller.scroll_into_view_if_needed()
    scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
    assert scroller.evaluate("el => el.scrollLeft") > 0

    for name in ("Aurélie", "Denis"):
        cell = page.locator(".leaderboard tbody th", has_text=name)
        box = cell.bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        # Still on top, not slid under the numbers: the point at its middle is the cell.
        middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('th')?.textContent.trim()",
            list(middle),
        )
        assert on_top == name


def test_the_leaderboards_rank_heading_is_whole(page: Page) -> None:
    """ "Rang" (and "Rank") fits its sticky column: not cut by the cell, not hidden under the
    player's column beside it, on the leaderboard and on the ratings' ranking."""
    table = build_table()
    table.record()
    for language in ("fr", "en"):
        page.context.set_extra_http_headers({"Accept-Language": language})
        for url in (
            f"/clubs/{table.club.slug}/leaderboard/",
            f"/clubs/{table.club.slug}/ratings/",
        ):
            page.goto(url)
            measures = page.evaluate(
                """() => {
                const head = document.querySelector('.leaderboard thead th');
                const next = head.nextElementSibling;
                const range = document.createRange();
                range.selectNodeContents(head);
                const text = range.getBoundingClientRect();
                return {text: head.textContent.trim(), right: text.right,
                        cell: head.getBoundingClientRect().right,
                        next: next.getBoundingClientRect().left,
                        overflow: head.scrollWidth - head.clientWidth};
            }"""
            )
            assert measures["text"] in ("Rang", "Rank")
            assert measures["overflow"] <= 0, (url, language, measures)
            assert measures["right"] <= measures["cell"], (url, language, measures)
            assert measures["right"] <= measures["next"], (url, language, measures)
