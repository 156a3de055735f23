"""Every CSV export writes a cell that a spreadsheet would run as a formula as plain text, and
leaves numbers (scores such as -54) as numbers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.exports import spreadsheet_safe
from tarot_scores.games import services
from tests.csv_reading import csv_rows
from tests.factories import ClubFactory, PlayerFactory, garde, make_game, play
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services

# A name as typed (or as already stored), and the cell every export must write for it.
CASES = [
    ('=HYPERLINK("http://example.org","clic")', '\'=HYPERLINK("http://example.org","clic")'),
    ("=1+2", "'=1+2"),
    ("+1", "'+1"),
    ("+33 6 12", "'+33 6 12"),
    ("-2", "-2"),  # a number stays a number
    ("-54,5", "-54,5"),
    ("-x", "'-x"),
    ("--", "'--"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\tTab", "'\tTab"),
    ("\rRetour", "'\rRetour"),
    ("Aurélie", "Aurélie"),
    ("Jean-Marc", "Jean-Marc"),
]


@pytest.mark.parametrize(("value", "cell"), [*CASES, (-54, -54), (0, 0), (49.5, 49.5), ("", "")])
def test_spreadsheet_safe(value: object, cell: object) -> None:
    assert spreadsheet_safe(value) == cell


def read_csv(response) -> list[list[str]]:  # type: ignore[no-untyped-def]
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return csv_rows(response)


def club_with(name: str) -> tuple[Club, list[Player]]:
    club = ClubFactory.create(name="Club des formules")
    # Straight to the table, not through the services: older rows may hold such names.
    players = [
        PlayerFactory.create(name=n, clubs=[club]) for n in (name, "Bruno", "Chloé", "Denis")
    ]
    return club, players


def game_csv(name: str) -> list[list[str]]:
    club, players = club_with(name)
    game = make_game(club=club, players=players)
    services.deal_record(game=game, payload=garde(players[0].pk), by=None)
    return read_csv(Client().get(reverse("games:csv", args=[game.pk])))


def standings_csv(name: str) -> list[list[str]]:
    club, players = club_with(name)
    tournament = registration_services.tournament_create(
        club=club,
        by=None,
        name="Open",
        rounds=1,
        deals_per_round=1,
        seating_method=Tournament.Seating.RANDOM,
        seed=7,
    )
    for player in players:
        registration_services.entry_add(tournament=tournament, player=player, checked_in=True)
    play(round_services.round_seat_next(tournament=tournament, by=None))
    return read_csv(Client().get(reverse("tournaments:standings_csv", args=[tournament.pk])))


EXPORTS: dict[str, Callable[[str], list[list[str]]]] = {
    "game": game_csv,
    "tournament standings": standings_csv,
}


@pytest.mark.django_db
@pytest.mark.parametrize("export", EXPORTS)
@pytest.mark.parametrize(("name", "cell"), CASES)
def test_every_export_writes_formulas_as_text(export: str, name: str, cell: str) -> None:
    rows = EXPORTS[export](name)

    cells = [c for row in rows for c in row]
    assert cell in cells
    if cell != name:
        assert name not in cells
    # The scores are still numbers, negative ones included.
    numbers = [c for c in cells if c.lstrip("-").isdigit() and c.startswith("-")]
    assert numbers, cells
    assert not any(c.startswith("'-") and c[2:].isdigit() for c in cells)
