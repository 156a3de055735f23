"""The rules of a new game's table (``services.game_setup_check``): a player sits once, each
game is played by so many, and at a tarot table of five the rules say how the table plays.

Pure: the players are unsaved, no database is needed.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from django.utils import translation

from tarot_scores import scoring
from tarot_scores.clubs.models import Player
from tarot_scores.games.setup import (
    FIVE_PLAYERS,
    PLAYERS,
    GameSetup,
    SetupProblem,
    game_setup_check,
)

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]
EITHER = scoring.FFT  # the presets let each game choose
CALLED_KING = scoring.RuleSet(name="roi", five_players=scoring.FivePlayers.CALLED_KING)
SITTING_OUT = scoring.RuleSet(name="assis", five_players=scoring.FivePlayers.SITTING_OUT)


def table(count: int) -> list[Player]:
    return [Player(pk=i + 1, name=NAMES[i]) for i in range(count)]


def check(
    kind: str = "tarot",
    seats: Sequence[Player | None] | None = None,
    rules: scoring.RuleSet | None = EITHER,
    five_players: str | None = None,
    *,
    imposed: bool = False,
    language: str = "en",
) -> GameSetup:
    with translation.override(language):
        return game_setup_check(
            kind=kind,
            seats=table(4) if seats is None else seats,
            rules=rules,
            five_players=five_players,
            imposed=imposed,
        )


# --- a player sits once ------------------------------------------------------------------------


def test_a_player_twice_is_refused_at_the_later_seat_and_seated_once() -> None:
    a, b, c, d = table(4)
    setup = check(seats=[a, b, c, b, d])
    assert setup.problems == (SetupProblem(PLAYERS, "Bruno already sits at seat 2.", seat=4),)
    assert setup.players == (a, b, c, d)


def test_empty_seats_count_in_the_seat_numbers_but_seat_nobody() -> None:
    a, b, c = table(3)
    setup = check(seats=[None, a, b, None, a, c])
    assert setup.problems == (SetupProblem(PLAYERS, "Aurélie already sits at seat 2.", seat=5),)
    assert setup.players == (a, b, c)


def test_a_player_is_told_by_nickname_in_the_readers_language() -> None:
    a, b, c = table(3)
    b.nickname = "Bubu"
    setup = check(seats=[a, b, c, b], language="fr")
    assert setup.messages() == {PLAYERS: ["Bubu est déjà à la place 2."]}


def test_a_player_twice_leaves_the_table_short_and_both_are_said() -> None:
    a, b, c = table(3)
    setup = check(seats=[a, b, a])
    assert setup.messages() == {
        PLAYERS: [
            "Aurélie already sits at seat 1.",
            "Tarot is played by 3, 4 or 5 players (here 2).",
        ]
    }


# --- how many play each game -------------------------------------------------------------------

SIZES = [
    ("tarot", [3, 4, 5], "Tarot is played by 3, 4 or 5 players (here {})."),
    ("novatarok", [2, 3, 4, 5], "Novatarok is played by 2 to 5 players (here {})."),
    ("buraco", [2, 4], "Buraco is played by 2 or 4 players (here {})."),
]


@pytest.mark.parametrize(
    ("kind", "count", "message"),
    [
        (kind, count, None if count in allowed else message.format(count))
        for kind, allowed, message in SIZES
        for count in range(6)
    ],
)
def test_each_game_is_played_by_so_many(kind: str, count: int, message: str | None) -> None:
    rules = EITHER if kind == "tarot" else None
    setup = check(kind, table(count), rules, five_players="called_king")
    assert setup.messages().get(PLAYERS) == ([message] if message else None)
    assert setup.problems == (
        (SetupProblem(PLAYERS, message),) if message else ()  # never about a seat
    )


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("tarot", "Le tarot se joue à 3, 4 ou 5 joueurs (ici 2)."),
        ("novatarok", "Le Novatarok se joue de 2 à 5 joueurs (ici 1)."),
        ("buraco", "Le buraco se joue à 2 ou à 4 joueurs (ici 3)."),
    ],
)
def test_the_size_is_refused_in_the_readers_language(kind: str, message: str) -> None:
    count = {"tarot": 2, "novatarok": 1, "buraco": 3}[kind]
    assert check(kind, table(count), None, language="fr").messages() == {PLAYERS: [message]}


# --- at a tarot table of five ------------------------------------------------------------------

CHOOSE = "At five players, choose how the table plays."


@pytest.mark.parametrize(
    ("rules", "given", "mode", "message"),
    [
        # The rules allow either: the table must choose.
        (EITHER, None, None, CHOOSE),
        (EITHER, "either", None, CHOOSE),
        (EITHER, "called_king", "called_king", None),
        (EITHER, "sitting_out", "sitting_out", None),
        # The rules fix it: taken from them, or confirmed, or refused in words.
        (CALLED_KING, None, "called_king", None),
        (CALLED_KING, "called_king", "called_king", None),
        (
            CALLED_KING,
            "sitting_out",
            None,
            "These rules play tables of five with: called king.",
        ),
        (SITTING_OUT, None, "sitting_out", None),
        (SITTING_OUT, "sitting_out", "sitting_out", None),
        (
            SITTING_OUT,
            "called_king",
            None,
            "These rules play tables of five with: the dealer sits out.",
        ),
        # Rules not known (refused elsewhere): nothing to check against.
        (None, None, None, None),
        (None, "called_king", None, None),
    ],
)
def test_at_five_the_rules_say_how_the_table_plays(
    rules: scoring.RuleSet | None, given: str | None, mode: str | None, message: str | None
) -> None:
    setup = check(seats=table(5), rules=rules, five_players=given)
    assert setup.five_players == mode
    assert setup.problems == ((SetupProblem(FIVE_PLAYERS, message),) if message else ())
    assert len(setup.players) == 5


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (EITHER, "À cinq joueurs, choisissez comment se joue la table."),
        (CALLED_KING, "Avec ces règles, une table de cinq se joue ainsi : roi appelé."),
        (
            SITTING_OUT,
            "Avec ces règles, une table de cinq se joue ainsi : le donneur passe son tour.",
        ),
    ],
)
def test_the_five_player_refusals_are_in_the_readers_words(
    rules: scoring.RuleSet, message: str
) -> None:
    given = None if rules is EITHER else ("sitting_out" if rules is CALLED_KING else "called_king")
    setup = check(seats=table(5), rules=rules, five_players=given, language="fr")
    assert setup.messages() == {FIVE_PLAYERS: [message]}


@pytest.mark.parametrize(
    ("kind", "count"), [("tarot", 3), ("tarot", 4), ("novatarok", 5), ("buraco", 4)]
)
def test_elsewhere_than_a_tarot_table_of_five_the_mode_is_ignored(kind: str, count: int) -> None:
    setup = check(kind, table(count), CALLED_KING, "sitting_out")
    assert setup.five_players is None
    assert FIVE_PLAYERS not in setup.messages()


def test_a_mode_that_is_not_one_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="alone"):
        check(seats=table(5), five_players="alone")


# --- a mode imposed by code (a tournament's, for all its tables) -------------------------------


@pytest.mark.parametrize(
    ("rules", "given", "mode"),
    [
        (EITHER, None, None),  # left open: each deal says whether the dealer sits out
        (EITHER, "sitting_out", "sitting_out"),
        (CALLED_KING, None, "called_king"),
        (CALLED_KING, "sitting_out", "sitting_out"),  # the tournament's mode wins
        (SITTING_OUT, "called_king", "called_king"),
    ],
)
def test_an_imposed_mode_wins_over_the_rules(
    rules: scoring.RuleSet, given: str | None, mode: str | None
) -> None:
    setup = check(seats=table(5), rules=rules, five_players=given, imposed=True)
    assert (setup.five_players, setup.problems) == (mode, ())


def test_an_imposed_mode_does_not_excuse_the_seats() -> None:
    a, b, c, d, _e = table(5)
    setup = check(seats=[a, b, c, d, a], five_players="called_king", imposed=True)
    assert [p.message for p in setup.problems] == [
        "Aurélie already sits at seat 1.",
    ]
    setup = check("buraco", table(3), None, imposed=True)
    assert setup.messages() == {PLAYERS: ["Buraco is played by 2 or 4 players (here 3)."]}
