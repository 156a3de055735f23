"""The entry screen judged as a player at the table judges it, on a 390x844 phone: a plain deal
in five taps and the points' keystrokes with nothing to scroll, a deal with petit au bout and a
handful in eight, the new row, the totals and the "saved" notice on screen after Save, a refused
deal's message on screen with its question focused, Undo, and no error in the console.

Every tap goes to the middle of a target that must already be on the screen (and not under the
bottom bar): the test never scrolls, and a tap by coordinates cannot scroll either."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games import selectors
from tarot_scores.games.models import Deal, DealRevision
from tests.e2e.screen import in_viewport, settled
from tests.e2e.test_game_entry import log_in
from tests.factories import Table, build_table, garde

SHOTS = Path(__file__).resolve().parents[2] / "test-results"


class Phone:
    """Taps and keystrokes counted, each tap on a target already in view."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def tap(self, target: Locator) -> None:
        expect(target).to_be_visible()
        assert in_viewport(self.page, target), f"off screen or covered: {target}"
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)

    def chip(self, question: str, value: int | str) -> Locator:
        return self.page.locator(f"#field-{question} label:has(input[value='{value}']) span")

    def scrolled(self) -> float:
        settled(self.page)
        return float(self.page.evaluate("window.scrollY"))


@pytest.fixture
def phone(page: Page) -> Phone:
    return Phone(page)


def open_entry(phone: Phone, live_server: LiveServer, table: Table) -> None:
    log_in(phone.page, live_server, table.users["organiser"])
    phone.page.goto(reverse("games:deal_new", args=[table.game.pk]))
    expect(phone.page.locator("#deal-entry-title")).to_be_visible()


def shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / name))


@pytest.mark.parametrize("players", [4, 5])
def test_a_plain_deal_takes_five_taps_on_one_screen(
    phone: Phone, live_server: LiveServer, players: int
) -> None:
    table = build_table(players=players)
    ids = table.ids
    # Two deals already played: the screen shows the last one and the totals at its top.
    partner = {"partner": ids[4]} if players == 5 else {}
    table.record(garde(ids[0], **partner))
    table.record(garde(ids[1], points=40, **partner))
    open_entry(phone, live_server, table)
    page = phone.page
    # A compact header: the menu and the languages are behind one button.
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 60
    expect(page.get_by_role("button", name="English")).to_be_hidden()

    phone.tap(phone.chip("taker", ids[2]))
    phone.tap(phone.chip("contract", "garde"))
    if players == 5:
        phone.tap(phone.chip("partner", ids[3]))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    expect(page.get_by_test_id("preview-score-2")).to_have_text("+132" if players == 5 else "+198")
    phone.tap(page.locator("#save-deal"))

    notice = page.locator("#deal-saved")
    expect(notice).to_contain_text("Donne 3 enregistrée.")
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "3")
    # The next dealer is named, and the new row and the totals are on screen with the notice.
    dealer = table.players[3].label
    expect(page.locator("#next-dealer")).to_have_text(f"{dealer} distribue la suivante.")
    expect(page.locator("#deal-dealer")).to_contain_text(dealer)
    for shown in (notice, page.locator("#undo-deal"), page.locator("#strip-last-deal")):
        assert in_viewport(page, shown), shown
    assert in_viewport(page, page.locator("#game-totals tfoot"))
    sheet = selectors.game_sheet(game_id=table.game.pk)
    for i, total in enumerate(sheet.totals):
        expect(page.get_by_test_id(f"total-{i}")).to_have_text(str(total))
    if players == 4:
        shoot(page, "entry-after-save.png")

    assert phone.taps == (6 if players == 5 else 5) and phone.keys == 2
    assert phone.scrolled() == 0
    assert phone.errors == []
    assert Deal.objects.filter(game=table.game).count() == 3


def test_petit_au_bout_and_a_handful_in_eight_taps(phone: Phone, live_server: LiveServer) -> None:
    table = build_table()
    a, b, c, d = table.ids
    open_entry(phone, live_server, table)
    page = phone.page

    phone.tap(phone.chip("taker", d))
    phone.tap(phone.chip("contract", "garde"))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    phone.tap(page.locator(".extras > summary"))
    phone.tap(phone.chip("petit_au_bout", "attack"))
    phone.tap(page.locator(f"label[for='id_handful_{d}_1'] span"))
    # 49 points, 2 bouts: won by 8; (25 + 8 + 10) x 2 = 86 a defender, and the handful's 20.
    expect(page.get_by_test_id("preview-score-3")).to_have_text("+318")
    phone.tap(page.locator("#save-deal"))

    expect(page.locator("#deal-saved")).to_be_visible()
    assert in_viewport(page, page.locator("#deal-saved"))
    assert in_viewport(page, page.locator("#game-totals tfoot"))
    assert phone.taps == 8 and phone.keys == 2
    assert phone.errors == []
    deal = Deal.objects.get(game=table.game)
    assert deal.payload["petit_au_bout"] == "attack"
    assert deal.payload["handfuls"] == [{"player": d, "size": "simple"}]


def test_a_refused_deal_names_its_question_and_takes_the_focus_there(
    phone: Phone, live_server: LiveServer
) -> None:
    table = build_table()
    a = table.ids[0]
    open_entry(phone, live_server, table)
    page = phone.page

    phone.tap(phone.chip("taker", a))
    phone.tap(phone.chip("contract", "prise"))
    phone.tap(phone.chip("oudlers", 3))
    phone.tap(page.locator("#id_points"))
    phone.type("91")
    # The live line names the question at fault, folded away in the extras, and opens them.
    fault = page.locator("#preview-fault")
    expect(fault).to_contain_text("Chelem")
    expect(fault).to_contain_text("indiquez le chelem")
    expect(page.locator("#deal-preview")).not_to_contain_text("ci-dessus")
    expect(page.locator("details.extras")).to_have_attribute("open", "")
    phone.tap(page.locator("#save-deal"))

    error = page.locator("#deal-err-slam")
    expect(error).to_contain_text("indiquez le chelem")
    expect(page.locator("#field-slam input:focus")).to_have_count(1)
    assert in_viewport(page, error)
    assert in_viewport(page, page.locator("#field-slam legend"))
    shoot(page, "entry-after-refusal.png")
    assert not Deal.objects.filter(game=table.game).exists()
    # The refusal answers 400 (nothing saved), which Chromium notes as a failed load; nothing
    # else may be logged (no aborted preview, no htmx error).
    assert phone.errors == [
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"
    ]


@pytest.mark.parametrize("players", [4, 5])
def test_undo_strikes_the_deal_off_and_gives_its_answers_back(
    phone: Phone, live_server: LiveServer, players: int
) -> None:
    table = build_table(players=players)
    ids = table.ids
    c = ids[2]
    partner = {"partner": ids[3]} if players == 5 else {}
    # Two deals played: deal 3 is dealt by the third seat.
    table.record(garde(ids[0], **partner))
    table.record(garde(ids[1], points=40, **partner))
    dealer = table.players[2].label
    open_entry(phone, live_server, table)
    page = phone.page
    phone.tap(phone.chip("taker", c))
    phone.tap(phone.chip("contract", "garde"))
    if players == 5:
        phone.tap(phone.chip("partner", ids[3]))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    expected = page.get_by_test_id("preview-score-2").inner_text()
    phone.tap(page.locator("#save-deal"))
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "3")

    phone.tap(page.locator("#undo-deal"))

    expect(page.locator("#deal-undone")).to_contain_text("Donne 3 annulée")
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "2")
    expect(page.locator(f"#field-taker input[value='{c}']")).to_be_checked()
    expect(page.locator("#id_points")).to_have_value("49")
    # The same number and the same dealer, and the result line scores what is back.
    expect(page.locator("#deal-entry-title")).to_have_text("Donne 3")
    expect(page.locator("#deal-dealer")).to_contain_text(f"{dealer} distribue.")
    expect(page.locator("#deal-preview")).not_to_contain_text("Reste à répondre")
    expect(page.get_by_test_id("preview-score-2")).to_have_text(expected)
    deal = Deal.objects.get(game=table.game, number=3)
    assert deal.is_deleted
    assert list(deal.revisions.values_list("action", flat=True).order_by("version")) == [
        DealRevision.Action.CREATED,
        DealRevision.Action.DELETED,
    ]
    # Fixed (two bouts were three) and saved again: deal 3 again, dealt by the same player.
    phone.tap(phone.chip("oudlers", 3))
    phone.tap(page.locator("#save-deal"))
    expect(page.locator("#deal-saved")).to_contain_text("Donne 3 enregistrée.")
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "3")
    again = Deal.objects.get(game=table.game, number=3, deleted_at__isnull=True)
    assert again.payload["oudlers"] == 3 and again.dealer == table.players[2]
    assert phone.errors == [], phone.errors[:3]


def test_after_undo_the_focus_is_on_the_undone_notice(
    phone: Phone, live_server: LiveServer
) -> None:
    """The Undo button leaves with the "saved" notice: a keyboard or screen reader user is
    left on the notice that replaced it, not thrown back to the top of the page."""
    table = build_table(players=4)
    table.record(garde(table.ids[0]))
    open_entry(phone, live_server, table)
    page = phone.page
    phone.tap(phone.chip("taker", table.ids[1]))
    phone.tap(phone.chip("contract", "garde"))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    phone.tap(page.locator("#save-deal"))
    expect(page.locator("#deal-saved")).to_contain_text("Donne 2 enregistrée.")
    page.locator("#undo-deal").focus()
    page.keyboard.press("Enter")

    expect(page.locator("#deal-undone")).to_contain_text("Donne 2 annulée")
    expect(page.locator("#deal-undone")).to_be_focused()
    assert in_viewport(page, page.locator("#deal-undone"))
    assert phone.errors == [], phone.errors[:3]


@pytest.fixture
def page_without_js(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        locale="fr-FR",
        java_script_enabled=False,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_without_javascript_save_and_undo_are_plain_forms(
    page_without_js: Page, live_server: LiveServer
) -> None:
    page = page_without_js
    table = build_table()
    c = table.ids[2]
    log_in(page, live_server, table.users["organiser"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))
    page.locator(f"#field-taker label:has(input[value='{c}'])").click()
    page.locator("#field-contract label:has(input[value='garde'])").click()
    page.locator("#field-oudlers label:has(input[value='2'])").click()
    page.locator("#id_points").fill("49")

    page.locator("#save-deal").click()

    expect(page.locator("#deal-saved")).to_contain_text("Donne 1 enregistrée.")
    expect(page.locator("#deal-entry-title")).to_contain_text("Donne 2")
    page.locator("#undo-deal").click()

    expect(page.locator("#deal-undone")).to_be_visible()
    expect(page.locator("#id_points")).to_have_value("49")
    assert Deal.objects.get(game=table.game).is_deleted


def test_the_saved_notice_folds_away_after_a_few_seconds(
    phone: Phone, live_server: LiveServer
) -> None:
    table = build_table()
    c = table.ids[2]
    phone.page.clock.install()
    open_entry(phone, live_server, table)
    page = phone.page
    phone.tap(phone.chip("taker", c))
    phone.tap(phone.chip("contract", "garde"))
    phone.tap(phone.chip("oudlers", 2))
    phone.tap(page.locator("#id_points"))
    phone.type("49")
    phone.tap(page.locator("#save-deal"))
    notice = page.locator("#deal-saved")
    expect(notice).to_be_visible()

    page.clock.fast_forward(5_000)
    expect(notice).to_be_visible()  # time to reach Undo
    page.clock.fast_forward(10_000)

    expect(notice).to_be_hidden()
    # The totals and the next deal stay.
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "1")
    expect(page.locator("#deal-entry-title")).to_contain_text("Donne 2")
