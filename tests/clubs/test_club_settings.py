"""The games a club offers besides tarot: a new club plays tarot alone, its organisers add
Novatarok or buraco in the club's settings, and only those are offered for a new game (page and
API alike). Clubs that played them before the setting existed keep them."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Game
from tests.api.helpers import messages_of
from tests.clubs.helpers import field_errors
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_club(organiser: User, member: User) -> Club:
    """A club as the site creates it, with a member and four players."""
    club = club_services.club_create(name="Nouveau club", by=organiser)
    club_services.membership_set(club=club, user=member, role="member")
    for name in ("Aurélie", "Bruno", "Chloé", "Denis"):
        club_services.player_create(club=club, name=name)
    return club


def offered(client: Client, club: Club) -> str:
    return client.get(reverse("clubs:game_new", args=[club.slug])).content.decode()


def test_a_new_club_offers_tarot_alone(client: Client, new_club: Club, member: User) -> None:
    client.force_login(member)
    page = offered(client, new_club)
    assert 'name="rules" value="fft"' in page and 'name="rules" value="classic"' in page
    assert 'name="rules" value="novatarok"' not in page
    assert 'name="rules" value="buraco"' not in page


def test_an_organiser_adds_a_game_and_only_that_one_is_offered(
    client: Client, new_club: Club, organiser: User, member: User
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:settings", args=[new_club.slug])
    assert client.get(url).status_code == 200
    response = client.post(url, {"other_games": ["novatarok"]})
    assert response.status_code == 302
    new_club.refresh_from_db()
    assert new_club.other_games == ["novatarok"]

    client.force_login(member)
    page = offered(client, new_club)
    assert 'name="rules" value="novatarok"' in page and 'name="rules" value="buraco"' not in page


def test_an_unknown_game_is_refused_and_nothing_changes(
    client: Client, new_club: Club, organiser: User
) -> None:
    client.force_login(organiser)
    url = reverse("clubs:settings", args=[new_club.slug])
    response = client.post(url, {"other_games": ["chess"]}, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_other_games")
    new_club.refresh_from_db()
    assert new_club.other_games == []
    with pytest.raises(Refusal) as refused:
        club_services.club_games_set(club=new_club, other_games=["chess"])
    assert refused.value.codes() == {"other_games": ["game_unknown"]}


def test_only_organisers_change_the_settings(
    client: Client, new_club: Club, member: User, outsider: User
) -> None:
    url = reverse("clubs:settings", args=[new_club.slug])
    assert client.get(url).status_code == 302  # to the login page
    for user in (member, outsider):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, {"other_games": ["buraco"]}).status_code == 403
    new_club.refresh_from_db()
    assert new_club.other_games == []


def test_the_club_page_links_organisers_to_the_settings(
    client: Client, new_club: Club, organiser: User, member: User
) -> None:
    url = reverse("clubs:settings", args=[new_club.slug])
    client.force_login(member)
    assert url not in client.get(reverse("clubs:detail", args=[new_club.slug])).content.decode()
    client.force_login(organiser)
    assert url in client.get(reverse("clubs:detail", args=[new_club.slug])).content.decode()


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "en",
            "Nouveau club does not play Buraco: an organiser can add it in the club's settings.",
        ),
        (
            "fr",
            "Nouveau club ne joue pas au Buraco : un organisateur peut l'ajouter "
            "dans les réglages du club.",
        ),
    ],
)
def test_the_api_refuses_a_game_the_club_does_not_play(
    new_club: Club, member: User, language: str, message: str
) -> None:
    api = APIClient(HTTP_ACCEPT_LANGUAGE=language)
    api.force_authenticate(member)
    players = list(new_club.players.values_list("pk", flat=True))
    body = {"club": new_club.pk, "variant": "buraco", "players": players}
    response = api.post("/api/v1/games/", body, format="json")
    assert response.status_code == 400
    assert messages_of(response.json()) == {"variant": [message]}
    assert not Game.objects.filter(club=new_club).exists()
    with pytest.raises(Refusal) as refused:
        game_services.game_create(
            club=new_club, players=list(new_club.players.all()), variant="buraco", by=member
        )
    assert refused.value.codes() == {"variant": ["game_not_offered"]}


def test_clubs_that_played_another_game_keep_it_offered() -> None:
    migration = importlib.import_module("tarot_scores.migrations.0008_club_other_games")
    tarot_only, both, buraco = (ClubFactory.create() for _n in range(3))
    for club, variants in (
        (tarot_only, ["fft"]),
        (both, ["novatarok", "buraco"]),
        (buraco, ["buraco"]),
    ):
        for variant in variants:
            seats = [PlayerFactory.create(clubs=[club]) for _n in range(4)]
            game_services.game_create(club=club, players=seats, variant=variant, by=None)
    Club.objects.update(other_games=[])  # as the column was added: nobody plays them yet

    migration.keep_the_games_clubs_play(apps, None)

    assert [Club.objects.get(pk=c.pk).other_games for c in (tarot_only, both, buraco)] == [
        [],
        ["novatarok", "buraco"],
        ["buraco"],
    ]


def test_the_leaderboard_offers_the_games_the_club_plays(
    client: Client, new_club: Club, organiser: User
) -> None:
    url = reverse("clubs:leaderboard", args=[new_club.slug])
    alone = client.get(url).content.decode()
    assert 'name="kind"' in alone and '<select name="kind"' not in alone  # tarot alone: no choice

    club_services.club_games_set(club=new_club, other_games=["buraco"])

    both = client.get(url).content.decode()
    assert '<option value="buraco"' in both and '<option value="novatarok"' not in both
    # A game no longer offered keeps its leaderboard, reached by its link.
    asked = client.get(url + "?kind=novatarok").content.decode()
    assert '<option value="novatarok" selected' in asked
