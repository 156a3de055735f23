"""Club records: the best deal, the best evening and the longest winning run, from hand-built
games (one table of cases), with ties, seasons, deleted deals, a query bound, and the records
page, linked from the leaderboard."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.stats.records import (
    BestDeal,
    BestEvening,
    ClubRecords,
    WinningRun,
    club_records,
)
from tests.factories import garde, make_game

pytestmark = pytest.mark.django_db

DAY1 = datetime.date(2025, 10, 4)  # season 2025 (September seasons)
DAY2 = datetime.date(2025, 10, 11)
LAST_SEASON = datetime.date(2025, 3, 1)  # season 2024

# A 4-player garde with 2 bouts: made with 49 points the taker scores +198 and each defender
# -66; failed with 30 (short by 11) the taker scores -216 and each defender +72.
WIN, LOSS = 49, 30


@dataclass(frozen=True)
class Game:
    """A game of Aurélie, Bruno, Chloé and Denis on ``date``: its deals as (taker, points)."""

    date: datetime.date
    deals: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class Case:
    name: str
    games: tuple[Game, ...]
    season: int | None
    deal: tuple[str, int, datetime.date, int] | None  # name, points, date, deal number
    evening: tuple[str, int, datetime.date, int] | None  # name, points, date, deals
    run: tuple[str, int, datetime.date, datetime.date] | None  # name, deals, first, last


CASES = [
    Case("empty club", (), 2025, None, None, None),
    Case(
        "one deal made",
        (Game(DAY1, (("Aurélie", WIN),)),),
        2025,
        ("Aurélie", 198, DAY1, 1),
        ("Aurélie", 198, DAY1, 1),
        ("Aurélie", 1, DAY1, DAY1),
    ),
    Case(
        # Bruno: -66, +72, +72, +198 (three in a row); Chloé: -66, +72, +72, -66.
        "a run of the defence, then a take",
        (
            Game(
                DAY1,
                (("Aurélie", WIN), ("Aurélie", LOSS), ("Aurélie", LOSS), ("Bruno", WIN)),
            ),
        ),
        2025,
        ("Aurélie", 198, DAY1, 1),  # ties Bruno's 198 and was first
        ("Bruno", 276, DAY1, 4),
        ("Bruno", 3, DAY1, DAY1),
    ),
    Case(
        "ties go to who set the record first",
        (Game(DAY1, (("Aurélie", WIN),)), Game(DAY2, (("Bruno", WIN),))),
        2025,
        ("Aurélie", 198, DAY1, 1),
        ("Aurélie", 198, DAY1, 1),
        ("Aurélie", 1, DAY1, DAY1),
    ),
    Case(
        # Each evening is summed apart: Chloé makes 198 on each date, not 396 on one.
        "an evening is one date",
        (Game(DAY1, (("Chloé", WIN),)), Game(DAY2, (("Chloé", WIN), ("Chloé", WIN)))),
        2025,
        ("Chloé", 198, DAY1, 1),
        ("Chloé", 396, DAY2, 2),
        ("Chloé", 3, DAY1, DAY2),
    ),
    Case(
        # Play order is the game's date, not the order the games were entered: the DAY2 game,
        # entered first, comes after the DAY1 one, where Chloé's run is broken.
        "runs follow play order",
        (Game(DAY2, (("Chloé", WIN),)), Game(DAY1, (("Chloé", WIN), ("Aurélie", WIN)))),
        2025,
        ("Chloé", 198, DAY1, 1),
        ("Chloé", 198, DAY2, 1),  # on DAY1 Chloé and Aurélie both end on 132
        ("Chloé", 1, DAY1, DAY1),
    ),
    Case(
        "a season keeps its own games",
        (Game(LAST_SEASON, (("Denis", WIN), ("Denis", WIN))), Game(DAY1, (("Bruno", LOSS),))),
        2025,
        ("Aurélie", 72, DAY1, 1),  # three defenders tie: by name
        ("Aurélie", 72, DAY1, 1),
        ("Aurélie", 1, DAY1, DAY1),
    ),
    Case(
        "every season",
        (Game(LAST_SEASON, (("Denis", WIN), ("Denis", WIN))), Game(DAY1, (("Bruno", LOSS),))),
        None,
        ("Denis", 198, LAST_SEASON, 1),
        ("Denis", 396, LAST_SEASON, 2),
        ("Denis", 3, LAST_SEASON, DAY1),  # a run goes on from one season to the next
    ),
    Case(
        "only the defence scores",
        (Game(DAY1, (("Denis", LOSS), ("Denis", LOSS))),),
        2025,
        ("Aurélie", 72, DAY1, 1),
        ("Aurélie", 144, DAY1, 2),
        ("Aurélie", 2, DAY1, DAY1),
    ),
]


def play(club: Club, games: tuple[Game, ...]) -> dict[str, Player]:
    by_name = {p.name: p for p in club.players.all()}
    seats = [by_name[n] for n in ("Aurélie", "Bruno", "Chloé", "Denis")]
    for spec in games:
        game = make_game(club=club, players=seats, date=spec.date)
        for taker, points in spec.deals:
            services.deal_record(game=game, payload=garde(by_name[taker].pk, points), by=None)
    return by_name


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_records(club: Club, case: Case) -> None:
    by_name = play(club, case.games)

    records = club_records(club=club, season=case.season)

    deal = records.best_deal
    expected_deal = None
    if case.deal:
        name, points, date, number = case.deal
        assert deal is not None
        expected_deal = BestDeal(by_name[name].pk, name, points, deal.game_id, date, number)
    assert deal == expected_deal
    expected_evening = None
    if case.evening:
        name, points, date, deals = case.evening
        expected_evening = BestEvening(by_name[name].pk, name, points, date, deals)
    assert records.best_evening == expected_evening
    expected_run = None
    if case.run:
        name, deals, first, last = case.run
        expected_run = WinningRun(by_name[name].pk, name, deals, first, last)
    assert records.longest_run == expected_run
    assert records.empty == (case.deal is None)


def test_the_best_deal_names_its_game(club: Club) -> None:
    play(club, (Game(DAY1, (("Aurélie", LOSS),)), Game(DAY2, (("Bruno", WIN),))))

    deal = club_records(club=club, season=2025).best_deal

    assert deal is not None
    assert deal.name == "Bruno"
    assert deal.game_id == club.games.get(date=DAY2).pk


def test_deleted_deals_and_other_games_do_not_count(club: Club) -> None:
    by_name = play(club, (Game(DAY1, (("Aurélie", WIN), ("Bruno", LOSS))),))
    first = club.games.get().deals.get(number=1)
    services.deal_delete(deal=first, version=first.version, by=None)

    records = club_records(club=club, season=2025)

    assert records.best_deal is not None
    assert records.best_deal.points == 72  # Aurélie's 198 is gone; the defence of deal 2
    assert records.best_evening == BestEvening(by_name["Aurélie"].pk, "Aurélie", 72, DAY1, 1)
    assert club_records(club=club, season=2025, kind="novatarok") == ClubRecords(None, None, None)


def test_a_nickname_names_the_record(club: Club) -> None:
    by_name = play(club, (Game(DAY1, (("Aurélie", WIN),)),))
    Player.objects.filter(pk=by_name["Aurélie"].pk).update(nickname="Lili")

    records = club_records(club=club, season=2025)

    assert records.best_deal is not None and records.best_deal.name == "Lili"
    assert records.longest_run is not None and records.longest_run.name == "Lili"


def test_records_read_a_bounded_number_of_queries(
    club: Club, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    takers = ["Aurélie", "Bruno", "Chloé", "Denis"]
    play(
        club,
        tuple(
            Game(DAY1 + datetime.timedelta(days=7 * g), tuple((t, WIN) for t in takers * 3))
            for g in range(4)
        ),
    )

    with django_assert_max_num_queries(4):
        records = club_records(club=club, season=2025)

    assert records.best_evening is not None
    assert records.best_evening.deals == 12


def test_the_records_page_shows_the_records(client: Client, club: Club) -> None:
    play(club, (Game(DAY1, (("Aurélie", WIN), ("Aurélie", LOSS), ("Aurélie", LOSS))),))
    url = reverse("clubs:records", args=[club.slug])

    english = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "Club records" in english
    assert "Aurélie: 198 points, deal 1 of the game of" in english
    assert "Longest winning run" in english
    assert "Bruno: 2 deals in a row scored above zero" in english
    assert "Records du club" in french
    assert "Plus longue série gagnante" in french
    assert "Bruno : 2 donnes de suite au-dessus de zéro (le 4 octobre 2025)" in french
    assert "du 4 octobre 2025 au 4 octobre 2025" not in french  # one day, one date
    assert "scored above zero (on Oct. 4, 2025)" in english
    board = client.get(reverse("clubs:leaderboard", args=[club.slug]), {"season": "2025"})
    assert reverse("clubs:season_report", args=[club.slug]) + "?season=2025" in board.text
    assert url + "?kind=tarot&amp;season=2025&amp;sort=points" in board.text


def test_the_records_of_another_game_are_none(client: Client, club: Club) -> None:
    play(club, (Game(DAY1, (("Aurélie", WIN),)),))
    url = reverse("clubs:records", args=[club.slug])

    page = client.get(url, {"kind": "novatarok"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "No record yet for these choices." in page


def test_the_records_page_follows_a_new_deal_at_once(client: Client, club: Club) -> None:
    """The page is cached under the club's results version, which every deal bumps."""
    play(club, (Game(DAY1, (("Aurélie", WIN),)),))
    url = reverse("clubs:records", args=[club.slug])
    before = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="en").text
    play(club, (Game(DAY1, (("Bruno", WIN), ("Bruno", WIN), ("Bruno", WIN))),))
    after = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="en").text

    assert "Bruno: 3 deals in a row" not in before
    assert "Bruno: 3 deals in a row scored above zero" in after


def test_a_run_over_two_days_names_both(client: Client, club: Club) -> None:
    play(club, (Game(DAY1, (("Aurélie", WIN),)), Game(DAY2, (("Aurélie", WIN),))))
    url = reverse("clubs:records", args=[club.slug])

    french = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "(du 4 octobre 2025 au 11 octobre 2025)" in french
