"""A tournament table's phones in step, in real browsers (tournaments.views.table_sync): what one
phone does (enter, undo, confirm) shows on the other without a reload, within the poll's
interval; Back after a save and a reload offline show the deal just saved."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games.models import Deal
from tests import factories
from tests.e2e.a11y import assert_accessible
from tests.e2e.test_game_entry import enter_deal
from tests.e2e.test_offline_entry import KEPT
from tournaments.models import DealConfirmation, Round
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

# Long enough for a slow machine; the poll itself asks every second here.
IN_STEP_MS = 20_000


@contextmanager
def another_phone(browser: Browser, live_server: LiveServer, **options: Any) -> Iterator[Page]:
    """A second phone at the table: its own browser context (its own cookies, its own session)."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
        **options,
    )
    try:
        phone = context.new_page()
        phone.set_default_timeout(30_000)
        yield phone
    finally:
        context.close()


def _table(**kw: Any) -> tuple[Any, str]:
    club = factories.ClubFactory.create(name="Tarot Club de Lyon", public=True)
    tournament = factories.make_tournament(club, 4, deals_per_round=3, rounds=1, **kw)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    (state,) = round_selectors.round_tables(round_=round_)
    return state, f"/tournaments/t/{state.table.token}/"


def _name_holder(page: Page, player_id: int) -> None:
    page.locator("#holder-player").select_option(str(player_id))
    page.locator("#holder-save").click()
    expect(page.locator("#table-holder")).to_be_visible()


def test_what_one_phone_does_shows_on_the_other_without_a_reload(
    page: Page, browser: Browser, live_server: LiveServer, settings: Any
) -> None:
    settings.TABLE_POLL_SECONDS = 1
    state, link = _table(require_confirmation=True)
    taker, defender = state.players[0], state.players[2]
    page.set_default_timeout(30_000)

    page.goto(link)
    _name_holder(page, taker.pk)
    with another_phone(browser, live_server) as phone:
        phone.goto(link)
        _name_holder(phone, defender.pk)
        expect(phone.locator("#nothing-to-confirm")).to_have_count(0)
        loads = {"taker": 0, "defender": 0}
        page.on("load", lambda _page: loads.__setitem__("taker", loads["taker"] + 1))
        phone.on("load", lambda _page: loads.__setitem__("defender", loads["defender"] + 1))

        # The taker enters a deal: the defender's phone shows it, to confirm, by itself.
        enter_deal(page, taker=taker.pk, contract="garde", bouts=2, points="49")
        expect(page.get_by_test_id("preview-score-0")).to_be_visible()
        page.locator("#save-deal").click()
        expect(page.get_by_test_id("state-1")).to_be_visible()
        expect(phone.locator("#confirm-1")).to_be_visible(timeout=IN_STEP_MS)
        expect(phone.get_by_test_id("waiting-1")).to_contain_text("+198")

        # The taker undoes it: it leaves the defender's screen.
        page.locator("#undo-deal").click()
        expect(page.locator("#deal-1")).to_have_count(0)
        expect(phone.locator("#confirm-1")).to_have_count(0, timeout=IN_STEP_MS)
        expect(phone.locator("#table-sheet #deal-1")).to_have_count(0)

        # Entered again, the defender confirms: the taker's phone stops saying "to confirm".
        enter_deal(page, taker=taker.pk, contract="garde", bouts=2, points="49")
        expect(page.get_by_test_id("preview-score-0")).to_be_visible()
        page.locator("#save-deal").click()
        expect(page.get_by_test_id("state-1")).to_have_text("à confirmer")
        phone.locator("#confirm-1").click(timeout=IN_STEP_MS)
        expect(phone.locator("#nothing-to-confirm")).to_be_visible()
        expect(page.get_by_test_id("state-1")).to_have_count(0, timeout=IN_STEP_MS)
        expect(page.locator("#nothing-to-confirm")).to_be_visible()
        expect(page.locator("#table-sheet #deal-1")).to_be_visible()
        # Brought by the poll, not by a reload of the taker's page.
        assert loads["taker"] == 0
    confirmation = DealConfirmation.objects.get(
        deal__game=state.table.game, deal__number=1, deal__deleted_at__isnull=True
    )
    assert confirmation.status == DealConfirmation.Status.CONFIRMED


def test_a_poll_that_finds_the_round_closed_or_the_link_replaced_reloads_the_page(
    page: Page, live_server: LiveServer, settings: Any
) -> None:
    settings.TABLE_POLL_SECONDS = 1
    state, link = _table()
    page.set_default_timeout(30_000)
    page.goto(link)
    expect(page.locator("#deal-form")).to_be_visible()
    round_services.table_link_renew(table=state.table)
    expect(page.locator("#link-replaced")).to_be_visible(timeout=IN_STEP_MS)
    expect(page.locator("#link-replaced")).to_contain_text("Demandez le nouveau lien")
    assert_accessible(page)

    state.table.refresh_from_db()
    page.goto(f"/tournaments/t/{state.table.token}/")
    expect(page.locator("#deal-form")).to_be_visible()
    Round.objects.filter(pk=state.table.round_id).update(status=Round.Status.CLOSED)
    expect(page.locator("#round-closed")).to_be_visible(timeout=IN_STEP_MS)


def _save_first_deal(page: Page, taker: int) -> None:
    enter_deal(page, taker=taker, contract="garde", bouts=2, points="49")
    page.locator("#save-deal").click()
    expect(page.locator("#table-sheet #deal-1")).to_be_visible()


@pytest.mark.parametrize("worker", ["allow", "block"])
def test_back_after_a_save_shows_the_deal(
    browser: Browser, live_server: LiveServer, worker: str
) -> None:
    """With JavaScript, the save swaps the sheet in place; Back from the next page asks the site
    again (the table's page is never kept by the browser's cache: no-store), with or without
    the service worker in between (a phone's first visit, a browser that has none)."""
    state, link = _table()
    taker = state.players[0].pk
    with another_phone(browser, live_server, service_workers=worker) as page:
        page.goto(link)
        _save_first_deal(page, taker)
        _to_the_full_sheet_and_back(page)
        expect(page.locator("#table-sheet #deal-1")).to_be_visible()
        expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "1")


def _to_the_full_sheet_and_back(page: Page) -> None:
    page.locator("a", has_text="Feuille de marque complète").first.click()
    expect(page).to_have_url(re.compile("/games/"))
    page.go_back()


def test_back_after_a_save_without_javascript_shows_the_deal(
    browser: Browser, live_server: LiveServer
) -> None:
    state, link = _table()
    taker = state.players[0].pk
    with another_phone(browser, live_server, java_script_enabled=False) as phone:
        phone.goto(link)
        expect(phone.locator("#table-sheet #deal-1")).to_have_count(0)
        # Without JavaScript the chips are plain radio buttons; Save is a plain post.
        phone.locator(f"#field-taker input[value='{taker}']").check()
        phone.locator("#field-contract input[value='garde']").check()
        phone.locator("#field-oudlers input[value='2']").check()
        phone.locator("#id_points").fill("49")
        phone.locator("#save-deal").click()
        expect(phone.locator("#deal-saved")).to_be_visible()
        assert Deal.objects.filter(game=state.table.game).count() == 1
        # Back: the page as it was before the save, asked again, with the deal.
        phone.go_back()
        expect(phone.locator("#table-sheet #deal-1")).to_be_visible()


def _wait_until(page: Page, script: str, arg: Any, what: str) -> None:
    # Polled with evaluate: wait_for_function evaluates its string, which the CSP forbids.
    for _ in range(200):
        if page.evaluate(script, arg):
            return
        page.wait_for_timeout(100)
    raise AssertionError(what)


# The service worker's copy of a page holds this text.
KEPT_WITH = """async ([url, text]) => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('tarot-entries-')) continue;
        const hit = await (await caches.open(name)).match(url, {ignoreVary: true});
        if (hit && (await hit.text()).includes(text)) return true;
    }
    return false;
}"""


def test_a_reload_offline_shows_the_deal_just_saved(page: Page, live_server: LiveServer) -> None:
    state, link = _table()
    taker, other = state.players[0].pk, state.players[1].pk
    page.set_default_timeout(30_000)
    page.goto(link)
    _wait_until(
        page,
        "() => navigator.serviceWorker.controller !== null",
        None,
        "the service worker did not take the page over",
    )
    _wait_until(page, KEPT, link, "the table's page was not kept")

    _save_first_deal(page, taker)
    # The phone's copy is fetched again after the save.
    _wait_until(page, KEPT_WITH, [link, 'id="deal-1"'], "the kept page has no deal 1")

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#table-sheet #deal-1")).to_be_visible()
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "1")
    # A deal kept on the phone offline shows beside the stored one, never instead of it.
    expect(page.locator("#deal-entry-title")).to_have_text("Donne 2")
    enter_deal(page, taker=other, contract="garde", bouts=2, points="49")
    page.locator("#save-deal").click()
    expect(page.locator("#offline-queue .offline-deal")).to_have_count(1)
    page.reload()
    expect(page.locator("#table-sheet #deal-1")).to_be_visible()
    expect(page.locator("#offline-queue .offline-deal")).to_have_count(1)
    expect(page.locator("#offline-queue .offline-deal")).to_contain_text("Donne 2")

    page.context.set_offline(False)
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert Deal.objects.filter(game=state.table.game).count() == 2


def test_back_offline_after_a_save_shows_the_deal(page: Page, live_server: LiveServer) -> None:
    """The network gone after a save: Back is answered by the service worker's copy of the
    table's page, which was fetched again after the save."""
    state, link = _table()
    page.set_default_timeout(30_000)
    page.goto(link)
    _wait_until(
        page,
        "() => navigator.serviceWorker.controller !== null",
        None,
        "the service worker did not take the page over",
    )
    _wait_until(page, KEPT, link, "the table's page was not kept")
    _save_first_deal(page, state.players[0].pk)
    _wait_until(page, KEPT_WITH, [link, 'id="deal-1"'], "the kept page has no deal 1")
    page.locator("a", has_text="Feuille de marque complète").first.click()
    expect(page).to_have_url(re.compile("/games/"))
    page.context.set_offline(True)
    page.go_back()
    expect(page.locator("#table-sheet #deal-1")).to_be_visible()
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "1")
