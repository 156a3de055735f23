"""Five players with full names on a 390x844 phone: their totals fit the width (nothing scrolls
sideways, axe finds no scrollable region), the bar at the bottom stays small after a Save (at
most a fifth of the screen) so that the extras are reachable without scrolling, and the totals
and Save stay on screen after a Save and after a refusal."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs.models import Player
from tests.e2e.a11y import assert_accessible
from tests.e2e.screen import in_viewport, settled
from tests.e2e.test_game_entry import log_in
from tests.e2e.test_phone_entry import Phone, open_entry, shoot
from tests.factories import Table, build_table, garde

FULL_NAMES = [
    "Françoise Martin",
    "Éric Bonnet",
    "Chloé Lefèvre-Dubois",
    "Jean-Baptiste Rousseau",
    "Sylvie Marchand",
]
HEIGHT = 844


def named_table(players: int) -> Table:
    table = build_table(players=players)
    for player, name in zip(table.players, FULL_NAMES, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
        player.name = name
    return table


def sideways(page: Page) -> float:
    """How far the page reaches past the phone's width. Measured against the width the phone
    was given, not ``window.innerWidth``: a phone-emulating browser widens its window to fit a
    page that overflows, so the two always agree."""
    settled(page)
    size = page.viewport_size
    assert size is not None
    return float(page.evaluate("document.documentElement.scrollWidth")) - size["width"]


def assert_totals_across(page: Page, players: int) -> None:
    """Each player's total is inside the screen's width (none cut off at the right)."""
    settled(page)
    for i in range(players):
        box = page.get_by_test_id(f"total-{i}").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5, i


@pytest.fixture
def phone(page: Page) -> Phone:
    return Phone(page)


def reach(phone: Phone, question: str, value: int | str) -> None:
    """Tap a chip of a question, scrolled to the middle of the screen first: five full names
    make the form longer than a phone's screen (these tests measure the layout, not taps)."""
    chip = phone.chip(question, value)
    chip.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    phone.tap(chip)


def type_points(phone: Phone, points: str) -> None:
    field = phone.page.locator("#id_points")
    field.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    phone.tap(field)
    phone.type(points)


def test_five_full_names_fit_and_the_bar_stays_small(phone: Phone, live_server: LiveServer) -> None:
    table = named_table(5)
    ids = table.ids
    table.record(garde(ids[0], partner=ids[1]))
    table.record(garde(ids[1], points=40, partner=ids[2]))
    open_entry(phone, live_server, table)
    page = phone.page

    assert sideways(page) <= 0
    assert_totals_across(page, 5)
    for i in range(5):
        assert in_viewport(page, page.get_by_test_id(f"total-{i}")), i
    assert_accessible(page)

    reach(phone, "taker", ids[2])
    reach(phone, "contract", "garde")
    reach(phone, "partner", ids[3])
    reach(phone, "oudlers", 2)
    type_points(phone, "49")
    expect(page.get_by_test_id("preview-score-2")).to_have_text("+132")
    assert sideways(page) <= 0
    phone.tap(page.locator("#save-deal"))

    expect(page.locator("#deal-saved")).to_contain_text("Donne 3 enregistrée.")
    bar = page.locator("#entry-bar").bounding_box()
    assert bar is not None and bar["height"] <= 0.2 * HEIGHT, bar
    for i in range(5):
        assert in_viewport(page, page.get_by_test_id(f"total-{i}")), i
    assert in_viewport(page, page.locator("#save-deal"))
    assert in_viewport(page, page.locator("#undo-deal"))
    assert sideways(page) <= 0
    shoot(page, "phone-five-after-save.png")
    assert_accessible(page)

    page.goto(reverse("games:detail", args=[table.game.pk]))
    assert sideways(page) <= 0
    assert_totals_across(page, 5)
    shoot(page, "phone-five-sheet.png")
    assert_accessible(page)


def test_after_a_save_at_four_the_extras_are_on_screen(
    phone: Phone, live_server: LiveServer
) -> None:
    table = named_table(4)
    ids = table.ids
    table.record(garde(ids[0]))
    open_entry(phone, live_server, table)
    page = phone.page
    phone.tap(phone.chip("taker", ids[2]))
    phone.tap(phone.chip("contract", "garde"))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    phone.tap(page.locator("#save-deal"))
    expect(page.locator("#deal-saved")).to_be_visible()

    bar = page.locator("#entry-bar").bounding_box()
    assert bar is not None and bar["height"] <= 0.2 * HEIGHT, bar
    shoot(page, "phone-four-after-save.png")
    # The next deal's extras open with one tap, without scrolling: their first chips are
    # on screen, clear of the bar.
    assert phone.scrolled() == 0
    phone.tap(page.locator(".extras > summary"))
    phone.tap(phone.chip("petit_au_bout", "attack"))
    assert phone.errors == []


def test_after_a_refusal_the_totals_fit_and_save_is_on_screen(
    phone: Phone, live_server: LiveServer
) -> None:
    table = named_table(5)
    ids = table.ids
    table.record(garde(ids[0], partner=ids[1]))
    open_entry(phone, live_server, table)
    page = phone.page
    reach(phone, "taker", ids[2])
    reach(phone, "contract", "garde")
    reach(phone, "partner", ids[3])
    reach(phone, "oudlers", 2)
    type_points(phone, "95")  # more than the 91 points of a pack
    phone.tap(page.locator("#save-deal"))

    expect(page.locator("#deal-err-points")).not_to_be_empty()
    assert in_viewport(page, page.locator("#deal-err-points"))
    assert in_viewport(page, page.locator("#save-deal"))
    assert_totals_across(page, 5)
    assert sideways(page) <= 0
    page.evaluate("window.scrollTo(0, 0)")
    for i in range(5):
        assert in_viewport(page, page.get_by_test_id(f"total-{i}")), i
    shoot(page, "phone-five-after-refusal.png")


def test_finishing_a_game_asks_first(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    table.record(garde(table.ids[0]))
    log_in(page, live_server, table.users["organiser"])
    page.goto(reverse("games:detail", args=[table.game.pk]))

    page.locator("#finish-game").click()

    confirm = page.locator("#finish-game-confirm")
    expect(confirm).to_be_visible()
    expect(page.locator("#finish-game-box")).to_contain_text("plus aucune donne")
    table.game.refresh_from_db()
    assert table.game.status == "open"  # one tap asked, it did not finish
    assert_accessible(page)
    confirm.click()
    expect(page.locator("#reopen-game")).to_be_visible()
    expect(page.locator(".game-meta")).to_contain_text("Terminée")
    table.game.refresh_from_db()
    assert table.game.status == "finished"
