"""One world with every role the permission matrix and the regression chains tell apart.

Club A (public) has its own players, a club game, and a tournament whose round 1 is closed
and round 2 open; the seated member plays at the club game and at a table of each round.
Club B has its own organiser and a tournament where one of A's players is a guest, with its
own referee. Every write goes through the services, as real evenings leave the database.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Invitation, Membership, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tarot_scores.webhooks import services as webhook_services
from tests.factories import UserFactory, garde, make_tournament, play
from tournaments.models import Entry, PinAttempts, Round, Table, Tournament
from tournaments.people import services as people
from tournaments.play import penalties
from tournaments.registration import referees as referee_services
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services

# Who is asking. The three link roles hold no account: a table's private link is their only
# key (the link of the target table, of another table of the same round, of a closed round).
ROLES = [
    "anonymous",
    "public",
    "member",
    "seated",
    "other_organiser",
    "other_referee",
    "organiser",
    "referee",
    "superuser",
    "link",
    "link_other",
    "link_closed",
]
LINKS = {"link", "link_other", "link_closed"}


@dataclass
class PermissionWorld:
    club: Club
    other: Club
    users: dict[str, User | None]
    tournament: Tournament
    other_tournament: Tournament
    player: Player  # A's own player the seated member plays as
    guest: Player  # A's own player, registered as a guest in B's tournament
    house_rules: HouseRules
    entry: Entry
    games: dict[str, Game]  # "club", "open" (round 2, the seated member's table), "closed"
    deals: dict[str, Deal]
    tables: dict[str, Table]  # "open", "other" (round 2's other table), "closed"
    invitation: Invitation  # A invites the public account to be a member
    extra: dict[str, Any] = field(default_factory=dict)

    def client(self, role: str) -> Client:
        client = Client(raise_request_exception=False)
        user = self.users.get(role)
        if user is not None:
            client.force_login(user)
        return client

    def token(self, role: str) -> str:
        """The table link a role holds; accounts hold none."""
        return {
            "link": self.tables["open"].token,
            "link_other": self.tables["other"].token,
            "link_closed": self.tables["closed"].token,
        }.get(role, "no-such-link")


def _table_of(round_: Round, player: Player) -> Table:
    return Table.objects.get(round=round_, game__seats__player=player)


def build_permission_world() -> PermissionWorld:
    organiser = UserFactory.create(username="olga", email="olga@example.org")
    club = club_services.club_create(name="Club A", by=organiser)
    users: dict[str, User | None] = {role: None for role in ROLES}
    users["organiser"] = organiser
    users["public"] = UserFactory.create(username="paul", email="paul@example.org")
    for role, name in (("member", "marc"), ("seated", "sam")):
        user = UserFactory.create(username=name, email=f"{name}@example.org")
        Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
        users[role] = user
    users["superuser"] = UserFactory.create(username="boss", is_superuser=True, is_staff=True)

    tournament = make_tournament(club, 8, rounds=2, deals_per_round=2)
    player = Player.objects.get(club=club, name="Aurélie")
    club_services.player_link_user(player=player, user=users["seated"])
    users["referee"] = UserFactory.create(username="rita", email="rita@example.org")
    referee_services.referee_add(tournament=tournament, user=users["referee"])

    first = round_services.round_seat_next(tournament=tournament, by=None)
    play(first)  # its last deal closes it
    first.refresh_from_db()
    second = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=second)
    # From round 2 the tournament asks for confirmations: its first deal waits for one, so the
    # confirmation routes meet a real pending deal (round 1's deals count as they stand).
    Tournament.objects.filter(pk=tournament.pk).update(require_confirmation=True)
    tournament.refresh_from_db()
    play(second, deals=1)
    open_table = _table_of(second, player)
    other_table = Table.objects.filter(round=second).exclude(pk=open_table.pk).get()
    closed_table = _table_of(first, player)

    own = list(Player.objects.filter(club=club).exclude(pk=player.pk).order_by("name")[:3])
    club_game = game_services.game_create(
        club=club, players=[player, *own], variant="fft", by=organiser
    )
    game_services.deal_record(game=club_game, payload=garde(player.pk), by=organiser)

    other_organiser = UserFactory.create(username="carla", email="carla@example.org")
    other = club_services.club_create(name="Club B", by=other_organiser)
    users["other_organiser"] = other_organiser
    other_tournament = make_tournament(other, 0, name="Open B")
    guest = Player.objects.get(club=club, name="Chloé")
    registration_services.entry_add(tournament=other_tournament, player=guest, checked_in=True)
    users["other_referee"] = UserFactory.create(username="remi", email="remi@example.org")
    referee_services.referee_add(tournament=other_tournament, user=users["other_referee"])

    # A duplicate tournament of A (two tables, not seated yet): its boards and movement pages.
    duplicate = make_tournament(
        club, 8, name="Duplicate A", format=Tournament.Format.DUPLICATE, rounds=2
    )

    house_rules = club_services.house_rules_save(
        club=club, name="du jeudi", based_on="fft", rules=scoring.FFT
    )
    invitation = club_services.invitation_create(
        club=club, by=organiser, role=Membership.Role.MEMBER, user=users["public"]
    )
    games = {"club": club_game, "open": open_table.game, "closed": closed_table.game}
    deals = {key: game.deals.order_by("number").first() for key, game in games.items()}
    # A penalty in round 1, for the routes that remove one.
    penalty = penalties.penalty_give(
        tournament=tournament,
        entry=Entry.objects.get(tournament=tournament, player=player),
        points=10,
        reason="Late",
        by=organiser,
        round_number=1,
    )
    # A pair kept apart, for the routes that remove one.
    apart_pair = people.apart_pair_add(
        tournament=tournament,
        first=Entry.objects.filter(tournament=tournament).order_by("pk")[0],
        second=Entry.objects.filter(tournament=tournament).order_by("pk")[1],
        reason="Sisters",
        by=organiser,
    )
    # A webhook of the club with a delivery in its log. Its address is this machine's, allowed
    # only while it is registered: every send the routes cause is refused before connecting.
    with override_settings(WEBHOOKS_TEST_HOSTS=["127.0.0.1"]):
        webhook = webhook_services.webhook_create(
            club=club, url="http://127.0.0.1:9/nowhere", by=organiser
        )
    delivery = webhook_services.webhook_ping(webhook=webhook)
    # A phone that may type no PIN at the open table, for the route that lifts the lock.
    pin_lock = PinAttempts.objects.create(
        tournament=tournament,
        place="phone:locked",
        table=open_table,
        locked_until=timezone.now() + datetime.timedelta(minutes=15),
    )
    return PermissionWorld(
        club=club,
        other=other,
        users=users,
        tournament=tournament,
        other_tournament=other_tournament,
        player=player,
        guest=guest,
        house_rules=house_rules,
        entry=tournament.entries.order_by("pk").first(),  # type: ignore[arg-type]
        games=games,
        deals=deals,  # type: ignore[arg-type]
        tables={"open": open_table, "other": other_table, "closed": closed_table},
        invitation=invitation,
        extra={
            "penalty": penalty,
            "duplicate": duplicate,
            "apart_pair": apart_pair,
            "webhook": webhook,
            "delivery": delivery,
            "pin_lock": pin_lock,
        },
    )
