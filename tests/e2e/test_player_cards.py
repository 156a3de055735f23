"""Trust at the table in a browser, where the tournament asks for personal proof: a player's
phone opens his card's personal link and confirms without a PIN; another phone types a wrong PIN
naming its holder and is told how many more stop that phone; once the organisers issue a new
card, the phone the old card proved says why it asks who holds it again. The pages stay
accessible with their messages shown."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Dialog, Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs import services as club_services
from tests import factories
from tests.e2e.a11y import assert_accessible
from tests.e2e.test_tournament import log_in
from tournaments.models import DealConfirmation, Entry, Tournament
from tournaments.play import cards
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services


def phone_context(browser: Browser, live_server: LiveServer) -> BrowserContext:
    return browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )


def name_holder(phone: Page, link: str, player_pk: int, pin: str) -> None:
    """The phone names its holder with his PIN (personal proof asks it)."""
    phone.goto(link)
    phone.locator("#holder-player").select_option(str(player_pk))
    phone.locator("#holder-pin").fill(pin)
    phone.locator("#holder-save").click()


def test_a_card_proves_a_phone_a_wrong_pin_warns_and_a_new_card_is_explained(
    page: Page, browser: Browser, live_server: LiveServer
) -> None:
    club = factories.ClubFactory.create(name="Tarot Club de Lyon", public=True)
    tournament = factories.make_tournament(
        club,
        4,
        require_confirmation=True,
        confirmation_proof=Tournament.ConfirmationProof.PERSONAL,
        deals_per_round=2,
        rounds=1,
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    (state,) = round_selectors.round_tables(round_=round_)
    taker, defender, other = state.players[0], state.players[2], state.players[1]
    link = f"/tournaments/t/{state.table.token}/"

    # The taker's phone, proven by his PIN, enters deal 1.
    name_holder(page, link, taker.pk, Entry.objects.get(tournament=tournament, player=taker).pin)
    page.locator(f"#field-taker label:has(input[value='{taker.pk}'])").click()
    page.locator("#field-contract label:has(input[value='garde'])").click()
    page.locator("#field-oudlers label:has(input[value='2'])").click()
    page.locator("#id_points").fill("49")
    page.locator("#save-deal").click()
    expect(page.get_by_test_id("waiting-1")).to_be_visible()

    defender_entry = Entry.objects.get(tournament=tournament, player=defender)
    other_entry = Entry.objects.get(tournament=tournament, player=other)
    second, third = phone_context(browser, live_server), phone_context(browser, live_server)
    try:
        # Another defender's phone names him and mistypes his PIN: told to check his card,
        # and how many more stop this phone (not the player).
        guesser = third.new_page()
        guesser.set_default_timeout(10_000)
        wrong = str((int(other_entry.pin) + 1) % 10000).zfill(4)
        name_holder(guesser, link, other.pk, wrong)
        notice = guesser.locator(".message-error")
        expect(notice).to_contain_text("Ce code PIN n'est pas le vôtre")
        expect(notice).to_contain_text("encore 4 codes PIN faux et ce téléphone")
        expect(guesser.locator("#confirm-1")).to_have_count(0)
        assert_accessible(guesser)

        # The defender's own phone, proven by his card: it confirms without a PIN.
        own = second.new_page()
        own.set_default_timeout(10_000)
        own.goto(reverse("tournaments:player_card", args=[cards.card_token(defender_entry)]))
        expect(own.locator("#card-proven")).to_contain_text(defender.label)
        own.goto(link)
        expect(own.locator("#pin-1")).to_have_count(0)
        own.locator("#confirm-1").click()
        expect(own.locator(".message-success")).to_contain_text("Donne 1 confirmée")
        assert_accessible(own)
        confirmation = DealConfirmation.objects.get(deal__game=state.table.game, deal__number=1)
        assert confirmation.status == "confirmed" and confirmation.confirmed_by == defender

        # A new card: the old one proves this phone no more, and the phone says so.
        cards.card_renew(entry=defender_entry)
        own.goto(link)
        expect(own.locator(".message-error")).to_contain_text(
            "La carte de joueur qui faisait de ce téléphone le vôtre a été remplacée"
        )
        expect(own.locator("#holder-player")).to_be_visible()
        assert_accessible(own)
    finally:
        second.close()
        third.close()


def test_a_new_card_is_asked_for_twice(page: Page, live_server: LiveServer) -> None:
    # "New card" sits under "Checked in" on the phone at the door: a slip of the thumb must not
    # void the card a player holds. A dismissed "Sure?" changes nothing; accepted, the page
    # comes back saying to print the new card.
    organiser = factories.UserFactory.create(username="accueil")
    club = club_services.club_create(name="Tarot Club de Lyon", by=organiser)
    tournament = factories.make_tournament(
        club, 4, require_confirmation=True, confirmation_proof=Tournament.ConfirmationProof.PERSONAL
    )
    entry = Entry.objects.filter(tournament=tournament).select_related("player").first()
    assert entry is not None
    log_in(page, live_server, organiser)
    page.goto(reverse("tournaments:registration", args=[tournament.pk]))

    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_test_id(f"new-card-{entry.pk}").click()
    expect(page.get_by_test_id(f"pin-{entry.pk}")).to_contain_text(entry.pin)
    assert asked and entry.player.label in asked[0] and "Confirmer ?" in asked[0]
    assert Entry.objects.get(pk=entry.pk).card_number == entry.card_number

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id(f"new-card-{entry.pk}").click()
    expect(page.locator(".messages")).to_contain_text(f"Nouvelle carte pour {entry.player.label}")
    renewed = Entry.objects.get(pk=entry.pk)
    assert renewed.card_number == entry.card_number + 1
    expect(page.get_by_test_id(f"pin-{entry.pk}")).to_contain_text(renewed.pin)
    expect(page.locator(f"a[href$='cards.pdf?entry={entry.pk}']")).to_be_visible()
