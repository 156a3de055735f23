"""The change feeds of tournaments: the tournaments list with ``?updated_since=`` (created,
running, finished) and the feed of standings (a deal at a table, a penalty, a round closed),
each change once, readers' visibility kept."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.games import services as game_services
from tests.api.helpers import assert_problem, codes_of
from tests.factories import World, build_world, make_tournament, play, token_client
from tournaments.models import StandingsChange
from tournaments.play.penalties import penalty_give
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

TOURNAMENTS = "/api/v1/tournaments/"
STANDINGS = "/api/v1/tournaments/standings/"


@pytest.fixture
def world(db: None) -> World:
    return build_world()


def read(path: str, client: APIClient | None = None, **params: Any) -> dict[str, Any]:
    response = (client or APIClient()).get(path, params)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results", "cursor"}
    return dict(body)


def enter_one_deal(world: World) -> None:
    table = round_selectors.round_tables(round_=world.round)[0]
    ids = [p.pk for p in table.players]
    game = table.table.game
    payload = random_tarot_payload(random.Random(3), ids, 1, sitting_out_dealer=False)
    game_services.deal_record(game=game, payload=payload, by=None)


def test_the_tournaments_feed_has_tournaments_created_and_started(world: World) -> None:
    start = read(TOURNAMENTS, club=world.club.pk, updated_since="")
    # Both were created, then seated (running): in the order of their latest change.
    assert [(t["id"], t["status"]) for t in start["results"]] == [
        (world.tournament.pk, "running"),
        (world.knockout.pk, "running"),
    ]
    new = make_tournament(world.club, 4, name="Tournoi du jeudi")
    enter_one_deal(world)  # a deal changes the standings, not the tournament

    changes = read(TOURNAMENTS, club=world.club.pk, updated_since=start["cursor"])["results"]

    assert [(t["id"], t["status"]) for t in changes] == [(new.pk, "registration")]


def test_a_tournament_finished_comes_again(db: None) -> None:
    world = build_world()
    tournament = make_tournament(world.club, 4, name="Court", rounds=1, deals_per_round=1)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    cursor = read(TOURNAMENTS, club=world.club.pk, updated_since="")["cursor"]

    play(round_)  # its last deal closes the round, and so the tournament

    changes = read(TOURNAMENTS, club=world.club.pk, updated_since=cursor)["results"]
    assert [(t["id"], t["status"]) for t in changes] == [(tournament.pk, "finished")]


def test_standings_appear_after_a_deal_a_penalty_and_a_round_closed(world: World) -> None:
    start = read(STANDINGS, club=world.club.pk)
    # Seating a round gave its players their rows: both tournaments' standings have changed.
    assert {item["tournament"] for item in start["results"]} == {
        world.tournament.pk,
        world.knockout.pk,
    }
    item = next(i for i in start["results"] if i["tournament"] == world.tournament.pk)
    assert item == {
        "tournament": world.tournament.pk,
        "club": world.club.pk,
        "name": world.tournament.name,
        "status": "running",
        "standings": f"http://testserver{TOURNAMENTS}{world.tournament.pk}/standings/",
    }
    assert read(STANDINGS, club=world.club.pk, updated_since=start["cursor"])["results"] == []

    enter_one_deal(world)
    after_deal = read(STANDINGS, club=world.club.pk, updated_since=start["cursor"])
    assert [i["tournament"] for i in after_deal["results"]] == [world.tournament.pk]

    entry = world.tournament.entries.filter(checked_in=True).first()
    assert entry is not None
    penalty_give(
        tournament=world.tournament,
        entry=entry,
        points=10,
        reason="Carte montrée",
        by=None,
        round_number=1,
    )
    after_penalty = read(STANDINGS, club=world.club.pk, updated_since=after_deal["cursor"])
    assert [i["tournament"] for i in after_penalty["results"]] == [world.tournament.pk]

    play(world.round)  # every deal: the round closes itself
    after_round = read(STANDINGS, club=world.club.pk, updated_since=after_penalty["cursor"])
    assert [i["tournament"] for i in after_round["results"]] == [world.tournament.pk]


def test_a_round_closed_keeps_only_the_latest_change_and_no_reader_misses_it(
    world: World,
) -> None:
    """The feed reads a tournament's latest change: closing a round deletes the rows before it
    (a tournament keeps at most a round's worth), and a reader whose cursor is from before the
    round, or from the middle of it, is still served the tournament once, at its latest."""
    changes = StandingsChange.objects.filter(tournament=world.tournament)
    before = read(STANDINGS, club=world.club.pk)["cursor"]
    enter_one_deal(world)
    middle = read(STANDINGS, club=world.club.pk, updated_since=before)["cursor"]
    enter_one_deal(world)
    kept = changes.count()
    assert kept >= 3  # the round seated and two deals: nothing deleted while the round runs

    play(world.round)  # every deal: the round closes itself

    assert changes.count() == 1
    for cursor in (before, middle):
        served = read(STANDINGS, club=world.club.pk, updated_since=cursor)
        assert [i["tournament"] for i in served["results"]] == [world.tournament.pk]
        assert read(STANDINGS, club=world.club.pk, updated_since=served["cursor"])["results"] == []
    # The other tournament's changes are its own: untouched.
    assert StandingsChange.objects.filter(tournament=world.knockout).exists()


def test_the_feed_of_standings_keeps_private_clubs_private(world: World) -> None:
    private = build_world(public=False, tag="p")
    anonymous = {i["tournament"] for i in read(STANDINGS)["results"]}
    assert anonymous == {world.tournament.pk, world.knockout.pk}
    member: User | None = private.users["member"]
    mine = {i["tournament"] for i in read(STANDINGS, token_client(member))["results"]}
    assert mine == {
        world.tournament.pk,
        world.knockout.pk,
        private.tournament.pk,
        private.knockout.pk,
    }
    assert_problem(APIClient().get(STANDINGS, {"club": private.club.pk}), 404)


def test_the_feed_of_standings_refuses_a_bad_cursor_and_unknown_parameters(world: World) -> None:
    bad = APIClient().get(STANDINGS, {"updated_since": "nope"})
    assert codes_of(assert_problem(bad, 400)) == {"updated_since": ["cursor_invalid"]}
    unknown = APIClient().get(STANDINGS, {"tournament": world.tournament.pk})
    assert codes_of(assert_problem(unknown, 400)) == {"tournament": ["unknown_parameter"]}


def test_the_feed_of_standings_is_paged_by_its_cursor(world: World) -> None:
    for n in range(3):
        tournament = make_tournament(world.club, 4, name=f"Soirée {n}")
        round_services.round_seat_next(tournament=tournament, by=None)
    first = read(STANDINGS, club=world.club.pk, page_size=2)
    assert first["count"] == 5 and len(first["results"]) == 2 and first["next"]
    seen = [i["tournament"] for i in first["results"]]
    body = first
    while body["next"]:
        body = APIClient().get(body["next"]).json()
        seen += [i["tournament"] for i in body["results"]]
    assert len(seen) == len(set(seen)) == 5


def test_a_page_of_the_feed_of_standings_takes_a_fixed_number_of_queries(
    world: World, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    for n in range(6):
        tournament = make_tournament(world.club, 4, name=f"Soirée {n}")
        round_services.round_seat_next(tournament=tournament, by=None)

    with django_assert_max_num_queries(5):
        body = read(STANDINGS, club=world.club.pk, page_size=5)

    assert len(body["results"]) == 5 and body["count"] == 8


def test_a_series_set_changes_the_standings(world: World) -> None:
    cursor = read(STANDINGS, club=world.club.pk)["cursor"]
    entry = world.tournament.entries.filter(checked_in=True).first()
    assert entry is not None

    registration_services.entry_series_set(entry=entry, series="s1")

    changes = read(STANDINGS, club=world.club.pk, updated_since=cursor)["results"]
    assert [i["tournament"] for i in changes] == [world.tournament.pk]
