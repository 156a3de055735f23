"""The list of clubs, a club's page and the player form: what each shows, what each writes."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.games import services as game_services
from tests.clubs.helpers import field_errors
from tests.factories import UserFactory, make_club, make_game

pytestmark = pytest.mark.django_db


def test_list_shows_public_clubs_and_my_private_ones(
    client: Client, club: Club, private_club: Club, member: User, outsider: User
) -> None:
    hidden = make_club("Club fermé", UserFactory.create(), UserFactory.create(), public=False)

    anonymous = client.get(reverse("clubs:list")).content.decode()
    assert club.name in anonymous
    assert private_club.name not in anonymous and hidden.name not in anonymous

    client.force_login(member)
    mine = client.get(reverse("clubs:list")).content.decode()
    assert club.name in mine and private_club.name in mine
    assert hidden.name not in mine


def test_superuser_sees_every_club(client: Client, private_club: Club, superuser: User) -> None:
    client.force_login(superuser)
    assert private_club.name in client.get(reverse("clubs:list")).content.decode()


def test_anonymous_gets_a_login_link_instead_of_the_club_form(client: Client, db: None) -> None:
    page = client.get(reverse("clubs:list")).content.decode()
    assert 'name="name"' not in page
    assert reverse("login") in page


def test_create_club_makes_the_creator_its_organiser(client: Client, outsider: User) -> None:
    client.force_login(outsider)
    response = client.post(reverse("clubs:list"), {"name": "Les Excuses de Brest"})

    club = Club.objects.get(name="Les Excuses de Brest")
    assert response.status_code == 302
    # A new club's next step: its players.
    assert response["Location"] == reverse("clubs:players_paste", args=[club.slug])
    assert club.public is False  # an unticked checkbox
    membership = Membership.objects.get(club=club)
    assert membership.user == outsider and membership.role == Membership.Role.ORGANISER


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Un club porte déjà ce nom."),
        ("en", "A club with this name already exists."),
    ],
)
def test_club_name_taken_is_refused_beside_the_field(
    client: Client, club: Club, outsider: User, language: str, message: str
) -> None:
    client.force_login(outsider)
    response = client.post(
        reverse("clubs:list"),
        {"name": club.name.upper(), "public": "on"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "id_name") == [message]
    assert Club.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "message"),
    [("fr", "Ce champ est obligatoire."), ("en", "This field is required.")],
)
def test_club_name_is_required(client: Client, outsider: User, language: str, message: str) -> None:
    client.force_login(outsider)
    response = client.post(reverse("clubs:list"), {"name": " "}, HTTP_ACCEPT_LANGUAGE=language)
    assert field_errors(response.content.decode(), "id_name") == [message]


def test_club_page_lists_players_and_games_by_date(
    client: Client, club: Club, players: list[Player], member: User
) -> None:
    older = game_services.game_create(
        club=club, players=players[:4], variant="fft", by=member, date=datetime.date(2025, 9, 20)
    )
    newer = game_services.game_create(
        club=club,
        players=players[1:4],
        variant="classic",
        by=member,
        date=datetime.date(2025, 10, 4),
        label="Finale",
    )
    game_services.game_set_status(game=older, status="finished")

    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()

    for player in players:
        assert reverse("clubs:player", args=[club.slug, player.pk]) in page
    assert reverse("games:detail", args=[older.pk]) in page
    assert reverse("games:detail", args=[newer.pk]) in page
    assert page.index("Finale") < page.index(reverse("games:detail", args=[older.pk]))
    assert "Bruno, Chloé, Denis" in page
    assert "terminée" in page or "finished" in page
    assert reverse("clubs:leaderboard", args=[club.slug]) in page


def test_new_game_and_player_links_for_members_only(
    client: Client, club: Club, member: User, organiser: User
) -> None:
    url = reverse("clubs:detail", args=[club.slug])
    anonymous = client.get(url).content.decode()
    assert reverse("clubs:game_new", args=[club.slug]) not in anonymous
    assert reverse("clubs:player_new", args=[club.slug]) not in anonymous

    client.force_login(member)
    page = client.get(url).content.decode()
    assert reverse("clubs:game_new", args=[club.slug]) in page
    assert reverse("clubs:player_new", args=[club.slug]) in page
    assert reverse("clubs:members", args=[club.slug]) not in page

    client.force_login(organiser)
    assert reverse("clubs:members", args=[club.slug]) in client.get(url).content.decode()


@pytest.mark.parametrize("games", [2, 25])
def test_club_page_query_count_does_not_grow_with_games(
    client: Client,
    club: Club,
    players: list[Player],
    member: User,
    django_assert_max_num_queries: DjangoAssertNumQueries,
    games: int,
) -> None:
    for i in range(games):
        game_services.game_create(
            club=club,
            players=players[i % 2 : i % 2 + 3],
            variant="fft",
            by=member,
            date=datetime.date(2025, 9, 1) + datetime.timedelta(days=i),
        )
    client.force_login(member)
    with django_assert_max_num_queries(10):
        response = client.get(reverse("clubs:detail", args=[club.slug]))
    assert response.status_code == 200


def test_games_are_paged_and_htmx_gets_the_list_only(
    client: Client, club: Club, players: list[Player], member: User
) -> None:
    for i in range(35):
        game_services.game_create(
            club=club,
            players=players[:3],
            variant="fft",
            by=member,
            label=f"Partie {i:02d}",
            date=datetime.date(2025, 9, 1) + datetime.timedelta(days=i),
        )
    url = reverse("clubs:detail", args=[club.slug])
    first = client.get(url).content.decode()
    assert "Partie 34" in first and "Partie 00" not in first
    assert "?page=2" in first

    partial = client.get(url, {"page": 2}, HTTP_HX_REQUEST="true").content.decode()
    assert "Partie 00" in partial and "Partie 34" not in partial
    assert "<html" not in partial and 'id="games"' in partial


def test_add_player(client: Client, club: Club, member: User) -> None:
    client.force_login(member)
    response = client.post(
        reverse("clubs:player_new", args=[club.slug]),
        {"name": " Fanny Martin ", "nickname": "Fanfan", "licence": "123456"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:detail", args=[club.slug])
    player = Player.objects.get(name="Fanny Martin")
    assert player.nickname == "Fanfan" and player.licence == "123456"
    assert list(player.clubs.all()) == [club]


def test_add_player_then_another_comes_back_to_the_form(
    client: Client, club: Club, member: User
) -> None:
    client.force_login(member)
    url = reverse("clubs:player_new", args=[club.slug])
    response = client.post(url, {"name": "Fanny", "another": "1"}, follow=True)
    assert response.redirect_chain == [(url, 302)]
    assert "Fanny" in response.content.decode()  # the message saying who was added


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Un joueur du club s'appelle déjà « bruno » : ajoutez un surnom."),
        ("en", "A player of this club is already called “bruno”: add a nickname."),
    ],
)
def test_same_name_in_a_club_is_refused_beside_the_field(
    client: Client, club: Club, member: User, language: str, message: str
) -> None:
    client.force_login(member)
    url = reverse("clubs:player_new", args=[club.slug])
    response = client.post(url, {"name": "bruno"}, HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 400
    assert field_errors(html, "id_name") == [message]
    assert "id_name_error" in html
    assert club.players.count() == 5

    # A nickname tells them apart.
    assert client.post(url, {"name": "Bruno", "nickname": "Le Grand"}).status_code == 302


def test_header_shows_login_or_the_user_and_a_logout_form(client: Client, member: User) -> None:
    page = client.get(reverse("clubs:list")).content.decode()
    assert f'href="{reverse("login")}?next=' in page

    client.force_login(member)
    page = client.get(reverse("clubs:list")).content.decode()
    assert "marc" in page
    assert f'action="{reverse("logout")}" method="post"' in page


def test_names_that_differ_only_in_accented_capitals_are_taken(
    client: Client, club: Club, organiser: User
) -> None:
    """Case is folded in every alphabet, on SQLite as on PostgreSQL ("CHLOÉ" is "Chloé")."""
    club_services.club_create(name="Les écureuils", by=organiser)
    client.force_login(organiser)
    clubs_before = Club.objects.count()

    page = client.post(reverse("clubs:list"), {"name": "LES ÉCUREUILS"}, HTTP_ACCEPT_LANGUAGE="en")
    assert field_errors(page.content.decode(), "id_name") == [
        "A club with this name already exists."
    ]
    assert Club.objects.count() == clubs_before

    url = reverse("clubs:player_new", args=[club.slug])
    page = client.post(url, {"name": "Olivier", "nickname": "CHLOÉ"}, HTTP_ACCEPT_LANGUAGE="en")
    assert field_errors(page.content.decode(), "id_nickname") == [
        "A player of this club is already called “CHLOÉ”: add a nickname."
    ]
    assert not club.players.filter(name="Olivier").exists()


def test_a_player_is_named_once_when_the_nickname_says_nothing_more(
    client: Client, club: Club
) -> None:
    club_services.player_create(club=club, name="Zoé", nickname="Zoé")
    club_services.player_create(club=club, name="Yvonne Martin", nickname="Vonvon")
    same = club_services.player_create(club=club, name="Xavier", nickname="xavier")

    html = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    player = client.get(reverse("clubs:player", args=[club.slug, same.pk])).content.decode()

    assert "Zoé (Zoé)" not in html and ">Zoé</a></li>" in html
    assert ">Vonvon</a> (Yvonne Martin)</li>" in html
    assert "(Xavier)" not in html  # the same name in another case says nothing more
    assert "<p>Xavier</p>" not in player


def test_a_new_clubs_page_shows_its_next_step_first(
    client: Client, organiser: User, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    club = club_services.club_create(name="Les Excuses", by=organiser)
    client.force_login(organiser)
    url = reverse("clubs:detail", args=[club.slug])
    paste = reverse("clubs:players_paste", args=[club.slug])
    game_new = reverse("clubs:game_new", args=[club.slug])

    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Getting started" in page
    # The next step is the one primary button; a new game waits for players.
    assert f'<a class="btn btn-primary" href="{paste}">Add the players</a>' in page
    assert game_new not in page
    assert reverse("clubs:leaderboard", args=[club.slug]) not in page

    club_services.players_paste(club=club, text="Aurélie\nBruno\nChloé\nDenis")
    with django_assert_max_num_queries(20):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<a class="btn btn-primary" href="{game_new}">Start the first game</a>' in page
    assert "4 players in the club." in page

    make_game(club=club, players=list(club.players.all()))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Getting started" not in page
    assert reverse("clubs:leaderboard", args=[club.slug]) in page
    assert paste in page  # bulk add stays on the club's players


def test_a_reader_of_a_new_club_sees_no_first_steps(client: Client, organiser: User) -> None:
    club = club_services.club_create(name="Les Excuses", by=organiser)
    page = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert "first-steps" not in page
    assert reverse("clubs:players_paste", args=[club.slug]) not in page


def test_someone_without_a_club_sees_how_to_start_one_first(client: Client, outsider: User) -> None:
    client.force_login(outsider)
    page = client.get(reverse("clubs:list"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.index('id="new-club"') < page.index('class="cards"')
    anonymous = Client().get(reverse("clubs:list")).content.decode()
    assert reverse("account_signup") in anonymous
