"""A club with a game of four and one user for each role the game pages tell apart."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, make_game

# Who is asking, from the least to the most trusted.
ROLES = ["anonymous", "outsider", "member", "seated", "organiser", "superuser"]
WRITERS = {"seated", "organiser", "superuser"}


@dataclass
class Table:
    club: Club
    game: Game
    players: list[Player]
    users: dict[str, User | None] = field(default_factory=dict)

    @property
    def ids(self) -> list[int]:
        return [p.pk for p in self.players]

    def client(self, role: str) -> Client:
        client = Client()
        user = self.users.get(role)
        if user is not None:
            client.force_login(user)
        return client

    def record(self, payload: dict[str, Any] | None = None, **kw: Any) -> Deal:
        return services.deal_record(
            game=self.game, payload=payload or garde(self.ids[0], **kw), by=None
        ).deal


def garde(taker: int, points: float = 49, oudlers: int = 2, **extra: Any) -> dict[str, Any]:
    return {"taker": taker, "contract": "garde", "points": points, "oudlers": oudlers, **extra}


def build_table(
    *, public: bool = True, players: int = 4, variant: str = "fft", tag: str = ""
) -> Table:
    """A club (public or private) with a game of ``players``; ``tag`` keeps a second one apart."""
    name = "Tarot Club de Lyon" if public else "Cercle privé"
    club = ClubFactory.create(name=f"{name} {tag}".strip(), public=public)
    names = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]
    seated_players = [PlayerFactory.create(name=names[i], clubs=[club]) for i in range(players)]
    game = make_game(club=club, players=seated_players, variant=variant)
    outsider = UserFactory.create(username="outsider" + tag)
    member = MembershipFactory.create(
        club=club, user=UserFactory.create(username="member" + tag)
    ).user
    seated = MembershipFactory.create(
        club=club, user=UserFactory.create(username="seated" + tag)
    ).user
    seated_players[1].user = seated
    seated_players[1].save()
    organiser = MembershipFactory.create(
        club=club,
        user=UserFactory.create(username="organiser" + tag),
        role=Membership.Role.ORGANISER,
    ).user
    superuser = UserFactory.create(username="boss" + tag, is_superuser=True, is_staff=True)
    users: dict[str, User | None] = {
        "anonymous": None,
        "outsider": outsider,
        "member": member,
        "seated": seated,
        "organiser": organiser,
        "superuser": superuser,
    }
    return Table(club, game, seated_players, users)


@pytest.fixture
def table(db: None) -> Table:
    return build_table()


@pytest.fixture
def private_table(db: None) -> Table:
    return build_table(public=False)


@pytest.fixture
def make_table(db: None) -> Callable[..., Table]:
    return build_table
