"""The new-tournament form on a phone: it shows the fields of the format chosen, and a
duplicate tournament made there after a change of mind sends none of the hidden choices."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.test_tournament import log_in
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments.models import Tournament


def choose(page: Page, format: str) -> None:
    page.locator(f'input[name="format"][value="{format}"]').check()


def test_the_form_shows_the_fields_of_the_format_chosen(
    page: Page, live_server: LiveServer
) -> None:
    club = ClubFactory.create()
    user = UserFactory.create()
    MembershipFactory.create(club=club, user=user, role="organiser")
    log_in(page, live_server, user)
    page.goto(live_server.url + reverse("tournaments:new", args=[club.slug]))

    rounds, qualifiers = page.locator("#id_rounds"), page.locator("#id_qualifiers_per_table")
    method, teams = page.locator("#id_duplicate_method_0"), page.locator("#id_team_size_1")
    expect(rounds).to_be_visible()
    expect(qualifiers).to_be_hidden()
    expect(method).to_be_hidden()
    expect(teams).to_be_visible()

    # Teams of 2 chosen, then the format changed to duplicate (which has no teams): the
    # teams' field goes away with its choice.
    teams.check()
    choose(page, "duplicate")
    expect(method).to_be_visible()
    expect(teams).to_be_hidden()
    expect(page.locator("#id_seating_0")).to_be_hidden()
    expect(rounds).to_be_visible()

    choose(page, "knockout")
    expect(qualifiers).to_be_visible()
    expect(rounds).to_be_hidden()
    expect(method).to_be_hidden()

    choose(page, "duplicate")
    page.locator("#id_name").fill("Duplicate du vendredi")
    page.locator("#id_rounds").fill("2")
    page.locator("#id_deals_per_round").fill("3")
    page.locator("#create-tournament").click()
    expect(page.locator("#entries-heading")).to_be_visible()  # its registration page
    made = Tournament.objects.get(name="Duplicate du vendredi")
    # Redirected after the POST: the address is the new tournament's, not /new/ (a reload
    # does not post the form again).
    expect(page).to_have_url(live_server.url + reverse("tournaments:registration", args=[made.pk]))
    assert made.format == Tournament.Format.DUPLICATE and made.team_size == 0
