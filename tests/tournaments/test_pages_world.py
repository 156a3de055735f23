"""A club running a tournament, and one user for each role the tournament pages tell apart.

Builders, not tests: the page, permission and PDF tests import them. Every write goes through
the services, so what the pages read is what a real evening leaves in the database.
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests.factories import ClubFactory, MembershipFactory, UserFactory
from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament

# Who is asking, from the least to the most trusted.
ROLES = ["anonymous", "outsider", "member", "organiser", "superuser"]
MANAGERS = {"organiser", "superuser"}
NAMES = [
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
    club: Club
    tournament: Tournament
    round: Round  # round 1, seated, no deal yet
    absent: Entry  # registered, not checked in
    knockout: Tournament  # a second event of the club, stage 1 seated
    users: dict[str, User | None] = field(default_factory=dict)

    def client(self, role: str) -> Client:
        client = Client()
        user = self.users.get(role)
        if user is not None:
            client.force_login(user)
        return client


def make_tournament(club: Club, players: int, **kw: Any) -> Tournament:
    """A tournament with ``players`` checked in (random seating: quick and reproducible)."""
    defaults: dict[str, Any] = {
        "name": "Open d'automne",
        "rounds": 2,
        "deals_per_round": 2,
        "seating_method": Tournament.Seating.RANDOM,
        "seed": 7,
    }
    tournament = services.tournament_create(club=club, by=None, **{**defaults, **kw})
    for name in NAMES[:players]:
        player = Player.objects.filter(clubs=club, name=name).first()
        services.entry_add(
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
    for state in selectors.round_tables(round_=round_):
        game = state.table.game
        ids = [p.pk for p in state.players]
        sitting_out = game.rules.get("five_players") == "sitting_out"
        already = game.deals.filter(deleted_at__isnull=True).count()
        last = deals if deals is not None else tournament.deals_per_round
        for number in range(already + 1, last + 1):
            payload = random_tarot_payload(rng, ids, number, sitting_out_dealer=sitting_out)
            game_services.deal_record(game=game, payload=payload, by=None, number=number)


def build_world(*, public: bool = True, tag: str = "") -> World:
    club = ClubFactory.create(name=f"Tarot Club {tag or 'de Lyon'}", public=public)
    tournament = make_tournament(club, 8)
    absent = services.entry_add(tournament=tournament, name="Absente")
    round_ = services.round_seat_next(tournament=tournament, by=None)
    knockout = make_tournament(
        club, 8, name="Coupe du club", format=Tournament.Format.KNOCKOUT, rounds=1
    )
    services.round_seat_next(tournament=knockout, by=None)
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


def deal_post(taker: int, number: int, **given: Any) -> dict[str, str]:
    """The deal entry form as a phone sends it: a garde with two bouts and 49 points."""
    data: dict[str, Any] = {
        "number": number,
        "taker": taker,
        "contract": "garde",
        "oudlers": 2,
        "points": "49",
        "petit_au_bout": "",
        "slam": "",
        **given,
    }
    return {k: str(v) for k, v in data.items()}


def live_deals(round_: Round) -> list[Deal]:
    return list(Deal.objects.filter(game__tournament_table__round=round_, deleted_at__isnull=True))


def text_of(content: bytes) -> str:
    """A page as a reader sees it: no tags, entities decoded, whitespace squeezed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content.decode())))
