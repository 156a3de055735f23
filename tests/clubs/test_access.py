"""Who may open and use each club page: anonymous visitors, outsiders, members, organisers and
superusers, on a public and on a private club. A private club answers 404 to outsiders so its
existence is not revealed; a write page sends anonymous visitors to the login page first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.games.models import Game
from tarot_scores.scoring import FFT
from tests.clubs.helpers import rules_post_data
from tests.factories import UserFactory, make_club

pytestmark = pytest.mark.django_db

WHO = ["anonymous", "outsider", "member", "organiser", "superuser"]
LOGIN = "login"  # expected: a redirect to the login page
OK = "ok"  # expected: 200 for a page, a redirect elsewhere than the login page for a write

Expected = dict[str, dict[str, str | int]]

READ: Expected = {
    "public": dict.fromkeys(WHO, OK),
    "private": {"anonymous": 404, "outsider": 404, "member": OK, "organiser": OK, "superuser": OK},
}
MEMBER_WRITE: Expected = {
    "public": {"anonymous": LOGIN, "outsider": 403, "member": OK, "organiser": OK, "superuser": OK},
    "private": {
        "anonymous": LOGIN,
        "outsider": 404,
        "member": OK,
        "organiser": OK,
        "superuser": OK,
    },
}
ORGANISER_PAGE: Expected = {
    "public": {
        "anonymous": LOGIN,
        "outsider": 403,
        "member": 403,
        "organiser": OK,
        "superuser": OK,
    },
    "private": {
        "anonymous": LOGIN,
        "outsider": 404,
        "member": 403,
        "organiser": OK,
        "superuser": OK,
    },
}
# The rules pages are readable by all who see the club, so an anonymous write on a private club
# is a 404 like any other request from outside.
ORGANISER_WRITE_ON_READABLE: Expected = {
    "public": {
        "anonymous": LOGIN,
        "outsider": 403,
        "member": 403,
        "organiser": OK,
        "superuser": OK,
    },
    "private": {"anonymous": 404, "outsider": 404, "member": 403, "organiser": OK, "superuser": OK},
}


@dataclass(frozen=True)
class World:
    club: Club
    players: list[Player]
    house_rules: HouseRules
    users: dict[str, User | None]


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    expected: Expected
    data: Callable[[World], dict[str, Any]] = lambda w: {}


def _game_data(w: World) -> dict[str, Any]:
    return {
        "date": "2025-10-04",
        "rules": "fft",
        "players": [str(p.pk) for p in w.players[:4]],
    }


CASES = [
    Case(
        "club list",
        "get",
        lambda w: reverse("clubs:list"),
        {"public": dict.fromkeys(WHO, OK), "private": dict.fromkeys(WHO, OK)},
    ),
    Case(
        "club create",
        "post",
        lambda w: reverse("clubs:list"),
        {
            "public": {**dict.fromkeys(WHO, OK), "anonymous": LOGIN},
            "private": {**dict.fromkeys(WHO, OK), "anonymous": LOGIN},
        },
        lambda w: {"name": "Nouveau club", "public": "on"},
    ),
    Case("club page", "get", lambda w: reverse("clubs:detail", args=[w.club.slug]), READ),
    Case("leaderboard", "get", lambda w: reverse("clubs:leaderboard", args=[w.club.slug]), READ),
    Case("records", "get", lambda w: reverse("clubs:records", args=[w.club.slug]), READ),
    Case(
        "season report", "get", lambda w: reverse("clubs:season_report", args=[w.club.slug]), READ
    ),
    Case(
        "player page",
        "get",
        lambda w: reverse("clubs:player", args=[w.club.slug, w.players[0].pk]),
        READ,
    ),
    Case("rules list", "get", lambda w: reverse("clubs:rules", args=[w.club.slug]), READ),
    Case(
        "rule set",
        "get",
        lambda w: reverse("clubs:rules", args=[w.club.slug, w.house_rules.pk]),
        READ,
    ),
    Case(
        "rule set create",
        "post",
        lambda w: reverse("clubs:rules", args=[w.club.slug]),
        ORGANISER_WRITE_ON_READABLE,
        lambda w: rules_post_data("Maison", coefficient_garde=3),
    ),
    Case(
        "rule set edit",
        "post",
        lambda w: reverse("clubs:rules", args=[w.club.slug, w.house_rules.pk]),
        ORGANISER_WRITE_ON_READABLE,
        lambda w: rules_post_data("Du jeudi", misere=20),
    ),
    Case(
        "player form",
        "get",
        lambda w: reverse("clubs:player_new", args=[w.club.slug]),
        MEMBER_WRITE,
    ),
    Case(
        "player create",
        "post",
        lambda w: reverse("clubs:player_new", args=[w.club.slug]),
        MEMBER_WRITE,
        lambda w: {"name": "Fanny"},
    ),
    Case("game form", "get", lambda w: reverse("clubs:game_new", args=[w.club.slug]), MEMBER_WRITE),
    Case(
        "game create",
        "post",
        lambda w: reverse("clubs:game_new", args=[w.club.slug]),
        MEMBER_WRITE,
        _game_data,
    ),
    Case(
        "members page",
        "get",
        lambda w: reverse("clubs:members", args=[w.club.slug]),
        ORGANISER_PAGE,
    ),
    Case(
        "member add",
        "post",
        lambda w: reverse("clubs:members", args=[w.club.slug]),
        ORGANISER_PAGE,
        lambda w: {"action": "add", "add-identifier": "nina@example.org", "add-role": "member"},
    ),
    Case(
        "member update",
        "post",
        lambda w: reverse("clubs:members", args=[w.club.slug]),
        ORGANISER_PAGE,
        lambda w: {
            "action": "update",
            "membership": str(w.club.memberships.get(user__username="marc").pk),
            f"m{w.club.memberships.get(user__username='marc').pk}-role": "organiser",
            f"m{w.club.memberships.get(user__username='marc').pk}-player": "",
        },
    ),
]


def _world(visibility: str) -> World:
    organiser = UserFactory.create(username="olga")
    member = UserFactory.create(username="marc")
    club = make_club("Club", organiser, member, public=visibility == "public")
    house_rules = HouseRules.objects.create(club=club, name="Du jeudi", based_on=FFT.name)
    users: dict[str, User | None] = {
        "anonymous": None,
        "outsider": UserFactory.create(username="otto"),
        "member": member,
        "organiser": organiser,
        "superuser": UserFactory.create(username="root", is_superuser=True),
    }
    return World(club, list(club.players.order_by("name")), house_rules, users)


@pytest.mark.parametrize("visibility", ["public", "private"])
@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_access(client: Client, case: Case, who: str, visibility: str) -> None:
    world = _world(visibility)
    user = world.users[who]
    if user is not None:
        client.force_login(user)
    url = case.url(world)
    games_before = Game.objects.count()

    response = getattr(client, case.method)(url, case.data(world))

    expected = case.expected[visibility][who]
    if expected == LOGIN:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=")
    elif expected == OK and case.method == "get":
        assert response.status_code == 200
    elif expected == OK:
        assert response.status_code == 302, response.content.decode()[:2000]
        assert not response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == expected
    if case.name == "game create":
        assert Game.objects.count() == games_before + (1 if expected == OK else 0)


def test_unknown_club_is_404_even_for_write_pages(client: Client) -> None:
    client.force_login(UserFactory.create())
    names = ["detail", "player_new", "game_new", "members", "rules", "leaderboard", "records"]
    names.append("season_report")
    for name in names:
        assert client.get(reverse(f"clubs:{name}", args=["no-such-club"])).status_code == 404


def test_anonymous_is_sent_to_login_whether_or_not_a_private_club_exists(client: Client) -> None:
    existing = make_club("Secret", UserFactory.create(), UserFactory.create(), public=False)
    for slug in (existing.slug, "no-such-club"):
        response = client.get(reverse("clubs:game_new", args=[slug]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_rule_set_of_another_club_is_404(client: Client) -> None:
    world = _world("public")
    other = make_club("Autre", UserFactory.create(), UserFactory.create())
    foreign = HouseRules.objects.create(club=other, name="Ailleurs")
    client.force_login(world.users["organiser"])  # type: ignore[arg-type]
    response = client.get(reverse("clubs:rules", args=[world.club.slug, foreign.pk]))
    assert response.status_code == 404


def test_player_of_another_club_is_404(client: Client) -> None:
    world = _world("public")
    other = make_club("Autre", UserFactory.create(), UserFactory.create())
    stranger = other.players.first()
    assert stranger is not None
    response = client.get(reverse("clubs:player", args=[world.club.slug, stranger.pk]))
    assert response.status_code == 404
