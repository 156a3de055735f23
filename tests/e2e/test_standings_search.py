"""Find my name in a long ranking: typing in the box swaps the ranking (htmx) to the page
holding the player, his row highlighted, and the address follows; the page passes axe."""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.a11y import assert_accessible
from tests.factories import ClubFactory, make_tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import STANDINGS_ROWS


def test_typing_a_name_shows_its_page_with_the_row_highlighted(
    page: Page, live_server: LiveServer
) -> None:
    tournament = make_tournament(ClubFactory.create(), 0, name="Festival", rounds=1)
    for n in range(STANDINGS_ROWS + 10):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1:03d}", checked_in=True
        )
    round_services.round_seat_next(tournament=tournament, by=None)
    rows = standings_selectors.standings_for(tournament=tournament)
    last = rows[-1].player  # on the second page
    url = reverse("tournaments:standings", args=[tournament.pk])

    page.goto(url)
    expect(page.locator("#standings-page")).to_contain_text("1")
    page.get_by_label("Trouver un joueur").fill(last.label.lower())

    row = page.locator(f"#standing-{last.pk}")
    expect(row).to_have_class("standings-found-row")
    expect(page.locator("#standings-found")).to_contain_text("1 joueur trouvé")
    typed = re.escape(last.label.lower()).replace(r"\ ", "(\\+|%20)")
    expect(page).to_have_url(re.compile(f"{re.escape(url)}\\?q={typed}$"))
    assert_accessible(page)

    page.get_by_role("link", name="Voir tout le classement").click()
    expect(page.locator(f"#standing-{last.pk}")).to_have_count(0)  # back on the first page
