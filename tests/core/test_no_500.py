"""No input is a server error: every route of the URL config, asked with NUL characters, odd and
over-long strings in its path, its query string and its body, answers something other than 500.

The routes are read from the resolver, so a new page is covered the day it is added; each
parameter gets a real value from a small world (a club, a game with a deal, a tournament with a
seated round), so that the views run to the end rather than stopping at a 404.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tarot_scores.games.models import Deal
from tests.api.helpers import messages_of
from tests.factories import World, build_world, garde, make_game
from tournaments.models import Table

pytestmark = pytest.mark.django_db(transaction=False)

PARAMETER = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")

# Query strings that no page expects.
ODD_QUERIES = [
    "q=%00&season=%00&page=%00&sort=%00&x=%00",
    "season=99999999999999999999999&page=-1&year=0&kind=%FF",
    "season=abc&page=1e9&q=" + "é" * 300,
    "x=" + "random" * 10 + "&" + "&".join(f"k{n}=v" for n in range(50)),
]
# What a path parameter is replaced with (the route's own value otherwise).
ODD_SEGMENTS = ["%00", "a%00b", "x" * 400, "%F0%9F%82%A1", "%FF%FE", "..%2F..%2F", "%20"]
# Bodies: a form and JSON with NUL characters, then ones that are merely odd.
NUL_FORM = {
    "name": "\x00",
    "names": "Aurélie\x00\nBruno",
    "q": "\x00",
    "email": "a\x00@example.org",
    "username": "\x00",
    "password": "\x00",
}
ODD_FORM = {
    "name": "n" * 5000,
    "names": "\n".join(f"Joueur {n}" for n in range(600)),
    "nickname": "\u202e\u200b",
    "season": "-1",
    "players": ["x", "0", "-5"],
    "version": "abc",
    "points": "1e400",
}


@dataclass
class Route:
    route: str
    name: str


def routes() -> Iterator[Route]:
    def walk(patterns: list[URLPattern | URLResolver], prefix: str) -> Iterator[Route]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            else:
                yield Route(prefix + str(pattern.pattern), pattern.name or "")

    for route in walk(get_resolver().url_patterns, ""):
        # Regular expression routes (the admin's catch-all) have no parameters to fill; the
        # admin's pages per object are one view, asked once (the club's).
        if "^" in route.route or "(?P" in route.route:
            continue
        if (
            route.route.startswith("admin/")
            and "<path:object_id>" in route.route
            and not route.route.startswith("admin/tarot_scores/club/")
        ):
            continue
        yield route


@dataclass
class Place:
    world: World
    deal: Deal
    table: Table

    def value(self, route: str, name: str) -> str:
        world = self.world
        game = self.deal.game
        by_route = {
            "api/v1/clubs/": world.club.pk,
            "api/v1/players/": self.deal.game.players.first().pk,  # type: ignore[union-attr]
            "api/v1/games/": game.pk,
            "api/v1/deals/": self.deal.pk,
            "api/v1/tournaments/": world.tournament.pk,
            "api/v1/auth/tokens/": 1,
            "api/v1/webhooks/": 1,  # none here: 404
            "pdf/": "6f1c2a4e-0000-4000-8000-000000000000",  # a PDF the worker drew: none here
        }
        if name == "pk":
            return str(next(v for prefix, v in by_route.items() if route.startswith(prefix)))
        values = {
            "slug": world.club.slug,
            "game_id": game.pk,
            "deal_id": self.deal.pk,
            "tournament_id": world.tournament.pk,
            "entry_id": world.absent.pk,
            "player_id": game.players.first().pk,  # type: ignore[union-attr]
            "rules_id": 1,
            "number": 1,
            "token": self.table.token,
            "uidb64": "MQ",
            "object_id": 1,
            "content_type_id": 1,
            "id": 1,
        }
        return str(values.get(name, "1"))

    def path(self, route: str, odd: tuple[str, str] | None = None) -> str:
        def fill(match: re.Match[str]) -> str:
            name = match["name"]
            if odd and odd[0] == name:
                return odd[1]
            return self.value(route, name)

        return "/" + PARAMETER.sub(fill, route)


@pytest.fixture
def place() -> Place:
    world = build_world()
    game = make_game(club=world.club, players=list(world.club.players.all()[:4]))
    from tarot_scores.games import services

    deal = services.deal_record(game=game, payload=garde(game.players.all()[2].pk), by=None).deal
    table = Table.objects.filter(round=world.round).first()
    assert table is not None
    return Place(world, deal, table)


def clients(place: Place) -> list[tuple[str, Client]]:
    boss = Client(raise_request_exception=False)
    user = place.world.users["superuser"]
    assert user is not None
    boss.force_login(user)
    return [("anonymous", Client(raise_request_exception=False)), ("superuser", boss)]


def test_routes_are_found() -> None:
    names = {route.name for route in routes()}
    assert {"home", "table_entry", "leaderboard", "registration", "token"} <= names


def test_no_query_string_is_a_server_error(place: Place) -> None:
    failures = []
    for who, client in clients(place):
        for route in routes():
            path = place.path(route.route)
            for query in ODD_QUERIES:
                status = client.get(f"{path}?{query}").status_code
                if status >= 500:
                    failures.append((who, f"{path}?{query[:60]}", status))
    assert failures == []


def test_no_path_segment_is_a_server_error(place: Place) -> None:
    failures = []
    for who, client in clients(place):
        for route in routes():
            for match in PARAMETER.finditer(route.route):
                if match["converter"] == "int":
                    continue
                for segment in ODD_SEGMENTS:
                    path = place.path(route.route, (match["name"], segment))
                    status = client.get(path).status_code
                    if status >= 500:
                        failures.append((who, path[:120], status))
    assert failures == []


def test_the_nul_character_is_refused_with_a_message() -> None:
    client = Client(raise_request_exception=False)
    for path in ["/tournaments/t/%00/", "/clubs/?q=%00", "/?x=a%00b"]:
        response = client.get(path, headers={"Accept-Language": "en"})
        assert response.status_code == 400, path
        assert "NUL character" in response.content.decode()
    french = client.get("/tournaments/t/%00/")
    assert "caractère NUL" in french.content.decode()
    form = client.post(reverse("login"), {"username": "a\x00", "password": "x"})
    assert form.status_code == 400
    api = client.get("/api/v1/clubs/?search=a%00b&page=1", headers={"Accept-Language": "en"})
    assert api.status_code == 400
    assert list(messages_of(api.json())) == ["search"]
    assert "NUL character" in messages_of(api.json())["search"][0]


def test_no_posted_body_is_a_server_error(place: Place) -> None:
    failures = []
    for who, client in clients(place):
        for route in routes():
            if route.route.startswith("admin/"):
                continue
            path = place.path(route.route)
            nul_json = json.dumps({"name": "\x00", "players": ["\x00"], "variant": "\x00"})
            attempts: list[tuple[str, dict[str, Any]]] = [
                ("nul form", {"data": NUL_FORM}),
                ("nul json", {"data": nul_json, "content_type": "application/json"}),
                ("odd form", {"data": ODD_FORM}),
            ]
            for kind, body in attempts:
                status = client.post(path, **body).status_code
                if status >= 500:
                    failures.append((who, kind, path, status))
    assert failures == []


# Numbers no person types that a careless reading would take for one, or take at all: digits
# that str.isdigit() accepts and int() refuses (², ①), one that int() reads (١), an exponent,
# a negative, past the database's integers, a NUL. Each is sent as every number-like parameter
# the site reads, in a query string, a form and JSON (tarot_scores/core/numbers.py).
ODD_NUMBERS = ["²", "①", "١", "1e3", "-1", str(2**63), "\x00", "3.5", " 7 "]
ODD_JSON_NUMBERS: list[Any] = [2**63, -1, 1e3, "²", True, [1], {"a": 1}]
NUMBER_PARAMETERS = [
    "page",
    "season",
    "version",
    "penalty",
    "number",
    "board",
    "saved",
    "undone",
    "players",
    "size",
    "invitation",
    "club",
    "keep",
    "player",
    "first",
    "second",
    "round",
    "rounds",
    "seed",
    "max_deals",
    "deal",
    "membership",
    "user",
    "points",
    "team_size",
    "byes",
]


def test_no_odd_number_is_a_server_error(place: Place) -> None:
    from urllib.parse import urlencode

    failures = []
    for who, client in clients(place):
        for route in routes():
            if route.route.startswith("admin/"):
                continue
            path = place.path(route.route)
            for odd in ODD_NUMBERS:
                values = {name: odd for name in NUMBER_PARAMETERS}
                status = client.get(f"{path}?{urlencode(values)}").status_code
                if status >= 500:
                    failures.append((who, "query", path, repr(odd), status))
                if who == "anonymous":
                    continue
                status = client.post(path, values).status_code
                if status >= 500:
                    failures.append((who, "form", path, repr(odd), status))
            if who == "anonymous":
                continue
            for odd_json in ODD_JSON_NUMBERS:
                body = json.dumps({name: odd_json for name in NUMBER_PARAMETERS})
                status = client.post(path, body, content_type="application/json").status_code
                if status >= 500:
                    failures.append((who, "json", path, repr(odd_json), status))
    assert failures == []
