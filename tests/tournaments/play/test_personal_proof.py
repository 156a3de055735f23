"""Personal proof at the table: a tournament that asks for it wants the confirming player's PIN
(printed on his player card, shown to the organisers; never on the table sheet) or his own
account signed in; "any phone at the table" (the default) asks nothing more than before.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tarot_scores.clubs.models import Membership, Player
from tests import factories
from tests.tournaments.play.test_pages_confirmation import Event, enter_at, event, link, phone
from tests.tournaments.printing.test_pdf import read
from tests.tournaments.views.test_pages_world import deal_post, text_of
from tournaments.models import DealConfirmation, Entry, Tournament
from tournaments.printing.jobs import draw_table_sheets

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status
PERSONAL = Tournament.ConfirmationProof.PERSONAL


def personal_event() -> Event:
    e = event()
    Tournament.objects.filter(pk=e.tournament.pk).update(confirmation_proof=PERSONAL)
    e.tournament.refresh_from_db()
    return e


def entry_of(e: Event, seat: int) -> Entry:
    return Entry.objects.get(tournament=e.tournament, player=e.tables[0].players[seat])


def pin_of(e: Event, player: Player) -> str:
    return Entry.objects.get(tournament=e.tournament, player=player).pin


def confirm(client: Client, e: Event, deal_pk: int, **data: str) -> str:
    state = e.tables[0]
    with translation.override("en"):
        answer = client.post(
            link(state, "table_deal_confirm", deal_pk),
            {"version": "1", **data},
            follow=True,
            headers={"accept-language": "en"},
        )
    assert answer.status_code == 200
    return answer.content.decode()


def test_every_entry_has_its_own_short_pin() -> None:
    e = event()
    pins = list(Entry.objects.filter(tournament=e.tournament).values_list("pin", flat=True))
    assert pins and all(re.fullmatch(r"\d{4}", pin) for pin in pins)


def test_a_missing_or_wrong_pin_is_refused_and_changes_nothing() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)

    page = defender.get(link(state)).content.decode()
    assert 'name="pin"' in page  # the field beside "Confirm as ..."

    assert "Type your PIN" in confirm(defender, e, deal.pk)
    wrong = str((int(pin_of(e, state.players[2])) + 1) % 10000).zfill(4)
    assert "This PIN is not yours" in confirm(defender, e, deal.pk, pin=wrong)
    # Another player's PIN (the taker's, read across the table) is not the defender's.
    taker_pin = pin_of(e, state.players[0])
    if taker_pin != pin_of(e, state.players[2]):
        assert "This PIN is not yours" in confirm(defender, e, deal.pk, pin=taker_pin)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING and confirmation.confirmed_by is None

    confirm(defender, e, deal.pk, pin=pin_of(e, state.players[2]))
    confirmation.refresh_from_db()
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]


def test_french_words_for_a_wrong_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    with translation.override("fr"):
        answer = defender.post(
            link(state, "table_deal_confirm", deal.pk),
            {"version": "1", "pin": "x"},
            follow=True,
            headers={"accept-language": "fr"},
        )
    assert "pas le vôtre : rien" in answer.content.decode()


def test_the_phone_that_entered_a_deal_cannot_confirm_it_even_with_the_right_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    taker_phone = phone(state, 0)
    deal = enter_at(state, taker_phone)
    taker_phone.post(link(state, "table_holder"), {"player": state.players[2].pk})
    confirm(taker_phone, e, deal.pk, pin=pin_of(e, state.players[2]))
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def test_a_dispute_asks_the_pin_too() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 1)
    url = link(state, "table_deal_dispute", deal.pk)
    assert 'name="pin"' in defender.get(url).content.decode()
    version = {**deal_post(state.players[0].pk, 1, points="40"), "version": "1"}
    refused = defender.post(url, {**version, "pin": ""})
    assert refused.status_code == 409
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    answered = defender.post(url, {**version, "pin": pin_of(e, state.players[1])})
    assert answered.status_code == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.DISPUTED


def test_the_dispute_page_says_the_pin_is_on_the_player_card() -> None:
    # The table sheet no longer prints the PINs: the page must not send the player to it.
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    url = link(state, "table_deal_dispute", deal.pk)
    for lang, card, sheet in (
        ("en", "It is on your player card.", "table sheet"),
        ("fr", "Il est sur votre carte de joueur.", "feuille de table"),
    ):
        with translation.override(lang):
            page = phone(state, 1).get(url, headers={"accept-language": lang})
        words = text_of(page.content)
        assert card in words and sheet not in words


def test_a_dispute_refused_for_its_pin_still_scores_the_version_typed() -> None:
    # The side's version comes back with "This PIN is not yours": its result line scores it
    # (not "Each player's score appears here" over a filled form).
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    url = link(state, "table_deal_dispute", deal.pk)
    version = {**deal_post(state.players[0].pk, 1, points="40"), "version": "1"}
    wrong = str((int(pin_of(e, state.players[1])) + 1) % 10000).zfill(4)
    with translation.override("en"):
        refused = phone(state, 1).post(
            url, {**version, "pin": wrong}, headers={"accept-language": "en"}
        )
    assert refused.status_code == 409
    content = refused.content.decode()
    preview = content[content.index('id="deal-preview"') :]
    assert 'data-testid="preview-score-0"' in preview
    assert "This PIN is not yours" in text_of(refused.content)
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def test_a_signed_in_account_linked_to_the_player_needs_no_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    owner = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[2].pk).update(user=owner)
    deal = enter_at(state, phone(state, 0))
    own = factories.signed_in_client(owner)
    assert 'name="pin"' not in own.get(link(state)).content.decode()
    confirm(own, e, deal.pk)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]


def test_any_phone_at_the_table_asks_no_pin() -> None:
    e = event()
    assert e.tournament.confirmation_proof == Tournament.ConfirmationProof.PHONE
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    assert 'name="pin"' not in defender.get(link(state)).content.decode()
    confirm(defender, e, deal.pk)
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_no_pin_is_printed_on_the_table_sheet() -> None:
    """The sheet lies in the middle of the table: whoever holds it would read every PIN. The
    PINs are on the players' own cards (test_player_cards)."""
    e = personal_event()
    state = e.tables[0]
    content = draw_table_sheets(
        tournament_id=e.tournament.pk, number=1, site="https://t.example", language="en"
    )
    _pages, texts = read(content)
    assert "PIN" not in texts[0]
    for player in state.players:
        assert player.label in texts[0]
        assert pin_of(e, player) not in texts[0]


def test_the_organisers_see_the_pins_on_the_registration_page() -> None:
    e = personal_event()
    organiser = e.client("organiser")
    page = organiser.get(reverse("tournaments:registration", args=[e.tournament.pk]))
    assert page.status_code == 200
    entry = Entry.objects.filter(tournament=e.tournament).first()
    assert entry is not None
    shown = rf'data-testid="pin-{entry.pk}">[^<]*PIN {entry.pin}<'
    assert re.search(shown, page.content.decode())
    # Any phone at the table: the PINs serve nothing and are not shown.
    Tournament.objects.filter(pk=e.tournament.pk).update(
        confirmation_proof=Tournament.ConfirmationProof.PHONE
    )
    again = organiser.get(reverse("tournaments:registration", args=[e.tournament.pk]))
    assert again.status_code == 200 and 'data-testid="pin-' not in again.content.decode()


def test_the_tournament_form_chooses_personal_proof() -> None:
    club = factories.ClubFactory.create()
    user = factories.MembershipFactory.create(
        club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    client = factories.signed_in_client(user)
    url = reverse("tournaments:new", args=[club.slug])
    page = client.get(url).content.decode()
    assert 'name="confirmation_proof"' in page
    form = {
        "name": "Open personnel",
        "date": "2026-11-28",
        "rules": "fft",
        "format": "rounds",
        "rounds": "3",
        "deals_per_round": "8",
        "round_minutes": "75",
        "seating": "mixing",
        "five_mode": "sitting_out",
        "team_size": "0",
        "qualifiers_per_table": "2",
        "duplicate_method": "matchpoints",
        "seed": "5",
        "require_confirmation": "on",
        "confirmation_proof": "personal",
    }
    response = client.post(url, form)
    assert response.status_code == 302, response.content.decode()[:600]
    tournament = Tournament.objects.get(name="Open personnel")
    assert tournament.confirmation_proof == PERSONAL
    assert (
        client.post(url, {**form, "name": "X", "confirmation_proof": "nobody"}).status_code == 400
    )


def test_the_api_reads_and_sets_the_proof() -> None:
    e = event()
    client = factories.token_client(e.users["organiser"], None)
    read_back = client.get(f"/api/v1/tournaments/{e.tournament.pk}/").json()
    assert read_back["confirmation_proof"] == "phone"
    body = {"club": e.tournament.club_id, "name": "Open PIN", "require_confirmation": True}
    created = client.post(
        "/api/v1/tournaments/", {**body, "confirmation_proof": "personal"}, format="json"
    )
    assert created.status_code == 201 and created.json()["confirmation_proof"] == "personal"
    assert Tournament.objects.get(pk=created.json()["id"]).confirmation_proof == PERSONAL
    refused = client.post(
        "/api/v1/tournaments/", {**body, "name": "X", "confirmation_proof": "nobody"}, format="json"
    )
    assert refused.status_code == 400 and "confirmation_proof" in str(refused.json())
    assert not Tournament.objects.filter(name="X").exists()
