"""An organiser's webhook pages on a 390x844 phone: a real address is long (a host, a path, a
token in it), and a delivery log is a wide table; neither makes the page scroll sideways (the
log scrolls in its own box)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery, Webhook
from tests.e2e.a11y import assert_accessible
from tests.e2e.screen import settled
from tests.e2e.test_game_entry import log_in
from tests.factories import UserFactory, make_club

LONG = "https://93.184.216.34/federation/resultats/clubs/tarot-de-la-butte/hooks/Zk3T1rCw9n8rWJ8b"


def page_width(page: Page) -> float:
    """The page's width, to compare with the phone's 390 (a phone's browser widens its window to
    a page wider than the screen, so ``window.innerWidth`` would follow the page)."""
    settled(page)
    return float(page.evaluate("document.documentElement.scrollWidth"))


def organised_club() -> tuple[Club, User]:
    organiser = UserFactory.create(username="olga")
    return make_club("Tarot de la Butte", organiser, UserFactory.create(username="marc")), organiser


def test_a_long_address_and_the_log_fit_a_phones_width(page: Page, live_server: LiveServer) -> None:
    club, organiser = organised_club()
    hook = services.webhook_create(club=club, url=LONG, by=organiser)
    delivery = services.webhook_ping(webhook=hook)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.FAILED,
        attempts=6,
        last_status_code=502,
        last_error="Le serveur a répondu 502.",
    )
    log_in(page, live_server, organiser)

    page.goto(reverse("clubs:webhooks", args=[club.slug]))
    expect(page.locator(".webhook-list")).to_contain_text(LONG)
    assert page_width(page) <= 390
    assert_accessible(page)

    page.goto(reverse("clubs:webhook", args=[club.slug, hook.pk]))
    expect(page.locator("#delivery-log")).to_contain_text("502")
    assert page_width(page) <= 390
    for more in page.locator("main details summary").all():
        more.click()
    assert_accessible(page)


def test_an_organiser_changes_a_webhooks_events_on_a_phone(
    page: Page, live_server: LiveServer
) -> None:
    club, organiser = organised_club()
    hook = services.webhook_create(club=club, url=LONG, by=organiser)
    log_in(page, live_server, organiser)
    page.goto(reverse("clubs:webhook", args=[club.slug, hook.pk]))
    page.locator(".webhook-change summary").click()
    kept = ["deal.recorded", "round.closed", "tournament.finished"]
    for event in [
        "deal.corrected",
        "deal.deleted",
        "deal.restored",
        "deal.held",
        "deal.released",
        "standings.changed",
    ]:
        page.locator(f".webhook-change input[value='{event}']").uncheck()
    page.locator(".webhook-change button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Webhook modifié.")
    expect(page.locator(".facts")).to_contain_text("Donne enregistrée, Tour clos, Tournoi terminé")
    assert page_width(page) <= 390
    hook.refresh_from_db()
    assert hook.events == kept


def test_a_new_webhooks_secret_is_shown_once_and_a_reload_makes_no_other(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A secret with no "-" in it: one word of 49 characters, wider than a phone in monospace.
    secrets = iter(["whsec_" + "Zk3T1rCw9n8rWJ8bq3u6mS0Qe2hX4yVZl1dF7cPo5aU", "whsec_" + "A" * 43])
    monkeypatch.setattr(services, "new_secret", lambda: next(secrets))
    club, organiser = organised_club()
    log_in(page, live_server, organiser)
    page.goto(reverse("clubs:webhooks", args=[club.slug]))
    page.fill("input[name=url]", LONG)
    page.locator("main form button.btn-primary").click()
    hook = Webhook.objects.get(club=club)
    expect(page).to_have_url(re.compile(rf"/webhooks/{hook.pk}/$"))
    expect(page.locator("#webhook-secret")).to_have_text(hook.secret)
    # The secret (43 characters, one word) wraps inside the phone's width.
    box = page.locator("#webhook-secret").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert page_width(page) <= 390
    page.reload()
    expect(page.locator(".facts")).to_contain_text(LONG)
    expect(page.locator("#webhook-secret")).to_have_count(0)
    # A new secret: the same, and the one shown is the one that signs.
    page.locator(".webhook-secret-new summary").click()
    page.locator("form[action$='/secret/'] button").click()
    expect(page).to_have_url(re.compile(rf"/webhooks/{hook.pk}/$"))
    hook.refresh_from_db()
    expect(page.locator("#webhook-secret")).to_have_text(hook.secret)
    page.reload()
    expect(page.locator("#webhook-secret")).to_have_count(0)
    assert Webhook.objects.get().secret == hook.secret


def test_a_new_secret_and_deleting_take_a_second_tap_after_saying_what_they_do(
    page: Page, live_server: LiveServer
) -> None:
    """Neither can be undone, and on a phone they sat side by side with the other buttons."""
    club, organiser = organised_club()
    hook = services.webhook_create(club=club, url=LONG, by=organiser)
    secret = hook.secret
    log_in(page, live_server, organiser)
    page.goto(reverse("clubs:webhook", args=[club.slug, hook.pk]))
    rotate = page.locator("form[action$='/secret/'] button")
    delete = page.locator("form[action$='/delete/'] button")
    expect(rotate).to_be_hidden()
    expect(delete).to_be_hidden()

    page.locator(".webhook-secret-new summary").click()
    expect(page.locator(".webhook-secret-new")).to_contain_text("Le secret actuel cesse aussitôt")
    expect(rotate).to_be_visible()
    page.locator(".webhook-delete summary").click()
    expect(page.locator(".webhook-delete")).to_contain_text("C'est définitif.")
    hook.refresh_from_db()
    assert hook.secret == secret

    delete.click()
    expect(page.locator(".messages")).to_contain_text("Webhook supprimé.")
    assert not Webhook.objects.filter(pk=hook.pk).exists()
