"""A club with a game of four, and an API client for each kind of caller the API tells apart:
anonymous, signed in with a token but in no club (outsider), member not seated, member seated
at the game, organiser, superuser."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, make_game

# Who is asking, from the least to the most trusted.
ROLES = ["anonymous", "outsider", "member", "seated", "organiser", "superuser"]
READERS_OF_PRIVATE = {"member", "seated", "organiser", "superuser"}
MEMBERS = {"member", "seated", "organiser", "superuser"}
DEAL_WRITERS = {"seated", "organiser", "superuser"}
NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]


def token_client(user: User | None, lang: str | None = None) -> APIClient:
    """An API client signed in with ``user``'s token (anonymous for None)."""
    client = APIClient()
    headers: dict[str, str] = {}
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        headers["HTTP_AUTHORIZATION"] = f"Token {token.key}"
    if lang:
        headers["HTTP_ACCEPT_LANGUAGE"] = lang
    client.credentials(**headers)
    return client


@dataclass
class Table:
    club: Club
    game: Game
    players: list[Player]
    users: dict[str, User | None] = field(default_factory=dict)

    @property
    def ids(self) -> list[int]:
        return [p.pk for p in self.players]

    def client(self, role: str, lang: str | None = None) -> APIClient:
        return token_client(self.users[role], lang)

    def record(self, payload: dict[str, Any] | None = None, **kw: Any) -> Deal:
        return game_services.deal_record(
            game=self.game, payload=payload or garde(self.ids[2], **kw), by=None
        ).deal


def garde(taker: int, points: float = 49, oudlers: int = 2, **extra: Any) -> dict[str, Any]:
    """A 4-player garde: with 49 points and 2 bouts, the taker +198 and each defender -66."""
    return {"taker": taker, "contract": "garde", "points": points, "oudlers": oudlers, **extra}


def build_table(
    *, public: bool = True, players: int = 4, variant: str = "fft", tag: str = ""
) -> Table:
    """A club (public or private) with a game of ``players``, and one user per role. The seated
    member plays as the game's second player."""
    name = "Tarot Club de Lyon" if public else "Cercle privé"
    club = ClubFactory.create(name=f"{name} {tag}".strip(), public=public)
    seated_players = [PlayerFactory.create(name=NAMES[i], clubs=[club]) for i in range(players)]
    game = make_game(club=club, players=seated_players, variant=variant)
    users: dict[str, User | None] = {"anonymous": None}
    users["outsider"] = UserFactory.create(username="outsider" + tag)
    for role in ("member", "seated"):
        users[role] = MembershipFactory.create(
            club=club, user=UserFactory.create(username=role + tag)
        ).user
    users["organiser"] = MembershipFactory.create(
        club=club,
        user=UserFactory.create(username="organiser" + tag),
        role=Membership.Role.ORGANISER,
    ).user
    users["superuser"] = UserFactory.create(username="boss" + tag, is_superuser=True)
    club_services.player_link_user(player=seated_players[1], user=users["seated"])
    return Table(club, game, seated_players, users)


@pytest.fixture
def table(db: None) -> Table:
    return build_table()


@pytest.fixture
def private_table(db: None) -> Table:
    return build_table(public=False, tag="p")


@pytest.fixture
def make_table(db: None) -> Callable[..., Table]:
    return build_table


def assert_field_errors(response: Any, status: int = 400) -> dict[str, list[str]]:
    """The API's refusal shape: a non-empty list of messages per field."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    errors = response.json()
    assert isinstance(errors, dict) and errors
    for key, messages in errors.items():
        assert isinstance(key, str)
        assert isinstance(messages, list) and messages, errors
        assert all(isinstance(m, str) and m for m in messages), errors
    return errors
