"""The points pad and the bottom bar on a 390x844 phone, measured: the common scores in one tap
and half points up or down, with labelled keys and the phone's keyboard kept shut; the bar's
result line never under the detail's link; names never cut in the middle of a word; the detail,
opened, covers no question of the form (the slam's chips); "Triple" on one line for every
player; the bar at most a sixth of the screen. Without JavaScript, a plain number field."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Browser, FloatRect, Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs.models import Player
from tests.e2e.a11y import assert_accessible
from tests.e2e.screen import in_viewport, settled
from tests.e2e.test_game_entry import log_in
from tests.e2e.test_phone_entry import Phone, shoot
from tests.factories import build_table, garde

NAMES = ["François", "Éloïse", "Anaïs", "Bérénice", "Chloé"]
HEIGHT = 844


def overlap(a: FloatRect, b: FloatRect) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def lines_of(page: Page, selector: str) -> list[int]:
    """How many lines each element's text takes on screen (a word cut in two makes two)."""
    return list(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)].map((el) => {
                 const range = document.createRange();
                 range.selectNodeContents(el);
                 return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
               })""",
            selector,
        )
    )


def test_the_pad_and_the_bar_on_a_phone(page: Page, live_server: LiveServer) -> None:
    table = build_table(players=5)
    for player, name in zip(table.players, NAMES, strict=True):
        Player.objects.filter(pk=player.pk).update(name=name, nickname="")
    ids = table.ids
    table.record(garde(ids[0], partner=ids[4]))
    phone = Phone(page)
    log_in(page, live_server, table.users["organiser"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))
    points = page.locator("#id_points")

    # The pad replaces the keyboard: the field asks for none, the keys say what they do.
    expect(page.locator("#points-pad")).to_be_visible()
    expect(points).to_have_attribute("inputmode", "none")
    phone.tap(phone.chip("taker", ids[1]))
    phone.tap(phone.chip("contract", "garde"))
    phone.tap(phone.chip("partner", ids[2]))
    phone.tap(phone.chip("oudlers", 2))
    pad = page.get_by_role("group", name="Pavé des points")
    # Five players and their partner's row: the pad is a short scroll down, above the bar.
    page.evaluate("window.scrollBy(0, 200)")
    phone.tap(pad.get_by_role("button", name="51 points", exact=True))
    expect(points).to_have_value("51")
    phone.tap(pad.get_by_role("button", name="Un demi-point de plus"))
    expect(points).to_have_value("51,5")
    phone.tap(pad.get_by_role("button", name="Un demi-point de moins"))
    phone.tap(pad.get_by_role("button", name="Un demi-point de moins"))
    expect(points).to_have_value("50,5")
    for key in pad.get_by_role("button").all():
        box = key.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 40, box
    # 50,5 with 2 bouts: 51 (the half point to the winners), won by 10: (25 + 10) x 2 x 2.
    expect(page.get_by_test_id("preview-score-1")).to_have_text("+140")
    settled(page)
    shoot(page, "entry-points-pad.png")

    # The bar: its result line beside, not under, the detail's link; at most a sixth of the
    # screen; every name whole on one line.
    bar = page.locator("#entry-bar").bounding_box()
    attack = page.locator(".preview-line").bounding_box()
    detail = page.locator(".breakdown summary").bounding_box()
    assert bar is not None and attack is not None and detail is not None
    expect(page.locator(".preview-line")).to_contain_text("Gagnée de 10")
    assert not overlap(attack, detail), (attack, detail)
    assert bar["height"] <= HEIGHT / 6, bar
    assert lines_of(page, ".entry-bar .preview-scores th") == [1] * 5

    # Every handful's "Triple" on one line, whoever's line it is.
    page.locator(".deal-form .extras summary").click()
    triples = page.locator("#field-handfuls .chip span", has_text="Triple")
    expect(triples).to_have_count(5)
    assert lines_of(page, "#field-handfuls .chip span") == [1] * 20

    # The detail, opened, covers none of the slam's chips.
    page.locator(".breakdown summary").click()
    expect(page.locator(".breakdown ul")).to_be_visible()
    # At the foot of the page the bar rests under the form: the slam's chips, just above it,
    # are all in view and none is painted over.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    for chip in page.locator("#field-slam .chip span").all():
        assert in_viewport(page, chip), chip
    listed = page.locator(".breakdown ul").bounding_box()
    for chip in page.locator("#field-slam .chip span").all():
        box = chip.bounding_box()
        assert box is not None and listed is not None
        assert not overlap(box, listed), (box, listed)
    assert_accessible(page)


def test_without_javascript_the_points_are_a_plain_field(
    browser: Browser, live_server: LiveServer
) -> None:
    table = build_table(players=4)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": HEIGHT},
        locale="fr-FR",
        java_script_enabled=False,
    )
    page = context.new_page()
    try:
        log_in(page, live_server, table.users["organiser"])
        page.goto(reverse("games:deal_new", args=[table.game.pk]))
        expect(page.locator("#points-pad")).to_be_hidden()
        points = page.locator("#id_points")
        assert points.get_attribute("inputmode") != "none"
        points.fill("40,5")
        expect(points).to_have_value("40,5")
    finally:
        context.close()
