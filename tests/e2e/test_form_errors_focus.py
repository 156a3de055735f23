"""A form sent back with errors puts the focus on its first field in error (static/js/
form-errors.js), on a page posted without htmx and on a part swapped by htmx alike."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs import services as club_services
from tests.e2e.test_tournament import log_in
from tests.factories import UserFactory


def test_sign_up_errors_focus_the_first_field_in_error(page: Page, live_server: LiveServer) -> None:
    page.goto(reverse("account_signup"))
    page.fill("#id_username", "sophie")
    # The address is wrong and the passwords differ: the address comes first.
    page.fill("#id_email", "not-an-address")
    page.fill("#id_password1", "a-long-tarot-secret")
    page.fill("#id_password2", "another-long-secret")
    page.locator("form").filter(has=page.locator("#id_username")).locator(
        "button[type=submit]"
    ).click()
    expect(page.locator("#id_email")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#id_email")).to_be_focused()


def test_a_new_player_without_a_name_focuses_the_name(page: Page, live_server: LiveServer) -> None:
    user = UserFactory.create(username="fondatrice")
    club = club_services.club_create(name="Les Excuses", by=user)
    log_in(page, live_server, user)
    page.goto(reverse("clubs:player_new", args=[club.slug]))
    page.locator("#id_nickname").fill("Zozo")
    page.locator("#id_nickname").press("Enter")
    name = page.locator("#id_name")
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_be_focused()


def test_a_form_swapped_by_htmx_focuses_its_first_field_in_error(
    page: Page, live_server: LiveServer
) -> None:
    page.goto(reverse("account_signup"))
    # The sign-up form sent by htmx, its answer's form swapped in place of it.
    page.evaluate(
        """() => {
        const form = document.querySelector('main form');
        form.id = 'swapped';
        form.setAttribute('hx-post', form.getAttribute('action') || location.pathname);
        form.setAttribute('hx-select', 'main form');
        form.setAttribute('hx-target', 'this');
        form.setAttribute('hx-swap', 'outerHTML');
        htmx.process(form);
    }"""
    )
    page.fill("#id_username", "sophie")
    page.fill("#id_email", "sophie@example.org")
    page.fill("#id_password1", "a-long-tarot-secret")
    page.fill("#id_password2", "another-long-secret")
    page.locator("#id_username").focus()
    page.locator("main form button[type=submit]").click()
    second = page.locator("#id_password2")
    expect(second).to_have_attribute("aria-invalid", "true")
    expect(second).to_be_focused()
