"""Starting a game: the players tapped in seat order, the rules, and at five how the table
plays, every answer a chip (no drop-down)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.games.models import Game
from tests.clubs.helpers import field_errors, non_field_errors
from tests.factories import UserFactory, make_club

pytestmark = pytest.mark.django_db


def post_game(
    client: Client,
    club: Club,
    seats: list[Player],
    rules: str = "fft",
    language: str = "fr",
    **extra: str,
) -> Any:
    data = {
        "date": "2025-10-04",
        "rules": rules,
        "players": [str(p.pk) for p in seats],
        "seat_order": ",".join(str(p.pk) for p in seats),
        **extra,
    }
    return client.post(
        reverse("clubs:game_new", args=[club.slug]), data, HTTP_ACCEPT_LANGUAGE=language
    )


def seat_order(game: Game) -> list[str]:
    return list(game.seats.order_by("position").values_list("player__name", flat=True))


def test_form_offers_the_clubs_players_and_rules(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    HouseRules.objects.create(club=club, name="Du jeudi")
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    client.force_login(member)
    page = client.get(reverse("clubs:game_new", args=[club.slug])).content.decode()
    assert "<select" not in page  # chips only: a tap each
    for player in players:
        assert f'type="checkbox" name="players" value="{player.pk}"' in page
        assert f"<span>{player.label}</span>" in page
    stranger = other.players.first()
    assert stranger is not None
    assert f'name="players" value="{stranger.pk}"' not in page
    for value in ("fft", "classic", "novatarok", "buraco"):
        assert f'type="radio" name="rules" value="{value}"' in page
    assert "Du jeudi" in page
    # FFT is chosen for a club's first game: no tap needed for the rules.
    assert 'name="rules" value="fft" id="id_rules_0" required checked' in page


def test_create_a_four_player_game_in_seat_order(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    client.force_login(member)
    seats = [players[2], players[0], players[3], players[1]]
    response = post_game(client, club, seats, label="Jeudi soir")

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("games:detail", args=[game.pk])
    assert seat_order(game) == ["Chloé", "Aurélie", "Denis", "Bruno"]
    assert game.variant == "fft" and game.rules["name"] == "fft"
    assert str(game.date) == "2025-10-04" and game.label == "Jeudi soir"
    assert game.created_by == member


def test_without_the_order_of_taps_the_list_order_is_the_seat_order(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    client.force_login(member)
    data = {
        "date": "2025-10-04",
        "rules": "fft",
        "players": [str(players[2].pk), str(players[0].pk), str(players[1].pk)],
        # An order that does not name the ticked players is not used.
        "seat_order": f"{players[1].pk},{players[4].pk}",
    }
    client.post(reverse("clubs:game_new", args=[club.slug]), data)
    assert seat_order(Game.objects.get()) == ["Chloé", "Aurélie", "Bruno"]


def test_the_next_game_starts_with_the_rules_of_the_last(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    client.force_login(member)
    post_game(client, club, players[:4], "classic")
    page = client.get(reverse("clubs:game_new", args=[club.slug])).content.decode()
    assert 'name="rules" value="classic" id="id_rules_1" required checked' in page


def test_house_rules_are_frozen_into_the_game(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    house_rules = HouseRules.objects.create(
        club=club, name="Du jeudi", parameters={"coefficient_garde": 3}
    )
    client.force_login(member)
    post_game(client, club, players[:3], f"house:{house_rules.pk}")
    game = Game.objects.get()
    assert game.variant == "house" and game.house_rules == house_rules
    assert game.rules["coefficient_garde"] == 3 and game.rules["name"] == "Du jeudi"


@pytest.mark.parametrize("mode", ["called_king", "sitting_out"])
def test_at_five_the_choice_goes_into_the_frozen_rules(
    client: Client, club: Club, member: User, players: list[Player], mode: str
) -> None:
    client.force_login(member)
    assert post_game(client, club, players, five_players=mode).status_code == 302
    game = Game.objects.get()
    assert game.rules["five_players"] == mode
    rule_set = game.rule_set()
    assert rule_set is not None and rule_set.five_players.value == mode


def test_below_five_the_choice_is_ignored(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    client.force_login(member)
    post_game(client, club, players[:4], five_players="sitting_out")
    assert Game.objects.get().rules["five_players"] == "either"


def test_at_five_with_nothing_chosen_the_table_plays_called_king(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    """Rules that allow either, nothing tapped: the FFT rules' game at five, not an error."""
    client.force_login(member)
    response = post_game(client, club, players)
    assert response.status_code == 302
    assert Game.objects.get().rules["five_players"] == "called_king"


def test_the_new_game_page_says_what_five_players_play_when_not_chosen(
    client: Client, club: Club, member: User
) -> None:
    client.force_login(member)
    page = client.get(reverse("clubs:game_new", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "Sans choix : roi appelé" in page.content.decode()


def test_house_rules_that_fix_the_five_player_mode(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    house_rules = HouseRules.objects.create(
        club=club, name="Roi appelé", parameters={"five_players": "called_king"}
    )
    client.force_login(member)
    refused = post_game(
        client, club, players, f"house:{house_rules.pk}", "en", five_players="sitting_out"
    )
    assert field_errors(refused.content.decode(), "id_five_players") == [
        "These rules play tables of five with: called king."
    ]
    # Without a choice, the rule set's own mode is used.
    assert post_game(client, club, players, f"house:{house_rules.pk}").status_code == 302
    assert Game.objects.get().rules["five_players"] == "called_king"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Bruno est déjà à la place 1."),
        ("en", "Bruno already sits at seat 1."),
    ],
)
def test_a_player_twice_is_refused_beside_the_seat(
    client: Client, club: Club, member: User, players: list[Player], language: str, message: str
) -> None:
    client.force_login(member)
    bruno = players[1]
    response = post_game(client, club, [bruno, players[0], bruno, players[2]], language=language)
    html = response.content.decode()
    assert response.status_code == 400
    assert field_errors(html, "id_players") == [message]
    assert not Game.objects.exists()


def test_without_a_valid_game_only_the_seats_are_judged(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    client.force_login(member)
    bruno = players[1]
    response = post_game(client, club, [bruno, bruno], "house:999999", "en")
    html = response.content.decode()
    assert response.status_code == 400
    assert field_errors(html, "id_players") == ["Bruno already sits at seat 1."]
    assert field_errors(html, "id_rules") != []
    assert non_field_errors(html) == []  # the size of the table depends on the game
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("rules", "count", "language", "message"),
    [
        ("fft", 2, "fr", "Le tarot se joue à 3, 4 ou 5 joueurs (ici 2)."),
        ("fft", 2, "en", "Tarot is played by 3, 4 or 5 players (here 2)."),
        ("classic", 0, "en", "Tarot is played by 3, 4 or 5 players (here 0)."),
        ("novatarok", 1, "fr", "Le Novatarok se joue de 2 à 5 joueurs (ici 1)."),
        ("buraco", 3, "fr", "Le buraco se joue à 2 ou à 4 joueurs (ici 3)."),
        ("buraco", 5, "en", "Buraco is played by 2 or 4 players (here 5)."),
    ],
)
def test_wrong_number_of_players_is_refused(
    client: Client,
    club: Club,
    member: User,
    players: list[Player],
    rules: str,
    count: int,
    language: str,
    message: str,
) -> None:
    client.force_login(member)
    response = post_game(client, club, players[:count], rules, language, five_players="called_king")
    assert response.status_code == 400
    assert non_field_errors(response.content.decode()) == [message]
    assert 'aria-describedby="seats-errors"' in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize(("rules", "count"), [("novatarok", 2), ("buraco", 2), ("buraco", 4)])
def test_other_games_with_the_right_number(
    client: Client, club: Club, member: User, players: list[Player], rules: str, count: int
) -> None:
    client.force_login(member)
    assert post_game(client, club, players[:count], rules).status_code == 302
    game = Game.objects.get()
    assert game.kind == rules and game.seats.count() == count


def test_a_player_of_another_club_cannot_sit(
    client: Client, club: Club, member: User, players: list[Player]
) -> None:
    other = make_club("Autre club", UserFactory.create(), UserFactory.create())
    stranger = other.players.get(name="Denis")
    client.force_login(member)
    response = post_game(client, club, [*players[:3], stranger], language="en")
    errors = field_errors(response.content.decode(), "id_players")
    assert len(errors) == 1 and errors[0].startswith("Select a valid choice.")
    assert not Game.objects.exists()


def test_the_players_chips_read_as_a_french_list(client: Client, club: Club, member: User) -> None:
    # The database's order puts every accented first letter after Z (SQLite, PostgreSQL's "C").
    services.player_create(club=club, name="Zoé")
    client.force_login(member)
    page = client.get(reverse("clubs:game_new", args=[club.slug])).content.decode()
    chips = re.findall(r'name="players" value="\d+"[^>]*>\s*<span>([^<]+)</span>', page)
    assert chips == ["Aurélie", "Bruno", "Chloé", "Denis", "Émile", "Zoé"], page
