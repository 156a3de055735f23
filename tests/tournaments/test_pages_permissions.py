"""Who may read and write each tournament page: one test per view, role and kind of club, that
fails if a check breaks.

Roles: anonymous, a logged-in outsider, a member of the club, an organiser, a superuser. A public
club's tournaments are read by anyone; a private club's do not exist for outsiders (404).
Managing a tournament is for organisers: anonymous visitors are sent to the login page, members
get 403, and a refused write changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse

from tests.factories import MANAGERS, TOURNAMENT_ROLES, World, build_world, play
from tests.tournaments.open_rounds import deals_leave_rounds_open
from tournaments.models import Entry, Round, Team, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def _round_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments:{name}", args=[w.tournament.pk, 1])


def _url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments:{name}", args=[w.tournament.pk])


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]] = field(default=lambda w: {})
    write: bool = True  # organisers only
    prepare: Callable[[World], None] | None = None
    happened: Callable[[World], bool] | None = None  # for a write: did it happen?
    ok: int = 302


def _swap_data(w: World) -> dict[str, Any]:
    first, second = round_selectors.round_tables(round_=w.round)
    return {"first": str(first.players[0].pk), "second": str(second.players[0].pk)}


SEAT_ONE: dict[int, int] = {}  # round id -> who sat first at table 1 before the swap


def _remember_seat_one(w: World) -> None:
    SEAT_ONE[w.round.pk] = round_selectors.round_tables(round_=w.round)[0].players[0].pk


def _play_leaving_open(world: World) -> None:
    """The round complete but open, as a round completed before deals closed rounds: the
    organiser's close is what closes it."""
    with deals_leave_rounds_open():
        play(world.round)


def _swapped(w: World) -> bool:
    first, _second = round_selectors.round_tables(round_=w.round)
    return first.players[0].pk != SEAT_ONE[w.round.pk]


def _round_status(w: World) -> str:
    return Round.objects.get(pk=w.round.pk).status


def _team_data(w: World) -> dict[str, Any]:
    a, b = w.tournament.entries.filter(checked_in=True).order_by("pk")[:2]
    return {"name": "Les Excuses", "members": [str(a.pk), str(b.pk)]}


CASES = [
    Case(
        "list",
        "GET",
        lambda w: reverse("tournaments:list", args=[w.club.slug]),
        write=False,
        ok=200,
    ),
    Case("detail", "GET", _url("detail"), write=False, ok=200),
    Case("round", "GET", _round_url("round"), write=False, ok=200),
    Case("seating pdf", "GET", _round_url("seating_pdf"), write=False, ok=200),
    Case("standings", "GET", _url("standings"), write=False, ok=200),
    Case("standings csv", "GET", _url("standings_csv"), write=False, ok=200),
    Case("standings pdf", "GET", _url("standings_pdf"), write=False, ok=200),
    Case("projector", "GET", _url("projector"), write=False, ok=200),
    Case(
        "bracket",
        "GET",
        lambda w: reverse("tournaments:bracket", args=[w.knockout.pk]),
        write=False,
        ok=200,
    ),
    Case(
        "bracket pdf",
        "GET",
        lambda w: reverse("tournaments:bracket_pdf", args=[w.knockout.pk]),
        write=False,
        ok=200,
    ),
    Case(
        "new tournament page",
        "GET",
        lambda w: reverse("tournaments:new", args=[w.club.slug]),
        ok=200,
    ),
    Case(
        "new tournament",
        "POST",
        lambda w: reverse("tournaments:new", args=[w.club.slug]),
        data=lambda w: {
            "name": "Grand Prix",
            "date": "2026-05-01",
            "rules": "fft",
            "format": "rounds",
            "rounds": "4",
            "deals_per_round": "6",
            "round_minutes": "60",
            "seating": "mixing",
            "five_mode": "sitting_out",
            "team_size": "0",
            "qualifiers_per_table": "2",
            "seed": "12",
        },
        happened=lambda w: Tournament.objects.filter(club=w.club, name="Grand Prix").exists(),
    ),
    Case("registration page", "GET", _url("registration"), ok=200),
    Case(
        "register",
        "POST",
        _url("registration"),
        data=lambda w: {"new_names": "Zoé", "checked_in": "on"},
        happened=lambda w: w.tournament.entries.filter(player__name="Zoé").exists(),
    ),
    Case(
        "check in",
        "POST",
        lambda w: reverse("tournaments:entry_check_in", args=[w.tournament.pk, w.absent.pk]),
        data=lambda w: {"checked_in": "1"},
        happened=lambda w: Entry.objects.get(pk=w.absent.pk).checked_in,
    ),
    Case(
        "withdraw",
        "POST",
        lambda w: reverse("tournaments:entry_withdraw", args=[w.tournament.pk, w.absent.pk]),
        happened=lambda w: Entry.objects.get(pk=w.absent.pk).withdrawn_after is not None,
    ),
    Case(
        "new team",
        "POST",
        _url("team_new"),
        data=_team_data,
        happened=lambda w: Team.objects.filter(tournament=w.tournament).exists(),
    ),
    Case(
        "seat next round",
        "POST",
        _url("round_seat"),
        prepare=lambda w: play(w.round),
        happened=lambda w: w.tournament.round_set.filter(number=2).exists(),
    ),
    Case(
        "swap",
        "POST",
        _round_url("round_swap"),
        data=_swap_data,
        prepare=_remember_seat_one,
        happened=_swapped,
    ),
    Case(
        "start",
        "POST",
        _round_url("round_start"),
        happened=lambda w: _round_status(w) == Round.Status.PLAYING,
    ),
    Case(
        "close",
        "POST",
        _round_url("round_close"),
        prepare=_play_leaving_open,
        happened=lambda w: _round_status(w) == Round.Status.CLOSED,
    ),
    Case("table sheets pdf", "GET", _round_url("table_sheets_pdf"), ok=200),
]


def _expected(case: Case, role: str, public: bool) -> int:
    readers = TOURNAMENT_ROLES if public else ["member", "organiser", "superuser"]
    if not case.write:
        return case.ok if role in readers else 404
    if role == "anonymous":
        return 302  # to the login page
    if role in MANAGERS:
        return case.ok
    return 403 if role in readers else 404


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("role", TOURNAMENT_ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_access(case: Case, role: str, public: bool) -> None:
    world = build_world(public=public)
    if case.prepare is not None:
        case.prepare(world)
    client = world.client(role)
    url = case.url(world)
    response = client.get(url) if case.method == "GET" else client.post(url, case.data(world))
    expected = _expected(case, role, public)
    assert response.status_code == expected, (case.name, role, public, response.status_code)
    if expected == 302 and role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if case.happened is not None:
        allowed = case.write and role in MANAGERS
        assert case.happened(world) is allowed, (case.name, role, public)


def test_a_private_tournament_is_a_404_for_every_outsider_even_by_id() -> None:
    world = build_world(public=False)
    outsider = world.client("outsider")
    for name in ("detail", "standings", "projector", "registration"):
        assert (
            outsider.get(reverse(f"tournaments:{name}", args=[world.tournament.pk])).status_code
            == 404
        )
    assert outsider.get(reverse("tournaments:list", args=[world.club.slug])).status_code == 404


def test_only_organisers_see_the_entry_links_and_qr_codes() -> None:
    world = build_world()
    tokens = [s.table.token for s in round_selectors.round_tables(round_=world.round)]
    for role in TOURNAMENT_ROLES:
        content = (
            world.client(role)
            .get(reverse("tournaments:round", args=[world.tournament.pk, 1]))
            .content.decode()
        )
        shown = [t in content for t in tokens]
        if role in MANAGERS:
            assert all(shown) and content.count('class="qr"') == len(tokens)
        else:
            assert not any(shown) and 'class="qr"' not in content, role


def test_a_member_cannot_close_a_round_or_seat_the_next_one() -> None:
    world = build_world()
    _play_leaving_open(world)
    member = world.client("member")
    url = reverse("tournaments:round_close", args=[world.tournament.pk, 1])
    assert member.post(url).status_code == 403
    assert (
        member.post(reverse("tournaments:round_seat", args=[world.tournament.pk])).status_code
        == 403
    )
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.SEATED
    assert not world.tournament.round_set.filter(number=2).exists()
    round_services.round_close(round_=world.round)  # the organiser's way still works
