"""A phone at the table: deals entered in a few taps, totals updated without a reload,
a correction, the PDF score sheet, a called partner at five, and an impossible deal refused."""

from __future__ import annotations

import io

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect
from pypdf import PdfReader
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games import selectors
from tarot_scores.games.models import Deal
from tests.factories import Table, build_table


def log_in(page: Page, live_server: LiveServer, user: User | None) -> None:
    """Log the browser in with a session made by Django's test client (no login form needed)."""
    assert user is not None
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def tap_chip(page: Page, question: str, value: int | str) -> None:
    page.locator(f"#field-{question} label:has(input[value='{value}'])").click()


def enter_deal(
    page: Page,
    *,
    taker: int,
    contract: str,
    bouts: int,
    points: str,
    partner: int | str | None = None,
) -> None:
    tap_chip(page, "taker", taker)
    tap_chip(page, "contract", contract)
    if partner is not None:
        tap_chip(page, "partner", partner)
    tap_chip(page, "oudlers", bouts)
    page.locator("#id_points").fill(points)


def expect_totals(page: Page, table: Table) -> None:
    sheet = selectors.game_sheet(game_id=table.game.pk)
    for i, total in enumerate(sheet.totals):
        expect(page.get_by_test_id(f"total-{i}")).to_have_text(str(total))


def test_a_member_keeps_the_score_of_a_game_of_four_on_a_phone(
    page: Page, live_server: LiveServer
) -> None:
    table = build_table()
    a, b, c, d = table.ids
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))
    page.evaluate("window.sameDocument = true")

    deals = [
        (c, "garde", 2, "49"),
        (a, "prise", 1, "40"),
        (d, "garde_sans", 3, "52"),
        (b, "garde", 0, "60"),
        (a, "garde_contre", 2, "44"),
    ]
    for number, (taker, contract, bouts, points) in enumerate(deals, start=1):
        expect(page.locator("#deal-entry-title")).to_contain_text(str(number))
        enter_deal(page, taker=taker, contract=contract, bouts=bouts, points=points)
        # The live preview shows every player's score before anything is saved.
        expect(page.get_by_test_id("preview-score-0")).to_be_visible()
        assert Deal.objects.filter(game=table.game).count() == number - 1
        page.locator("#save-deal").click()
        expect(page.locator("#deal-saved")).to_be_visible()
        expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", str(number))
        expect_totals(page, table)

    assert page.evaluate("window.sameDocument") is True  # no page load between the deals
    assert Deal.objects.filter(game=table.game).count() == 5
    deal = Deal.objects.get(game=table.game, number=3)
    assert deal.payload["points"] == 52 and deal.taker_id == d

    # Deal 2 was a mistake: Aurélie's prise had 46 points, not 40.
    page.goto(reverse("games:detail", args=[table.game.pk]))
    second = Deal.objects.get(game=table.game, number=2)
    page.locator(f"a[href='{reverse('games:deal_edit', args=[second.pk])}']").click()
    expect(page.locator("#id_points")).to_have_value("40")
    page.locator("#id_points").fill("46")
    # 46 of the 51 needed with one bout: lost by 5, (25 + 5) x 1 from each of three defenders.
    expect(page.get_by_test_id("preview-score-0")).to_have_text("-90")
    page.locator("#save-deal").click()
    sheet_url = reverse("games:detail", args=[table.game.pk])
    expect(page).to_have_url(f"{live_server.url}{sheet_url}#deal-2")
    corrected = Deal.objects.get(game=table.game, number=2)
    assert corrected.version == 2 and corrected.payload["points"] == 46
    expect_totals(page, table)

    with page.expect_download() as download:
        page.locator("#pdf-link").click()
    with open(download.value.path(), "rb") as pdf:
        reader = PdfReader(io.BytesIO(pdf.read()))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert table.club.name in text
    for total in selectors.game_sheet(game_id=table.game.pk).totals:
        assert str(total) in text


def test_at_five_the_taker_calls_a_partner(page: Page, live_server: LiveServer) -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    log_in(page, live_server, table.users["organiser"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    enter_deal(page, taker=c, contract="garde", bouts=2, points="49", partner=e)
    expect(page.get_by_test_id("preview-score-2")).to_have_text("+132")
    expect(page.get_by_test_id("preview-score-4")).to_have_text("+66")
    page.locator("#save-deal").click()
    expect(page.locator("#deal-saved")).to_be_visible()

    enter_deal(page, taker=a, contract="prise", bouts=1, points="55", partner="alone")
    page.locator("#save-deal").click()
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "2")

    first, second = Deal.objects.filter(game=table.game).order_by("number")
    assert first.payload["partner"] == e
    assert dict(first.lines.values_list("player_id", "points")) == {
        a: -66,
        b: -66,
        c: 132,
        d: -66,
        e: 66,
    }
    assert second.payload["partner"] is None
    expect_totals(page, table)


def test_an_impossible_deal_shows_why_and_saves_nothing(
    page: Page, live_server: LiveServer
) -> None:
    table = build_table()
    a = table.ids[0]
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    enter_deal(page, taker=a, contract="garde", bouts=2, points="40,5")
    error = page.locator("#deal-err-points")
    expect(error).to_contain_text("toujours entiers")  # the preview says it while typing
    page.locator("#save-deal").click()
    expect(error).to_contain_text("toujours entiers")  # and so does Save, saving nothing
    expect(page.locator("#deal-saved")).to_have_count(0)

    assert Deal.objects.filter(game=table.game).count() == 0
