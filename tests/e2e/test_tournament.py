"""An evening tournament in a browser: an organiser creates it, registers 13 players, seats
three rounds of tables of 4, 4 and 5; each table enters its two deals per round on a phone
through its own private link (no account); the standings equal the sum of the deals, and the
table sheets PDF has one page per table with the right names."""

from __future__ import annotations

import io

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs import services as club_services
from tarot_scores.games.models import ScoreLine
from tests.factories import TOURNAMENT_NAMES, UserFactory
from tournaments.models import Round, Tournament
from tournaments.rounds import selectors as round_selectors

CONTRACTS = ["garde", "prise"]


def log_in(page: Page, live_server: LiveServer, user: User) -> None:
    """Log the browser in with a session made by Django's test client (no login form needed)."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )


def enter_table_deals(phone: Page, link: str, deals: int) -> None:
    """Whoever sits at the table opens its link and enters the round's deals, a few taps each."""
    phone.goto(link)
    expect(phone.locator("#table-title")).to_be_visible()
    for number in range(1, deals + 1):
        expect(phone.locator("#deal-entry-title")).to_contain_text(str(number))
        # The first taker offered (at five, the dealer sitting out is not offered).
        phone.locator("#field-taker label").first.click()
        contract = CONTRACTS[number % len(CONTRACTS)]
        phone.locator(f"#field-contract label:has(input[value='{contract}'])").click()
        phone.locator("#field-oudlers label:has(input[value='2'])").click()
        phone.locator("#id_points").fill(str(38 + 7 * number))
        expect(phone.get_by_test_id("preview-score-0")).to_be_visible()
        phone.locator("#save-deal").click()
        expect(phone.get_by_test_id("deal-count")).to_have_attribute("data-deals", str(number))
    expect(phone.locator("#deal-full")).to_be_visible()


def test_an_organiser_runs_a_thirteen_player_tournament(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    organiser = UserFactory.create(username="organisatrice")
    club = club_services.club_create(name="Tarot Club de Lyon", by=organiser)
    log_in(page, live_server, organiser)

    # A new tournament from the club page: 3 rounds of 2 deals.
    page.goto(reverse("clubs:detail", args=[club.slug]))
    page.locator(f"a[href='{reverse('tournaments:list', args=[club.slug])}']").click()
    page.locator("#new-tournament").click()
    page.locator("#id_name").fill("Open du jeudi")
    page.locator("#id_rounds").fill("3")
    page.locator("#id_deals_per_round").fill("2")
    page.locator("#create-tournament").click()
    tournament = Tournament.objects.get(name="Open du jeudi")
    expect(page).to_have_url(
        live_server.url + reverse("tournaments:registration", args=[tournament.pk])
    )
    assert (tournament.rounds, tournament.deals_per_round) == (3, 2)

    # Thirteen newcomers, checked in as they are registered.
    page.locator("#id_new_names").fill("\n".join(TOURNAMENT_NAMES[:13]))
    page.locator("#register").click()
    expect(page.locator("#plan-words")).to_contain_text(
        "13 joueurs : 2 tables de 4 et 1 table de 5"
    )
    assert tournament.entries.filter(checked_in=True).count() == 13

    phone_context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )
    phone = phone_context.new_page()
    phone.set_default_timeout(10_000)
    sheets_checked = False
    try:
        for number in (1, 2, 3):
            page.locator("#seat-next").click()
            round_url = reverse("tournaments:round", args=[tournament.pk, number])
            expect(page).to_have_url(live_server.url + round_url)
            round_ = Round.objects.get(tournament=tournament, number=number)
            states = round_selectors.round_tables(round_=round_)
            assert sorted(len(s.players) for s in states) == [4, 4, 5]
            page.locator("#start-round").click()
            expect(page.locator("#round-status")).to_have_attribute("data-status", "playing")

            if not sheets_checked:
                # The table sheets: one page per table, its players on it.
                url = reverse("tournaments:table_sheets_pdf", args=[tournament.pk, number])
                response = page.request.get(url)
                assert response.ok and response.headers["content-type"] == "application/pdf"
                reader = PdfReader(io.BytesIO(response.body()))
                assert len(reader.pages) == 3
                for state, pdf_page in zip(states, reader.pages, strict=True):
                    text = pdf_page.extract_text()
                    assert f"Table {state.table.number}" in text
                    assert all(p.label in text for p in state.players)
                sheets_checked = True

            for state in states:
                link = page.get_by_test_id(f"entry-link-{state.table.number}")
                href = link.get_attribute("href")
                assert href is not None and state.table.token in href
                enter_table_deals(phone, href, tournament.deals_per_round)

            # The last deal of the last table closed the round by itself.
            page.reload()
            expect(page.locator("#round-progress")).to_have_attribute("data-entered", "6")
            expect(page.locator("#round-status")).to_have_attribute("data-status", "closed")
    finally:
        phone_context.close()

    # The last round closed: the final ranking, equal to the sum of the deals.
    page.goto(reverse("tournaments:standings", args=[tournament.pk]))
    expect(page).to_have_url(
        live_server.url + reverse("tournaments:standings", args=[tournament.pk])
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(13)
    shown = {}
    for i in range(13):
        row = rows.nth(i)
        shown[int(row.get_attribute("data-player") or 0)] = int(
            row.get_attribute("data-total") or 0
        )
    for player_id, total in shown.items():
        lines = ScoreLine.objects.filter(
            player_id=player_id,
            deal__deleted_at__isnull=True,
            deal__game__tournament_table__round__tournament=tournament,
        )
        assert total == sum(lines.values_list("points", flat=True))
    assert sum(shown.values()) == 0
    assert (
        ScoreLine.objects.filter(deal__game__tournament_table__round__tournament=tournament)
        .values("deal")
        .distinct()
        .count()
        == 3 * 3 * 2
    )
    # Every deal was entered through a table's link, without an account.
    labels = set(
        tournament.round_set.values_list(
            "tables__game__deals__revisions__by_label", flat=True
        ).distinct()
    )
    assert len(labels) == 3 and all(label for label in labels)
