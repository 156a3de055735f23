"""Checking players in on a phone at the door: each tap swaps the player's row (htmx), and the
focus stays on the button that was pressed, so a keyboard or a screen reader goes on from there
instead of starting again from the top of the page."""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs import services as club_services
from tests import factories
from tests.e2e.test_tournament import log_in
from tests.factories import UserFactory
from tournaments.models import Entry


def test_the_focus_stays_on_the_row_after_a_check_in_or_a_series(
    page: Page, live_server: LiveServer
) -> None:
    organiser = UserFactory.create(username="accueil")
    club = club_services.club_create(name="Tarot Club de Lyon", by=organiser)
    tournament = factories.make_tournament(club, 4)
    entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    assert entry is not None and entry.checked_in
    log_in(page, live_server, organiser)
    page.goto(reverse("tournaments:registration", args=[tournament.pk]))

    button = page.get_by_test_id(f"check-in-{entry.pk}")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_be_focused()
    entry.refresh_from_db()
    assert entry.checked_in

    page.locator(f"#series-{entry.pk}").select_option("open")
    save = page.get_by_test_id(f"series-{entry.pk}")
    save.focus()
    # The row as it was, marked: the focus must land on the row that replaces it.
    page.locator(f"#entry-{entry.pk}").evaluate("row => row.setAttribute('data-old', '')")
    page.keyboard.press("Enter")
    expect(page.locator(f"#entry-{entry.pk}[data-old]")).to_have_count(0)
    expect(save).to_be_focused()
    entry.refresh_from_db()
    assert entry.series == "open"


def test_each_rows_buttons_name_their_player(page: Page, live_server: LiveServer) -> None:
    """A screen reader listing the page's buttons hears whose row each one acts on ("Pointé :
    Inès"), not the same "Pointé" once per player (the organiser reads the site in French)."""
    organiser = UserFactory.create(username="accueil")
    club = club_services.club_create(name="Tarot Club de Lyon", by=organiser)
    tournament = factories.make_tournament(club, 4)
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    log_in(page, live_server, organiser)
    page.goto(reverse("tournaments:registration", args=[tournament.pk]))

    for entry in entries:
        name = entry.player.label
        for action in ("Pointé", "Abandon", "Enregistrer"):
            named = page.get_by_role("button", name=re.compile(rf"^{action}\s*: {name}$"))
            expect(named).to_have_count(1)
