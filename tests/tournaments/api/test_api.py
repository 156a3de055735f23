"""The tournament API: a whole tournament played through it (created, 13 players registered and
checked in, three rounds seated, started and their deals entered table by table, the last one
closed), standings equal to the sum of the score lines, knockout brackets, teams, swapping,
starting and closing a round, refusals per field in French and English, bounded queries, and
random bodies that are never a 500."""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Sum
from django.utils import timezone, translation
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club, HouseRules, Membership
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Game, ScoreLine, Seat
from tests.api.helpers import assert_field_errors as assert_refusal
from tests.api.helpers import assert_problem, messages_of
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory, token_client
from tests.tournaments.open_rounds import deals_leave_rounds_open
from tournaments.models import Entry, Round, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

# Who is asking, from the least to the most trusted.
ROLES = ["anonymous", "outsider", "member", "organiser", "superuser"]
READERS_OF_PRIVATE = {"member", "organiser", "superuser"}
ORGANISERS = {"organiser", "superuser"}
API = "/api/v1/tournaments/"
NAMES = [
    "Aurélie", "Bruno", "Chloé", "Denis", "Émile", "Fanny", "Gaëlle", "Hugo", "Inès", "Jules",
    "Karim", "Léa", "Marc", "Nadia", "Oscar", "Pauline",
]  # fmt: skip


# --- helpers shared with test_api_permissions ---------------------------------------------------
# token_client comes from tests/factories.py, as for the club API's tests.


def send(client: APIClient, method: str, url: str, body: Any = None) -> Any:
    """A request with a JSON body (none for None)."""
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, json.dumps(body), content_type="application/json")


@dataclass
class Event:
    """A club with a tournament and one user per kind of caller."""

    club: Club
    tournament: Tournament
    users: dict[str, User | None] = field(default_factory=dict)

    def client(self, role: str = "organiser", lang: str | None = None) -> APIClient:
        return token_client(self.users[role], lang)

    def url(self, tail: str = "") -> str:
        return f"{API}{self.tournament.pk}/{tail}"


def build_event(*, public: bool = True, tag: str = "", players: int = 0, **options: Any) -> Event:
    """A tournament of a public or private club, with ``players`` registered and checked in."""
    club = ClubFactory.create(name=f"Club {'public' if public else 'privé'} {tag}", public=public)
    users: dict[str, User | None] = {"anonymous": None}
    users["outsider"] = UserFactory.create(username=f"outsider{tag}")
    users["member"] = MembershipFactory.create(
        club=club, user=UserFactory.create(username=f"member{tag}")
    ).user
    users["organiser"] = MembershipFactory.create(
        club=club,
        user=UserFactory.create(username=f"organiser{tag}"),
        role=Membership.Role.ORGANISER,
    ).user
    users["superuser"] = UserFactory.create(username=f"boss{tag}", is_superuser=True)
    settings = {"rounds": 3, "deals_per_round": 2, "seed": 7, **options}
    tournament = registration_services.tournament_create(
        club=club, name="Open de printemps", by=None, **settings
    )
    for i in range(players):
        registration_services.entry_add(
            tournament=tournament, name=NAMES[i % len(NAMES)], checked_in=True
        )
    return Event(club, tournament, users)


def play_round_via_api(client: APIClient, round_: dict[str, Any], rng: random.Random) -> None:
    """Every deal of every table of ``round_`` (an answer of the API), entered through the club
    API's deal endpoint, as a table would."""
    for table in round_["tables"]:
        seats: list[int] = table["players"]
        for number in range(1, table["goal"] + 1):
            payload = random_tarot_payload(rng, seats, number, sitting_out_dealer=len(seats) == 5)
            url = f"/api/v1/games/{table['game']}/deals/"
            response = send(client, "post", url, {**payload, "number": number})
            assert response.status_code == 201, response.content


def play_round(round_: Round, rng: random.Random) -> None:
    """The same through the services: for tests about reads."""
    for state in round_selectors.round_tables(round_=round_):
        seats = [p.pk for p in state.players]
        for number in range(1, round_.tournament.deals_per_round + 1):
            payload = random_tarot_payload(rng, seats, number, sitting_out_dealer=len(seats) == 5)
            game_services.deal_record(game=state.table.game, payload=payload, by=None)


@pytest.fixture
def event(db: None) -> Event:
    return build_event()


# --- a whole tournament -----------------------------------------------------------------------


def test_a_whole_tournament_through_the_api(event: Event) -> None:
    client = event.client("organiser", lang="en")
    response = send(
        client,
        "post",
        API,
        {
            "club": event.club.pk,
            "name": "Open d'automne",
            "variant": "fft",
            "format": "rounds",
            "rounds": 3,
            "deals_per_round": 3,
            "seating": "mixing",
            "seed": 42,
        },
    )
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["status"] == "registration" and created["five_mode"] == "sitting_out"
    base = f"{API}{created['id']}/"

    entries = []
    for name in NAMES[:13]:
        response = send(client, "post", base + "entries/", {"name": name})
        assert response.status_code == 201, response.content
        entries.append(response.json())
        assert entries[-1]["checked_in"] is False and entries[-1]["name"] == name
    assert len(client.get(base + "entries/").json()["results"]) == 13
    # Nobody is checked in yet: no table can be made.
    assert_refusal(send(client, "post", base + "rounds/"), 409)
    for entry in entries:
        response = send(client, "patch", f"{base}entries/{entry['id']}/", {"checked_in": True})
        assert response.status_code == 200 and response.json()["checked_in"] is True

    everyone = sorted(e["player"] for e in entries)
    rng = random.Random(13)
    for number in (1, 2, 3):
        response = send(client, "post", base + "rounds/")
        assert response.status_code == 201, response.content
        round_ = response.json()
        assert round_["number"] == number and round_["status"] == "seated"
        assert sorted(len(t["players"]) for t in round_["tables"]) == [4, 4, 5]
        assert sorted(p for t in round_["tables"] for p in t["players"]) == everyone
        assert all(t["entered"] == 0 and t["goal"] == 3 for t in round_["tables"])
        refused = assert_refusal(send(client, "post", base + "rounds/"), 409)
        assert refused == {"non_field_errors": [f"Round {number} is still being played."]}
        started = send(client, "post", f"{base}rounds/{number}/start/")
        assert started.status_code == 200 and started.json()["status"] == "playing"

        play_round_via_api(client, round_, rng)

        progress = client.get(base + "rounds/").json()["results"]
        assert [r["number"] for r in progress] == list(range(1, number + 1))
        assert progress[-1]["complete"] is True
        assert all(t["entered"] == 3 and t["complete"] for t in progress[-1]["tables"])
        # The last deal entered through the API closed the round, as a table's link would.
        assert progress[-1]["status"] == "closed"
    refused = assert_refusal(send(client, "post", base + "rounds/"), 409)
    assert refused == {"non_field_errors": ["All 3 rounds have been played."]}
    # The last round's last deal closed it, and that is the end.
    rounds = client.get(base + "rounds/").json()["results"]
    assert [r["status"] for r in rounds] == ["closed"] * 3
    assert client.get(base).json()["status"] == "finished"
    again = assert_refusal(send(client, "post", base + "rounds/3/close/"), 409)
    assert again == {"non_field_errors": ["This round is already closed."]}

    standings = client.get(base + "standings/").json()["results"]
    assert len(standings) == 13
    for row in standings:
        lines = ScoreLine.objects.filter(
            player_id=row["player"],
            deal__deleted_at__isnull=True,
            deal__game__tournament_table__round__tournament_id=created["id"],
        )
        assert row["total"] == lines.aggregate(total=Sum("points"))["total"]
        assert row["total"] == sum(r for r in row["rounds"] if r is not None)
        assert len(row["rounds"]) == 3 and row["team"] is None
    assert sum(row["total"] for row in standings) == 0
    assert [r["total"] for r in standings] == sorted((r["total"] for r in standings), reverse=True)
    assert standings[0]["rank"] == 1
    assert [r["rank"] for r in standings] == sorted(r["rank"] for r in standings)
    # Not a knockout: no bracket.
    refused = assert_refusal(client.get(base + "bracket/"), 404)
    assert refused == {
        "non_field_errors": ["This tournament is not a knockout: it has standings, no bracket."]
    }


def test_a_knockout_goes_down_to_a_final_table_and_its_bracket(db: None) -> None:
    event = build_event(players=8, format=Tournament.Format.KNOCKOUT, qualifiers_per_table=2)
    client = event.client("organiser", lang="en")
    rng = random.Random(8)

    first = send(client, "post", event.url("rounds/")).json()
    assert [len(t["players"]) for t in first["tables"]] == [4, 4]
    play_round_via_api(client, first, rng)
    bracket = client.get(event.url("bracket/")).json()
    (stage,) = bracket["stages"]
    assert stage["final"] is False and stage["complete"] is True and bracket["ranking"] == []
    for table in stage["tables"]:
        points = [seat["points"] for seat in table["players"]]
        assert points == sorted(points, reverse=True)  # best first
        assert [seat["qualified"] for seat in table["players"]] == [True, True, False, False]
    qualified = sorted(s["player"] for t in stage["tables"] for s in t["players"] if s["qualified"])
    assert stage["qualified"] == qualified

    final = send(client, "post", event.url("rounds/")).json()
    assert sorted(final["tables"][0]["players"]) == qualified and len(final["tables"]) == 1
    play_round_via_api(client, final, rng)
    bracket = client.get(event.url("bracket/")).json()
    assert [s["final"] for s in bracket["stages"]] == [False, True]
    ranking = bracket["ranking"]
    assert [r["rank"] for r in ranking] == list(range(1, 9))
    final_order = [s["player"] for s in bracket["stages"][1]["tables"][0]["players"]]
    assert [r["player"] for r in ranking[:4]] == final_order
    assert {r["player"] for r in ranking[4:]} == {
        e.player_id for e in event.tournament.entries.all()
    } - set(qualified)
    refused = assert_refusal(send(client, "post", event.url("rounds/")), 409)
    assert refused == {"non_field_errors": ["The final table has been played."]}
    # The final's last deal, entered through the API, closed it and finished the knockout.
    assert client.get(event.url()).json()["status"] == "finished"


def test_teams_are_made_at_registration_and_ranked_by_their_members(db: None) -> None:
    event = build_event(team_size=2, rounds=1)
    client = event.client("organiser", lang="en")
    for i, team in enumerate(["Les Excuses", "les excuses", "Petit au bout", "Petit au bout"]):
        body = {"name": NAMES[i], "team": team, "checked_in": True}
        response = send(client, "post", event.url("entries/"), body)
        assert response.status_code == 201 and response.json()["team"] in (
            "Les Excuses",
            "Petit au bout",
        )
    full = send(client, "post", event.url("entries/"), {"name": "Zoé", "team": "Les Excuses"})
    assert assert_refusal(full) == {"team": ["Les Excuses already has its 2 players."]}
    assert not event.tournament.entries.filter(player__name="Zoé").exists()

    round_ = send(client, "post", event.url("rounds/")).json()
    play_round_via_api(client, round_, random.Random(2))
    teams = client.get(event.url("teams/standings/")).json()["results"]
    players = {r["name"]: r for r in client.get(event.url("standings/")).json()["results"]}
    assert len(teams) == 2 and teams[0]["total"] >= teams[1]["total"]
    for team in teams:
        assert sorted(team["members"]) == sorted(
            n for n, r in players.items() if r["team"] == team["name"]
        )
        assert team["total"] == sum(players[m]["total"] for m in team["members"])


def test_an_individual_tournament_has_no_teams(event: Event) -> None:
    client = event.client("organiser", lang="en")
    response = send(client, "post", event.url("entries/"), {"name": "Aurélie", "team": "A"})

    assert assert_refusal(response) == {"team": ["This tournament is individual: it has no teams."]}
    assert client.get(event.url("teams/standings/")).json()["results"] == []


def test_a_late_arrival_plays_from_the_next_round_and_a_withdrawal_keeps_its_points(
    db: None,
) -> None:
    event = build_event(players=8)
    client = event.client("organiser", lang="en")
    first = send(client, "post", event.url("rounds/")).json()
    play_round_via_api(client, first, random.Random(1))

    late = send(client, "post", event.url("entries/"), {"name": "En retard", "checked_in": True})
    assert late.status_code == 201 and late.json()["first_round"] == 2
    leaving = event.tournament.entries.order_by("id").first()
    assert leaving is not None
    url = event.url(f"entries/{leaving.pk}/")
    withdrawn = send(client, "patch", url, {"withdrawn": True}).json()
    assert withdrawn["withdrawn"] is True and withdrawn["withdrawn_after"] == 1
    again = send(client, "patch", url, {"withdrawn": True}).json()
    assert again["withdrawn_after"] == 1  # withdrawing twice changes nothing
    undo = send(client, "patch", url, {"withdrawn": False})
    assert assert_refusal(undo) == {"withdrawn": ["A withdrawal cannot be undone."]}

    second = send(client, "post", event.url("rounds/")).json()
    seated = {p for t in second["tables"] for p in t["players"]}
    assert late.json()["player"] in seated and leaving.player_id not in seated
    rows = {r["player"]: r for r in client.get(event.url("standings/")).json()["results"]}
    assert rows[leaving.player_id]["rounds"][1] is None
    assert rows[late.json()["player"]]["rounds"][0] is None


def test_a_club_player_or_a_guest_from_another_readable_club_can_be_registered(
    event: Event,
) -> None:
    client = event.client("organiser", lang="en")
    home = club_services.player_create(club=event.club, name="Chloé")
    other_club = ClubFactory.create(name="Voisins", public=True)
    guest = club_services.player_create(club=other_club, name="Invité")

    for player in (home, guest):
        response = send(client, "post", event.url("entries/"), {"player": player.pk})
        assert response.status_code == 201, response.content
        assert response.json()["player"] == player.pk
    assert guest.clubs.filter(pk=event.club.pk).exists()  # the guest joined the club
    again = send(client, "post", event.url("entries/"), {"player": home.pk})
    assert assert_refusal(again) == {"player": ["Chloé is already registered."]}


def test_a_tournament_under_house_rules_and_with_every_option(event: Event) -> None:
    client = event.client("organiser", lang="en")
    rules = HouseRules.objects.create(club=event.club, name="Maison", based_on="fft")
    body = {
        "club": event.club.pk,
        "name": "  Coupe du club  ",
        "variant": rules.pk,
        "format": "knockout",
        "rounds": 4,
        "deals_per_round": 6,
        "seating": "swiss",
        "seed": 0,
        "five_mode": "called_king",
        "allow_threes": True,
        "team_size": 4,
        "qualifiers_per_table": 1,
        "round_minutes": 90,
        "date": "2026-05-16",
    }
    response = send(client, "post", API, body)

    assert response.status_code == 201, response.content
    created = response.json()
    assert created["name"] == "Coupe du club" and created["variant"] == "house"
    assert created["house_rules"] == rules.pk and created["date"] == "2026-05-16"
    for key in ("format", "rounds", "deals_per_round", "seating", "seed", "five_mode"):
        assert created[key] == body[key]
    for key in ("allow_threes", "team_size", "qualifiers_per_table", "round_minutes"):
        assert created[key] == body[key]
    assert client.get(f"{API}{created['id']}/").json() == created


def test_defaults_need_only_a_club_and_a_name(event: Event) -> None:
    response = send(
        event.client("organiser"), "post", API, {"club": event.club.pk, "name": "Tournoi"}
    )

    assert response.status_code == 201, response.content
    created = response.json()
    assert (created["variant"], created["format"], created["seating"]) == (
        "fft",
        "rounds",
        "mixing",
    )
    assert (created["rounds"], created["deals_per_round"], created["team_size"]) == (3, 8, 0)
    assert 0 <= created["seed"] < 1_000_000


def test_the_list_is_paginated_and_filtered_by_club(event: Event) -> None:
    other = build_event(tag="x")
    client = event.client("anonymous")

    everything = client.get(API).json()
    only_one = client.get(API, {"club": event.club.pk}).json()

    assert {t["id"] for t in everything["results"]} >= {event.tournament.pk, other.tournament.pk}
    assert everything["count"] >= 2 and "next" in everything
    assert [t["id"] for t in only_one["results"]] == [event.tournament.pk]
    assert assert_refusal(client.get(API, {"club": "abc"})).keys() == {"club"}
    assert client.get(API, {"club": 10**30}).status_code == 400
    assert client.get(API, {"club": 999_999}).status_code == 404


# --- running a round: swapping seats, starting the countdown, closing ---------------------------


@pytest.fixture
def seated(db: None) -> Event:
    """Eight players checked in and round 1 seated at two tables of four, nothing played."""
    event = build_event(players=8)
    round_services.round_seat_next(tournament=event.tournament, by=None)
    return event


def round_one(event: Event) -> Round:
    return event.tournament.round_set.get(number=1)


def seat_map(round_: Round) -> dict[int, tuple[int, int]]:
    """Where each player of the round sits: player id -> (game id, seat position)."""
    seats = Seat.objects.filter(game__tournament_table__round=round_)
    return {s.player_id: (s.game_id, s.position) for s in seats}


def test_a_swap_gives_each_player_the_others_table_and_seat(seated: Event) -> None:
    client = seated.client("organiser", lang="en")
    before = seat_map(round_one(seated))
    first, second = client.get(seated.url("rounds/")).json()["results"][0]["tables"]
    a, b = first["players"][0], second["players"][2]

    response = send(client, "post", seated.url("rounds/1/swap/"), {"first": a, "second": b})

    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer == client.get(seated.url("rounds/")).json()["results"][0]  # the round as listed
    assert answer["status"] == "seated"
    one, two = answer["tables"]
    assert one["players"] == [b, *first["players"][1:]]
    assert two["players"] == [*second["players"][:2], a, second["players"][3]]
    assert (one["names"][0], two["names"][2]) == (second["names"][2], first["names"][0])
    after = seat_map(round_one(seated))
    assert (after[a], after[b]) == (before[b], before[a])
    others = {p: seat for p, seat in after.items() if p not in (a, b)}
    assert others == {p: seat for p, seat in before.items() if p not in (a, b)}
    # The tables' games, which take the deals, have the new seats too.
    assert [p["id"] for p in client.get(f"/api/v1/games/{one['game']}/").json()["players"]] == (
        one["players"]
    )
    round_ = round_one(seated)
    assert round_.started_at is None and round_.status == Round.Status.SEATED


def test_two_players_of_the_same_table_swap_seats(seated: Event) -> None:
    client = seated.client("organiser")
    a, b, c, d = client.get(seated.url("rounds/")).json()["results"][0]["tables"][0]["players"]

    response = send(client, "post", seated.url("rounds/1/swap/"), {"first": d, "second": a})

    assert response.status_code == 200, response.content
    assert response.json()["tables"][0]["players"] == [d, b, c, a]  # d deals first now


def test_starting_a_round_runs_its_countdown_once(seated: Event) -> None:
    client = seated.client("organiser", lang="en")
    url = seated.url("rounds/1/start/")
    earliest = timezone.now()

    response = send(client, "post", url)

    assert response.status_code == 200, response.content
    assert response.json() == client.get(seated.url("rounds/")).json()["results"][0]
    assert response.json()["status"] == "playing"
    round_ = round_one(seated)
    assert round_.status == Round.Status.PLAYING and round_.closed_at is None
    assert round_.started_at is not None and earliest <= round_.started_at <= timezone.now()
    # What an app needs for the countdown: when it began and when time is up.
    answer = response.json()
    started = datetime.datetime.fromisoformat(answer["started_at"].replace("Z", "+00:00"))
    ends = datetime.datetime.fromisoformat(answer["ends_at"].replace("Z", "+00:00"))
    assert started == round_.started_at and answer["closed_at"] is None
    assert ends - started == datetime.timedelta(minutes=seated.tournament.round_minutes)
    again = send(client, "post", url)
    assert assert_refusal(again, 409) == {"non_field_errors": ["This round has already started."]}
    assert round_one(seated).started_at == round_.started_at  # the countdown keeps running
    # It reads no body: a field sent is refused before anything else is looked at.
    with_field = send(client, "post", url, {"anything": "ignored"})
    assert assert_refusal(with_field, 400) == {"anything": ["Unknown field."]}


@pytest.mark.parametrize("since", ["started", "first_deal"])
def test_no_swap_once_the_round_has_started_or_its_first_deal_is_in(
    seated: Event, since: str
) -> None:
    round_ = round_one(seated)
    if since == "started":
        round_services.round_start(round_=round_)
    else:  # not started, but a table has entered its first deal
        state = round_selectors.round_tables(round_=round_)[1]
        payload = random_tarot_payload(random.Random(1), [p.pk for p in state.players], 1)
        game_services.deal_record(game=state.table.game, payload=payload, by=None)
    before = seat_map(round_)
    a, b = list(before)[:2]

    response = send(
        seated.client("organiser", lang="en"),
        "post",
        seated.url("rounds/1/swap/"),
        {"first": a, "second": b},
    )

    assert assert_refusal(response, 409) == {
        "non_field_errors": ["Players can only be swapped before the round starts."]
    }
    assert seat_map(round_) == before


def test_a_player_not_seated_in_the_round_cannot_be_swapped(seated: Event) -> None:
    client = seated.client("organiser", lang="en")
    round_ = round_one(seated)
    before = seat_map(round_)
    seated_player = next(iter(before))
    late = registration_services.entry_add(
        tournament=seated.tournament, name="En retard", checked_in=True
    )
    onlooker = club_services.player_create(club=seated.club, name="Spectateur")

    for outside in (late.player_id, onlooker.pk):  # registered for round 2; not registered
        body = {"first": seated_player, "second": outside}
        response = send(client, "post", seated.url("rounds/1/swap/"), body)
        assert assert_refusal(response, 409) == {
            "non_field_errors": ["Both players must be seated in this round."]
        }
    assert seat_map(round_) == before


def test_closing_a_round_finishes_its_games_once_every_deal_is_in(seated: Event) -> None:
    client = seated.client("organiser", lang="en")
    url = seated.url("rounds/1/close/")
    round_services.round_start(round_=round_one(seated))

    early = send(client, "post", url)

    assert assert_refusal(early, 409) == {
        "non_field_errors": ["Some tables have not entered all their deals yet."]
    }
    assert round_one(seated).status == Round.Status.PLAYING
    with deals_leave_rounds_open():  # the organiser's close is what closes it here
        play_round_via_api(
            client, client.get(seated.url("rounds/")).json()["results"][0], random.Random(5)
        )
    # It reads no body: a field sent is refused, not ignored, and the round stays open.
    refused = send(client, "post", url, {"anything": "ignored"})
    assert assert_refusal(refused, 400) == {"anything": ["Unknown field."]}
    assert round_one(seated).status == Round.Status.PLAYING
    earliest = timezone.now()

    response = send(client, "post", url)

    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer == client.get(seated.url("rounds/")).json()["results"][0]
    assert answer["status"] == "closed" and answer["complete"] is True
    assert all(t["entered"] == t["goal"] == 2 for t in answer["tables"])
    round_ = round_one(seated)
    assert round_.closed_at is not None and earliest <= round_.closed_at <= timezone.now()
    games = Game.objects.filter(tournament_table__round=round_)
    assert [g.status for g in games] == [Game.Status.FINISHED] * 2
    assert client.get(seated.url()).json()["status"] == "running"  # two rounds to go

    again = send(client, "post", url)
    restart = send(client, "post", seated.url("rounds/1/start/"))
    a, b = answer["tables"][0]["players"][:2]
    swap = send(client, "post", seated.url("rounds/1/swap/"), {"first": a, "second": b})

    assert assert_refusal(again, 409) == {"non_field_errors": ["This round is already closed."]}
    assert assert_refusal(restart, 409) == {"non_field_errors": ["This round has already started."]}
    assert assert_refusal(swap, 409) == {
        "non_field_errors": ["Players can only be swapped before the round starts."]
    }
    assert round_one(seated).closed_at == round_.closed_at


def test_a_round_can_be_closed_without_being_started(seated: Event) -> None:
    client = seated.client("organiser")
    with deals_leave_rounds_open():
        play_round(round_one(seated), random.Random(3))

    response = send(client, "post", seated.url("rounds/1/close/"))

    assert response.status_code == 200 and response.json()["status"] == "closed"
    assert round_one(seated).started_at is None
    answer = response.json()
    assert answer["started_at"] is None and answer["ends_at"] is None
    closed = datetime.datetime.fromisoformat(answer["closed_at"].replace("Z", "+00:00"))
    assert closed == round_one(seated).closed_at


ROUND_REFUSALS = {
    "en": [
        (400, {"second": ["Choose two different players."]}),
        (409, {"non_field_errors": ["Both players must be seated in this round."]}),
        (409, {"non_field_errors": ["Some tables have not entered all their deals yet."]}),
        (409, {"non_field_errors": ["This round has already started."]}),
        (409, {"non_field_errors": ["Players can only be swapped before the round starts."]}),
        (409, {"non_field_errors": ["This round is already closed."]}),
    ],
    "fr": [
        (400, {"second": ["Choisissez deux joueurs différents."]}),
        (409, {"non_field_errors": ["Les deux joueurs doivent être placés dans cette séance."]}),
        (409, {"non_field_errors": ["Certaines tables n'ont pas encore saisi toutes leurs "
                                    "donnes."]}),
        (409, {"non_field_errors": ["Cette séance a déjà commencé."]}),
        (409, {"non_field_errors": ["On ne peut échanger des joueurs qu'avant le début de la "
                                    "séance."]}),
        (409, {"non_field_errors": ["Cette séance est déjà close."]}),
    ],
}  # fmt: skip


@pytest.mark.parametrize(("lang", "expected"), [("en", "en"), ("fr", "fr"), (None, "fr")])
def test_each_refusal_about_a_round_in_the_readers_language(
    seated: Event, lang: str | None, expected: str
) -> None:
    client = seated.client("organiser", lang=lang)
    a, b = list(seat_map(round_one(seated)))[:2]
    onlooker = club_services.player_create(club=seated.club, name="Spectateur")

    def post(action: str, body: Any = None) -> tuple[int, Any]:
        response = send(client, "post", seated.url(f"rounds/1/{action}/"), body)
        return response.status_code, assert_refusal(response, response.status_code)

    answers = [
        post("swap", {"first": a, "second": a}),
        post("swap", {"first": a, "second": onlooker.pk}),
        post("close"),
    ]
    round_services.round_start(round_=round_one(seated))
    answers += [post("start"), post("swap", {"first": a, "second": b})]
    play_round(round_one(seated), random.Random(2))  # its last deal closes the round
    answers.append(post("close"))

    assert answers == ROUND_REFUSALS[expected]


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({}, {"first": ["This field is required."], "second": ["This field is required."]}),
        ({"first": "@a"}, {"second": ["This field is required."]}),
        ({"first": "@a", "second": "@a"}, {"second": ["Choose two different players."]}),
        ({"first": "@a", "second": None}, {"second": ["This field may not be null."]}),
        ({"first": "Chloé", "second": "@b"},
         {"first": ["Incorrect type. Expected pk value, received str."]}),
        ({"first": "@a", "second": "12"},
         {"second": ["Incorrect type. Expected pk value, received str."]}),
        ({"first": True, "second": "@b"},
         {"first": ["Incorrect type. Expected pk value, received bool."]}),
        ({"first": 2.5, "second": "@b"},
         {"first": ["Incorrect type. Expected pk value, received float."]}),
        ({"first": 10**30, "second": "@b"},
         {"first": ["Incorrect type. Expected pk value, received int."]}),
        ({"first": ["@a"], "second": "@b"},
         {"first": ["Incorrect type. Expected pk value, received list."]}),
        ({"first": "@a", "second": 999_999},
         {"second": ['Invalid pk "999999" - object does not exist.']}),
        ({"first": 999_998, "second": 999_999},
         {"first": ['Invalid pk "999998" - object does not exist.'],
          "second": ['Invalid pk "999999" - object does not exist.']}),
        ([{"first": "@a", "second": "@b"}],
         {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}),
        ("swap", {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}),
    ],
)  # fmt: skip
def test_each_field_of_a_swap_is_checked(
    seated: Event, body: Any, errors: dict[str, list[str]]
) -> None:
    round_ = round_one(seated)
    before = seat_map(round_)
    a, b = list(before)[:2]

    response = send(
        seated.client("organiser", lang="en"),
        "post",
        seated.url("rounds/1/swap/"),
        with_ids(body, {"@a": a, "@b": b}),
    )

    assert assert_refusal(response) == errors
    assert seat_map(round_) == before


def test_a_player_of_a_private_club_one_cannot_read_cannot_be_swapped_in(seated: Event) -> None:
    hidden = club_services.player_create(club=ClubFactory.create(public=False), name="Secret")
    a = next(iter(seat_map(round_one(seated))))

    response = send(
        seated.client("organiser", lang="en"),
        "post",
        seated.url("rounds/1/swap/"),
        {"first": a, "second": hidden.pk},
    )

    assert assert_refusal(response) == {
        "second": [f'Invalid pk "{hidden.pk}" - object does not exist.']
    }


@pytest.mark.parametrize("action", ["start", "close", "swap"])
def test_an_unknown_round_is_404_before_the_body_is_read(seated: Event, action: str) -> None:
    client = seated.client("organiser", lang="en")

    for number in (0, 2, 10**30):
        response = send(client, "post", seated.url(f"rounds/{number}/{action}/"), {})
        assert assert_refusal(response, 404) == {"non_field_errors": ["Not found."]}
    unknown_tournament = send(client, "post", f"{API}{10**30}/rounds/1/{action}/", {})
    assert_refusal(unknown_tournament, 404)
    assert round_one(seated).status == Round.Status.SEATED


# --- refusals per field, in French and English ------------------------------------------------

BAD_TOURNAMENT = {
    "name": "",
    "variant": "uno",
    "format": "league",
    "rounds": 0,
    "seating": "circle",
    "team_size": 3,
    "allow_threes": "maybe",
}
BAD_TOURNAMENT_ERRORS = {
    "en": {
        "name": ["This field may not be blank."],
        "variant": ["Unknown rule set “uno”. Choose one of: fft, classic."],
        "format": ['"league" is not a valid choice.'],
        "rounds": ["Ensure this value is greater than or equal to 1."],
        "seating": ['"circle" is not a valid choice.'],
        "team_size": ['"3" is not a valid choice.'],
        "allow_threes": ["Must be a valid boolean."],
    },
    "fr": {
        "name": ["Ce champ ne peut être vide."],
        "variant": ["Règle inconnue « uno ». Choisissez parmi : fft, classic."],
        "format": ["«\u00a0league\u00a0» n'est pas un choix valide."],
        "rounds": ["Assurez-vous que cette valeur est supérieure ou égale à\u00a01."],
        "seating": ["«\u00a0circle\u00a0» n'est pas un choix valide."],
        "team_size": ["«\u00a03\u00a0» n'est pas un choix valide."],
        "allow_threes": ["Doit être un booléen valide."],
    },
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_bad_tournament_gets_a_message_per_field(event: Event, lang: str) -> None:
    before = Tournament.objects.count()
    body = {"club": event.club.pk, **BAD_TOURNAMENT}

    response = send(event.client("organiser", lang=lang), "post", API, body)

    assert assert_refusal(response) == BAD_TOURNAMENT_ERRORS[lang]
    assert Tournament.objects.count() == before


def test_french_is_the_default(event: Event) -> None:
    body = {"club": event.club.pk, **BAD_TOURNAMENT}

    response = send(event.client("organiser"), "post", API, body)

    assert assert_refusal(response) == BAD_TOURNAMENT_ERRORS["fr"]


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({}, {"name": ["This field is required."]}),
        ({"name": "x" * 121}, {"name": ["Ensure this field has no more than 120 characters."]}),
        ({"name": "Open\x00"}, {"name": ["Null characters are not allowed."]}),
        ({"name": "Open", "variant": True}, {"variant": ["Unknown rule set “true”. Choose one "
                                                          "of: fft, classic."]}),
        ({"name": "Open", "rounds": 21}, {"rounds": ["Ensure this value is less than or equal "
                                                      "to 20."]}),
        ({"name": "Open", "deals_per_round": 41},
         {"deals_per_round": ["Ensure this value is less than or equal to 40."]}),
        ({"name": "Open", "round_minutes": 4},
         {"round_minutes": ["Ensure this value is greater than or equal to 5."]}),
        ({"name": "Open", "rounds": 2.5}, {"rounds": ["A valid integer is required."]}),
        ({"name": "Open", "seed": -1}, {"seed": ["Ensure this value is greater than or equal "
                                                  "to 0."]}),
        ({"name": "Open", "seed": 10**40}, {"seed": ["Ensure this value is less than or equal "
                                                      "to 2147483647."]}),
        ({"name": "Open", "qualifiers_per_table": 5},
         {"qualifiers_per_table": ["Ensure this value is less than or equal to 4."]}),
        ({"name": "Open", "date": "2026-02-30"},
         {"date": ["Date has wrong format. Use one of these formats instead: YYYY-MM-DD."]}),
        ({"name": "Open", "five_mode": "dummy"}, {"five_mode": ['"dummy" is not a valid choice.']}),
    ],
)  # fmt: skip
def test_each_field_of_a_tournament_is_checked(
    event: Event, body: dict[str, Any], errors: dict[str, list[str]]
) -> None:
    response = send(
        event.client("organiser", lang="en"), "post", API, {"club": event.club.pk, **body}
    )

    assert assert_refusal(response) == errors


def test_the_club_is_checked_first(event: Event) -> None:
    response = send(event.client("organiser", lang="en"), "post", API, {"rounds": "x"})

    assert assert_refusal(response) == {"club": ["This field is required."]}


def test_house_rules_of_another_club_do_not_exist_here(event: Event) -> None:
    other = ClubFactory.create(name="Ailleurs")
    rules = HouseRules.objects.create(club=other, name="Leurs règles", based_on="fft")
    body = {"club": event.club.pk, "name": "Open", "variant": rules.pk}

    response = send(event.client("organiser", lang="en"), "post", API, body)

    assert assert_refusal(response) == {
        "variant": [f'Invalid pk "{rules.pk}" - object does not exist.']
    }


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({}, {"player": ["Choose a player or type a name."]}),
        ({"name": "   "}, {"player": ["Choose a player or type a name."]}),
        ({"player": None, "name": ""}, {"player": ["Choose a player or type a name."]}),
        ({"player": "Chloé"}, {"player": ["Incorrect type. Expected pk value, received str."]}),
        ({"player": True}, {"player": ["Incorrect type. Expected pk value, received bool."]}),
        ({"player": 10**30}, {"player": ["Incorrect type. Expected pk value, received int."]}),
        ({"player": 999_999}, {"player": ['Invalid pk "999999" - object does not exist.']}),
        ({"name": "x" * 61}, {"name": ["Ensure this field has no more than 60 characters."]}),
        ({"name": "Zoé", "checked_in": "peut-être"}, {"checked_in": ["Must be a valid boolean."]}),
        ({"name": "Zoé", "team": ["A"]}, {"team": ["Not a valid string."]}),
        ([{"name": "Zoé"}],
         {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}),
    ],
)  # fmt: skip
def test_each_field_of_an_entry_is_checked(
    event: Event, body: Any, errors: dict[str, list[str]]
) -> None:
    response = send(event.client("organiser", lang="en"), "post", event.url("entries/"), body)

    assert assert_refusal(response) == errors
    assert not event.tournament.entries.exists()


def test_a_player_or_a_name_not_both(event: Event) -> None:
    player = club_services.player_create(club=event.club, name="Chloé")
    body = {"player": player.pk, "name": "Chloé"}

    response = send(event.client("organiser", lang="en"), "post", event.url("entries/"), body)

    assert assert_refusal(response) == {"name": ["Give a player or a name, not both."]}


def test_a_player_of_a_private_club_one_cannot_read_does_not_exist(event: Event) -> None:
    hidden = club_services.player_create(club=ClubFactory.create(public=False), name="Secret")

    response = send(
        event.client("organiser", lang="en"), "post", event.url("entries/"), {"player": hidden.pk}
    )

    assert assert_refusal(response) == {
        "player": [f'Invalid pk "{hidden.pk}" - object does not exist.']
    }


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"checked_in": "maybe"}, {"checked_in": ["Must be a valid boolean."]}),
        ({"withdrawn": None}, {"withdrawn": ["This field may not be null."]}),
        ("yes", {"non_field_errors": ["Invalid data. Expected a dictionary, but got str."]}),
    ],
)
def test_each_field_of_an_entry_change_is_checked(
    event: Event, body: Any, errors: dict[str, list[str]]
) -> None:
    entry = registration_services.entry_add(tournament=event.tournament, name="Chloé")
    url = event.url(f"entries/{entry.pk}/")

    response = send(event.client("organiser", lang="en"), "patch", url, body)

    assert assert_refusal(response) == errors
    entry.refresh_from_db()
    assert entry.checked_in is False and entry.withdrawn_after is None


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        (
            "en",
            "At least 4 players are needed to make a table, as tables of 3 are not allowed "
            "(here 2).",
        ),
        (
            "fr",
            "Il faut au moins 4 joueurs pour former une table, les tables de 3 n'étant pas "
            "autorisées (ici 2).",
        ),
    ],
)
def test_too_few_players_for_a_table_is_a_conflict_in_the_readers_language(
    db: None, lang: str, message: str
) -> None:
    event = build_event(players=2)

    response = send(event.client("organiser", lang=lang), "post", event.url("rounds/"))

    assert assert_refusal(response, 409) == {"non_field_errors": [message]}
    assert not event.tournament.round_set.exists()


# This module's own messages: French once tournaments_api.po is merged into the catalogue.
OWN_MESSAGES = [
    "Give a player or a name, not both.",
    "A withdrawal cannot be undone.",
    "This tournament is not a knockout: it has standings, no bracket.",
    "This tournament is individual: it has no teams.",
]


def test_own_messages_are_french_by_default(db: None) -> None:
    with translation.override("fr"):
        translated = [translation.gettext(m) for m in OWN_MESSAGES]
    if translated == OWN_MESSAGES:
        pytest.skip("locale fragments/tournaments_api.po not merged into django.po yet")
    event = build_event(players=4)
    client = event.client("organiser")
    entry = event.tournament.entries.order_by("id").first()
    assert entry is not None
    both = {"player": entry.player_id, "name": "X"}
    send(client, "patch", event.url(f"entries/{entry.pk}/"), {"withdrawn": True})

    answers = [
        messages_of(send(client, "post", event.url("entries/"), both).json())["name"][0],
        messages_of(
            send(client, "patch", event.url(f"entries/{entry.pk}/"), {"withdrawn": False}).json()
        )["withdrawn"][0],
        messages_of(client.get(event.url("bracket/")).json())["non_field_errors"][0],
        messages_of(send(client, "post", event.url("entries/"), {"name": "Y", "team": "T"}).json())[
            "team"
        ][0],
    ]
    assert answers == translated


# --- bodies that are not JSON objects ---------------------------------------------------------


def test_bodies_that_are_not_json_are_refused_with_the_usual_shape(event: Event) -> None:
    client = event.client("organiser", lang="en")
    url = event.url("entries/")

    broken = client.post(url, "{", content_type="application/json")
    text = client.post(url, "name=Zoé", content_type="text/plain")
    form = client.post(url, {"name": "Zoé"}, format="multipart")
    large = client.post(url, json.dumps({"name": "x" * 70_000}), content_type="application/json")
    nan = client.post(url, '{"player": NaN}', content_type="application/json")

    assert assert_refusal(broken)["non_field_errors"][0].startswith("The body is not valid JSON")
    assert assert_refusal(text, 415).keys() == {"non_field_errors"}
    assert assert_refusal(form, 415).keys() == {"non_field_errors"}
    assert assert_refusal(large, 413).keys() == {"non_field_errors"}
    assert assert_refusal(nan).keys() == {"non_field_errors"}
    assert not event.tournament.entries.exists()


def test_ids_too_large_for_the_database_are_404_not_500(event: Event) -> None:
    client = event.client("organiser")

    assert client.get(f"{API}{10**30}/").status_code == 404
    assert client.get(event.url(f"entries/{10**30}/")).status_code == 404
    assert send(client, "patch", event.url(f"entries/{10**30}/"), {}).status_code == 404


# --- queries do not grow with the number of deals ---------------------------------------------


def _played(rounds: int, deals: int) -> Event:
    event = build_event(players=9, rounds=rounds, deals_per_round=deals, tag=f"{rounds}-{deals}")
    rng = random.Random(rounds * 100 + deals)
    for _ in range(rounds):
        play_round(round_services.round_seat_next(tournament=event.tournament, by=None), rng)
    return event


# token, tournament, then the read itself: standings_for and team_standings_for take 2 queries
# (the stored standings), tournament_rounds 3, the entries 1.
QUERY_BUDGET = {"standings/": 4, "teams/standings/": 4, "rounds/": 5, "entries/": 3, "": 2}


@pytest.mark.parametrize("size", [(1, 1), (3, 8)])
@pytest.mark.parametrize("tail", list(QUERY_BUDGET))
def test_reads_take_a_fixed_number_of_queries(
    db: None, django_assert_max_num_queries: DjangoAssertNumQueries, size: Any, tail: str
) -> None:
    event = _played(*size)  # 1 round of 1 deal, or 3 rounds of 8 deals
    client = event.client("member")

    with django_assert_max_num_queries(QUERY_BUDGET[tail]):
        response = client.get(event.url(tail))

    assert response.status_code == 200


@pytest.mark.parametrize("deals", [1, 6])
def test_a_knockout_bracket_grows_with_stages_not_deals(
    db: None, django_assert_max_num_queries: DjangoAssertNumQueries, deals: int
) -> None:
    event = build_event(players=8, format=Tournament.Format.KNOCKOUT, deals_per_round=deals)
    rng = random.Random(4)
    for _ in range(2):
        play_round(round_services.round_seat_next(tournament=event.tournament, by=None), rng)

    with django_assert_max_num_queries(4 + 2 * 2):  # 2 per stage; 1 for the penalties
        response = event.client("anonymous").get(event.url("bracket/"))

    assert len(response.json()["ranking"]) == 8


# --- random bodies are never a 500 ------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children)
    ),
    max_leaves=12,
)
TOURNAMENT_BODIES = JSON_VALUES | st.fixed_dictionaries(
    {},
    optional={
        "club": st.just("@club") | JSON_VALUES,
        "name": st.text(max_size=130) | JSON_VALUES,
        "variant": st.sampled_from(["fft", "classic", "novatarok", "@rules"]) | JSON_VALUES,
        "format": st.sampled_from(["rounds", "knockout"]) | JSON_VALUES,
        "rounds": st.integers(-2, 60) | JSON_VALUES,
        "deals_per_round": st.integers(-2, 120) | JSON_VALUES,
        "seating": st.sampled_from(["random", "mixing", "swiss", "fixed"]) | JSON_VALUES,
        "seed": st.integers() | JSON_VALUES,
        "five_mode": st.sampled_from(["sitting_out", "called_king"]) | JSON_VALUES,
        "allow_threes": JSON_VALUES,
        "team_size": st.integers(-1, 5) | JSON_VALUES,
        "qualifiers_per_table": st.integers(-1, 6) | JSON_VALUES,
        "round_minutes": st.integers(-1, 700) | JSON_VALUES,
        "date": st.dates().map(str) | JSON_VALUES,
    },
)
ENTRY_BODIES = JSON_VALUES | st.fixed_dictionaries(
    {},
    optional={
        "player": st.just("@player") | JSON_VALUES,
        "name": st.text(max_size=70) | JSON_VALUES,
        "checked_in": JSON_VALUES,
        "team": st.sampled_from(["A", "B", "a"]) | JSON_VALUES,
        "withdrawn": JSON_VALUES,
    },
)


def with_ids(value: Any, ids: dict[str, int]) -> Any:
    if isinstance(value, str) and value in ids:
        return ids[value]
    if isinstance(value, list):
        return [with_ids(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: with_ids(v, ids) for k, v in value.items()}
    return value


@pytest.fixture
def team_event(db: None) -> Event:
    return build_event(players=4, team_size=2)


@hypothesis_settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=TOURNAMENT_BODIES,
    role=st.sampled_from(["organiser", "member"]),
    lang=st.sampled_from(["fr", "en"]),
)
def test_random_tournament_bodies_are_never_a_500(
    team_event: Event, body: Any, role: str, lang: str
) -> None:
    rules, _created = HouseRules.objects.get_or_create(club=team_event.club, name="Maison")
    ids = {"@club": team_event.club.pk, "@rules": rules.pk}

    response = send(team_event.client(role, lang), "post", API, with_ids(body, ids))

    assert response.status_code in (201, 400, 403), (body, response.content)
    if response.status_code != 201:
        assert_refusal(response, response.status_code)


@hypothesis_settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=ENTRY_BODIES, method=st.sampled_from(["post", "patch"]))
def test_random_entry_bodies_are_never_a_500(team_event: Event, body: Any, method: str) -> None:
    entry = team_event.tournament.entries.order_by("id").first()
    assert entry is not None
    # A new player per example (a name of its own: the club's labels are unique).
    player = PlayerFactory.create(clubs=[team_event.club])
    url = team_event.url("entries/" if method == "post" else f"entries/{entry.pk}/")

    response = send(
        team_event.client("organiser"), method, url, with_ids(body, {"@player": player.pk})
    )

    assert response.status_code in (200, 201, 400), (body, response.content)
    if response.status_code >= 400:
        assert_refusal(response, response.status_code)


@hypothesis_settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=JSON_VALUES)
def test_random_bodies_to_seat_a_round_are_ignored(team_event: Event, body: Any) -> None:
    """Anything but an object with fields it does not read (400 ``unknown_field``, as on every
    write) is ignored: the round is seated, or is already."""
    response = send(team_event.client("organiser"), "post", team_event.url("rounds/"), body)

    if isinstance(body, dict) and set(body) - {"byes"}:
        assert response.status_code == 400, (body, response.content)
        assert response.json()["code"] == "unknown_field"
    else:
        assert response.status_code in (201, 409), (body, response.content)


SWAP_BODIES = JSON_VALUES | st.fixed_dictionaries(
    {},
    optional={
        "first": st.sampled_from(["@a", "@b", "@onlooker"]) | JSON_VALUES,
        "second": st.sampled_from(["@a", "@b", "@onlooker"]) | JSON_VALUES,
    },
)


@hypothesis_settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=SWAP_BODIES, lang=st.sampled_from(["fr", "en"]))
def test_random_swap_bodies_are_never_a_500(seated: Event, body: Any, lang: str) -> None:
    a, b = list(seat_map(round_one(seated)))[:2]
    onlooker = seated.club.players.filter(name="Spectateur").first() or (
        club_services.player_create(club=seated.club, name="Spectateur")
    )
    ids = {"@a": a, "@b": b, "@onlooker": onlooker.pk}

    response = send(
        seated.client("organiser", lang), "post", seated.url("rounds/1/swap/"), with_ids(body, ids)
    )

    assert response.status_code in (200, 400, 409), (body, response.content)
    if response.status_code != 200:
        assert_refusal(response, response.status_code)


@hypothesis_settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=JSON_VALUES, action=st.sampled_from(["start", "close"]))
def test_random_bodies_to_start_or_close_a_round_are_refused_or_not_read(
    seated: Event, body: Any, action: str
) -> None:
    status_before = round_one(seated).status
    response = send(seated.client("organiser"), "post", seated.url(f"rounds/1/{action}/"), body)

    if isinstance(body, dict) and body:
        # Neither reads a body: each field of an object is refused, and the round stays as it was.
        problem = assert_problem(response, 400)
        assert {error["code"] for error in problem["errors"]} == {"unknown_field"}
        assert len(problem["errors"]) == len(body)
        assert round_one(seated).status == status_before
    else:
        # Start once, then "already started"; close: "not every deal is in".
        assert response.status_code in (200, 409), (body, response.content)


# --- the schema -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_schema_validates_and_documents_the_tournament_api(tmp_path: Any) -> None:
    out = tmp_path / "schema.json"

    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json",
                 "--file", str(out))  # fmt: skip

    paths = json.loads(out.read_text())["paths"]
    expected = {
        "/api/v1/tournaments/": {"get", "post"},
        "/api/v1/tournaments/{id}/": {"get"},
        "/api/v1/tournaments/{id}/entries/": {"get", "post"},
        "/api/v1/tournaments/{id}/entries/{entry_id}/": {"get", "patch"},
        "/api/v1/tournaments/{id}/rounds/": {"get", "post"},
        "/api/v1/tournaments/{id}/rounds/{number}/start/": {"post"},
        "/api/v1/tournaments/{id}/rounds/{number}/close/": {"post"},
        "/api/v1/tournaments/{id}/rounds/{number}/swap/": {"post"},
        "/api/v1/tournaments/{id}/standings/": {"get"},
        "/api/v1/tournaments/{id}/teams/standings/": {"get"},
        "/api/v1/tournaments/{id}/bracket/": {"get"},
    }
    for path, methods in expected.items():
        assert set(paths[path]) >= methods, path
    create = paths["/api/v1/tournaments/"]["post"]
    assert create["requestBody"]["content"]["application/json"]["examples"]
    for code in ("201", "400", "401", "403"):
        assert code in create["responses"]
    seat = paths["/api/v1/tournaments/{id}/rounds/"]["post"]
    assert "examples" in seat["responses"]["201"]["content"]["application/json"]
    assert "409" in seat["responses"]
    operations = set()
    for action in ("start", "close", "swap"):
        operation = paths[f"/api/v1/tournaments/{{id}}/rounds/{{number}}/{action}/"]["post"]
        operations.add(operation["operationId"])
        for code in ("200", "401", "403", "404", "409"):
            assert code in operation["responses"], (action, code)
        assert "examples" in operation["responses"]["409"]["content"]["application/problem+json"]
        answer = operation["responses"]["200"]["content"]["application/json"]
        assert answer["schema"] == seat["responses"]["201"]["content"]["application/json"]["schema"]
        (number,) = [p for p in operation["parameters"] if p["name"] == "number"]
        assert number["in"] == "path" and number["schema"]["type"] == "integer"
    assert operations == {f"tournament_rounds_{a}" for a in ("start", "close", "swap")}
    swap = paths["/api/v1/tournaments/{id}/rounds/{number}/swap/"]["post"]
    assert swap["requestBody"]["content"]["application/json"]["examples"]
    assert "400" in swap["responses"]


def test_entries_are_listed_by_name(event: Event) -> None:
    for name in ("Denis", "Aurélie", "Chloé"):
        registration_services.entry_add(tournament=event.tournament, name=name)

    names = [
        e["name"] for e in event.client("anonymous").get(event.url("entries/")).json()["results"]
    ]

    assert names == ["Aurélie", "Chloé", "Denis"]
    assert Entry.objects.count() == 3
