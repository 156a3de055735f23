"""The score sheet's Restore, as a keyboard or screen reader user meets it: the sheet is
swapped in by htmx, and the focus must not fall back to the top of the page."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games import services
from tests.e2e.test_game_entry import log_in
from tests.factories import build_table, garde


def test_after_restore_the_focus_is_on_the_restored_deals_correct_link(
    page: Page, live_server: LiveServer
) -> None:
    table = build_table(players=4)
    table.record(garde(table.ids[0]))
    deal = table.record(garde(table.ids[1]))
    services.deal_delete(deal=deal, version=deal.version, by=None)
    log_in(page, live_server, table.users["organiser"])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(reverse("games:detail", args=[table.game.pk]))

    restore = page.locator("#deal-2").get_by_role("button", name="Rétablir")
    restore.focus()
    page.keyboard.press("Enter")

    expect(page.locator("#game-sheet .messages")).to_contain_text("Donne 2 rétablie.")
    correct = page.locator("#deal-2").get_by_role("link", name="Corriger")
    expect(correct).to_be_focused()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
