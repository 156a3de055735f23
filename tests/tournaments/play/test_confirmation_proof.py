"""Confirmation by the other side, for real: a deal is never confirmed by the proof that entered
it (the phone, or the account), and a player whose account is linked acts through it alone.

The audit's case: the taker's phone enters a deal, taps "Changer", names a defender and taps
"Confirmer (je suis ...)": refused, the deal stays pending and the history credits nobody.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tarot_scores.clubs.models import Player
from tests import factories
from tests.tournaments.play.test_pages_confirmation import enter_at, event, link, phone
from tournaments.models import DealConfirmation

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def test_the_phone_that_entered_a_deal_cannot_confirm_it_under_another_name() -> None:
    e = event()
    state = e.tables[0]
    taker_phone = phone(state, 0)
    deal = enter_at(state, taker_phone)

    # "Changer": the same phone now says it is a defender's, and confirms.
    renamed = taker_phone.post(link(state, "table_holder"), {"player": state.players[2].pk})
    assert renamed.status_code == 302
    answer = taker_phone.post(
        link(state, "table_deal_confirm", deal.pk), {"version": "1"}, follow=True
    )
    assert "This phone entered the deal" in answer.content.decode() or (
        "Ce téléphone a saisi la donne" in answer.content.decode()
    )
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING and confirmation.confirmed_by is None

    # The defender's own phone confirms it.
    defender = phone(state, 2)
    assert (
        defender.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"}).status_code
        == 302
    )
    confirmation.refresh_from_db()
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]


def test_an_account_that_entered_a_deal_cannot_confirm_it_either() -> None:
    e = event()
    state = e.tables[0]
    user = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[0].pk).update(user=user)
    client = factories.signed_in_client(user)
    deal = enter_at(state, client)
    # The same account, on a phone that names a defender (not linked): still its proof.
    client.post(link(state, "table_holder"), {"player": state.players[2].pk})
    client.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def test_a_player_whose_account_is_linked_is_not_spoken_for_by_a_phone() -> None:
    e = event()
    state = e.tables[0]
    owner = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[2].pk).update(user=owner)
    deal = enter_at(state, phone(state, 0))

    anonymous = Client()
    named = anonymous.post(link(state, "table_holder"), {"player": state.players[2].pk})
    assert named.status_code == 302
    anonymous.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING

    own = factories.signed_in_client(owner)
    assert own.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"}).status_code == 302
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]
