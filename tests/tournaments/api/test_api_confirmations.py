"""Confirmation at the table in the API: each deal's state, the tables' counts, and confirming,
disagreeing and settling with the same rules as the pages."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from tarot_scores.clubs.models import Membership, Player
from tarot_scores.core.actors import AtTable
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests import factories
from tests.api.helpers import messages_of
from tournaments.models import DealConfirmation, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


@dataclass
class Event:
    tournament: Tournament
    tables: list[TableState]
    users: dict[str, Any]

    def client(self, role: str, lang: str | None = None) -> APIClient:
        return factories.token_client(self.users[role], lang)

    def url(self, tail: str) -> str:
        return f"/api/v1/tournaments/{self.tournament.pk}/{tail}"


def event(*, require: bool = True, public: bool = True) -> Event:
    club = factories.ClubFactory.create(public=public)
    tournament = factories.make_tournament(club, 8, require_confirmation=require)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    tables = round_selectors.round_tables(round_=round_)
    users: dict[str, Any] = {
        "anonymous": None,
        "outsider": factories.UserFactory.create(),
        "member": factories.MembershipFactory.create(
            club=club, user=factories.UserFactory.create()
        ).user,
        "organiser": factories.MembershipFactory.create(
            club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
        ).user,
        "referee": factories.UserFactory.create(),
        "taker": factories.UserFactory.create(),
        "defender": factories.UserFactory.create(),
    }
    tournament.referees.add(users["referee"])
    Player.objects.filter(pk=tables[0].players[0].pk).update(user=users["taker"])
    Player.objects.filter(pk=tables[0].players[1].pk).update(user=users["defender"])
    return Event(tournament, tables, users)


def enter(e: Event, *, points: float = 49) -> Deal:
    """A garde at table 1 taken by seat 1's player, entered on the link by him."""
    state = e.tables[0]
    return game_services.deal_record(
        game=state.table.game,
        payload=factories.garde(state.players[0].pk, points),
        by=None,
        at_table=AtTable(state.players[0].pk),
    ).deal


def test_the_setting_is_in_the_tournament_and_off_by_default() -> None:
    e = event(require=False)
    client = e.client("organiser")
    answer = client.get(e.url("")).json()
    assert answer["require_confirmation"] is False
    created = client.post(
        "/api/v1/tournaments/",
        {"club": e.tournament.club_id, "name": "Open confirmé", "require_confirmation": True},
        format="json",
    )
    assert created.status_code == 201 and created.json()["require_confirmation"] is True
    assert Tournament.objects.get(pk=created.json()["id"]).require_confirmation
    refused = client.post(
        "/api/v1/tournaments/",
        {"club": e.tournament.club_id, "name": "X", "require_confirmation": "maybe"},
        format="json",
    )
    assert refused.status_code == 400 and "require_confirmation" in messages_of(refused.json())


def test_the_state_of_each_deal_and_the_tables_counts() -> None:
    e = event()
    deal = enter(e)
    answer = e.client("anonymous").get(e.url("confirmations/"))
    assert answer.status_code == 200
    (state,) = answer.json()["results"]
    assert state["deal"] == deal.pk and state["status"] == "pending"
    assert state["entered_by"] == e.tables[0].players[0].pk and state["entered_side"] == "attack"
    assert state["dispute"] is None and (state["round"], state["table"]) == (1, 1)
    rounds = e.client("anonymous").get(e.url("rounds/")).json()["results"]
    table = rounds[0]["tables"][0]
    assert (table["entered"], table["pending"], table["disputed"]) == (1, 1, 0)
    confirmed = e.client("anonymous").get(e.url("confirmations/?status=confirmed")).json()
    assert confirmed["results"] == []
    bad = e.client("anonymous").get(e.url("confirmations/?status=maybe"))
    assert bad.status_code == 400 and "status" in messages_of(bad.json())


def test_no_confirmation_endpoints_without_the_setting() -> None:
    e = event(require=False)
    deal = enter(e)
    assert e.client("anonymous").get(e.url("confirmations/")).status_code == 404
    answer = e.client("organiser").post(e.url(f"deals/{deal.pk}/confirm/"), {}, format="json")
    assert answer.status_code == 404
    table = e.client("anonymous").get(e.url("rounds/")).json()["results"][0]["tables"][0]
    assert (table["pending"], table["disputed"]) == (0, 0)


def test_a_private_clubs_confirmations_are_hidden_from_outsiders() -> None:
    e = event(public=False)
    deal = enter(e)
    assert e.client("outsider").get(e.url("confirmations/")).status_code == 404
    assert e.client("member").get(e.url("confirmations/")).status_code == 200
    confirm = e.url(f"deals/{deal.pk}/confirm/")
    assert e.client("outsider").post(confirm, {}, format="json").status_code == 404
    # A referee named from another club reads and confirms all the same.
    assert e.client("referee").get(e.url("confirmations/")).status_code == 200
    assert e.client("referee").post(confirm, {"reason": "Vu"}, format="json").status_code == 200


@pytest.mark.parametrize(
    ("role", "code"),
    [
        ("anonymous", 401),
        ("member", 403),  # not at the table
        ("taker", 403),  # his own side entered it
        ("defender", 200),
        ("referee", 200),
        ("organiser", 200),
    ],
)
def test_who_may_confirm(role: str, code: int) -> None:
    e = event()
    deal = enter(e)
    body = {"version": 1, "reason": "Vu à la table"}
    answer = e.client(role).post(e.url(f"deals/{deal.pk}/confirm/"), body, format="json")
    assert answer.status_code == code, answer.content
    confirmed = DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED
    assert confirmed is (code == 200)
    if code == 200:
        assert answer.json()["status"] == "confirmed"
        assert answer.json()["confirmed_by_referee"] is (role != "defender")
    elif code == 403:
        assert messages_of(answer.json())["non_field_errors"]


def test_a_stale_version_and_an_unknown_deal() -> None:
    e = event()
    deal = enter(e)
    stale = e.client("defender").post(
        e.url(f"deals/{deal.pk}/confirm/"), {"version": 2}, format="json"
    )
    assert stale.status_code == 409
    other = e.client("organiser").post(e.url("deals/999999/confirm/"), {}, format="json")
    assert other.status_code == 404
    bad = e.client("defender").post(
        e.url(f"deals/{deal.pk}/confirm/"), {"version": "x"}, format="json"
    )
    assert bad.status_code == 400 and "version" in messages_of(bad.json())


def test_disagreeing_and_settling() -> None:
    e = event()
    deal = enter(e)
    taker = e.tables[0].players[0].pk
    url = e.url(f"deals/{deal.pk}/dispute/")
    body = {"version": 1, "taker": taker, "contract": "garde", "points": 40, "oudlers": 2}
    assert e.client("taker").post(url, body, format="json").status_code == 403
    wrong = e.client("defender", "en").post(url, {**body, "points": 95}, format="json")
    assert wrong.status_code == 400 and "points" in messages_of(wrong.json())
    by_name = e.client("defender").post(url, {**body, "taker": "Aurélie"}, format="json")
    assert by_name.status_code == 400 and "taker" in messages_of(by_name.json())
    answer = e.client("defender").post(url, body, format="json")
    assert answer.status_code == 200
    state = answer.json()
    assert state["status"] == "disputed" and state["dispute"]["deal"]["points"] == 40
    assert state["dispute"]["scores"][str(taker)] < 0
    again = e.client("defender").post(url, body, format="json")
    assert again.status_code == 409

    settle = e.url(f"deals/{deal.pk}/settle/")
    assert (
        e.client("defender")
        .post(settle, {"keep": "other", "reason": "Recompté"}, format="json")
        .status_code
        == 403
    )
    assert e.client("referee").post(settle, {"keep": "maybe"}, format="json").status_code == 400
    reasonless = e.client("referee").post(settle, {"keep": "other"}, format="json")
    assert reasonless.status_code == 400 and "reason" in messages_of(reasonless.json())
    answer = e.client("referee").post(
        settle, {"keep": "other", "reason": "Recompté"}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["status"] == "confirmed"
    assert answer.json()["referee_reason"] == "Recompté"
    deal.refresh_from_db()
    assert deal.payload["points"] == 40 and deal.version == 2
    assert (
        e.client("referee")
        .post(settle, {"keep": "other", "reason": "Recompté"}, format="json")
        .status_code
        == 409
    )


def test_the_schema_documents_the_confirmation_endpoints(tmp_path: Any) -> None:
    out = tmp_path / "schema.json"
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json",
                 "--file", str(out))  # fmt: skip
    paths = json.loads(out.read_text())["paths"]
    assert set(paths["/api/v1/tournaments/{id}/confirmations/"]) >= {"get"}
    for action in ("confirm", "dispute", "settle"):
        operation = paths[f"/api/v1/tournaments/{{id}}/deals/{{deal_id}}/{action}/"]["post"]
        for code in ("200", "400", "401", "403", "404", "409"):
            assert code in operation["responses"], (action, code)


def test_a_deal_through_the_game_api_after_the_link_records_the_account_not_the_link() -> None:
    """A phone on the table's link names its holder for its own write only: the next deal,
    written through the club's game API by a seated member, is his account's, and one written
    by the organiser is confirmed at once with nobody of the table named."""
    e = event()
    state = e.tables[0]
    game = state.table.game
    # Seat 3's player has no account: the link's API names him, the link proving the write.
    link = factories.token_client(None).post(
        f"/api/v1/tables/{state.table.token}/deals/",
        {**factories.garde(state.players[0].pk), "player": state.players[3].pk},
        format="json",
    )
    assert link.status_code == 201, link.content
    by_link = DealConfirmation.objects.get(deal_id=link.json()["id"])
    assert by_link.entered_by_id == state.players[3].pk
    assert by_link.entered_proof == f"api:{state.table.pk}"

    defender = e.users["defender"]  # linked to seat 2's player
    Membership.objects.create(club=e.tournament.club, user=defender)
    own = e.client("defender").post(
        f"/api/v1/games/{game.pk}/deals/", factories.garde(state.players[1].pk), format="json"
    )
    assert own.status_code == 201, own.content
    by_account = DealConfirmation.objects.get(deal_id=own.json()["id"])
    assert by_account.status == Status.PENDING
    assert by_account.entered_by_id == state.players[1].pk
    assert by_account.entered_proof == f"user:{defender.pk}"

    other = e.tables[1]  # this table has its two deals
    organiser = e.client("organiser").post(
        f"/api/v1/games/{other.table.game_id}/deals/",
        factories.garde(other.players[2].pk),
        format="json",
    )
    assert organiser.status_code == 201, organiser.content
    by_organiser = DealConfirmation.objects.get(deal_id=organiser.json()["id"])
    assert by_organiser.status == Status.CONFIRMED and by_organiser.entered_by_id is None
    assert by_organiser.confirmed_by_user_id == e.users["organiser"].pk
