"""Who may do what over the API: every endpoint asked by each kind of caller, in a public and a
private club. A refused write changes nothing; an allowed one happens, so each test fails if its
check breaks either way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tests.api.helpers import messages_of
from tests.factories import (
    MEMBERS,
    READERS_OF_PRIVATE,
    ROLES,
    WRITERS,
    ApiTable,
    build_api_table,
    garde,
)


@pytest.fixture(params=["public", "private"])
def any_table(request: pytest.FixtureRequest, db: None) -> ApiTable:
    return build_api_table(public=request.param == "public", tag=request.param[:2])


def read_status(table: ApiTable, role: str) -> int:
    return 200 if table.club.public or role in READERS_OF_PRIVATE else 404


# --- reads ------------------------------------------------------------------------------------

READS: dict[str, Callable[[ApiTable, Deal], str]] = {
    "club": lambda t, d: f"/api/v1/clubs/{t.club.pk}/",
    "players": lambda t, d: f"/api/v1/players/?club={t.club.pk}",
    "games": lambda t, d: f"/api/v1/games/?club={t.club.pk}",
    "game": lambda t, d: f"/api/v1/games/{t.game.pk}/",
    "deal": lambda t, d: f"/api/v1/deals/{d.pk}/",
    "history": lambda t, d: f"/api/v1/deals/{d.pk}/history/",
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(READS))
def test_reads_are_open_for_public_clubs_and_404_for_outsiders_of_private_ones(
    any_table: ApiTable, endpoint: str, role: str
) -> None:
    deal = any_table.record()

    response = any_table.client(role).get(READS[endpoint](any_table, deal))

    assert response.status_code == read_status(any_table, role), response.content
    if response.status_code == 404:
        assert any_table.club.name.encode() not in response.content


@pytest.mark.parametrize("role", ROLES)
def test_the_club_list_shows_a_private_club_to_its_readers_only(
    private_table: ApiTable, role: str
) -> None:
    names = [c["name"] for c in private_table.client(role).get("/api/v1/clubs/").json()["results"]]

    assert (private_table.club.name in names) == (role in READERS_OF_PRIVATE)


@pytest.mark.parametrize("role", ROLES)
def test_lists_without_a_club_never_show_a_private_clubs_games_or_players_to_outsiders(
    private_table: ApiTable, role: str
) -> None:
    client = private_table.client(role)
    games = {g["id"] for g in client.get("/api/v1/games/").json()["results"]}
    players = {p["id"] for p in client.get("/api/v1/players/").json()["results"]}

    readable = role in READERS_OF_PRIVATE
    assert (private_table.game.pk in games) == readable
    assert (set(private_table.ids) <= players) == readable
    assert players.isdisjoint(private_table.ids) == (not readable)


# --- creating clubs, players and games --------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_any_signed_in_user_may_create_a_club(table: ApiTable, role: str) -> None:
    response = table.client(role).post("/api/v1/clubs/", {"name": "Les Bouts"}, format="json")

    created = Club.objects.filter(name="Les Bouts").exists()
    if role == "anonymous":
        assert response.status_code == 401 and not created
        assert response["WWW-Authenticate"] == "Token"
    else:
        assert response.status_code == 201 and created


def member_write_status(table: ApiTable, role: str) -> int:
    """Adding a player or starting a game: members only; a private club is unknown to others."""
    if role == "anonymous":
        return 401
    if role in MEMBERS:
        return 201
    return 403 if table.club.public else 400


@pytest.mark.parametrize("role", ROLES)
def test_only_members_add_players(any_table: ApiTable, role: str) -> None:
    body = {"name": "Fanny", "club": any_table.club.pk}

    response = any_table.client(role).post("/api/v1/players/", body, format="json")

    assert response.status_code == member_write_status(any_table, role), response.content
    assert Player.objects.filter(name="Fanny").exists() == (role in MEMBERS)
    if response.status_code == 400:
        assert list(messages_of(response.json())) == ["club"]


@pytest.mark.parametrize("role", ROLES)
def test_only_members_start_games(any_table: ApiTable, role: str) -> None:
    body = {"club": any_table.club.pk, "players": any_table.ids[:3], "variant": "fft"}

    response = any_table.client(role).post("/api/v1/games/", body, format="json")

    assert response.status_code == member_write_status(any_table, role), response.content
    assert Game.objects.filter(club=any_table.club).count() == (2 if role in MEMBERS else 1)


def test_a_refused_non_member_learns_nothing_about_the_rest_of_the_body(table: ApiTable) -> None:
    body = {"club": table.club.pk, "players": "nonsense", "variant": 42}

    response = table.client("outsider").post("/api/v1/games/", body, format="json")

    assert response.status_code == 403
    assert list(messages_of(response.json())) == ["non_field_errors"]


# --- deals ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DealWrite:
    """One write on a deal, and how to tell that it happened."""

    send: Callable[[APIClient, ApiTable, Deal], Any]
    happened: Callable[[ApiTable, Deal], bool]
    ok: int


def _deal(deal: Deal) -> Deal:
    return Deal.objects.get(pk=deal.pk)


DEAL_WRITES = {
    "enter": DealWrite(
        send=lambda c, t, d: c.post(
            f"/api/v1/games/{t.game.pk}/deals/", garde(t.ids[0]), format="json"
        ),
        happened=lambda t, d: t.game.deals.count() == 2,
        ok=201,
    ),
    "correct": DealWrite(
        send=lambda c, t, d: c.patch(
            f"/api/v1/deals/{d.pk}/", {**garde(t.ids[0]), "version": 1}, format="json"
        ),
        happened=lambda t, d: _deal(d).taker_id == t.ids[0],
        ok=200,
    ),
    "delete": DealWrite(
        send=lambda c, t, d: c.delete(f"/api/v1/deals/{d.pk}/?version=1"),
        happened=lambda t, d: _deal(d).is_deleted,
        ok=200,
    ),
    "restore": DealWrite(
        send=lambda c, t, d: c.post(f"/api/v1/deals/{d.pk}/restore/"),
        happened=lambda t, d: not _deal(d).is_deleted,
        ok=200,
    ),
}


def deal_write_status(table: ApiTable, role: str, ok: int) -> int:
    if role == "anonymous":
        return 401
    if role == "outsider":
        return 403 if table.club.public else 404
    return ok if role in WRITERS else 403


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("write", list(DEAL_WRITES))
def test_deals_are_written_by_the_seated_the_organisers_and_superusers(
    any_table: ApiTable, write: str, role: str
) -> None:
    case = DEAL_WRITES[write]
    deal = any_table.record()
    if write == "restore":
        deal = services.deal_delete(deal=deal, version=1, by=None)

    response = case.send(any_table.client(role), any_table, deal)

    assert response.status_code == deal_write_status(any_table, role, case.ok), response.content
    assert case.happened(any_table, deal) == (role in WRITERS)


# Finishing and reopening a game: whoever may enter its deals, as on the sheet's page.
GAME_WRITES = {
    "finish": (Game.Status.OPEN, Game.Status.FINISHED),
    "reopen": (Game.Status.FINISHED, Game.Status.OPEN),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(GAME_WRITES))
def test_games_are_finished_and_reopened_by_those_who_enter_their_deals(
    any_table: ApiTable, action: str, role: str
) -> None:
    before, after = GAME_WRITES[action]
    services.game_set_status(game=any_table.game, status=before)

    response = any_table.client(role).post(f"/api/v1/games/{any_table.game.pk}/{action}/")

    assert response.status_code == deal_write_status(any_table, role, 200), response.content
    status = Game.objects.get(pk=any_table.game.pk).status
    assert status == (after if role in WRITERS else before)
    if response.status_code == 404:
        assert any_table.club.name.encode() not in response.content


def test_a_member_seated_at_another_table_cannot_enter_deals_here(table: ApiTable) -> None:
    elsewhere = services.game_create(
        club=table.club,
        players=[table.players[0], table.players[2], table.players[3]],
        variant="fft",
        by=None,
    )

    response = table.client("seated").post(
        f"/api/v1/games/{elsewhere.pk}/deals/", garde(table.ids[0]), format="json"
    )

    assert response.status_code == 403
    assert not elsewhere.deals.exists()


def test_an_organiser_of_another_club_is_an_outsider_here(table: ApiTable) -> None:
    other = build_api_table(tag="x")
    deal = table.record()

    response = other.client("organiser").delete(f"/api/v1/deals/{deal.pk}/?version=1")

    assert response.status_code == 403
    assert not _deal(deal).is_deleted


# --- how callers sign in ----------------------------------------------------------------------


def test_a_session_works_as_well_as_a_token(table: ApiTable) -> None:
    user = table.users["seated"]
    assert user is not None
    client = APIClient()
    client.force_login(user)

    response = client.post(
        f"/api/v1/games/{table.game.pk}/deals/", garde(table.ids[0]), format="json"
    )

    assert response.status_code == 201


def test_a_session_write_needs_the_csrf_token_a_token_write_does_not(table: ApiTable) -> None:
    user: User | None = table.users["seated"]
    assert user is not None
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(user)
    url = f"/api/v1/games/{table.game.pk}/deals/"

    refused = session.post(url, garde(table.ids[0]), format="json")
    with_token = table.client("seated")
    with_token.handler.enforce_csrf_checks = True
    accepted = with_token.post(url, garde(table.ids[0]), format="json")

    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]
    assert accepted.status_code == 201
    assert table.game.deals.count() == 1


@pytest.mark.parametrize(
    "header", ["Token nope", "Token", "Token a b", "Bearer abc", "Token \u00e9\u00e9"]
)
def test_a_bad_authorization_header_is_a_401_not_a_500(table: ApiTable, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    response = client.post(
        f"/api/v1/games/{table.game.pk}/deals/", garde(table.ids[0]), format="json"
    )

    assert response.status_code == 401
    assert not table.game.deals.exists()


def test_a_superuser_reads_and_writes_a_private_club_it_is_not_in(private_table: ApiTable) -> None:
    client = private_table.client("superuser")

    read = client.get(f"/api/v1/games/{private_table.game.pk}/")
    write = client.post(
        f"/api/v1/games/{private_table.game.pk}/deals/",
        garde(private_table.ids[0]),
        format="json",
    )

    assert (read.status_code, write.status_code) == (200, 201)
