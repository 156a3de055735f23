"""A deal's life at a tournament table (``tournaments.play.lifecycle``): the holes an attacker, a
careless player and two phones found, each closed and asserted on the database.

- a player linked to an account is named through the link's API only with that account's token;
- the link's API is no phone: it confirms only with the acting player's PIN or account, so the
  phone that entered a deal does not confirm it through the API with a proof of its own, while
  the other side does, with its PIN;
- a confirmed deal is never undone or deleted from the table (no Undo shown for it);
- a contested deal counts nowhere (the table's sheet totals, the standings) until settled;
- the last confirmation of a round answers "confirmed" (200), never the closed table's 403;
- the confirmation decisions answer under ``.../confirmations/{deal}/`` too.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tarot_scores.clubs.models import Player
from tarot_scores.core.errors import Refusal
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests import factories
from tests.tournaments.play.test_pages_confirmation import Event, enter_at, event, link, phone
from tests.tournaments.views.test_pages_world import deal_post
from tournaments.models import DealConfirmation, Entry, Round
from tournaments.play import confirmations, lifecycle
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def api(state: Any, path: str, body: dict[str, Any], user: Any = None) -> Any:
    token = state.table.token
    return factories.token_client(user, "en").post(
        f"/api/v1/tables/{token}/{path}", body, format="json"
    )


def garde(state: Any, taker: int, holder: int, **more: Any) -> dict[str, Any]:
    players = state.players
    return {
        "player": players[holder].pk,
        "taker": players[taker].pk,
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
        **more,
    }


def pin(e: Event, player: Player) -> str:
    return Entry.objects.get(tournament=e.tournament, player=player).pin


def status(deal: Deal) -> str:
    return DealConfirmation.objects.get(deal=deal).status


def test_the_links_api_names_a_linked_player_only_with_his_accounts_token() -> None:
    e = event()
    state = e.tables[0]
    owner = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[0].pk).update(user=owner)
    refused = api(state, "deals/", garde(state, 0, 0))
    assert refused.status_code == 403 and refused.json()["code"] == "holder_linked"
    assert not state.table.game.deals.exists()
    entered = api(state, "deals/", garde(state, 0, 0), user=owner)
    assert entered.status_code == 201, entered.content
    deal = Deal.objects.get(game=state.table.game)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.entered_by_id == state.players[0].pk
    assert confirmation.entered_proof == f"user:{owner.pk}"
    # Another account's token speaks for nobody linked.
    stranger = factories.UserFactory.create()
    body = {"player": state.players[0].pk, "version": 1}
    assert api(state, f"deals/{deal.pk}/confirm/", body, user=stranger).status_code == 403


def test_the_phone_that_entered_a_deal_does_not_confirm_it_through_the_api() -> None:
    e = event()  # phone proof
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    # The entering phone (the taker's side) names a defender over the API: no PIN, no proof.
    body = {"player": state.players[2].pk, "version": 1}
    refused = api(state, f"deals/{deal.pk}/confirm/", body)
    assert refused.status_code == 400 and refused.json()["code"] == "pin_required"
    assert status(deal) == Status.PENDING
    # The other side, with its own PIN, confirms a deal entered on a phone over the API.
    answer = api(state, f"deals/{deal.pk}/confirm/", {**body, "pin": pin(e, state.players[2])})
    assert answer.status_code == 200, answer.content
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED
    assert confirmation.confirmed_by_id == state.players[2].pk


def test_the_other_side_confirms_over_the_api_a_deal_entered_through_the_api() -> None:
    e = event()
    state = e.tables[0]
    entered = api(state, "deals/", garde(state, 0, 0))
    assert entered.status_code == 201
    deal = Deal.objects.get(game=state.table.game)
    body = {"player": state.players[1].pk, "version": 1, "pin": pin(e, state.players[1])}
    assert api(state, f"deals/{deal.pk}/confirm/", body).status_code == 200
    assert status(deal) == Status.CONFIRMED


def test_a_confirmed_deal_is_not_undone_by_any_phone_of_its_side() -> None:
    e = event()
    state = e.tables[0]
    taker_phone = phone(state, 0)
    deal = enter_at(state, taker_phone)
    saved = taker_phone.get(link(state) + f"?saved={deal.number}").content.decode()
    assert "undo-form" in saved  # pending: the phone that just saved it may undo it
    phone(state, 2).post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert status(deal) == Status.CONFIRMED
    saved = taker_phone.get(link(state) + f"?saved={deal.number}").content.decode()
    assert "undo-form" not in saved
    for side_phone in (taker_phone, phone(state, 0)):
        side_phone.post(link(state, "table_deal_undo", deal.pk))
        deal.refresh_from_db()
        assert deal.deleted_at is None and status(deal) == Status.CONFIRMED
    # Nor by a seated member through the game's own pages and API.
    user = factories.UserFactory.create()
    factories.MembershipFactory.create(club=e.tournament.club, user=user)
    Player.objects.filter(pk=state.players[1].pk).update(user=user)
    with pytest.raises(Refusal):
        game_services.deal_delete(deal=deal, version=deal.version, by=user)
    deal.refresh_from_db()
    assert deal.deleted_at is None
    # A correction is the way: the other side confirms it again.
    corrected = taker_phone.post(
        link(state, "table_deal_edit", deal.pk),
        {**deal_post(state.players[0].pk, 1, points="60"), "version": str(deal.version)},
    )
    assert corrected.status_code == 302
    deal.refresh_from_db()
    assert deal.version == 2 and status(deal) == Status.PENDING
    # A referee may delete it (he decides, with his account).
    game_services.deal_delete(deal=deal, version=deal.version, by=e.users["referee"])
    deal.refresh_from_db()
    assert deal.deleted_at is not None


def test_a_contested_deal_counts_nowhere_until_settled() -> None:
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    url = link(state, "table_deal_dispute", deal.pk)
    defender.post(url, {**deal_post(state.players[0].pk, 1, points="30"), "version": "1"})
    assert status(deal) == Status.DISPUTED
    sheet = game_selectors.game_sheet(game_id=state.table.game_id)
    assert sheet.totals == [0] * len(sheet.players)
    assert [row.held for row in sheet.rows] == [True]
    ranked = standings_selectors.standings_for(tournament=e.tournament)
    assert {row.total for row in ranked} == {0}
    # Nor is it deleted from the table: a referee decides.
    phone(state, 0).post(link(state, "table_deal_undo", deal.pk))
    deal.refresh_from_db()
    assert deal.deleted_at is None
    confirmations.dispute_settle(
        deal=deal, keep=confirmations.KEEP_ENTERED, by=e.users["referee"], reason="Vu"
    )
    settled = DealConfirmation.objects.get(deal=deal)
    assert lifecycle.state_of(deal, settled) == lifecycle.State.SETTLED
    sheet = game_selectors.game_sheet(game_id=state.table.game_id)
    assert sheet.totals != [0] * len(sheet.players) and sum(sheet.totals) == 0


def test_the_last_confirmation_of_a_round_answers_confirmed() -> None:
    e = event()
    deals = []
    for state in e.tables:
        for _ in range(e.tournament.deals_per_round):
            deals.append((state, enter_at(state, phone(state, 0))))
    for _state, deal in deals[:-1]:
        confirmations.deal_confirm(deal=deal, by=e.users["referee"], reason="Vu")
    state, last = deals[-1]
    with translation.override("en"):
        answer = phone(state, 2).post(
            link(state, "table_deal_confirm", last.pk),
            {"version": "1"},
            headers={"accept-language": "en"},
        )
    assert answer.status_code == 200
    assert "round is closed" in answer.content.decode()
    assert status(last) == Status.CONFIRMED
    assert Round.objects.get(pk=e.round.pk).status == Round.Status.CLOSED


def test_the_confirmation_paths_under_the_list_answer() -> None:
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    owner = factories.UserFactory.create()
    factories.MembershipFactory.create(club=e.tournament.club, user=owner)
    Player.objects.filter(pk=state.players[2].pk).update(user=owner)
    base = f"/api/v1/tournaments/{e.tournament.pk}/confirmations/{deal.pk}"
    answer = factories.token_client(owner, "en").post(
        f"{base}/confirm/", {"version": 1}, format="json"
    )
    assert answer.status_code == 200, answer.content
    assert status(deal) == Status.CONFIRMED
    other = enter_at(state, phone(state, 0))
    base = f"/api/v1/tournaments/{e.tournament.pk}/confirmations/{other.pk}"
    client = factories.token_client(owner, "en")
    disputed = client.post(
        f"{base}/dispute/",
        {
            "version": 1,
            "taker": state.players[0].pk,
            "contract": "garde",
            "points": 30,
            "oudlers": 2,
        },
        format="json",
    )
    assert disputed.status_code == 200, disputed.content
    assert status(other) == Status.DISPUTED
    organiser = factories.token_client(e.users["organiser"], "en")
    settled = organiser.post(f"{base}/settle/", {"keep": "entered", "reason": "Vu"}, format="json")
    assert settled.status_code == 200 and status(other) == Status.CONFIRMED


def test_an_unproven_phone_is_never_credited() -> None:
    e = event()
    state = e.tables[0]
    # Phone proof: a name is all a phone gives, and it is not the proof of a linked player.
    owner = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[2].pk).update(user=owner)
    deal = enter_at(state, phone(state, 0))
    anonymous = Client()
    anonymous.post(link(state, "table_holder"), {"player": state.players[2].pk})
    anonymous.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert status(deal) == Status.PENDING
