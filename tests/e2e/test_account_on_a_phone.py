"""An organiser's account on a 390x844 phone in French, past the first evening: the sign-up's
link opened in another browser (a mail app's), the sign-in by e-mail address, then the menu's
way to the account's addresses and password. Each page fits the phone's width and passes
axe-core."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.a11y import assert_accessible

PASSWORD = "tarot-du-jeudi-42"


def fits_the_phone(page: Page) -> None:
    # A phone-emulating browser widens its window to fit the page: the page's own width says.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert_accessible(page)


def test_a_link_opened_elsewhere_then_the_account_pages_from_the_menu(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    page.goto("/accounts/signup/")
    page.locator("#id_username").fill("sophie")
    page.locator("#id_email").fill("sophie@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.get_by_role("button", name="Créer mon compte").click()
    expect(page.locator("h1")).to_have_text("Regardez vos e-mails")
    expect(page.get_by_role("link", name="Renvoyer le lien")).to_be_visible()
    fits_the_phone(page)

    link = re.search(r"https?://\S+/accounts/confirm-email/[-:\w]+/", str(mail.outbox[-1].body))
    assert link is not None
    mail_app = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )
    other = mail_app.new_page()
    other.goto(link.group(0))
    other.get_by_role("button", name="Confirmer").click()
    # Not signed in there: the login page says the address is confirmed, then takes it.
    expect(other.locator("h1")).to_have_text("Connexion")
    expect(other.get_by_role("status")).to_contain_text("Vous avez confirmé sophie@example.org")
    fits_the_phone(other)
    other.locator("#id_username").fill("sophie@example.org")
    other.locator("#id_password").fill(PASSWORD)
    other.get_by_role("button", name="Connexion").click()
    expect(other.locator("#new-club")).to_be_visible()

    other.locator(".site-menu > summary").click()
    other.get_by_role("link", name="E-mail et mot de passe").click()
    expect(other.locator("h1")).to_have_text("Adresses e-mail")
    fits_the_phone(other)
    other.get_by_role("link", name="Changer mon mot de passe").click()
    expect(other.locator("h1")).to_have_text("Changer mon mot de passe")
    fits_the_phone(other)
    mail_app.close()
    assert User.objects.get(username="sophie").email == "sophie@example.org"
