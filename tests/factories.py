# factory_boy's declarations are untyped; the factories' create() is typed.
# mypy: disable-error-code="no-untyped-call, var-annotated"
"""The test data: factory_boy factories for the club domain (users, clubs, players,
memberships, games), clubs as the site makes them (``make_club``), the table most page and API
tests start from (``build_table``/``build_api_table``: a club, a game of four and one user per
role) with ``garde`` to fill its sheet, and a club's tournament evening (``build_world``).

Games go through ``services.game_create`` so that they hold the frozen rule set and seats exactly
as the site makes them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence as SequenceOf
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from factory.declarations import PostGeneration, Sequence, SubFactory
from factory.django import DjangoModelFactory, Password
from rest_framework.test import APIClient

from tarot_scores.api.tokens import token_issue
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tournaments.models import Entry, Round, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]

# Who is asking, from the least to the most trusted.
ROLES = ["anonymous", "outsider", "member", "seated", "organiser", "superuser"]
READERS_OF_PRIVATE = {"member", "seated", "organiser", "superuser"}
MEMBERS = {"member", "seated", "organiser", "superuser"}
WRITERS = {"seated", "organiser", "superuser"}  # may enter and correct the game's deals


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
    # The tests' clubs play every game; a club as the site creates it plays tarot alone.
    other_games = ["novatarok", "buraco"]


def _add_clubs(player: Player, create: bool, extracted: SequenceOf[Club] | None, **kw: Any) -> None:
    """The player plays at these clubs; the first is his own (as ``player_create`` makes it)."""
    if create and extracted:
        player.clubs.add(*extracted)
        if player.club_id is None:
            player.club = extracted[0]
            player.save(update_fields=["club"])


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


def make_club(name: str, organiser: User, member: User, *, public: bool = True) -> Club:
    """A club as the site makes it: created by ``organiser``, with ``member`` and five players."""
    club = club_services.club_create(name=name, by=organiser, public=public)
    club_services.club_games_set(club=club, other_games=["novatarok", "buraco"])
    MembershipFactory.create(club=club, user=member, role=Membership.Role.MEMBER)
    for player_name in NAMES:
        club_services.player_create(club=club, name=player_name)
    return club


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


def garde(taker: int, points: float = 49, oudlers: int = 2, **extra: Any) -> dict[str, Any]:
    """A 4-player garde: with 49 points and 2 bouts, the taker +198 and each defender -66."""
    return {"taker": taker, "contract": "garde", "points": points, "oudlers": oudlers, **extra}


def token_client(user: User | None, lang: str | None = None) -> APIClient:
    """An API client signed in with ``user``'s token (anonymous for None)."""
    client = APIClient()
    headers: dict[str, str] = {}
    if user is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {token_issue(user=user)}"
    if lang:
        headers["HTTP_ACCEPT_LANGUAGE"] = lang
    client.credentials(**headers)
    return client


def signed_in_client(user: User | None) -> Client:
    """A browser signed in as ``user`` (anonymous for None)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class Table:
    """A club's game and one user per role (``ROLES``); its clients browse the site."""

    club: Club
    game: Game
    players: list[Player]
    users: dict[str, User | None] = field(default_factory=dict)
    taker: int = 0  # the seat that takes in ``record``'s default garde

    @property
    def ids(self) -> list[int]:
        return [p.pk for p in self.players]

    def client(self, role: str) -> Client:
        return signed_in_client(self.users.get(role))

    def record(self, payload: dict[str, Any] | None = None, **kw: Any) -> Deal:
        return services.deal_record(
            game=self.game, payload=payload or garde(self.ids[self.taker], **kw), by=None
        ).deal


@dataclass
class ApiTable(Table):
    """The same table whose clients call the API with each user's token."""

    taker: int = 2

    def client(self, role: str, lang: str | None = None) -> APIClient:
        return token_client(self.users[role], lang)


def _table_parts(
    *, public: bool, players: int, variant: str, tag: str
) -> tuple[Club, Game, list[Player], dict[str, User | None]]:
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
    users["superuser"] = UserFactory.create(username="boss" + tag, is_superuser=True, is_staff=True)
    # The seated member plays as the game's second player.
    club_services.player_link_user(player=seated_players[1], user=users["seated"])
    return club, game, seated_players, users


def build_table(
    *, public: bool = True, players: int = 4, variant: str = "fft", tag: str = ""
) -> Table:
    """A club (public or private) with a game of ``players``; ``tag`` keeps a second one apart."""
    return Table(*_table_parts(public=public, players=players, variant=variant, tag=tag))


def build_api_table(
    *, public: bool = True, players: int = 4, variant: str = "fft", tag: str = ""
) -> ApiTable:
    """``build_table`` for the API's tests."""
    return ApiTable(*_table_parts(public=public, players=players, variant=variant, tag=tag))


# Who is asking at a tournament, from the least to the most trusted.
TOURNAMENT_ROLES = ["anonymous", "outsider", "member", "organiser", "superuser"]
MANAGERS = {"organiser", "superuser"}
TOURNAMENT_NAMES = [
    "Aurélie",
    "Bruno",
    "Chloé",
    "Denis",
    "Émile",
    "Fanny",
    "Gaston",
    "Hélène",
    "Inès",
    "Jacques",
    "Karim",
    "Léa",
    "Mathis",
    "Noémie",
    "Oscar",
    "Pauline",
]


@dataclass
class World:
    """A club running a tournament, and one user for each role the tournament pages tell apart.
    Every write goes through the services, as a real evening leaves the database."""

    club: Club
    tournament: Tournament
    round: Round  # round 1, seated, no deal yet
    absent: Entry  # registered, not checked in
    knockout: Tournament  # a second event of the club, stage 1 seated
    users: dict[str, User | None] = field(default_factory=dict)

    def client(self, role: str) -> Client:
        return signed_in_client(self.users.get(role))


def make_tournament(club: Club, players: int, **kw: Any) -> Tournament:
    """A tournament with ``players`` checked in (random seating: quick and reproducible)."""
    defaults: dict[str, Any] = {
        "name": "Open d'automne",
        "rounds": 2,
        "deals_per_round": 2,
        "seating_method": Tournament.Seating.RANDOM,
        "seed": 7,
    }
    tournament = registration_services.tournament_create(club=club, by=None, **{**defaults, **kw})
    for name in TOURNAMENT_NAMES[:players]:
        player = Player.objects.filter(clubs=club, name=name).first()
        registration_services.entry_add(
            tournament=tournament,
            player=player,
            name=name if player is None else "",
            checked_in=True,
        )
    return tournament


def play(round_: Round, *, seed: int = 1, deals: int | None = None) -> None:
    """Enter ``deals`` (all by default) deals at every table of the round, valid and random."""
    rng = random.Random(seed)
    tournament = round_.tournament
    for state in round_selectors.round_tables(round_=round_):
        game = state.table.game
        ids = [p.pk for p in state.players]
        sitting_out = game.rules.get("five_players") == "sitting_out"
        already = game.deals.filter(deleted_at__isnull=True).count()
        last = deals if deals is not None else tournament.deals_per_round
        for number in range(already + 1, last + 1):
            payload = random_tarot_payload(rng, ids, number, sitting_out_dealer=sitting_out)
            services.deal_record(game=game, payload=payload, by=None, number=number)


def build_world(*, public: bool = True, tag: str = "") -> World:
    club = ClubFactory.create(name=f"Tarot Club {tag or 'de Lyon'}", public=public)
    tournament = make_tournament(club, 8)
    absent = registration_services.entry_add(tournament=tournament, name="Absente")
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    knockout = make_tournament(
        club, 8, name="Coupe du club", format=Tournament.Format.KNOCKOUT, rounds=1
    )
    round_services.round_seat_next(tournament=knockout, by=None)
    users: dict[str, User | None] = {
        "anonymous": None,
        "outsider": UserFactory.create(username="outsider" + tag),
        "member": MembershipFactory.create(
            club=club, user=UserFactory.create(username="member" + tag)
        ).user,
        "organiser": MembershipFactory.create(
            club=club,
            user=UserFactory.create(username="organiser" + tag),
            role=Membership.Role.ORGANISER,
        ).user,
        "superuser": UserFactory.create(username="boss" + tag, is_superuser=True, is_staff=True),
    }
    return World(club, tournament, round_, absent, knockout, users)
