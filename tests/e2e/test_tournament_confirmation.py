"""Confirmation at the table in a browser: the taker's phone enters a deal through the table's
link, it waits; another phone at the same table, held by a defender, confirms it; the deal then
counts and, being the round's last, closes the round."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests import factories
from tournaments.models import DealConfirmation, Round
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors


def test_one_phone_enters_and_a_phone_of_the_other_side_confirms(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    club = factories.ClubFactory.create(name="Tarot Club de Lyon", public=True)
    tournament = factories.make_tournament(
        club, 4, require_confirmation=True, deals_per_round=1, rounds=1
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    (state,) = round_selectors.round_tables(round_=round_)
    taker, defender = state.players[0], state.players[2]
    link = f"/tournaments/t/{state.table.token}/"

    # The taker's phone: it names its holder, then enters the deal.
    page.goto(link)
    expect(page.locator("#deal-who-first")).to_be_visible()
    page.locator("#holder-player").select_option(str(taker.pk))
    page.locator("#holder-save").click()
    expect(page.locator("#table-holder-title")).to_contain_text(taker.label)
    page.locator(f"#field-taker label:has(input[value='{taker.pk}'])").click()
    page.locator("#field-contract label:has(input[value='garde'])").click()
    page.locator("#field-oudlers label:has(input[value='2'])").click()
    page.locator("#id_points").fill("49")
    expect(page.get_by_test_id("preview-score-0")).to_be_visible()
    page.locator("#save-deal").click()
    expect(page.get_by_test_id("waiting-1")).to_be_visible()
    expect(page.get_by_test_id("state-1")).to_be_visible()
    expect(page.locator("#confirm-1")).to_have_count(0)  # its own side's deal: it waits
    confirmation = DealConfirmation.objects.get(deal__game=state.table.game)
    assert confirmation.status == "pending" and confirmation.entered_by == taker
    assert all(row.total == 0 for row in standings_selectors.standings_for(tournament=tournament))

    # Another phone at the table, held by a defender.
    other = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )
    try:
        phone = other.new_page()
        phone.set_default_timeout(10_000)
        phone.goto(link)
        phone.locator("#holder-player").select_option(str(defender.pk))
        phone.locator("#holder-save").click()
        expect(phone.get_by_test_id("waiting-1")).to_contain_text("+198")
        phone.locator("#confirm-1").click()
        # The round waited for this confirmation only: it is now closed.
        expect(phone.locator("#round-closed")).to_be_visible()
    finally:
        other.close()

    confirmation.refresh_from_db()
    assert confirmation.status == "confirmed" and confirmation.confirmed_by == defender
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    totals = {
        row.player.pk: row.total for row in standings_selectors.standings_for(tournament=tournament)
    }
    assert totals[taker.pk] == 198 and totals[defender.pk] == -66
