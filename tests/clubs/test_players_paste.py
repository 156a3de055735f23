"""A list of players pasted at once: how lines read (clubs.roster), what the service refuses
(duplicates, bad lines, names taken: nothing stored), and the page (checked, then confirmed)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, Player
from tarot_scores.clubs.roster import LINES_MAX, PastedPlayer, roster_read
from tarot_scores.core.errors import Refusal
from tests.clubs.helpers import field_errors

EIGHT = """Aurélie Martin
Bruno Petit
Chloé Durand
Denis Moreau
Éric Bonnet
Françoise Roux
Gilles Faure
Hélène Blanc
"""


# --- reading the lines: no database ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Aurélie", [PastedPlayer(1, "Aurélie")]),
        ("  Aurélie   Martin  \n\n", [PastedPlayer(1, "Aurélie Martin")]),
        ("Aurélie, Auré, 1234567", [PastedPlayer(1, "Aurélie", "Auré", "1234567")]),
        ("Aurélie;Auré", [PastedPlayer(1, "Aurélie", "Auré")]),
        ("Aurélie\tAuré\t42", [PastedPlayer(1, "Aurélie", "Auré", "42")]),
        ('"Martin, Aurélie",Auré', [PastedPlayer(1, "Martin, Aurélie", "Auré")]),
        ("Aurélie,,", [PastedPlayer(1, "Aurélie")]),
        ("Aurélie,,42", [PastedPlayer(1, "Aurélie", "", "42")]),
        ("nom,surnom,licence\nAurélie", [PastedPlayer(2, "Aurélie")]),
        ("Name, Nickname, Licence\nBruno", [PastedPlayer(2, "Bruno")]),
        ("\n\nBruno\n\nChloé", [PastedPlayer(3, "Bruno"), PastedPlayer(5, "Chloé")]),
    ],
)
def test_lines_read_as_players(text: str, expected: list[PastedPlayer]) -> None:
    roster = roster_read(text)
    assert roster.problems == []
    assert roster.players == expected


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("Bruno\n,Auré", 2, "The name is missing."),
        ("Bruno\na,b,c,d", 2, "Too many columns: name, nickname and licence at most."),
        ("x" * 61, 1, "A name or nickname has at most 60 characters."),
        ("Bruno,Bru,123456789012345678901", 1, "A licence number has at most 20 characters."),
        ("Bru\u200bno", 1, "A name cannot contain control characters"),
        ("Bruno\nbruno", 2, "Same name as line 1: add a nickname to tell them apart."),
        ("Bruno,Le Grand\nPaul,le grand", 2, "Same name as line 1"),
    ],
)
def test_bad_lines_are_named_by_their_number(text: str, line: int, message: str) -> None:
    with translation.override("en"):
        roster = roster_read(text)
    assert not roster.ok
    assert [p.line for p in roster.problems] == [line]
    assert roster.problems[0].message.startswith(message)


def test_two_players_of_one_name_with_nicknames_are_fine() -> None:
    roster = roster_read("Bruno,Bruno P.\nBruno,Bruno L.")
    assert roster.ok and [p.label for p in roster.players] == ["Bruno P.", "Bruno L."]


def test_an_empty_paste_adds_nothing() -> None:
    assert not roster_read(" \n\n ").ok


def test_too_many_lines_is_one_problem() -> None:
    roster = roster_read("\n".join(f"P{n}" for n in range(LINES_MAX + 1)))
    assert roster.too_long and not roster.ok


# --- the service: all or nothing ---------------------------------------------------------------


@pytest.fixture
def empty_club(organiser: User) -> Club:
    return services.club_create(name="Les Excuses", by=organiser)


@pytest.mark.django_db
def test_paste_adds_every_player_to_the_club(empty_club: Club) -> None:
    created = services.players_paste(club=empty_club, text=EIGHT + "Ivan,Le Rouge,123")
    assert len(created) == 9
    players = list(empty_club.players.order_by("name"))
    assert [p.label for p in players][:2] == ["Aurélie Martin", "Bruno Petit"]
    ivan = Player.objects.get(name="Ivan")
    assert (ivan.nickname, ivan.licence, ivan.club) == ("Le Rouge", "123", empty_club)


@pytest.mark.django_db
def test_a_label_already_in_the_club_is_a_problem(empty_club: Club) -> None:
    services.player_create(club=empty_club, name="Bruno Petit")
    with translation.override("en"):
        roster = services.players_paste_check(club=empty_club, text=EIGHT)
    assert [(p.line, p.text) for p in roster.problems] == [(2, "Bruno Petit")]
    assert "already called" in roster.problems[0].message
    assert len(roster.players) == 7


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "code"),
    [
        (EIGHT + "aurélie martin", "paste_line"),
        (EIGHT + ",nickname only", "paste_line"),
        ("", "paste_empty"),
        ("\n".join(f"P{n}" for n in range(LINES_MAX + 1)), "paste_too_long"),
    ],
)
def test_one_bad_line_stores_nothing(empty_club: Club, text: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        services.players_paste(club=empty_club, text=text)
    assert refused.value.codes() == {"players": [code] * len(refused.value.reasons["players"])}
    assert not Player.objects.exists()


# --- the page ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_page_checks_first_then_adds_on_confirmation(
    client: Client, organiser: User, empty_club: Club
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:players_paste", args=[empty_club.slug])
    checked = client.post(url, {"players": EIGHT, "action": "check"}, HTTP_ACCEPT_LANGUAGE="en")
    html = checked.content.decode()
    assert checked.status_code == 200
    assert "8 players to add" in html and "Add these 8 players" in html
    assert not Player.objects.exists()  # nothing before the confirmation

    added = client.post(url, {"players": EIGHT, "action": "add"})
    assert Player.objects.count() == 8
    # A club without a game goes on to its first game.
    assert added["Location"] == reverse("clubs:game_new", args=[empty_club.slug])


@pytest.mark.django_db
def test_the_page_shows_bad_lines_beside_the_list_and_stores_nothing(
    client: Client, organiser: User, empty_club: Club
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:players_paste", args=[empty_club.slug])
    for action in ("check", "add"):
        response = client.post(
            url,
            {"players": "Bruno\nbruno\nChloé,a,b,c", "action": action},
            HTTP_ACCEPT_LANGUAGE="fr",
        )
        assert response.status_code == 400
        errors = field_errors(response.content.decode(), "id_players")
        assert errors == [
            "Ligne 2 (bruno) : Même nom que la ligne 1 : ajoutez un surnom pour les distinguer.",
            "Ligne 3 (Chloé,a,b,c) : Trop de colonnes : nom, surnom et licence au plus.",
        ]
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_only_who_may_add_a_player_may_paste(
    client: Client, outsider: User, empty_club: Club
) -> None:
    client.force_login(outsider)
    url = reverse("clubs:players_paste", args=[empty_club.slug])
    assert client.post(url, {"players": EIGHT, "action": "add"}).status_code == 403
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_checking_and_adding_a_long_list_takes_a_bounded_number_of_queries(
    client: Client,
    organiser: User,
    empty_club: Club,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:players_paste", args=[empty_club.slug])
    names = "\n".join(f"Joueur {n}" for n in range(200))
    with django_assert_max_num_queries(15):
        client.post(url, {"players": names, "action": "check"})
    with django_assert_max_num_queries(20):
        client.post(url, {"players": names, "action": "add"})
    assert empty_club.players.count() == 200


# --- lines that look alike: noted in the preview, not refused -----------------------------------


@pytest.mark.parametrize(
    ("text", "notes"),
    [
        # The list: the same person typed three ways.
        ("Zoé Lefèvre, Zozo\nZoé Lefèvre\nZoe Lefevre", {2: 1, 3: 2}),
        ("Zoé Lefèvre\nZOE  LEFEVRE", {2: 1}),
        ("Jean-Pierre Roux\nJean Pierre Roux", {2: 1}),
        ("Aurélie, Auré\nAure", {2: 1}),  # a label like an earlier nickname
        # Two of one name, each with a nickname of his own: two people, nothing to say.
        ("Bruno,Bruno P.\nBruno,Bruno L.", {}),
        ("Chloé\nChloé Durand", {}),
    ],
)
def test_lines_that_look_alike_are_noted(text: str, notes: dict[int, int]) -> None:
    with translation.override("en"):
        roster = roster_read(text)
    assert roster.ok  # a note never refuses: two people may share a name
    said = {line: int(note.split("line ")[1].split(" ")[0]) for line, note in roster.notes.items()}
    assert said == notes


def test_the_note_names_the_earlier_line_in_french() -> None:
    with translation.override("fr"):
        roster = roster_read("Zoé Lefèvre, Zozo\nZoe Lefevre")
    assert roster.notes == {
        2: "Ressemble à la ligne 1 (Zoé Lefèvre, Zozo) : la même personne deux fois ?"
    }


@pytest.mark.django_db
def test_a_line_like_a_player_of_the_club_is_noted(empty_club: Club) -> None:
    services.player_create(club=empty_club, name="Zoé Lefèvre")
    with translation.override("en"):
        roster = services.players_paste_check(club=empty_club, text="Bruno\nzoe lefevre, Zozo")
    assert roster.ok
    assert roster.notes == {
        2: "Looks like Zoé Lefèvre, already a player of the club: the same person?"
    }


@pytest.mark.django_db
def test_the_preview_says_which_line_a_line_looks_like(
    client: Client, organiser: User, empty_club: Club
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:players_paste", args=[empty_club.slug])
    html = client.post(
        url, {"players": "Zoé Lefèvre, Zozo\nZoé Lefèvre\nZoe Lefevre", "action": "check"}
    ).content.decode()
    assert "Ressemble à la ligne 1 (Zoé Lefèvre, Zozo) : la même personne" in html
    assert "Ressemble à la ligne 2 (Zoé Lefèvre) : la même personne" in html
    assert '<li value="3">' in html
    # Still one tap to add them all: the note warns, it does not refuse.
    assert "Ajouter ces 3 joueurs" in html
