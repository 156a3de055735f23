"""A player's tarot statistics (``stats.selectors.player_stats``) on a small set of deals built
by hand: one table of cases per statistic, and a query count that does not grow with deals."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.stats.selectors import PlayerStats, player_stats
from tests.factories import ClubFactory, garde, make_game

pytestmark = pytest.mark.django_db


@dataclass
class World:
    club: Club
    other_club: Club
    a: Player
    b: Player
    c: Player
    d: Player
    e: Player


def record(game: Any, payload: dict[str, Any]) -> Any:
    return services.deal_record(game=game, payload=payload, by=None).deal


@pytest.fixture
def world(club: Club, players: list[Player]) -> World:
    """Aurélie (a) plays 7 live tarot deals at the club, 1 deleted, 1 at another club.

    Game 1 (FFT, four: a b c d):
      1. a takes a garde, makes it, petit au bout for the attack, a simple handful: a +318
      2. b takes a garde and makes it: a -66
      3. a takes a prise and fails it: a -138
      4. c takes a garde, the defence takes every trick (slam): a +356
      5. a takes a garde: deleted
    Game 2 (classic, five with a called king: a b c d e):
      1. b takes a prise and calls a: a +35
      2. a takes a garde and calls c: a +132
      3. d takes a garde and calls e, petit au bout for the attack: a -86
    Game 3, at the other club in season 2023: a takes a garde, +198.
    """
    a, b, c, d, e = players
    first = make_game(club=club, players=[a, b, c, d], date=datetime.date(2025, 10, 1))
    record(
        first, garde(a.pk, petit_au_bout="attack", handfuls=[{"player": a.pk, "size": "simple"}])
    )
    record(first, garde(b.pk))
    record(first, {"taker": a.pk, "contract": "prise", "points": 30, "oudlers": 1})
    record(first, garde(c.pk, points=3, oudlers=0, slam="defense"))
    deleted = record(first, garde(a.pk))
    services.deal_delete(deal=deleted, version=None, by=None)
    second = make_game(
        club=club,
        players=[a, b, c, d, e],
        variant="classic",
        five_players="called_king",
        date=datetime.date(2025, 10, 2),
    )
    record(
        second, {"taker": b.pk, "partner": a.pk, "contract": "prise", "points": 51, "oudlers": 2}
    )
    record(second, garde(a.pk, partner=c.pk))
    record(second, garde(d.pk, partner=e.pk, petit_au_bout="attack"))
    other_club = ClubFactory.create()
    a.clubs.add(other_club)
    b.clubs.add(other_club)
    c.clubs.add(other_club)
    d.clubs.add(other_club)
    elsewhere = make_game(club=other_club, players=[a, b, c, d], date=datetime.date(2024, 3, 1))
    record(elsewhere, garde(a.pk))
    return World(club, other_club, a, b, c, d, e)


def a_scores(world: World) -> list[int]:
    return list(
        world.a.score_lines.filter(deal__deleted_at__isnull=True)
        .order_by("deal__game__date", "deal__number")
        .values_list("points", flat=True)
    )


def test_the_scores_the_cases_are_worked_out_from(world: World) -> None:
    assert a_scores(world) == [198, 318, -66, -138, 356, 35, 132, -86]


def names(rows: Any) -> list[tuple[str, int, float]]:
    return [(r.name, r.deals, r.average) for r in rows]


# (statistic, how to read it, at the club: the deleted deal and the other club left out)
CLUB_CASES: list[tuple[str, Callable[[PlayerStats], Any], Any]] = [
    ("deals played", lambda s: s.deals, 7),
    ("times taker", lambda s: s.taken, 3),
    (
        "takes by contract (taken, won, average)",
        lambda s: [(c.contract, c.taken, c.won, c.average) for c in s.contracts],
        [("prise", 1, 0, -138.0), ("garde", 2, 2, 225.0)],
    ),
    ("success rate by contract", lambda s: [c.success for c in s.contracts], [0.0, 1.0]),
    ("average as taker: (318 - 138 + 132) / 3", lambda s: s.taker_average, 104.0),
    ("average as defender: (-66 + 356 - 86) / 3", lambda s: s.defender_average, 68.0),
    (
        "as called partner (deals, won, average)",
        lambda s: (s.partner_deals, s.partner_won, s.partner_average),
        (1, 1, 35.0),
    ),
    (
        "partners, best average together first",
        lambda s: names(s.partners),
        [("Chloé", 1, 132.0), ("Bruno", 1, 35.0)],
    ),
    (
        "scores best against (3 deals or more in the other camp): the better half",
        lambda s: names(s.best_against),
        [("Chloé", 4, 142.75), ("Bruno", 4, 61.5)],
    ),
    (
        "scores worst against: the others, worst first",
        lambda s: names(s.worst_against),
        [("Émile", 3, 27.0), ("Denis", 5, 52.2)],
    ),
    ("petit au bout (made, lost)", lambda s: (s.petit_made, s.petit_lost), (1, 1)),
    ("handfuls shown", lambda s: s.handfuls, {"simple": 1}),
    (
        "slams (made, failed, against)",
        lambda s: (s.slams_made, s.slams_failed, s.slams_against),
        (1, 0, 0),
    ),
]


@pytest.mark.parametrize(("name", "read", "expected"), CLUB_CASES, ids=[c[0] for c in CLUB_CASES])
def test_club_statistics(
    world: World, name: str, read: Callable[[PlayerStats], Any], expected: Any
) -> None:
    assert read(player_stats(player=world.a, club=world.club)) == expected


SCOPE_CASES: list[tuple[str, Callable[[World], dict[str, Any]], int, float | None]] = [
    ("every club", lambda w: {}, 8, 127.5),
    ("the club, its season 2025", lambda w: {"club": w.club, "season": 2025}, 7, 104.0),
    ("the club, season 2024", lambda w: {"club": w.club, "season": 2024}, 0, None),
    ("every club, season 2023", lambda w: {"season": 2023}, 1, 198.0),
    ("the other club", lambda w: {"club": w.other_club}, 1, 198.0),
]


@pytest.mark.parametrize(
    ("name", "scope", "deals", "taker_average"), SCOPE_CASES, ids=[c[0] for c in SCOPE_CASES]
)
def test_scope(
    world: World,
    name: str,
    scope: Callable[[World], dict[str, Any]],
    deals: int,
    taker_average: float | None,
) -> None:
    stats = player_stats(player=world.a, **scope(world))
    assert (stats.deals, stats.taker_average) == (deals, taker_average)


def test_other_games_are_left_out(world: World) -> None:
    game = make_game(club=world.club, players=[world.a, world.b], variant="novatarok")
    payload = {
        "card_points": {str(world.a.pk): 15, str(world.b.pk): 10},
        "kings": None,
        "trull": None,
        "pagat": None,
    }
    services.deal_record(game=game, payload=payload, by=None)
    assert player_stats(player=world.a, club=world.club).deals == 7


def test_a_player_sitting_out_has_not_played_the_deal(club: Club, players: list[Player]) -> None:
    game = make_game(club=club, players=players, variant="fft", five_players="sitting_out")
    dealer = players[0]
    services.deal_record(game=game, payload=garde(players[1].pk, sitting_out=dealer.pk), by=None)
    stats = player_stats(player=dealer, club=club)
    assert (stats.deals, stats.defender_average, stats.best_against) == (0, None, [])
    assert player_stats(player=players[1], club=club).deals == 1


def test_queries_do_not_grow_with_deals(
    world: World, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    with django_assert_max_num_queries(3):
        player_stats(player=world.a)
    game = make_game(club=world.club, players=[world.a, world.b, world.c, world.d])
    for seat in range(20):
        services.deal_record(game=game, payload=garde([world.a, world.b][seat % 2].pk), by=None)
    with django_assert_max_num_queries(3):
        player_stats(player=world.a, club=world.club, season=2025)
