"""A player's page: this season's leaderboard row, their games, and the score curve as inline SVG
with a text alternative."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Game
from tests.clubs.helpers import garde, text_of

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(autouse=True)
def _in_season(monkeypatch: pytest.MonkeyPatch) -> None:
    # "This season" is the one of today: fix today inside the 2025-2026 season.
    monkeypatch.setattr(
        "tarot_scores.stats.forms.timezone.localdate", lambda: datetime.date(2025, 11, 1)
    )


def play(club: Club, seats: list[Player], date: datetime.date, takers: list[int]) -> Game:
    game = services.game_create(club=club, players=seats, variant="fft", by=None, date=date)
    for taker in takers:
        services.deal_record(game=game, payload=garde(seats[taker].pk), by=None)
    return game


def player_url(club: Club, player: Player) -> str:
    return reverse("clubs:player", args=[club.slug, player.pk])


def chart_of(html: str) -> ET.Element:
    match = re.search(r"<svg.*?</svg>", html, re.S)
    assert match is not None
    return ET.fromstring(match.group(0))


def test_page_shows_row_games_and_a_chart(
    client: Client, club: Club, players: list[Player]
) -> None:
    aurelie = players[0]
    first = play(club, players[:4], datetime.date(2025, 9, 12), [0, 0])  # +198 twice
    second = play(club, players[:4], datetime.date(2025, 10, 3), [1])  # -66
    third = play(club, players[:3], datetime.date(2025, 10, 17), [2])  # 3 players

    response = client.get(player_url(club, aurelie), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()

    assert response.status_code == 200
    assert "<h1>Aurélie</h1>" in html
    for game in (first, second, third):
        assert reverse("games:detail", args=[game.pk]) in html
    assert "396" in html and "-66" in html

    svg = chart_of(html)
    assert svg.get("role") == "img"
    assert "Aurélie" in (svg.get("aria-label") or "")
    title = svg.find(f"{SVG}title")
    assert title is not None and "Aurélie" in (title.text or "")
    assert len(svg.findall(f".//{SVG}circle")) == 3  # one point per game

    # The same values as text, for those who cannot see the chart.
    values = html.split('class="grid chart-values"', 1)[1].split("</table>", 1)[0]
    totals = [text_of(v) for v in re.findall(r"<td>(.*?)</td>", values)]
    assert totals[:2] == ["396", "330"]
    assert len(totals) == 3


def test_season_row_has_the_rank_in_the_club(
    client: Client, club: Club, players: list[Player]
) -> None:
    play(club, players[:4], datetime.date(2025, 9, 12), [2])
    html = client.get(player_url(club, players[2]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    row = html.split('id="season-caption"', 1)[1].split("</tbody>", 1)[0]
    cells = [text_of(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
    assert cells == ["1", "198", "1", "198.0", "1", "100 %"]
    assert "2025–2026" in html


def test_last_seasons_games_are_not_this_seasons_row(
    client: Client, club: Club, players: list[Player]
) -> None:
    play(club, players[:4], datetime.date(2025, 3, 12), [0])
    html = client.get(player_url(club, players[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No tarot deal this season yet." in html
    assert len(chart_of(html).findall(f".//{SVG}circle")) == 1


def test_a_player_without_games(client: Client, club: Club, players: list[Player]) -> None:
    html = client.get(player_url(club, players[4]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<svg" not in html
    assert "No game yet." in html


def test_query_count_is_bounded(
    client: Client,
    club: Club,
    players: list[Player],
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    for day in range(1, 15):
        play(club, players[:4], datetime.date(2025, 10, day), [day % 4])
    # 6 for the row, games and score curve; 3 for the statistics; 2 for the rating and its curve.
    with django_assert_max_num_queries(11):
        client.get(player_url(club, players[0]))


def test_only_the_latest_games_and_curve_points_are_shown(
    client: Client, club: Club, players: list[Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tarot_scores.stats.selectors.GAMES_SHOWN", 2)
    monkeypatch.setattr("tarot_scores.stats.selectors.CURVE_POINTS", 3)
    takers = [[0], [1], [0, 0], [2]]  # Aurélie: +198, -66, +396, -66
    games = [
        play(club, players[:4], datetime.date(2025, 9, 1 + 7 * i), t) for i, t in enumerate(takers)
    ]
    html = client.get(player_url(club, players[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    listed = html.split('id="games-caption"', 1)[1].split("</table>", 1)[0]
    links = re.findall(r'href="([^"]+)"', listed)
    # Newest first, the two latest only, and said so.
    assert links == [reverse("games:detail", args=[g.pk]) for g in games[:1:-1]]
    assert "The latest games of Aurélie, newest first" in text_of(html)
    assert "Only the latest 2 games are listed." in text_of(html)
    # The curve's last three games, their totals counted from the first game on.
    values = html.split('class="grid chart-values"', 1)[1].split("</table>", 1)[0]
    totals = [text_of(v) for v in re.findall(r"<td>(.*?)</td>", values)]
    assert totals == ["132", "528", "462"]
    assert len(chart_of(html).findall(f".//{SVG}circle")) == 3


def test_a_short_career_lists_every_game(client: Client, club: Club, players: list[Player]) -> None:
    play(club, players[:4], datetime.date(2025, 9, 12), [0])
    html = client.get(player_url(club, players[0]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Only the latest" not in html
