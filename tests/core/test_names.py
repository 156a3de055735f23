"""Names: one rule (no control characters) for every name a person types, through the services,
the pages and the API; names at their longest never break what is built from them; the
registration box is bounded and registers all or nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.core.names import (
    has_control_character,
    invisible_message,
    look_alike,
    name_as_stored,
    name_refusal,
)
from tarot_scores.games.models import Game
from tests.api.helpers import messages_of
from tests.clubs.helpers import field_errors
from tests.factories import build_world, make_tournament, token_client
from tournaments import errors as tournament_errors
from tournaments.models import Entry, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.rounds import tables as rounds_tables

pytestmark = pytest.mark.django_db

BAD = [
    "Tab\there",
    "Line\nbreak",
    "Carriage\rreturn",
    "Nul\x00",
    "Bell\x07",
    "Delete\x7f",
    "C1\x85",
    "Right\u202eto left",
    "Zero\u200bwidth",
    "Soft\u00adhyphen",
    # Joiners outside a word of a script that needs them, fillers that draw nothing, line and
    # paragraph separators: three players of one club printed as "Anna".
    "Anna\u200d",
    "Anna\u200c",
    "Audit\u200d Alpha",
    "\u3164",
    "\u2800",
    "Anna\u3164",
    "Anna\u2028Bob",
    "Anna\u2029Bob",
]
GOOD = [
    "Aurélie",
    "Jean-Marc O'Neil",
    "Zoë 🂡",
    "👩\u200d👩\u200d👧 famille",
    "Ōkubo 大久保",
    # The joiners where a script needs them: Persian's non-joiner, a Devanagari conjunct.
    "می\u200cخواهم",
    "क्\u200dष",
    "❤\ufe0f Cœur",
]


@pytest.mark.parametrize("name", BAD)
def test_control_characters_are_found(name: str) -> None:
    assert has_control_character(name)


@pytest.mark.parametrize("name", GOOD)
def test_ordinary_names_pass(name: str) -> None:
    assert not has_control_character(name)


def _club(club: Club, name: str) -> Any:
    return club_services.club_create(name=name, by=None)


def _player(club: Club, name: str) -> Any:
    return club_services.player_create(club=club, name=name)


def _nickname(club: Club, name: str) -> Any:
    return club_services.player_create(club=club, name="Zoé", nickname=name)


def _house_rules(club: Club, name: str) -> Any:
    return club_services.house_rules_save(
        club=club, name=name, based_on="fft", rules=scoring.PRESETS["fft"]
    )


def _tournament(club: Club, name: str) -> Any:
    return registration_services.tournament_create(club=club, name=name, by=None)


def _entry(club: Club, name: str) -> Any:
    return registration_services.entry_add(tournament=_tournament(club, "Open"), name=name)


def _team(club: Club, name: str) -> Any:
    tournament = registration_services.tournament_create(
        club=club, name="Doublettes", by=None, team_size=2
    )
    return registration_services.team_for_name(tournament=tournament, name=name)


def _team_create(club: Club, name: str) -> Any:
    tournament = registration_services.tournament_create(club=club, name="Open", by=None)
    return registration_services.team_create(tournament=tournament, name=name, entries=[])


# Every service that stores a name a person typed.
NAMED: dict[str, Callable[[Club, str], Any]] = {
    "club": _club,
    "player": _player,
    "nickname": _nickname,
    "house rules": _house_rules,
    "tournament": _tournament,
    "newcomer": _entry,
    "team": _team,
    "new team": _team_create,
}


@pytest.mark.parametrize("name", ["Tab\there", "Nul\x00", "Right\u202eto left"])
@pytest.mark.parametrize("what", NAMED)
def test_every_service_refuses_a_name_with_a_control_character(
    club: Club, what: str, name: str
) -> None:
    counts = (Club.objects.count(), Player.objects.count(), HouseRules.objects.count())
    with pytest.raises((Refusal, tournament_errors.TournamentError)) as error:
        NAMED[what](club, name)
    assert "caractères de contrôle" in str(error.value)
    assert (Club.objects.count(), Player.objects.count(), HouseRules.objects.count()) == counts


@pytest.mark.parametrize("what", NAMED)
def test_every_service_takes_an_ordinary_name(club: Club, what: str) -> None:
    assert NAMED[what](club, "Jean-Marc 🂡") is not None


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Un nom ne peut pas contenir de caractères de contrôle"),
        ("en", "A name cannot contain control characters"),
    ],
)
def test_the_pages_say_it_beside_the_field(
    club: Club, organiser: User, language: str, message: str
) -> None:
    client = Client()
    client.force_login(organiser)
    pages = [
        (reverse("clubs:list"), {"name": "Club\u202e"}),
        (reverse("clubs:player_new", args=[club.slug]), {"name": "Zoé\x07"}),
        (
            reverse("tournaments:new", args=[club.slug]),
            {"name": "Open\x1b", "date": "2026-12-20", "rules": "fft"},
        ),
    ]
    for url, data in pages:
        response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 400, url
        errors = field_errors(response.content.decode(), "id_name")
        assert errors and errors[0].startswith(message), (url, errors)


def test_the_api_answers_400_on_the_field(organiser: User, club: Club) -> None:
    client = token_client(organiser, "en")
    clubs = client.post("/api/v1/clubs/", {"name": "Les\u200bBouts"}, format="json")
    assert clubs.status_code == 400
    assert messages_of(clubs.json())["name"][0].startswith(
        "A name cannot contain control characters"
    )
    tournaments = client.post(
        "/api/v1/tournaments/", {"club": club.pk, "name": "Open\x1b"}, format="json"
    )
    assert tournaments.status_code == 400
    assert messages_of(tournaments.json())["name"][0].startswith(
        "A name cannot contain control characters"
    )


# --- names at their longest -------------------------------------------------------------------


def test_a_tournament_name_at_its_longest_still_seats_every_round() -> None:
    world = build_world()
    longest = Tournament._meta.get_field("name").max_length
    assert longest == 120
    tournament = make_tournament(world.club, 13, name="Grand tournoi " + "x" * 106, rounds=2)
    assert len(tournament.name) == longest

    round_ = round_services.round_seat_next(tournament=tournament, by=None)

    labels = list(
        Game.objects.filter(tournament_table__round=round_).values_list("label", flat=True)
    )
    assert len(labels) == 3
    limit = Game._meta.get_field("label").max_length or 80
    for number, label in enumerate(sorted(labels), start=1):
        assert len(label) <= limit
        assert label.startswith("Grand tournoi x")
        assert label.endswith(f"…, séance 1, table {number}")


@pytest.mark.parametrize("length", [1, 40, 60, 61, 62, 80, 120])
def test_table_labels_keep_the_round_and_table_whole(length: int) -> None:
    label = rounds_tables.table_label("N" * length, 12, 34)
    assert len(label) <= (Game._meta.get_field("label").max_length or 80)
    assert label.endswith(", séance 12, table 34")


# --- the registration box ---------------------------------------------------------------------


@pytest.fixture
def registration() -> tuple[Tournament, Client, str]:
    world = build_world()
    tournament = registration_services.tournament_create(
        club=world.club, name="Open de printemps", by=None
    )
    url = reverse("tournaments:registration", args=[tournament.pk])
    return tournament, world.client("organiser"), url


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Au plus 500 joueurs peuvent être inscrits à la fois : 5000 ont été demandés."),
        ("en", "At most 500 players can be registered at once: 5000 were asked."),
    ],
)
def test_the_registration_box_is_bounded(
    registration: tuple[Tournament, Client, str], language: str, message: str
) -> None:
    tournament, client, url = registration
    players = Player.objects.count()
    names = "\n".join(f"Joueur {n}" for n in range(5000))

    response = client.post(
        url, {"new_names": names, "checked_in": "on"}, HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 400
    assert message in field_errors(response.content.decode(), "id_new_names")
    assert not tournament.entries.exists()
    assert Player.objects.count() == players


def test_the_service_is_bounded_too(registration: tuple[Tournament, Client, str]) -> None:
    tournament, _client, _url = registration
    with pytest.raises(tournament_errors.TournamentError):
        registration_services.entries_register(
            tournament=tournament,
            names=[f"J{n}" for n in range(registration_services.MAX_AT_ONCE + 1)],
        )
    assert not tournament.entries.exists()


def test_registration_is_all_or_nothing(
    registration: tuple[Tournament, Client, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament, client, url = registration
    players = Player.objects.count()
    real_entry_add = registration_services.entry_add

    def fails_at_the_third(**kw: Any) -> Entry:
        if tournament.entries.count() == 2:
            raise tournament_errors.TournamentError.whole(
                tournament_errors.Code.ALREADY_REGISTERED, "The database said no."
            )
        return real_entry_add(**kw)

    monkeypatch.setattr(registration_services, "entry_add", fails_at_the_third)
    response = client.post(url, {"new_names": "Un\nDeux\nTrois\nQuatre", "checked_in": "on"})

    assert response.status_code == 400
    assert "The database said no." in response.content.decode()
    assert "Un\nDeux\nTrois\nQuatre" in response.content.decode()  # kept in the box
    assert not tournament.entries.exists()
    assert Player.objects.count() == players


def test_a_name_with_a_control_character_registers_no_one(
    registration: tuple[Tournament, Client, str],
) -> None:
    tournament, client, url = registration
    response = client.post(url, {"new_names": "Un\nDe\x07ux\nTrois", "checked_in": "on"})
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_new_names")
    assert not tournament.entries.exists()


def test_the_whole_box_is_registered_and_the_already_registered_are_named(
    registration: tuple[Tournament, Client, str],
) -> None:
    tournament, client, url = registration
    registration_services.entry_add(tournament=tournament, name="Chloé")
    names = "\n".join(["Chloé", *(f"Joueur {n}" for n in range(120)), "joueur 7"])

    response = client.post(url, {"new_names": names, "checked_in": "on"}, follow=True)

    assert response.status_code == 200
    assert tournament.entries.count() == 121
    html = response.content.decode()
    assert "Chloé est déjà inscrite" in html or "Chloé est déjà inscrit" in html


def test_a_full_box_of_the_bound_registers_everyone(
    registration: tuple[Tournament, Client, str], settings: Settings
) -> None:
    tournament, _client, _url = registration
    names = [f"Joueur {n}" for n in range(registration_services.MAX_AT_ONCE)]
    done = registration_services.entries_register(
        tournament=tournament, names=names, checked_in=True
    )
    assert len(done.entries) == registration_services.MAX_AT_ONCE
    assert tournament.entries.filter(checked_in=True).count() == registration_services.MAX_AT_ONCE


def test_a_name_of_marks_alone_is_refused_as_invisible() -> None:
    assert name_refusal("\u0301\u0301") == invisible_message()  # the site's language: French
    assert name_refusal("") is None  # an empty name is the field's own business


def test_a_name_is_stored_as_people_read_it() -> None:
    assert name_as_stored("  Zoe\u0301\u00a0 Lefe\u0300vre ") == "Zoé Lefèvre"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anna", "\u0410nna"),  # a Cyrillic А
        ("Anna", "ANNA"),
        ("Anna", "Ａｎｎａ"),  # fullwidth
        ("paypal", "\u0440\u0430ypal"),
        ("Audit Alpha", "Audit  Alpha"),
    ],
)
def test_names_that_look_the_same_are_told(first: str, second: str) -> None:
    assert look_alike(first, second)


@pytest.mark.parametrize(("first", "second"), [("Chloé", "Chloe"), ("Anna", "Anne")])
def test_names_that_look_different_are_not(first: str, second: str) -> None:
    assert not look_alike(first, second)


@pytest.mark.parametrize("what", NAMED)
def test_every_service_stores_a_name_in_nfc(club: Club, what: str) -> None:
    stored = NAMED[what](club, "Ze\u0301phyr")
    stored = stored.player if isinstance(stored, Entry) else stored
    assert "Zéphyr" in {getattr(stored, "name", None), getattr(stored, "nickname", None)}


def test_a_club_whose_name_looks_like_another_s_is_refused(club: Club) -> None:
    club_services.club_create(name="Audit Alpha", by=None)
    with pytest.raises(Refusal) as refused:
        club_services.club_create(name="\u0410udit Alpha", by=None)  # a Cyrillic А
    assert refused.value.codes() == {"name": ["club_name_taken"]}
    assert Club.objects.filter(name__endswith="udit Alpha").count() == 1


def test_the_database_keeps_club_names_looking_different(club: Club) -> None:
    Club.objects.create(name="Audit Alpha", slug="audit-alpha")
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="AUDIT ALPHA", slug="audit-alpha-2")


def test_a_player_whose_label_looks_like_another_s_is_refused(club: Club) -> None:
    club_services.player_create(club=club, name="Anna")
    with pytest.raises(Refusal) as refused:
        club_services.player_create(club=club, name="\u0410nna")
    assert refused.value.codes() == {"name": ["player_label_taken"]}
    assert club.own_players.filter(name__endswith="nna").count() == 1
