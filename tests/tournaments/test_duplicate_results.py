"""Duplicate tournaments, the read side: the ranking from the stored deals (both comparisons,
penalties, confirmations, series), the standings (page, CSV, PDF, API, projector), the boards'
travellers and the movement (pages and PDFs).

The sessions are built as the data contract says a duplicate tournament is stored: entries
with their movement number, rounds of tables whose four seats (North, East, South, West) hold
the players the movement puts there, and deals entered through the games service, each then
given its board. The numbers are those of the worked example of docs/duplicate.md and
docs/tournaments.md: board 5 played at four tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.utils import timezone

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests.factories import ClubFactory
from tournaments import duplicate_selectors
from tournaments import services as tournament_services
from tournaments.duplicate import Method, movement
from tournaments.models import DealConfirmation, Entry, Penalty, Round, Table, Tournament

pytestmark = pytest.mark.django_db

# --- a duplicate session as the write side stores it -------------------------------------------

NAMES = [
    "Aurélie", "Bruno", "Chloé", "Denis", "Émile", "Fanny", "Gaston", "Hélène",
    "Inès", "Jacques", "Karim", "Léa", "Mathis", "Noémie", "Oscar", "Pauline",
]  # fmt: skip
N, E, S, W = range(4)


@dataclass
class Session:
    tournament: Tournament
    players: dict[int, Player]  # movement number -> player
    games: dict[tuple[int, int], Any] = field(default_factory=dict)  # (round, table) -> game

    def seat(self, round_number: int, table: int, direction: int) -> Player:
        plan = movement(self.tables, self.tournament.rounds, self.tournament.deals_per_round)
        return self.players[plan.station(round_number, table).players[direction]]

    @property
    def tables(self) -> int:
        return len(self.players) // 4

    def where(self, board: int, table: int) -> int:
        """The round in which ``table`` plays ``board``."""
        plan = movement(self.tables, self.tournament.rounds, self.tournament.deals_per_round)
        for station in plan.stations:
            if station.table == table and board in station.boards:
                return station.round
        raise AssertionError(f"table {table} never plays board {board}")

    def play(
        self, board: int, table: int, *, taker: int, points: float, oudlers: int, **kw: Any
    ) -> Deal:
        """Board ``board`` at ``table`` (in the round the movement says): a garde by the player
        at direction ``taker``."""
        round_number = self.where(board, table)
        game = self.games[(round_number, table)]
        payload = {
            "taker": self.seat(round_number, table, taker).pk,
            "contract": kw.pop("contract", "garde"),
            "points": points,
            "oudlers": oudlers,
            **kw,
        }
        deal = game_services.deal_record(game=game, payload=payload, by=None).deal
        Deal.objects.filter(pk=deal.pk).update(board=board)
        return deal


def make_session(
    club: Club,
    *,
    tables: int = 4,
    rounds: int = 4,
    boards: int = 2,
    method: str = "matchpoints",
    name: str = "Duplicate d'hiver",
) -> Session:
    """A duplicate tournament of ``tables`` tables, every round seated by the movement (movement
    number n is the n-th name), no deal yet."""
    tournament = tournament_services.tournament_create(
        club=club,
        name=name,
        by=None,
        format=Tournament.Format.DUPLICATE,
        rounds=rounds,
        deals_per_round=boards,
        seating_method=Tournament.Seating.FIXED,
        seed=3,
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        duplicate_method=method, status=Tournament.Status.RUNNING
    )
    tournament.refresh_from_db()
    players: dict[int, Player] = {}
    for number in range(1, 4 * tables + 1):
        entry = tournament_services.entry_add(
            tournament=tournament, name=NAMES[(number - 1) % len(NAMES)], checked_in=True
        )
        Entry.objects.filter(pk=entry.pk).update(movement_number=number)
        players[number] = entry.player
    session = Session(tournament, players)
    plan = movement(tables, rounds, boards)
    for round_number in range(1, rounds + 1):
        round_ = Round.objects.create(
            tournament=tournament, number=round_number, status=Round.Status.PLAYING
        )
        for station in plan.round_stations(round_number):
            game = game_services.game_create(
                club=club,
                players=[players[n] for n in station.players],
                variant="fft",
                by=None,
                max_deals=boards,
            )
            Table.objects.create(round=round_, number=station.table, game=game)
            session.games[(round_number, station.table)] = game
    return session


# The worked example: board 5 (dealer North) at tables 1 to 4.
BOARD = 5
EXAMPLE = {  # table -> (taker's direction, points, bouts)
    1: (S, 61, 1),
    2: (S, 55, 1),
    3: (S, 61, 1),
    4: (E, 35, 2),
}
SCORES = {  # table -> North, East, South, West: the scoring of each table's deal
    1: (-70, -70, 210, -70),
    2: (-58, -58, 174, -58),
    3: (-70, -70, 210, -70),
    4: (62, -186, 62, 62),
}
MATCHPOINTS = {1: (1, 3, 5, 1), 2: (4, 6, 2, 4), 3: (1, 3, 5, 1), 4: (6, 0, 0, 6)}
DIFFERENCES = {
    1: (-36, 26, 46, -36),
    2: (-24, 38, 10, -24),
    3: (-36, 26, 46, -36),
    4: (96, -90, -102, 96),
}


def play_example(session: Session) -> None:
    for table, (taker, points, bouts) in EXAMPLE.items():
        session.play(BOARD, table, taker=taker, points=points, oudlers=bouts)


@pytest.fixture
def club() -> Club:
    return ClubFactory.create(name="Tarot Club de Lyon")


@pytest.fixture
def example(club: Club) -> Session:
    session = make_session(club)
    play_example(session)
    return session


def _seat_of(session: Session, table: int, direction: int) -> Player:
    return session.seat(session.where(BOARD, table), table, direction)


# --- the ranking from the stored deals ---------------------------------------------------------


def test_board_scores_are_each_seats_score_at_its_direction(example: Session) -> None:
    rows = duplicate_selectors.board_scores(tournament=example.tournament)
    assert len(rows) == 16
    got = {(r.table, r.direction.value): (r.player, r.score) for r in rows}
    for table, scores in SCORES.items():
        for direction, score in enumerate(scores):
            player = _seat_of(example, table, direction)
            assert got[(table, "NESW"[direction])] == (player.pk, score)
    assert {r.board for r in rows} == {BOARD}


# (table, direction) -> rank, matchpoints, percentage, tops
MATCHPOINT_RANKING = [
    ((2, E), 1, 6, "100.00", 1),
    ((4, N), 1, 6, "100.00", 1),
    ((4, W), 1, 6, "100.00", 1),
    ((1, S), 4, 5, "83.33", 0),
    ((3, S), 4, 5, "83.33", 0),
    ((2, N), 6, 4, "66.67", 0),
    ((2, W), 6, 4, "66.67", 0),
    ((1, E), 8, 3, "50.00", 0),
    ((3, E), 8, 3, "50.00", 0),
    ((2, S), 10, 2, "33.33", 0),
    ((1, N), 11, 1, "16.67", 0),
    ((1, W), 11, 1, "16.67", 0),
    ((3, N), 11, 1, "16.67", 0),
    ((3, W), 11, 1, "16.67", 0),
    ((4, E), 15, 0, "0.00", 0),
    ((4, S), 15, 0, "0.00", 0),
]

# (table, direction) -> rank, total, tops
AVERAGE_RANKING = [
    ((4, N), 1, 96, 1),
    ((4, W), 1, 96, 1),
    ((1, S), 3, 46, 0),
    ((3, S), 3, 46, 0),
    ((2, E), 5, 38, 1),
    ((1, E), 6, 26, 0),
    ((3, E), 6, 26, 0),
    ((2, S), 8, 10, 0),
    ((2, N), 9, -24, 0),
    ((2, W), 9, -24, 0),
    ((1, N), 11, -36, 0),
    ((1, W), 11, -36, 0),
    ((3, N), 11, -36, 0),
    ((3, W), 11, -36, 0),
    ((4, E), 15, -90, 0),
    ((4, S), 16, -102, 0),
]


def test_the_matchpoint_ranking_of_the_worked_example(example: Session) -> None:
    rows = duplicate_selectors.duplicate_standings(tournament=example.tournament)
    by_player = {r.player.pk: r for r in rows}
    assert len(rows) == len(MATCHPOINT_RANKING)
    for (table, direction), rank, mp, percentage, tops in MATCHPOINT_RANKING:
        row = by_player[_seat_of(example, table, direction).pk]
        assert (row.rank, row.matchpoints, row.maximum, row.tops, row.boards) == (
            rank,
            mp,
            6,
            tops,
            1,
        ), (table, direction)
        assert row.shown_percentage == Decimal(percentage)
        assert row.method is Method.MATCHPOINTS
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)


def test_the_average_ranking_of_the_worked_example(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    rows = duplicate_selectors.duplicate_standings(tournament=session.tournament)
    by_player = {r.player.pk: r for r in rows}
    for (table, direction), rank, total, tops in AVERAGE_RANKING:
        row = by_player[_seat_of(session, table, direction).pk]
        assert (row.rank, row.shown_total, row.total, row.tops) == (
            rank,
            total,
            Fraction(total),
            tops,
        ), (table, direction)
    # Each direction's differences sum to zero.
    assert sum(r.total for r in rows) == 0


def test_a_deleted_deal_and_an_unconfirmed_one_do_not_count(example: Session) -> None:
    tournament = example.tournament
    deal = Deal.objects.get(game=example.games[(example.where(BOARD, 4), 4)], board=BOARD)
    game_services.deal_delete(deal=deal, version=None, by=None)
    rows = duplicate_selectors.duplicate_standings(tournament=tournament)
    assert len(rows) == 12  # table 4's players have no board left
    # Without table 4, North of table 2 beats both others: a top.
    north_2 = next(r for r in rows if r.player == _seat_of(example, 2, N))
    assert (north_2.matchpoints, north_2.maximum, north_2.tops) == (4, 4, 1)
    # A tournament that requires confirmation counts a pending deal no more.
    Tournament.objects.filter(pk=tournament.pk).update(require_confirmation=True)
    tournament.refresh_from_db()
    pending = Deal.objects.get(game=example.games[(example.where(BOARD, 1), 1)], board=BOARD)
    DealConfirmation.objects.create(deal=pending, status=DealConfirmation.Status.PENDING)
    rows = duplicate_selectors.duplicate_standings(tournament=tournament)
    assert len(rows) == 8
    assert duplicate_selectors.duplicate_count(tournament=tournament) == 8


def _penalise(session: Session, player: Player, points: int) -> Penalty:
    tournament = session.tournament
    entry = Entry.objects.get(tournament=tournament, player=player)
    round_ = Round.objects.get(tournament=tournament, number=1)
    return Penalty.objects.create(
        tournament=tournament, entry=entry, round=round_, points=points, reason="Late"
    )


def test_a_penalty_takes_matchpoints_off_and_lowers_the_rank(example: Session) -> None:
    top = _seat_of(example, 4, N)
    _penalise(example, top, 2)
    rows = duplicate_selectors.duplicate_standings(tournament=example.tournament)
    row = next(r for r in rows if r.player == top)
    # 6 - 2 = 4 of 6: 66.67 %, tied with North and West of table 2 (who have no top).
    assert (row.matchpoints, row.penalties, row.shown_percentage) == (4, 2, Decimal("66.67"))
    assert row.rank == 5  # after the two tops of 100 % and the two 83.33 %
    assert [r.rank for r in rows[:5]] == [1, 1, 3, 3, 5]


def test_a_penalty_takes_points_off_the_average_total(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    first = _seat_of(session, 4, N)
    _penalise(session, first, 60)
    removed = _penalise(session, first, 500)
    Penalty.objects.filter(pk=removed.pk).update(removal_reason="No", removed_at=timezone.now())
    rows = duplicate_selectors.duplicate_standings(tournament=session.tournament)
    row = next(r for r in rows if r.player == first)
    assert (row.shown_total, row.penalties) == (36, 60)  # 96 - 60; the removed one not counted
    assert row.rank == 5  # below 96 (West of table 4), 46, 46 and 38


def test_a_series_is_ranked_among_itself_compared_over_the_whole_field(
    example: Session,
) -> None:
    tournament = example.tournament
    chosen = [_seat_of(example, 1, N), _seat_of(example, 4, E), _seat_of(example, 2, S)]
    Entry.objects.filter(tournament=tournament, player__in=chosen).update(series="s2")
    rows = duplicate_selectors.duplicate_standings(tournament=tournament, series="s2")
    # 2 (33.33 %), 1 (16.67 %), 0: matchpoints from the whole field, ranks 1..3 among them.
    assert [(r.player, r.rank, r.matchpoints) for r in rows] == [
        (chosen[2], 1, 2),
        (chosen[0], 2, 1),
        (chosen[1], 3, 0),
    ]
    assert duplicate_selectors.duplicate_count(tournament=tournament, series="s2") == 3
