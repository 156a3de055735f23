"""A table's link over the API: a table app enters, corrects, confirms and disputes its deals
with the table's token, through the same services and rules as the table's page."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tarot_scores.games.models import Deal, DealRevision
from tests import factories
from tests.api.helpers import assert_problem, codes_of
from tests.tournaments.api.test_api_confirmations import event
from tournaments.models import DealConfirmation, Entry, Round
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def url(token: str, tail: str = "") -> str:
    return f"/api/v1/tables/{token}/{tail}"


def test_the_link_reads_its_table_and_enters_a_deal_without_an_account() -> None:
    e = event(require=False)
    state = e.tables[0]
    token = state.table.token
    client = APIClient()

    table = client.get(url(token)).json()
    assert [p["id"] for p in table["players"]] == [p.pk for p in state.players]
    assert (table["game"], table["deals"], table["open"]) == (state.table.game_id, 0, True)

    taker = state.players[1].pk
    made = client.post(url(token, "deals/"), factories.garde(taker, 49), format="json")
    assert made.status_code == 201, made.content
    deal = Deal.objects.get(pk=made.json()["id"])
    assert deal.game_id == state.table.game_id and deal.taker_id == taker
    revision = DealRevision.objects.get(deal=deal)
    assert revision.by is None and str(state.table.number) in revision.by_label

    fixed = client.patch(
        url(token, f"deals/{deal.pk}/"), {"version": 1, "points": 56}, format="json"
    )
    assert fixed.status_code == 200 and fixed.json()["version"] == 2
    stale = client.patch(
        url(token, f"deals/{deal.pk}/"), {"version": 1, "points": 60}, format="json"
    )
    assert assert_problem(stale, 409)["code"] == "deal_conflict"


def test_the_same_rules_as_the_page_refuse_alike() -> None:
    e = event(require=False)
    state, other = e.tables[0], e.tables[1]
    client = APIClient()
    taker = state.players[1].pk
    # A player of another table: refused on the field, nothing stored.
    wrong = client.post(
        url(state.table.token, "deals/"), factories.garde(other.players[0].pk, 49), format="json"
    )
    assert assert_problem(wrong, 400)["errors"][0]["field"] == "taker"
    # Half a point at four: the engine's own refusal and code.
    half = client.post(
        url(state.table.token, "deals/"), factories.garde(taker, 40.5), format="json"
    )
    assert "points" in codes_of(assert_problem(half, 400))
    # Another table's deal is not this link's.
    theirs = client.post(
        url(other.table.token, "deals/"), factories.garde(other.players[0].pk, 49), format="json"
    )
    assert theirs.status_code == 201
    patch = client.patch(
        url(state.table.token, f"deals/{theirs.json()['id']}/"), {"version": 1}, format="json"
    )
    assert assert_problem(patch, 404)["code"] == "not_found"
    assert assert_problem(client.get(url("nosuchtoken")), 404)["code"] == "not_found"
    assert Deal.objects.filter(game=state.table.game).count() == 0


def test_a_closed_round_takes_no_more_changes() -> None:
    e = event(require=False)
    state = e.tables[0]
    Round.objects.filter(pk=state.table.round_id).update(status=Round.Status.CLOSED)
    client = APIClient()
    refused = client.post(
        url(state.table.token, "deals/"), factories.garde(state.players[0].pk, 49), format="json"
    )
    assert assert_problem(refused, 403)["code"] == "table_closed"
    assert client.get(url(state.table.token)).json()["open"] is False
    assert not Deal.objects.exists()


def test_confirming_and_disputing_name_the_holder_as_the_page_does() -> None:
    e = event(require=True)
    state = e.tables[0]
    token = state.table.token
    client = APIClient()
    taker = state.players[0].pk  # linked to the "taker" account
    body: dict[str, Any] = factories.garde(taker, 49)

    nameless = client.post(url(token, "deals/"), body, format="json")
    assert codes_of(assert_problem(nameless, 400)) == {"player": ["holder_unknown"]}
    # A player linked to an account is named only with that account's token.
    spoken_for = client.post(url(token, "deals/"), {**body, "player": taker}, format="json")
    assert assert_problem(spoken_for, 403)["code"] == "holder_linked"
    own = factories.token_client(e.users["taker"])
    made = own.post(url(token, "deals/"), {**body, "player": taker}, format="json")
    assert made.status_code == 201, made.content
    deal_id = made.json()["id"]
    confirm = url(token, f"deals/{deal_id}/confirm/")

    # The side that entered it may not confirm it; the other side does.
    same_side = own.post(confirm, {"player": taker}, format="json")
    assert same_side.status_code == 403
    defender = state.players[2]  # not linked
    pin = Entry.objects.get(tournament=e.tournament, player=defender).pin
    # The link's API is no phone: naming a defender proves nothing without his PIN.
    unproven = client.post(confirm, {"player": defender.pk, "version": 1}, format="json")
    assert codes_of(assert_problem(unproven, 400)) == {"pin": ["pin_required"]}
    assert DealConfirmation.objects.get(deal_id=deal_id).status == "pending"
    proven = client.post(confirm, {"player": defender.pk, "version": 1, "pin": pin}, format="json")
    assert proven.status_code == 200, proven.content
    assert DealConfirmation.objects.get(deal_id=deal_id).status == "confirmed"

    second = own.post(url(token, "deals/"), {**body, "player": taker}, format="json")
    other = state.players[3]
    dispute = client.post(
        url(token, f"deals/{second.json()['id']}/dispute/"),
        {
            **factories.garde(taker, 40),
            "player": other.pk,
            "version": 1,
            "pin": Entry.objects.get(tournament=e.tournament, player=other).pin,
        },
        format="json",
    )
    assert dispute.status_code == 200, dispute.content
    assert DealConfirmation.objects.get(deal_id=second.json()["id"]).status == "disputed"


def test_the_link_routes_need_no_account_in_the_schema() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path in ["/api/v1/tables/{token}/", "/api/v1/tables/{token}/deals/"]:
        for operation in schema["paths"][path].values():
            assert operation.get("security", [{}]) == [{}]
            assert "401" not in operation["responses"]


def test_the_round_links_ask_an_anonymous_caller_to_sign_in() -> None:
    # An organisers' read asked without a token says to sign in (401 with WWW-Authenticate),
    # as the schema declares and as the penalties do; a signed-in member is 403.
    e = event(require=False)
    links = f"/api/v1/tournaments/{e.tournament.pk}/rounds/1/links/"
    anonymous = APIClient().get(links)
    assert assert_problem(anonymous, 401)["code"] == "not_authenticated"
    assert anonymous["WWW-Authenticate"].startswith("Token")
    member = APIClient()
    member.force_authenticate(e.users["member"])
    assert assert_problem(member.get(links), 403)["code"] == "permission_denied"
    organiser = APIClient()
    organiser.force_authenticate(e.users["organiser"])
    answer = organiser.get(links)
    assert answer.status_code == 200
    assert [row["token"] for row in answer.json()["results"]] == [
        t.table.token for t in sorted(e.tables, key=lambda t: t.table.number)
    ]


def test_confirming_on_the_link_refuses_a_body_that_is_not_an_object() -> None:
    # The confirm body goes through the same guards as every other body: a JSON list is
    # refused as not an object, not read as a request naming no one.
    e = event(require=True)
    state = e.tables[0]
    taker = state.players[0].pk
    client = factories.token_client(e.users["taker"])
    made = client.post(
        url(state.table.token, "deals/"),
        {**factories.garde(taker, 49), "player": taker},
        format="json",
    )
    confirm = url(state.table.token, f"deals/{made.json()['id']}/confirm/")
    listed = client.post(confirm, [taker], format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert codes_of(assert_problem(listed, 400)) == {"non_field_errors": ["not_an_object"]}
    assert DealConfirmation.objects.get(deal_id=made.json()["id"]).status == "pending"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["gave table 1 a new link", "scan the QR code"]),
        ("fr", ["nouveau lien à la table 1", "scannez le QR code"]),
    ],
)
def test_a_replaced_link_answers_gone_with_what_to_do(language: str, words: list[str]) -> None:
    e = event()
    state = e.tables[0]
    old = state.table.token
    round_services.table_link_renew(table=state.table)
    client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    read = client.get(url(old))
    post = client.post(
        url(old, "deals/"),
        {**factories.garde(state.players[0].pk, 49), "player": state.players[0].pk},
        format="json",
    )
    for answer in (read, post):
        problem = assert_problem(answer, 410)
        assert problem["code"] == "link_replaced"
        for said in words:
            assert said in problem["detail"]
    assert not Deal.objects.filter(game=state.table.game).exists()
    # The new link opens the table; a token never given is still not found.
    state.table.refresh_from_db()
    assert client.get(url(state.table.token)).status_code == 200
    assert assert_problem(client.get(url("never-a-table")), 404)["code"] == "not_found"


def test_the_schema_declares_the_replaced_link() -> None:
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    for path in ["/api/v1/tables/{token}/", "/api/v1/tables/{token}/deals/"]:
        for operation in schema["paths"][path].values():
            assert "410" in operation["responses"], operation["operationId"]
