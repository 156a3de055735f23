"""The Format protocol: one object per format answers who plays round N, how they sit, whether
the tournament is over and what a table plays; nothing outside ``tournaments/formats`` (and the
model) tells the formats apart."""

from __future__ import annotations

import pathlib
import random
import re

import pytest
from django.utils import translation

import tournaments
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club
from tests.tournaments.rounds.test_services import make, play_round, register
from tournaments.errors import Code
from tournaments.formats import format_for, format_named
from tournaments.formats.duplicate import DuplicateFormat
from tournaments.formats.rounds import KnockoutFormat, RoundsFormat
from tournaments.models import Entry, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rules import players_for

pytestmark = pytest.mark.django_db
PACKAGE = pathlib.Path(tournaments.__file__).parent


@pytest.fixture
def club() -> Club:
    return club_services.club_create(name="Club des Formats", by=None)


def test_each_format_has_its_implementation() -> None:
    answers = {value: type(format_named(value)) for value in Tournament.Format.values}
    assert answers == {
        "rounds": RoundsFormat,
        "knockout": KnockoutFormat,
        "duplicate": DuplicateFormat,
    }
    flags = {
        value: (f.has_bracket, f.compares_boards, f.has_cuts, f.seats_byes, f.asks_five_mode)
        for value in Tournament.Format.values
        for f in [format_named(value)]
    }
    assert flags == {
        "rounds": (False, False, True, True, True),
        "knockout": (True, False, False, False, True),
        "duplicate": (False, True, False, False, False),
    }


def test_rounds_seat_the_players_of_the_round_and_end_after_the_last(club: Club) -> None:
    tournament = make(club, rounds=2)
    players = register(tournament, 9)
    fmt = format_for(tournament)
    assert fmt.players_for(tournament, 1) == players_for(tournament, 1)
    plan = fmt.seat(tournament, 1, fmt.players_for(tournament, 1))
    assert [t.number for t in plan.tables] == [1, 2]
    assert sorted(plan.players) == sorted(p.pk for p in players)
    assert Tournament.objects.get(pk=tournament.pk).round_set.count() == 0  # nothing stored

    first = round_services.round_seat_next(tournament=tournament, by=None)
    assert fmt.over_refusal(tournament, first) is None
    play_round(first, random.Random(1))
    second = round_services.round_seat_next(tournament=tournament, by=None)
    refusal = fmt.over_refusal(tournament, second)
    assert refusal is not None and refusal.code is Code.ROUNDS_PLAYED
    table = second.tables.first()
    assert table is not None and fmt.table_boards(table, 2) is None


def test_a_knockout_seats_the_qualifiers_and_ends_with_one_table(club: Club) -> None:
    tournament = make(club, format="knockout", qualifiers_per_table=2)
    register(tournament, 8)
    fmt = format_for(tournament)
    first = round_services.round_seat_next(tournament=tournament, by=None)
    assert fmt.over_refusal(tournament, first) is None  # two tables
    play_round(first, random.Random(2))
    qualified = round_selectors.bracket(tournament=tournament).stages[-1].qualified
    assert fmt.players_for(tournament, 2) == qualified and len(qualified) == 4
    final = round_services.round_seat_next(tournament=tournament, by=None)
    with translation.override("en"):
        refusal = fmt.over_refusal(tournament, final)
    assert refusal is not None and str(refusal) == "The final table has been played."


def test_a_duplicate_session_draws_its_numbers_once_and_plays_boards(club: Club) -> None:
    tournament = make(club, format="duplicate", rounds=2, deals_per_round=2)
    register(tournament, 8)
    fmt = format_for(tournament)
    with pytest.raises(tournaments.errors.TournamentError) as refused:
        fmt.seat(tournament, 1, fmt.players_for(tournament, 1)[:7])
    assert refused.value.code is Code.UNSEATABLE
    first = round_services.round_seat_next(tournament=tournament, by=None)
    numbers = dict(
        Entry.objects.filter(tournament=tournament).values_list("player_id", "movement_number")
    )
    assert sorted(n or 0 for n in numbers.values()) == list(range(1, 9))
    plan = fmt.seat(tournament, 2, fmt.players_for(tournament, 2))
    assert sorted(plan.players) == sorted(numbers)
    again = dict(
        Entry.objects.filter(tournament=tournament).values_list("player_id", "movement_number")
    )
    assert again == numbers  # round 2 reads the draw, never draws again
    table = first.tables.get(number=1)
    boards = fmt.table_boards(table, 2)
    assert boards is not None and len(boards) == 2  # the station's boards, a round's deals
    assert fmt.over_refusal(tournament, first) is None


def test_only_the_formats_tell_the_formats_apart() -> None:
    """The format is compared (``format ==``, ``Format.DUPLICATE``...) only in formats/."""
    pattern = re.compile(
        r"format\s*[!=]=|Format\.(ROUNDS|KNOCKOUT|DUPLICATE)\s*(==|!=|in\b)|(==|!=)\s*Tournament\.Format\."
    )
    found = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in {"formats", "migrations"}:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    assert found == []
