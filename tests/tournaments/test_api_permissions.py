"""Who may do what with the tournament API: every endpoint asked by each kind of caller
(anonymous, outsider, member, organiser, superuser), for a public and a private club. Reads
follow the club's visibility; writes (seating, starting, closing a round, swapping seats
included) are the organisers'. A refused write changes nothing and an allowed one happens, so
each test fails if its check breaks either way."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tarot_scores.clubs import services as club_services
from tarot_scores.games.models import Seat
from tests.api.helpers import assert_field_errors as assert_refusal
from tests.tournaments.open_rounds import deals_leave_rounds_open
from tests.tournaments.test_api import (
    API,
    ORGANISERS,
    READERS_OF_PRIVATE,
    ROLES,
    Event,
    build_event,
    play_round,
    send,
)
from tournaments.models import Entry, Round, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services


@pytest.fixture(params=["public", "private"])
def any_event(request: pytest.FixtureRequest, db: None) -> Event:
    """A knockout of 8 checked-in players with its first stage (two tables) seated and played
    but not closed, in a public or a private club: every read has something to show, and the
    final is next."""
    event = build_event(
        public=request.param == "public",
        tag=request.param[:2],
        players=8,
        format=Tournament.Format.KNOCKOUT,
    )
    with deals_leave_rounds_open():  # complete but open: closing it is the organiser's to do
        play_round(
            round_services.round_seat_next(tournament=event.tournament, by=None), random.Random(1)
        )
    return event


def read_status(event: Event, role: str) -> int:
    return 200 if event.club.public or role in READERS_OF_PRIVATE else 404


def write_status(event: Event, role: str, allowed: int) -> int:
    if role == "anonymous":
        return 401
    if not event.club.public and role not in READERS_OF_PRIVATE:
        return 404
    return allowed if role in ORGANISERS else 403


# --- reads ------------------------------------------------------------------------------------

READS: dict[str, Callable[[Event], str]] = {
    "list_of_club": lambda e: f"{API}?club={e.club.pk}",
    "tournament": lambda e: e.url(),
    "entries": lambda e: e.url("entries/"),
    "entry": lambda e: e.url(f"entries/{e.tournament.entries.order_by('id')[0].pk}/"),
    "rounds": lambda e: e.url("rounds/"),
    "standings": lambda e: e.url("standings/"),
    "team_standings": lambda e: e.url("teams/standings/"),
    "bracket": lambda e: e.url("bracket/"),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(READS))
def test_reads_follow_the_clubs_visibility(any_event: Event, endpoint: str, role: str) -> None:
    response = any_event.client(role).get(READS[endpoint](any_event))

    assert response.status_code == read_status(any_event, role), response.content
    if response.status_code == 404:
        assert_refusal(response, 404)
        assert any_event.club.name.encode() not in response.content
        assert any_event.tournament.name.encode() not in response.content


@pytest.mark.parametrize("role", ROLES)
def test_the_list_shows_a_private_clubs_tournaments_to_its_readers_only(
    any_event: Event, role: str
) -> None:
    listed = {t["id"] for t in any_event.client(role).get(API).json()["results"]}

    visible = any_event.club.public or role in READERS_OF_PRIVATE
    assert (any_event.tournament.pk in listed) == visible


# --- writes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_creating_a_tournament_is_for_organisers(any_event: Event, role: str) -> None:
    before = Tournament.objects.count()
    body = {"club": any_event.club.pk, "name": "Nouvel open"}

    response = send(any_event.client(role, lang="en"), "post", API, body)

    if role == "anonymous":
        assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    elif not any_event.club.public and role == "outsider":
        # A private club does not exist for an outsider: its id is refused like any unknown id.
        errors = assert_refusal(response)
        assert errors == {"club": [f'Invalid pk "{any_event.club.pk}" - object does not exist.']}
    else:
        assert response.status_code == (201 if role in ORGANISERS else 403), response.content
    assert Tournament.objects.count() == before + (response.status_code == 201)
    if response.status_code == 201:
        created = Tournament.objects.get(pk=response.json()["id"])
        assert created.club == any_event.club and created.created_by == any_event.users[role]


@pytest.mark.parametrize("role", ROLES)
def test_registering_a_player_is_for_organisers(any_event: Event, role: str) -> None:
    before = Entry.objects.count()

    response = send(any_event.client(role), "post", any_event.url("entries/"), {"name": "Zoé"})

    assert response.status_code == write_status(any_event, role, 201), response.content
    assert Entry.objects.count() == before + (response.status_code == 201)
    if response.status_code != 201:
        assert_refusal(response, response.status_code)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("change", [{"checked_in": False}, {"withdrawn": True}])
def test_changing_an_entry_is_for_organisers(
    any_event: Event, role: str, change: dict[str, Any]
) -> None:
    entry = any_event.tournament.entries.order_by("id")[0]
    url = any_event.url(f"entries/{entry.pk}/")

    response = send(any_event.client(role), "patch", url, change)

    assert response.status_code == write_status(any_event, role, 200), response.content
    entry.refresh_from_db()
    changed = entry.checked_in is False or entry.withdrawn_after is not None
    assert changed == (response.status_code == 200)


@pytest.mark.parametrize("role", ROLES)
def test_seating_a_round_is_for_organisers(any_event: Event, role: str) -> None:
    before = Round.objects.filter(tournament=any_event.tournament).count()

    response = send(any_event.client(role), "post", any_event.url("rounds/"))

    assert response.status_code == write_status(any_event, role, 201), response.content
    after = Round.objects.filter(tournament=any_event.tournament).count()
    assert after == before + (response.status_code == 201)


def _stage_one(event: Event) -> Round:
    return event.tournament.round_set.get(number=1)


def _seat_order(round_: Round) -> list[int]:
    return [p.pk for state in round_selectors.round_tables(round_=round_) for p in state.players]


RoundWrite = tuple[Round, dict[str, Any] | None, Callable[[], bool]]


def _start(event: Event) -> RoundWrite:
    """Stage 1, played but not started: starting it is allowed."""
    round_ = _stage_one(event)
    return round_, None, lambda: _stage_one(event).status == Round.Status.PLAYING


def _close(event: Event) -> RoundWrite:
    """Stage 1, complete: closing it is allowed."""
    round_ = _stage_one(event)
    return round_, None, lambda: _stage_one(event).status == Round.Status.CLOSED


def _swap(event: Event) -> RoundWrite:
    """The final table, just seated: its first two players may swap seats."""
    final = round_services.round_seat_next(tournament=event.tournament, by=None)
    a, b, *rest = _seat_order(final)
    return final, {"first": a, "second": b}, lambda: _seat_order(final) == [b, a, *rest]


ROUND_WRITES: dict[str, Callable[[Event], RoundWrite]] = {
    "start": _start,
    "close": _close,
    "swap": _swap,
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ROUND_WRITES))
def test_running_a_round_is_for_organisers(any_event: Event, role: str, action: str) -> None:
    round_, body, happened = ROUND_WRITES[action](any_event)
    url = any_event.url(f"rounds/{round_.number}/{action}/")

    response = send(any_event.client(role), "post", url, body)

    assert response.status_code == write_status(any_event, role, 200), response.content
    assert happened() == (response.status_code == 200)
    if response.status_code != 200:
        assert_refusal(response, response.status_code)
    if response.status_code == 404:
        assert any_event.tournament.name.encode() not in response.content


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ROUND_WRITES))
def test_an_unknown_round_is_403_to_those_who_may_not_run_it(
    any_event: Event, role: str, action: str
) -> None:
    """Permissions come before the round is looked up, as they do for entries."""
    response = send(any_event.client(role), "post", any_event.url(f"rounds/9/{action}/"), {})

    assert response.status_code == write_status(any_event, role, 404), response.content


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method", ["get", "put", "patch", "delete"])
@pytest.mark.parametrize("action", list(ROUND_WRITES))
def test_round_actions_are_posts_only(
    any_event: Event, role: str, method: str, action: str
) -> None:
    response = getattr(any_event.client(role), method)(any_event.url(f"rounds/1/{action}/"))

    # A GET is a read, so anyone gets as far as the method; other methods need an account.
    assert response.status_code == (401 if role == "anonymous" and method != "get" else 405)
    assert _stage_one(any_event).status == Round.Status.SEATED


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("method", ["put", "delete"])
def test_methods_the_api_does_not_offer_are_405(any_event: Event, role: str, method: str) -> None:
    response = getattr(any_event.client(role), method)(any_event.url())

    # Who is asking is checked first: an anonymous write is 401 whatever the method.
    assert response.status_code == (401 if role == "anonymous" else 405)
    assert Tournament.objects.filter(pk=any_event.tournament.pk).exists()


def test_an_organiser_of_another_club_is_an_outsider_here(db: None) -> None:
    here = build_event(tag="h", players=4)
    there = build_event(tag="t")
    organiser_elsewhere = there.client("organiser")

    entry = send(organiser_elsewhere, "post", here.url("entries/"), {"name": "Intrus"})
    seat = send(organiser_elsewhere, "post", here.url("rounds/"))
    create = send(organiser_elsewhere, "post", API, {"club": here.club.pk, "name": "Open"})

    assert (entry.status_code, seat.status_code, create.status_code) == (403, 403, 403)
    assert not here.tournament.round_set.exists()
    round_ = round_services.round_seat_next(tournament=here.tournament, by=None)
    seats = Seat.objects.filter(game__tournament_table__round=round_).order_by("position")
    players = [s.player_id for s in seats]  # a single table of four
    swap = {"first": players[0], "second": players[1]}
    for action, body in (("swap", swap), ("start", None), ("close", None)):
        response = send(organiser_elsewhere, "post", here.url(f"rounds/1/{action}/"), body)
        assert response.status_code == 403, action
    round_.refresh_from_db()
    assert round_.status == Round.Status.SEATED
    assert [s.player_id for s in seats.all()] == players


def test_a_session_write_needs_the_csrf_token(db: None) -> None:
    from django.test import Client

    event = build_event()
    user = event.users["organiser"]
    assert user is not None
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)

    response = client.post(event.url("entries/"), {"name": "Zoé"}, content_type="application/json")

    assert response.status_code == 403
    assert not event.tournament.entries.exists()


def test_a_member_linked_to_a_player_still_cannot_register_them(db: None) -> None:
    event = build_event()
    member = event.users["member"]
    player = club_services.player_create(club=event.club, name="Moi")
    club_services.player_link_user(player=player, user=member)

    response = send(event.client("member"), "post", event.url("entries/"), {"player": player.pk})

    assert response.status_code == 403
