"""The leaderboard: numbers from deals recorded through the services, filters by season, table
size and game, sortable columns, the htmx partial, and a query count that ignores the deals."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Game
from tests.clubs.helpers import garde, text_of

pytestmark = pytest.mark.django_db

AUTUMN = datetime.date(2025, 10, 4)  # season 2025-2026 (seasons start in September)
SPRING = datetime.date(2025, 3, 1)  # season 2024-2025


def game(
    club: Club, seats: list[Player], date: datetime.date = AUTUMN, variant: str = "fft"
) -> Game:
    return services.game_create(club=club, players=seats, variant=variant, by=None, date=date)


def table_rows(html: str) -> list[list[str]]:
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [text_of(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def board(client: Client, club: Club, language: str = "en", **query: str) -> list[list[str]]:
    url = reverse("clubs:leaderboard", args=[club.slug])
    response = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return table_rows(response.content.decode())


@pytest.fixture
def four(club: Club, players: list[Player]) -> Game:
    """Aurélie, Bruno, Chloé, Denis: Chloé wins a garde, Aurélie loses a prise."""
    a, b, c, d = players[:4]
    played = game(club, [a, b, c, d])
    services.deal_record(game=played, payload=garde(c.pk), by=None)
    services.deal_record(
        game=played,
        payload={"taker": a.pk, "partner": None, "contract": "prise", "points": 30, "oudlers": 1},
        by=None,
    )
    return played


def test_numbers_after_recorded_deals(client: Client, club: Club, four: Game) -> None:
    rows = board(client, club)
    # garde 49 with 2 bouts: (25 + 8) x 2 = 66 a defender; prise 30 with 1: (25 + 21) x 1 = 46.
    assert rows == [
        ["1", "Chloé", "244", "2", "122.0", "1", "100 %"],
        ["2", "Bruno", "-20", "2", "-10.0", "0", "–"],
        ["3", "Denis", "-20", "2", "-10.0", "0", "–"],
        ["4", "Aurélie", "-204", "2", "-102.0", "1", "0 %"],
    ]


def test_french_numbers(client: Client, club: Club, four: Game) -> None:
    rows = board(client, club, "fr")
    assert rows[0][4] == "122,0"


def test_players_link_to_their_page(
    client: Client, club: Club, four: Game, players: list[Player]
) -> None:
    html = client.get(reverse("clubs:leaderboard", args=[club.slug])).content.decode()
    assert reverse("clubs:player", args=[club.slug, players[2].pk]) in html


def test_the_links_follow_a_new_slug(
    client: Client, club: Club, four: Game, players: list[Player]
) -> None:
    client.get(reverse("clubs:leaderboard", args=[club.slug]))  # cached under the old slug
    Club.objects.filter(pk=club.pk).update(slug="renamed")
    html = client.get(reverse("clubs:leaderboard", args=["renamed"])).content.decode()
    assert reverse("clubs:player", args=["renamed", players[2].pk]) in html
    assert f"/clubs/{club.slug}/" not in html


@pytest.mark.parametrize(
    ("sort", "first_column"),
    [
        ("points", ["Chloé", "Bruno", "Denis", "Aurélie"]),
        ("name", ["Aurélie", "Bruno", "Chloé", "Denis"]),
        ("taken", ["Aurélie", "Chloé", "Bruno", "Denis"]),
        ("success", ["Chloé", "Aurélie", "Bruno", "Denis"]),
        ("average", ["Chloé", "Bruno", "Denis", "Aurélie"]),
        ("nonsense", ["Chloé", "Bruno", "Denis", "Aurélie"]),
    ],
)
def test_sorting(
    client: Client, club: Club, four: Game, sort: str, first_column: list[str]
) -> None:
    assert [row[1] for row in board(client, club, sort=sort)] == first_column


def test_sort_headers_are_links_that_keep_the_filters(
    client: Client, club: Club, four: Game
) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    html = client.get(url, {"size": "4", "season": "2025", "sort": "name"}).content.decode()
    assert f'href="{url}?kind=tarot&amp;season=2025&amp;size=4&amp;sort=taken"' in html
    assert 'aria-sort="ascending"' in html
    # Named by the line above it, which stays on screen when the table scrolls sideways.
    assert 'class="table-caption" id="leaderboard-caption"' in html
    assert '<table class="grid leaderboard" aria-labelledby="leaderboard-caption">' in html
    assert 'class="table-scroll"' in html


def test_filter_by_season(client: Client, club: Club, four: Game, players: list[Player]) -> None:
    old = game(club, players[:3], SPRING)
    services.deal_record(game=old, payload=garde(players[0].pk), by=None)

    # By default, the latest season.
    assert len(board(client, club)) == 4
    assert [r[1] for r in board(client, club, season="2024")] == ["Aurélie", "Bruno", "Chloé"]
    everything = {r[1]: r[3] for r in board(client, club, season="all")}
    assert everything["Aurélie"] == "3" and everything["Denis"] == "2"

    html = client.get(reverse("clubs:leaderboard", args=[club.slug])).content.decode()
    assert ">2025–2026</option>" in html and ">2024–2025</option>" in html


def test_filter_by_table_size(
    client: Client, club: Club, four: Game, players: list[Player]
) -> None:
    three = game(club, [players[4], players[0], players[1]])
    services.deal_record(game=three, payload=garde(players[4].pk), by=None)

    assert {r[1] for r in board(client, club, size="3")} == {"Émile", "Aurélie", "Bruno"}
    assert {r[1] for r in board(client, club, size="4")} == {"Aurélie", "Bruno", "Chloé", "Denis"}
    assert len(board(client, club)) == 5


def test_filter_by_game(client: Client, club: Club, four: Game, players: list[Player]) -> None:
    nova = game(club, players[:2], variant="novatarok")
    services.deal_record(
        game=nova,
        payload={
            "card_points": {str(players[0].pk): 15, str(players[1].pk): 10},
            "kings": None,
            "trull": None,
            "pagat": None,
        },
        by=None,
    )
    rows = board(client, club, kind="novatarok")
    assert [(r[1], r[2]) for r in rows] == [("Aurélie", "15"), ("Bruno", "10")]
    assert len(board(client, club, kind="buraco")) == 1  # the "no deal" row
    assert "No deal recorded" in board(client, club, kind="buraco")[0][0]


def test_htmx_gets_the_filters_and_table_only(client: Client, club: Club, four: Game) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    response = client.get(url, {"sort": "name"}, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "<html" not in html
    assert html.strip().startswith('<div id="leaderboard"')
    assert table_rows(html)[0][1] == "Aurélie"


def test_filters_work_as_a_plain_form(client: Client, club: Club, four: Game) -> None:
    html = client.get(reverse("clubs:leaderboard", args=[club.slug])).content.decode()
    form = html.split('<form method="get"', 1)[1].split("</form>", 1)[0]
    for name in ("kind", "season", "size", "sort"):
        assert f'name="{name}"' in form
    assert 'type="submit"' in form


def test_unknown_filter_values_fall_back_to_the_defaults(
    client: Client, club: Club, four: Game
) -> None:
    rows = board(client, club, season="nineteen", size="9", kind="poker")
    assert len(rows) == 4


def _many_deals(club: Club, players: list[Player], count: int) -> None:
    a, b, c, d = players[:4]
    for i in range(count):
        played = game(club, [a, b, c, d], AUTUMN + datetime.timedelta(days=i % 20))
        services.deal_record(game=played, payload=garde([a, b, c, d][i % 4].pk), by=None)


def test_query_count_does_not_depend_on_the_deals(
    client: Client,
    club: Club,
    players: list[Player],
    member: User,
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    client.force_login(member)
    _many_deals(club, players, 5)
    with CaptureQueriesContext(connection) as five:
        client.get(url)
    _many_deals(club, players, 45)
    with django_assert_max_num_queries(len(five.captured_queries)):
        response = client.get(url)
    assert len(table_rows(response.content.decode())) == 4
    assert len(five.captured_queries) <= 8


def test_the_cached_board_follows_every_change_at_once(
    client: Client, club: Club, four: Game, players: list[Player]
) -> None:
    """The table is cached per stats version: entering, correcting, deleting and restoring a
    deal each show on the very next request, and an unchanged board comes from the cache."""

    def points_of(name: str) -> str:
        return next(row[2] for row in board(client, club) if row[1] == name)

    taker = players[0]
    before = points_of(taker.label)
    deal = services.deal_record(game=four, payload=garde(players[1].pk), by=None).deal
    assert points_of(players[1].label) != "0" and points_of(taker.label) != before
    after_entry = points_of(players[1].label)
    with CaptureQueriesContext(connection) as unchanged:
        board(client, club)
    assert not any("playerseason" in q["sql"] for q in unchanged.captured_queries)
    deal = services.deal_update(
        deal=deal, payload=garde(players[1].pk, points=30), version=1, by=None
    )
    after_edit = points_of(players[1].label)
    assert after_edit != after_entry
    services.deal_delete(deal=deal, version=deal.version, by=None)
    assert points_of(players[1].label) != after_edit
    services.deal_restore(deal=deal, by=None)
    assert points_of(players[1].label) == after_edit
