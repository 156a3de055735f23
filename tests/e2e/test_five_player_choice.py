"""A table of five whose rules allow either: on the phone, the deal says the dealer sits out by
tapping a radio button found by its accessible name; the preview and the save follow it."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games.models import Deal
from tests.e2e.test_game_entry import enter_deal, log_in, tap_chip
from tests.factories import build_table


def test_the_dealer_sits_out_this_deal(page: Page, live_server: LiveServer) -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    choice = page.get_by_role("group", name="À cette table de cinq")
    expect(choice.get_by_role("radio", name="roi appelé")).to_be_checked()
    tap_chip(page, "five_players", "sitting_out")  # a tap on the chip, as a thumb does
    expect(choice.get_by_role("radio", name="le donneur passe son tour")).to_be_checked()
    enter_deal(page, taker=b, contract="garde", bouts=2, points="49")

    expect(page.get_by_test_id("preview-score-0")).to_have_text("0")
    expect(page.get_by_test_id("preview-score-1")).to_have_text("+198")
    page.locator("#save-deal").click()
    expect(page.locator("#deal-saved")).to_be_visible()

    deal = Deal.objects.get(game=table.game)
    assert deal.payload["sitting_out"] == a
