"""The demo club's people (its organiser, a member, twelve players) and the random deals they
play: ``games.demo`` seats them at the evenings a fresh ``make run`` shows, and tests and
benchmarks draw deals with ``random_tarot_payload``."""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth import get_user_model

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Membership, Player

DEMO_CLUB = "Club de Tarot de la Butte"
DEMO_USER = "demo"  # the organiser, who plays as Aurélie
DEMO_MEMBER = "bruno"  # a member, who plays as Bruno
DEMO_PASSWORD = "demo"  # local demo only: load_demo never runs on a database that has data
NAMES = [
    ("Aurélie", "Aurélie"),
    ("Bruno", ""),
    ("Chloé", ""),
    ("Denis", "Le Baron"),
    ("Émile", ""),
    ("Françoise", "Fanfan"),
    ("Gaston", ""),
    ("Hélène", ""),
    ("Inès", ""),
    ("Jacques", "Jacquot"),
    ("Karim", ""),
    ("Léa", ""),
]


def random_tarot_payload(
    rng: random.Random, seat_ids: list[int], number: int, *, sitting_out_dealer: bool = False
) -> dict[str, Any]:
    """A plausible, valid FFT deal for these seats (players by id), mostly small contracts."""
    dealer = seat_ids[(number - 1) % len(seat_ids)]
    sitting = dealer if sitting_out_dealer and len(seat_ids) == 5 else None
    active = [p for p in seat_ids if p != sitting]
    contract = rng.choices(list(scoring.Contract), weights=[45, 40, 10, 5])[0]
    taker = rng.choice(active)
    partner = rng.choice(active) if len(active) == 5 else None
    oudlers = rng.choices([0, 1, 2, 3], weights=[10, 35, 40, 15])[0]
    petit = rng.choices([None, scoring.Side.ATTACK, scoring.Side.DEFENSE], weights=[90, 6, 4])[0]
    possible = sorted(scoring.possible_half_points(len(active), contract, oudlers, None, petit))
    if not possible:
        petit = None
        possible = sorted(scoring.possible_half_points(len(active), contract, oudlers, None, None))
    needed = 2 * scoring.NEEDED[oudlers]
    near = [h for h in possible if abs(h - needed) <= 30] or possible
    handfuls = []
    if rng.random() < 0.08:
        handfuls.append({"player": rng.choice(active), "size": "simple"})
    return {
        "taker": taker,
        "partner": partner,
        "contract": contract.value,
        "points": rng.choice(near) / 2,
        "oudlers": oudlers,
        "petit_au_bout": petit.value if petit else None,
        "handfuls": handfuls,
        "slam": None,
        "sitting_out": sitting,
    }


def demo_people() -> tuple[Club, Any, list[Player]]:
    """The demo club, its organiser (who plays as Aurélie) and its players; Bruno's account is
    a member."""
    user_model = get_user_model()
    organiser = user_model.objects.create_user(DEMO_USER, password=DEMO_PASSWORD)
    club = club_services.club_create(name=DEMO_CLUB, by=organiser)
    players: list[Player] = [
        club_services.player_create(club=club, name=name, nickname=nick) for name, nick in NAMES
    ]
    players[0].user = organiser
    players[0].save(update_fields=["user"])
    member = user_model.objects.create_user(DEMO_MEMBER, password=DEMO_PASSWORD)
    club_services.membership_set(club=club, user=member, role=Membership.Role.MEMBER)
    players[1].user = member
    players[1].save(update_fields=["user"])
    return club, organiser, players
