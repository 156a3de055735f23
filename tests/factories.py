# factory_boy's declarations are untyped; the factories' create() is typed.
# mypy: disable-error-code="no-untyped-call, var-annotated"
"""factory_boy factories for the club domain: users, clubs, players, memberships, games.

Games go through ``services.game_create`` so that they hold the frozen rule set and seats exactly
as the site makes them.
"""

from __future__ import annotations

from collections.abc import Sequence as SequenceOf
from typing import Any

from django.contrib.auth.models import User
from factory.declarations import PostGeneration, Sequence, SubFactory
from factory.django import DjangoModelFactory, Password

from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services
from tarot_scores.games.models import Game

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]


class UserFactory(DjangoModelFactory[User]):
    class Meta:
        model = User
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = Sequence(lambda n: f"user{n}")
    password = Password("secret-pass")


class ClubFactory(DjangoModelFactory[Club]):
    class Meta:
        model = Club

    name = Sequence(lambda n: f"Club {n}")
    slug = Sequence(lambda n: f"club-{n}")
    public = True


def _add_clubs(player: Player, create: bool, extracted: SequenceOf[Club] | None, **kw: Any) -> None:
    if create and extracted:
        player.clubs.add(*extracted)


class PlayerFactory(DjangoModelFactory[Player]):
    class Meta:
        model = Player
        skip_postgeneration_save = True

    name = Sequence(lambda n: f"Player {n}")

    clubs = PostGeneration(_add_clubs)


class MembershipFactory(DjangoModelFactory[Membership]):
    class Meta:
        model = Membership

    club = SubFactory(ClubFactory)
    user = SubFactory(UserFactory)
    role = Membership.Role.MEMBER


def make_game(
    *,
    club: Club | None = None,
    players: SequenceOf[Player] | int = 4,
    variant: str = "fft",
    by: Any = None,
    **kwargs: Any,
) -> Game:
    """A game at one table: ``players`` in seat order, or that many new players of the club."""
    club = club or ClubFactory.create()
    if isinstance(players, int):
        players = [
            PlayerFactory.create(name=NAMES[i % len(NAMES)], clubs=[club]) for i in range(players)
        ]
    return services.game_create(club=club, players=players, variant=variant, by=by, **kwargs)
