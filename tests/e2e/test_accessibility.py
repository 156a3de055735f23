"""axe-core finds no accessibility violation on the pages a player uses at the table, as a
390x844 phone shows them: the entry screen (blank, previewing a deal, after a Save), the score
sheet, the calculator (blank and with a result), the leaderboard, a tournament table's link and
the tournament's standings."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.a11y import assert_accessible, axe_violations
from tests.e2e.test_game_entry import log_in
from tests.factories import build_table, build_world, garde, play
from tournaments.models import Table as TournamentTable


def test_the_entry_screen_and_the_score_sheet(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    a, b, c, d = table.ids
    table.record(garde(a))
    table.record(garde(b, points=40))
    log_in(page, live_server, table.users["organiser"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))
    expect(page.locator("#deal-entry-title")).to_be_visible()
    assert_accessible(page)

    page.locator(f"#field-taker label:has(input[value='{c}'])").click()
    page.locator("#field-contract label:has(input[value='garde'])").click()
    page.locator("#field-oudlers label:has(input[value='2'])").click()
    page.locator("#id_points").fill("49")
    page.locator(".extras > summary").click()
    expect(page.get_by_test_id("preview-score-2")).to_have_text("+198")
    assert_accessible(page)

    page.locator("#save-deal").click()
    expect(page.locator("#deal-saved")).to_be_visible()
    assert_accessible(page)

    page.goto(reverse("games:detail", args=[table.game.pk]))
    assert_accessible(page)


def test_the_calculator(page: Page) -> None:
    page.goto("/calculator/")
    assert_accessible(page)

    for seat, name in enumerate(["Aurélie", "Bruno", "Chloé", "Denis"], start=1):
        page.get_by_role("textbox", name=f"Joueur {seat}").fill(name)
    page.get_by_label("Preneur").select_option(label="Chloé")
    page.get_by_label("Garde", exact=True).check()
    page.get_by_label("Points", exact=True).fill("49")
    page.get_by_role("group", name="Bouts de l'attaque").get_by_label("2").check()
    expect(page.locator("#result")).to_contain_text("+198")
    assert_accessible(page)


def test_the_leaderboard_and_a_tournaments_standings(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    table.record(garde(table.ids[0]))
    page.goto(reverse("clubs:leaderboard", args=[table.club.slug]))
    assert_accessible(page)

    world = build_world(tag="axe")
    # A table's link, the same entry screen without an account, before its round is played.
    link = TournamentTable.objects.filter(round=world.round).order_by("number").first()
    assert link is not None
    page.goto(reverse("tournaments:table_entry", args=[link.token]))
    expect(page.locator("#deal-entry-title")).to_be_visible()
    assert_accessible(page)

    play(world.round)
    page.goto(reverse("tournaments:standings", args=[world.tournament.pk]))
    expect(page.locator("main")).to_contain_text(world.tournament.name)
    assert_accessible(page)


def test_the_check_itself_finds_a_violation(page: Page) -> None:
    """A page with known faults: the helper reports them (so a pass above means something)."""
    page.set_content(
        '<html><head><title>t</title></head><body><main><img src="x.png">'
        '<p style="color:#bbb;background:#fff">pale</p></main></body></html>'
    )
    found = {v["id"] for v in axe_violations(page)}
    assert {"image-alt", "html-has-lang", "color-contrast"} <= found
