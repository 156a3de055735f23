"""A game's title: numbered per club and per day from 1, never by the database's id, and two
games of one day told apart ("Partie du 2 décembre 2026 (2)")."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import selectors, services
from tests.factories import ClubFactory, make_game, signed_in_client
from tests.games.helpers import page_text

DAY = datetime.date(2026, 12, 2)


@pytest.fixture
def other_clubs_games(db: None) -> None:
    # Games of another club the same day, made first: their ids come before ours.
    elsewhere = ClubFactory.create(name="Ailleurs")
    seated = make_game(club=elsewhere, date=DAY).players.all()
    for _ in range(5):
        make_game(club=elsewhere, players=list(seated), date=DAY)


def test_first_game_of_a_club_is_game_1_on_its_page(
    other_clubs_games: None, club: Club, players: list[Player]
) -> None:
    game = make_game(club=club, players=players[:4], date=DAY)
    assert game.pk > 6
    text = page_text(Client().get(f"/clubs/{club.slug}/").content)
    assert "Partie 1 " in text
    assert f"Partie {game.pk}" not in text


def test_two_games_of_one_day_have_different_titles(
    other_clubs_games: None, club: Club, players: list[Player], member: object
) -> None:
    first = make_game(club=club, players=players[:4], date=DAY)
    second = make_game(club=club, players=players[1:5], date=DAY)
    next_day = make_game(club=club, players=players[:4], date=DAY + datetime.timedelta(days=1))
    client = Client()
    titles = []
    for game in (first, second, next_day):
        text = page_text(client.get(f"/games/{game.pk}/").content)
        titles.append(text)
    assert "Partie du 2 décembre 2026 " in titles[0]
    assert "Partie du 2 décembre 2026 (2)" not in titles[0]
    assert "Partie du 2 décembre 2026 (2)" in titles[1]
    assert "Partie du 3 décembre 2026 " in titles[2]
    club_page = page_text(client.get(f"/clubs/{club.slug}/").content)
    assert club_page.count("Partie 1 ") == 2  # the first game of each day
    assert club_page.count("Partie 2 ") == 1


def test_titles_in_english(club: Club, players: list[Player]) -> None:
    make_game(club=club, players=players[:4], date=DAY)
    second = make_game(club=club, players=players[:4], date=DAY)
    text = page_text(Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/games/{second.pk}/").content)
    assert "Game of Dec. 2, 2026 (2)" in text


def test_a_label_is_the_title_and_counts_in_the_day(club: Club, players: list[Player]) -> None:
    make_game(club=club, players=players[:4], date=DAY, label="Soirée de Noël")
    second = make_game(club=club, players=players[:4], date=DAY)
    assert selectors.game_day_number(second).title == "Partie du 2 décembre 2026 (2)"
    labelled = selectors.club_games(club=club).get(label="Soirée de Noël")
    assert labelled.title == "Soirée de Noël"


def test_history_and_correction_pages_name_the_game(
    club: Club, players: list[Player], organiser: object
) -> None:
    make_game(club=club, players=players[:4], date=DAY)
    second = make_game(club=club, players=players[:4], date=DAY)
    deal = services.deal_record(
        game=second,
        payload={"taker": players[0].pk, "contract": "garde", "points": 49, "oudlers": 2},
        by=None,
    ).deal
    client = signed_in_client(organiser)  # type: ignore[arg-type]
    for url in (f"/deals/{deal.pk}/history/", f"/deals/{deal.pk}/edit/"):
        assert "Partie du 2 décembre 2026 (2)" in page_text(client.get(url).content), url


def test_a_game_read_without_its_number_says_so_loudly(club: Club, players: list[Player]) -> None:
    game = make_game(club=club, players=players[:4], date=DAY)
    with pytest.raises(RuntimeError):
        _ = game.title


def test_a_players_games_are_told_apart_on_his_page(club: Club, players: list[Player]) -> None:
    for _ in range(2):
        game = make_game(club=club, players=players[:4], date=DAY)
        services.deal_record(
            game=game,
            payload={"taker": players[0].pk, "contract": "garde", "points": 49, "oudlers": 2},
            by=None,
        )
    text = page_text(Client().get(reverse("clubs:player", args=[club.slug, players[0].pk])).content)
    assert "Partie du 2 décembre 2026 (2)" in text
    assert "Partie du 2 décembre 2026 " in text.replace("(2)", "")
