"""Players' cards: where a tournament asks for personal proof, each player gets a card at
check-in (his name, his PIN, the QR code of his personal link), printed eight a page by the
organisers; the link proves his own phone as him at his table, so he confirms without typing his
PIN; a new card voids the old one; the table sheet, which lies on the table, shows no PIN."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests import factories
from tests.tournaments.play.test_pages_confirmation import Event, enter_at, event, link, phone
from tests.tournaments.play.test_personal_proof import entry_of, personal_event
from tests.tournaments.printing.test_pdf import read, streamed
from tests.tournaments.views.test_pages_world import text_of
from tournaments.models import DealConfirmation, Entry, Round, Tournament
from tournaments.play import cards
from tournaments.printing import pdf
from tournaments.printing.jobs import draw_player_cards

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def card_link(entry: Entry) -> str:
    return reverse("tournaments:player_card", args=[cards.card_token(entry)])


def carded_phone(entry: Entry) -> Client:
    """A player's own phone, proven by his card's link."""
    client = Client()
    answer = client.get(card_link(entry))
    assert answer.status_code == 200, answer.content.decode()[:300]
    return client


def confirm(client: Client, e: Event, deal_pk: int, **data: str) -> int:
    with translation.override("en"):
        answer = client.post(
            link(e.tables[0], "table_deal_confirm", deal_pk), {"version": "1", **data}
        )
    return answer.status_code


def test_the_cards_pdf_has_each_players_name_pin_and_personal_link() -> None:
    e = personal_event()
    organiser = e.client("organiser")
    with translation.override("en"):
        answer = organiser.get(
            reverse("tournaments:player_cards", args=[e.tournament.pk]),
            headers={"accept-language": "en"},
        )
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    # Every PIN is in it: no shared cache keeps it, and the browser does not store it.
    assert set(answer["Cache-Control"].split(", ")) == {"private", "no-store"}
    pages, texts = read(streamed(answer))
    entries = list(Entry.objects.filter(tournament=e.tournament).select_related("player"))
    assert pages == (len(entries) + 7) // 8 == 1
    text = texts[0]
    assert e.tournament.name in text
    for entry in entries:
        assert f"{entry.player.label} PIN {entry.pin}" in text
    assert "Keep this card to yourself." in text


def test_a_cards_pdf_for_a_player_who_is_not_a_number_is_refused() -> None:
    """``?entry=`` names one player's card: anything else is not found, never every card."""
    e = personal_event()
    url = reverse("tournaments:player_cards", args=[e.tournament.pk])
    organiser = e.client("organiser")
    for bad in ("abc", "", "0", "-3"):
        assert organiser.get(url, {"entry": bad}).status_code == 404, bad


def test_eight_cards_a_page() -> None:
    tournament = Tournament(name="Open", club=factories.ClubFactory.build(name="Club"))
    items = [
        pdf.PlayerCard(f"Joueur {n:03d}", f"{n:04d}", f"https://t.example/tournaments/card/{n}/")
        for n in range(1, 18)
    ]
    pages, texts = read(pdf.render_player_cards(tournament=tournament, cards=items))
    assert pages == 3
    assert [len(re.findall(r"Joueur \d{3}", t)) for t in texts] == [8, 8, 1]


def test_only_organisers_print_the_cards_or_issue_a_new_one() -> None:
    e = personal_event()
    url = reverse("tournaments:player_cards", args=[e.tournament.pk])
    entry = entry_of(e, 0)
    renew = reverse("tournaments:entry_card_new", args=[e.tournament.pk, entry.pk])
    assert e.client("member").get(url).status_code == 403
    assert e.client("referee").get(url).status_code == 403
    assert Client().get(url).status_code == 302  # to the login page
    assert e.client("member").post(renew).status_code == 403
    assert Entry.objects.get(pk=entry.pk).card_number == entry.card_number


def test_a_private_clubs_cards_do_not_exist_for_outsiders() -> None:
    e = event(public=False)
    url = reverse("tournaments:player_cards", args=[e.tournament.pk])
    assert e.client("member").get(url).status_code == 403
    outsider = factories.signed_in_client(factories.UserFactory.create())
    assert outsider.get(url).status_code == 404


def test_the_personal_link_proves_the_phone_and_confirms_without_a_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    own = carded_phone(entry_of(e, 2))
    page = own.get(link(state)).content.decode()
    assert 'name="pin"' not in page
    assert f'data-holder="{state.players[2].pk}"' in page  # the phone is his, fixed
    assert confirm(own, e, deal.pk) == 302
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]


def test_the_card_page_leads_to_the_players_table_while_its_round_is_open() -> None:
    e = personal_event()
    for seat, state in ((2, e.tables[0]), (1, e.tables[1])):
        entry = Entry.objects.get(tournament=e.tournament, player=state.players[seat])
        with translation.override("fr"):
            page = Client().get(card_link(entry), headers={"accept-language": "fr"})
        content = page.content.decode()
        assert f'id="card-table" href="{link(state)}"' in content
        assert f"Aller à votre table (table {state.table.number})" in text_of(page.content)
    # Once the round is closed, no table to go to: the page says to scan the next sheet.
    Round.objects.filter(pk=e.round.pk).update(status=Round.Status.CLOSED)
    closed = Client().get(card_link(entry_of(e, 2))).content.decode()
    assert 'id="card-table"' not in closed and 'id="card-proven"' in closed


def test_a_deal_entered_on_a_carded_phone_records_the_entry_as_its_proof() -> None:
    e = personal_event()
    state = e.tables[0]
    entry = entry_of(e, 0)
    own = carded_phone(entry)
    deal = enter_at(state, own)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.entered_by == state.players[0]
    assert confirmation.entered_proof == f"entry:{entry.pk}"
    # The same phone cannot confirm it as someone else: it stays the card's player's.
    own.post(link(state, "table_holder"), {"player": state.players[2].pk})
    assert confirm(own, e, deal.pk, pin=entry_of(e, 2).pin) == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    # The other side's own carded phone confirms it.
    assert confirm(carded_phone(entry_of(e, 2)), e, deal.pk) == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_a_card_of_another_table_proves_nobody_here() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    elsewhere = Entry.objects.get(tournament=e.tournament, player=e.tables[1].players[0])
    stranger = carded_phone(elsewhere)
    assert 'id="holder-player"' in stranger.get(link(state)).content.decode()
    stranger.post(link(state, "table_holder"), {"player": state.players[2].pk})
    # Named as a player of this table, the card proves nothing for him: his PIN is asked.
    assert confirm(stranger, e, deal.pk) == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def test_a_new_card_voids_the_old_link_and_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    old_link, old_pin = card_link(entry), entry.pin
    proven_before = carded_phone(entry)
    answer = e.client("organiser").post(
        reverse("tournaments:entry_card_new", args=[e.tournament.pk, entry.pk])
    )
    assert answer.status_code == 302
    renewed = Entry.objects.get(pk=entry.pk)
    assert renewed.card_number == entry.card_number + 1
    # The old link is refused, and a phone it proved is proven no more.
    refused = Client().get(old_link)
    assert refused.status_code == 404 and "n'est plus valable" in text_of(refused.content)
    page = proven_before.get(link(state)).content.decode()
    assert 'id="holder-player"' in page and "data-holder=" not in page  # asked who holds it
    assert cards.card_entry(cards.card_token(renewed)) == renewed
    if old_pin != renewed.pin:
        assert confirm(phone(state, 2), e, deal.pk, pin=old_pin) == 302
        assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    assert confirm(carded_phone(renewed), e, deal.pk) == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_a_phone_whose_card_was_replaced_is_told_why_it_is_asked_who_it_is() -> None:
    # The phone the old card proved falls back to naming its holder: it says why, once.
    e = personal_event()
    state = e.tables[0]
    entry = entry_of(e, 2)
    proven_before = carded_phone(entry)
    cards.card_renew(entry=entry)
    for lang, words in (
        ("fr", "La carte de joueur qui faisait de ce téléphone le vôtre a été remplacée"),
        ("en", "The player card that made this phone yours has been replaced"),
    ):
        proven = carded_phone(Entry.objects.get(pk=entry.pk))
        cards.card_renew(entry=entry)
        with translation.override(lang):
            page = proven.get(link(state), headers={"accept-language": lang})
        assert words in text_of(page.content)
        assert 'id="holder-player"' in page.content.decode()
        with translation.override(lang):
            again = proven.get(link(state), headers={"accept-language": lang})
        assert words not in text_of(again.content)
    # A phone never proven by a card is told nothing of the kind.
    assert "remplacée" not in text_of(phone(state, 1).get(link(state)).content)
    assert "remplacée" in text_of(proven_before.get(link(state)).content)


def test_a_forged_or_mangled_token_is_refused() -> None:
    e = personal_event()
    entry = entry_of(e, 1)
    token = cards.card_token(entry)
    forged = token.replace(f"{entry.pk}.", f"{entry_of(e, 2).pk}.", 1)
    for bad in [forged, token[:-2] + "xx", "1.1", "nothing"]:
        assert Client().get(reverse("tournaments:player_card", args=[bad])).status_code == 404


def test_the_registration_page_offers_the_cards() -> None:
    e = personal_event()
    organiser = e.client("organiser")
    url = reverse("tournaments:registration", args=[e.tournament.pk])
    page = organiser.get(url).content.decode()
    assert reverse("tournaments:player_cards", args=[e.tournament.pk]) in page
    entry = entry_of(e, 0)
    assert reverse("tournaments:entry_card_new", args=[e.tournament.pk, entry.pk]) in page
    after = organiser.get(f"{url}?card={entry.pk}").content.decode()
    assert f"?entry={entry.pk}" in after  # print the new card alone
    one = draw_player_cards(
        tournament_id=e.tournament.pk, entry_id=entry.pk, site="https://t.example", language="en"
    )
    _pages, texts = read(one)
    assert re.findall(r"PIN \d{4}", texts[0]) == [f"PIN {entry.pin}"]
    # Any phone at the table: no cards.
    Tournament.objects.filter(pk=e.tournament.pk).update(
        confirmation_proof=Tournament.ConfirmationProof.PHONE
    )
    assert reverse("tournaments:player_cards", args=[e.tournament.pk]) not in (
        organiser.get(url).content.decode()
    )
