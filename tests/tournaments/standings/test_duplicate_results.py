"""Duplicate tournaments, the read side: the ranking from the stored deals (both comparisons,
penalties, confirmations, series), the standings (page, CSV, PDF, API, projector), the boards'
travellers and the movement (pages and PDFs).

The sessions are built as the data contract says a duplicate tournament is stored: entries
with their movement number, rounds of tables whose four seats (North, East, South, West) hold
the players the movement puts there, and deals entered through the games service, each
naming its board. The numbers are those of the worked example of docs/duplicate.md and
docs/tournaments.md: board 5 played at four tables.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests.factories import ClubFactory, MembershipFactory, UserFactory, token_client
from tournaments.duplicate import Method, movement
from tournaments.models import DealConfirmation, Entry, Penalty, Round, Table, Tournament
from tournaments.registration import services as registration_services
from tournaments.standings import duplicate as duplicate_results
from tournaments.words import movement_rule

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
        return game_services.deal_record(game=game, payload=payload, by=None, board=board).deal


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
    tournament = registration_services.tournament_create(
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
        entry = registration_services.entry_add(
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
    rows = duplicate_results.board_scores(tournament=example.tournament)
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


DIRECTION_NAMES = {"North": N, "East": E, "South": S, "West": W}


def _doc_table(marker: str) -> list[list[str]]:
    """The rows of the table under ``<!-- example:marker -->`` in docs/tournaments.md."""
    text = (Path(settings.BASE_DIR) / "docs" / "tournaments.md").read_text(encoding="utf-8")
    block = text.split(f"<!-- example:{marker} -->\n", 1)[1].split("\n\n", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in block.splitlines()]
    return rows[2:]  # past the heading and the rule


def _seats(text: str) -> list[tuple[int, int]]:
    """ "North and West of tables 1 and 3" -> (1, N), (1, W), (3, N), (3, W)."""
    seats = []
    for part in text.split(", "):
        directions, _of, tables = part.partition(" of table")
        for table in re.findall(r"\d+", tables):
            seats += [(int(table), DIRECTION_NAMES[d]) for d in directions.split(" and ")]
    return seats


def test_the_docs_worked_example_is_the_one_tested() -> None:
    documented = [
        (seat, int(rank), int(mp.split(" / ")[0]), percentage, int(tops))
        for rank, seats, mp, percentage, tops in _doc_table("duplicate-matchpoints")
        for seat in _seats(seats)
    ]
    assert sorted(documented) == sorted(MATCHPOINT_RANKING)
    averages = [
        (seat, int(rank), int(re.match(r"[+-]?\d+", total).group(0)), int(tops))  # type: ignore[union-attr]
        for rank, seats, total, tops in _doc_table("duplicate-average")
        for seat in _seats(seats)
    ]
    assert sorted(averages) == sorted(AVERAGE_RANKING)


def test_the_matchpoint_ranking_of_the_worked_example(example: Session) -> None:
    rows = duplicate_results.duplicate_standings(tournament=example.tournament)
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
    rows = duplicate_results.duplicate_standings(tournament=session.tournament)
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
    rows = duplicate_results.duplicate_standings(tournament=tournament)
    assert len(rows) == 12  # table 4's players have no board left
    # Without table 4, North of table 2 beats both others: a top.
    north_2 = next(r for r in rows if r.player == _seat_of(example, 2, N))
    assert (north_2.matchpoints, north_2.maximum, north_2.tops) == (4, 4, 1)
    # A tournament that requires confirmation counts a pending deal no more.
    Tournament.objects.filter(pk=tournament.pk).update(require_confirmation=True)
    tournament.refresh_from_db()
    pending = Deal.objects.get(game=example.games[(example.where(BOARD, 1), 1)], board=BOARD)
    DealConfirmation.objects.create(deal=pending, status=DealConfirmation.Status.PENDING)
    rows = duplicate_results.duplicate_standings(tournament=tournament)
    assert len(rows) == 8
    assert duplicate_results.duplicate_count(tournament=tournament) == 8


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
    rows = duplicate_results.duplicate_standings(tournament=example.tournament)
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
    rows = duplicate_results.duplicate_standings(tournament=session.tournament)
    row = next(r for r in rows if r.player == first)
    assert (row.shown_total, row.penalties) == (36, 60)  # 96 - 60; the removed one not counted
    assert row.rank == 5  # below 96 (West of table 4), 46, 46 and 38


def test_a_series_is_ranked_among_itself_compared_over_the_whole_field(
    example: Session,
) -> None:
    tournament = example.tournament
    chosen = [_seat_of(example, 1, N), _seat_of(example, 4, E), _seat_of(example, 2, S)]
    Entry.objects.filter(tournament=tournament, player__in=chosen).update(series="s2")
    rows = duplicate_results.duplicate_standings(tournament=tournament, series="s2")
    # 2 (33.33 %), 1 (16.67 %), 0: matchpoints from the whole field, ranks 1..3 among them.
    assert [(r.player, r.rank, r.matchpoints) for r in rows] == [
        (chosen[2], 1, 2),
        (chosen[0], 2, 1),
        (chosen[1], 3, 0),
    ]
    assert duplicate_results.duplicate_count(tournament=tournament, series="s2") == 3


# --- pages ---------------------------------------------------------------------------------------


def read_pdf(content: bytes) -> tuple[int, list[str]]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


def streamed(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def english() -> Client:
    return Client(headers={"Accept-Language": "en"})


def _standing_cells(html: str, player: Player) -> str:
    match = re.search(rf'<tr id="standing-{player.pk}".*?</tr>', html, re.S)
    assert match is not None, player
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))).strip()


def test_the_standings_page_shows_the_matchpoint_ranking(
    example: Session, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    url = reverse("tournaments:standings", args=[example.tournament.pk])
    client = english()
    with django_assert_max_num_queries(12):
        response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-method="matchpoints"' in html
    # rank, player, boards, matchpoints / maximum, percentage, tops
    north_2 = _seat_of(example, 2, N)
    assert _standing_cells(html, north_2) == f"6 {north_2.label} 1 4 / 6 66.67 0"
    east_2 = _seat_of(example, 2, E)
    assert _standing_cells(html, east_2) == f"1 {east_2.label} 1 6 / 6 100.00 1"
    assert "2 matchpoints for each one beaten" in html
    assert reverse("tournaments:board", args=[example.tournament.pk, 1]) in html


def test_the_standings_page_of_the_average_method_shows_the_totals(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    html = english().get(reverse("tournaments:standings", args=[session.tournament.pk]))
    text = html.content.decode()
    south_4 = _seat_of(session, 4, S)
    assert _standing_cells(text, south_4) == f"16 {south_4.label} 1 -102 0"
    west_4 = _seat_of(session, 4, W)
    assert _standing_cells(text, west_4) == f"1 {west_4.label} 1 96 1"
    assert "difference from their average" in text


def test_the_standings_pages_search_and_series_work_for_duplicate(example: Session) -> None:
    tournament = example.tournament
    url = reverse("tournaments:standings", args=[tournament.pk])
    client = english()
    # Three players a page would need 50: one page; a search finds and highlights a name.
    south_2 = _seat_of(example, 2, S)
    found = client.get(url, {"q": south_2.label}).content.decode()
    assert f'id="standing-{south_2.pk}" data-player="{south_2.pk}" class="standings-found-row"' in (
        found
    )
    chosen = [_seat_of(example, 1, N), _seat_of(example, 2, S)]
    for entry in Entry.objects.filter(tournament=tournament, player__in=chosen):
        registration_services.entry_series_set(entry=entry, series="s1")
    series = client.get(url, {"series": "s1"}).content.decode()
    assert _standing_cells(series, chosen[1]).startswith(f"1 {chosen[1].label} 1 2 / 6")
    assert _standing_cells(series, chosen[0]).startswith(f"2 {chosen[0].label} 1 1 / 6")
    assert series.count('<tr id="standing-') == 2


def test_the_standings_answer_304_to_a_reader_who_has_them(example: Session) -> None:
    url = reverse("tournaments:standings", args=[example.tournament.pk])
    client = english()
    first = client.get(url)
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    example.play(BOARD + 1, 1, taker=N, points=40, oudlers=2)  # a new deal: a new version
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    api = token_client(None, "en")
    api_url = reverse("tournaments_api:standings", args=[example.tournament.pk])
    answer = api.get(api_url)
    assert api.get(api_url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304


def test_the_standings_csv_and_pdf(example: Session) -> None:
    _penalise(example, _seat_of(example, 4, N), 2)
    tournament = example.tournament
    client = english()
    csv = client.get(reverse("tournaments:standings_csv", args=[tournament.pk]))
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Rank,Player,Boards,Matchpoints,Maximum,%,Tops,Penalties"
    east_2 = _seat_of(example, 2, E)
    assert lines[1] == f"1,{east_2.label},1,6,6,100.00,1,"
    north_4 = _seat_of(example, 4, N)
    assert f"5,{north_4.label},1,4,6,66.67,1,-2" in lines
    assert len(lines) == 17
    response = client.get(reverse("tournaments:standings_pdf", args=[tournament.pk]))
    assert response["Content-Type"] == "application/pdf"
    pages, texts = read_pdf(streamed(response))
    assert pages == 1
    assert "Duplicate d'hiver" in texts[0]
    assert f"1. {east_2.label} 1 6 6 100.00 1" in texts[0]
    assert f"5. {north_4.label} 1 4 6 66.67 1 -2" in texts[0].replace("−", "-")


def test_the_average_csv_has_the_totals(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    csv = english().get(reverse("tournaments:standings_csv", args=[session.tournament.pk]))
    lines = csv.content.decode("utf-8-sig").splitlines()
    assert lines[0] == "Rank,Player,Boards,Total,Tops"
    assert lines[-1] == f"16,{_seat_of(session, 4, S).label},1,-102,0"


def test_the_standings_api_answers_the_duplicate_lines(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    api = token_client(None, "en")
    url = reverse("tournaments_api:standings", args=[session.tournament.pk])
    rows = api.get(url).json()["results"]
    west_4 = _seat_of(session, 4, W)
    mine = next(r for r in rows if r["player"] == west_4.pk)
    assert mine == {
        "rank": 1,
        "player": west_4.pk,
        "name": west_4.label,
        "method": "average",
        "boards": 1,
        "matchpoints": 6,
        "maximum": 6,
        "percentage": "100.00",
        "total": 96,
        "tops": 1,
        "penalties": 0,
    }
    # Tied first (equal totals and tops): North and West of table 4, by name.
    assert {(r["rank"], r["player"]) for r in rows[:2]} == {
        (1, _seat_of(session, 4, N).pk),
        (1, west_4.pk),
    }
    assert [r["total"] for r in rows][-2:] == [-90, -102]


def test_the_projector_shows_the_percentages(example: Session) -> None:
    html = english().get(reverse("tournaments:projector", args=[example.tournament.pk]))
    text = html.content.decode()
    east_2 = _seat_of(example, 2, E)
    assert re.search(
        rf'data-player="{east_2.pk}"><span class="board-name">{east_2.label}</span> '
        r'<span class="board-total">100.00 %</span>',
        text,
    )
    assert text.count('class="board-name"') == 16


def test_the_projector_reads_few_queries_and_answers_304(
    example: Session, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    url = reverse("tournaments:projector", args=[example.tournament.pk])
    client = english()
    with django_assert_max_num_queries(12):
        first = client.get(url)
    assert first.status_code == 200
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


# --- travellers --------------------------------------------------------------------------------


def _traveller_row(html: str, table: int) -> str:
    match = re.search(rf'<tr id="traveller-table-{table}".*?</tr>', html, re.S)
    assert match is not None, table
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))).strip()


def test_a_boards_traveller_lists_every_table(
    example: Session, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    url = reverse("tournaments:board", args=[example.tournament.pk, BOARD])
    with django_assert_max_num_queries(10):
        response = english().get(url)
    html = response.content.decode()
    assert "Board 5 — dealer North" in html
    for table, (_taker, points, bouts) in EXAMPLE.items():
        names = [_seat_of(example, table, d).label for d in range(4)]
        seats = " ".join(
            f"{name} {score} · {mp} mp"
            for name, score, mp in zip(names, SCORES[table], MATCHPOINTS[table], strict=True)
        )
        taker = "South" if table < 4 else "East"
        assert _traveller_row(html, table) == f"{table} Garde {taker} {bouts} {points} {seats}"
    assert reverse("tournaments:board", args=[example.tournament.pk, 4]) in html  # previous
    assert reverse("tournaments:board", args=[example.tournament.pk, 6]) in html  # next


def test_the_average_traveller_shows_the_differences(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    html = english().get(reverse("tournaments:board", args=[session.tournament.pk, BOARD]))
    text = html.content.decode()
    for table, differences in DIFFERENCES.items():
        row = _traveller_row(text, table)
        shown = [f"{d:+d}" if d else "0" for d in differences]
        assert re.findall(r"· ([+-]\d+)", row) == shown, row


def test_a_board_nobody_played_and_a_board_that_does_not_exist(example: Session) -> None:
    client = english()
    tournament = example.tournament
    html = client.get(reverse("tournaments:board", args=[tournament.pk, 1])).content.decode()
    assert "Not played yet." in html and "traveller-table" not in html
    # 4 tables x 2 boards a round: boards 1 to 8.
    assert client.get(reverse("tournaments:board", args=[tournament.pk, 8])).status_code == 200
    assert client.get(reverse("tournaments:board", args=[tournament.pk, 9])).status_code == 404
    assert client.get(reverse("tournaments:board", args=[tournament.pk, 0])).status_code == 404
    pdf = client.get(reverse("tournaments:board_pdf", args=[tournament.pk, 9]))
    assert pdf.status_code == 404


def test_the_travellers_pdf(example: Session) -> None:
    client = english()
    tournament = example.tournament
    example.play(BOARD + 1, 2, taker=N, points=40, oudlers=2)
    response = client.get(reverse("tournaments:board_pdf", args=[tournament.pk, BOARD]))
    pages, texts = read_pdf(streamed(response))
    assert pages == 1
    assert "Board 5 — dealer North" in texts[0]
    # Table 2: garde by South, 55 points; the four scores then the four matchpoints.
    assert "2 Garde South 55 -58 -58 174 -58 4 6 2 4" in texts[0].replace("−", "-")
    every = client.get(reverse("tournaments:travellers_pdf", args=[tournament.pk]))
    pages, texts = read_pdf(streamed(every))
    assert pages == 2  # boards 5 and 6, those played
    assert "Board 6 — dealer East" in texts[1]


def test_the_average_travellers_pdf_prints_the_differences(club: Club) -> None:
    session = make_session(club, method="average")
    play_example(session)
    url = reverse("tournaments:board_pdf", args=[session.tournament.pk, BOARD])
    pages, texts = read_pdf(streamed(english().get(url)))
    text = texts[0].replace("−", "-")
    assert pages == 1 and "Difference from the average" in text
    assert "4 Garde East 35 62 -186 62 62 +96 -90 -102 +96" in text


# --- the movement ------------------------------------------------------------------------------


def test_the_movement_page_names_the_players(
    example: Session, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    url = reverse("tournaments:movement", args=[example.tournament.pk])
    with django_assert_max_num_queries(10):
        response = english().get(url)
    html = response.content.decode()
    plan = movement(4, 4, 2)
    section = re.search(r'<section[^>]*id="movement-2">.*?</section>', html, re.S)
    assert section is not None
    row = re.search(r'<tr data-table="1">.*?</tr>', section.group(0), re.S)
    assert row is not None
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row.group(0))).strip()
    station = plan.station(2, 1)
    names = " ".join(f"{n}. {example.players[n].label}" for n in station.players)
    assert text == f"1 3-4 2 {names}"
    assert "movement-not-drawn" not in html


def test_the_movement_sheet_and_the_board_labels(example: Session) -> None:
    client = english()
    tournament = example.tournament
    sheet = client.get(reverse("tournaments:movement_pdf", args=[tournament.pk]))
    pages, texts = read_pdf(streamed(sheet))
    assert pages == 4  # a page per round
    assert "Round 2" in texts[1]
    # Round 2, table 1: boards 3-4 from table 2, then each direction's number and name.
    station = movement(4, 4, 2).station(2, 1)
    seats = " ".join(f"{n}. {example.players[n].label}" for n in station.players)
    assert f"1 3-4 2 {seats}" in texts[1]
    labels = client.get(reverse("tournaments:board_labels_pdf", args=[tournament.pk]))
    pages, texts = read_pdf(streamed(labels))
    assert pages == 1  # 8 boards, twelve labels a page
    assert "Board 7 — dealer South" in texts[0] and "Board 8 — dealer West" in texts[0]


def test_a_movement_that_cannot_be_made_is_said_not_a_500(club: Club) -> None:
    tournament = registration_services.tournament_create(
        club=club, name="Trop peu", by=None, format=Tournament.Format.DUPLICATE, rounds=3
    )
    for name in NAMES[:4]:
        registration_services.entry_add(tournament=tournament, name=name, checked_in=True)
    client = english()
    html = client.get(reverse("tournaments:movement", args=[tournament.pk])).content.decode()
    assert 'id="movement-impossible"' in html
    assert client.get(reverse("tournaments:movement_pdf", args=[tournament.pk])).status_code == 404
    assert client.get(reverse("tournaments:board", args=[tournament.pk, 1])).status_code == 404


def test_before_the_draw_the_movement_page_says_when_round_one_could_not_be_seated(
    club: Club,
) -> None:
    tournament = registration_services.tournament_create(
        club=club, name="Neuf", by=None, format=Tournament.Format.DUPLICATE, rounds=2
    )
    for name in NAMES[:9]:
        registration_services.entry_add(tournament=tournament, name=name, checked_in=True)
    url = reverse("tournaments:movement", args=[tournament.pk])
    html = english().get(url).content.decode()
    assert 'id="movement-unseatable"' in html and "multiple of 4" in html
    assert "9 are checked in" in html
    Entry.objects.filter(tournament=tournament, player__name=NAMES[8]).update(checked_in=False)
    assert 'id="movement-unseatable"' not in english().get(url).content.decode()


def test_the_duplicate_pages_are_linked_and_absent_elsewhere(example: Session) -> None:
    client = english()
    tournament = example.tournament
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()
    assert reverse("tournaments:movement", args=[tournament.pk]) in detail
    round_page = client.get(reverse("tournaments:round", args=[tournament.pk, 2])).content.decode()
    assert reverse("tournaments:movement_pdf", args=[tournament.pk]) in round_page
    rounds = make_session_in_rounds(tournament.club)
    for name in ("movement", "movement_pdf", "board_labels_pdf", "travellers_pdf"):
        assert client.get(reverse(f"tournaments:{name}", args=[rounds.pk])).status_code == 404
    assert client.get(reverse("tournaments:board", args=[rounds.pk, 1])).status_code == 404


def make_session_in_rounds(club: Club) -> Tournament:
    return registration_services.tournament_create(club=club, name="Open", by=None)


def test_a_private_clubs_duplicate_pages_are_for_its_members(club: Club) -> None:
    private = ClubFactory.create(name="Cercle privé", public=False)
    session = make_session(private)
    play_example(session)
    member = MembershipFactory.create(club=private, user=UserFactory.create()).user
    outsider = UserFactory.create()
    urls = [
        reverse("tournaments:board", args=[session.tournament.pk, BOARD]),
        reverse("tournaments:board_pdf", args=[session.tournament.pk, BOARD]),
        reverse("tournaments:travellers_pdf", args=[session.tournament.pk]),
        reverse("tournaments:movement", args=[session.tournament.pk]),
        reverse("tournaments:movement_pdf", args=[session.tournament.pk]),
        reverse("tournaments:board_labels_pdf", args=[session.tournament.pk]),
        reverse("tournaments:standings", args=[session.tournament.pk]),
    ]
    reader, stranger = Client(), Client()
    reader.force_login(member)
    stranger.force_login(outsider)
    for url in urls:
        assert reader.get(url).status_code == 200, url
        assert stranger.get(url).status_code == 404, url
        assert Client().get(url).status_code == 404, url


def test_the_duplicate_pages_speak_french(example: Session) -> None:
    french = Client(headers={"Accept-Language": "fr"})
    tournament = example.tournament
    board = french.get(reverse("tournaments:board", args=[tournament.pk, BOARD])).content
    assert "Étui 5 — donneur Nord" in board.decode()
    assert "Points de match : 2 par score battu à la même orientation" in board.decode()
    empty = french.get(reverse("tournaments:board", args=[tournament.pk, 1])).content.decode()
    assert "Pas encore joué." in empty
    standings = french.get(reverse("tournaments:standings", args=[tournament.pk])).content
    assert "2 points de match par score battu, 1 par égalité" in standings.decode()
    movement_page = french.get(reverse("tournaments:movement", args=[tournament.pk])).content
    assert "Feuille de mouvement (PDF)" in movement_page.decode()
    assert "Chaque joueur garde son orientation" in movement_page.decode()


def test_the_movement_rule_is_said_in_words(example: Session) -> None:
    """Each direction's move, by name, in the reader's language ("monte de 2 tables", "reste"),
    on the page and on the movement sheet."""
    assert movement(4, 4, 2).strides == (0, 0, 2, 2)
    url = reverse("tournaments:movement", args=[example.tournament.pk])
    rule = "North stays, East stays, South moves 2 tables up, West moves 2 tables up."
    assert rule in english().get(url).content.decode()
    french = Client().get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Nord reste, Est reste, Sud monte de 2 tables, Ouest monte de 2 tables." in french
    sheet = english().get(reverse("tournaments:movement_pdf", args=[example.tournament.pk]))
    _pages, texts = read_pdf(streamed(sheet))
    assert rule in " ".join(texts[0].split())


@pytest.mark.parametrize(
    ("strides", "said"),
    [
        ((0, 1, 2, 3), "North stays, East moves 1 table up, South moves 2 tables up, West moves 3"),
        ((0, 0, 0, 0), "Each player keeps his direction and his table."),
    ],
)
def test_the_movement_rule_reads_each_stride(strides: tuple[int, ...], said: str) -> None:
    with translation.override("en"):
        assert said in movement_rule(strides)
