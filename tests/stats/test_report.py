"""The printable season report: opened with pypdf, it names the club and season, ranks the
rated players, gives the leaders and the records, in French and English; the download follows
the leaderboard's access rules."""

from __future__ import annotations

import datetime
import io

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from pytest_django import DjangoAssertNumQueries, Settings

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.stats.report import LEADER_MIN_DEALS, leaders, render_season_report
from tarot_scores.stats.report import season_report_data as report_data
from tarot_scores.stats.selectors import LeaderRow
from tests.factories import garde, make_game, signed_in_client

pytestmark = pytest.mark.django_db

AUTUMN = datetime.date(2025, 10, 4)  # season 2025-2026 (seasons start in September)


def pdf_text(data: bytes) -> tuple[int, str]:
    """The page count, and the text with each run of spaces and line breaks as one space (a
    table cell may wrap its words)."""
    reader = PdfReader(io.BytesIO(data))
    text = " ".join(page.extract_text() for page in reader.pages)
    return len(reader.pages), " ".join(text.split())


def evening(club: Club, deals: int = 8) -> list[Player]:
    """Aurélie, Bruno, Chloé, Denis play ``deals`` gardes: Chloé makes hers, the others fail."""
    seats = list(club.players.order_by("name"))[:4]
    game = make_game(club=club, players=seats, date=AUTUMN)
    for n in range(deals):
        taker = seats[n % 4]
        points = 60 if taker.name == "Chloé" else 30
        services.deal_record(game=game, payload=garde(taker.pk, points), by=None)
    return seats


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            [
                "Tarot Club de Lyon: season 2025–2026",
                "Rating ranking",
                "Leaders of the season",
                "Most points",
                "Club records",
                "Best deal",
                "Longest winning run",
                "Points of the top players",
            ],
        ),
        (
            "fr",
            [
                "Tarot Club de Lyon : saison 2025–2026",
                "Classement par cote",
                "Les meilleurs de la saison",
                "Le plus de points",
                "Records du club",
                "Meilleure donne",
                "Plus longue série gagnante",
                "Points des meilleurs joueurs",
            ],
        ),
    ],
)
def test_the_report_in_each_language(club: Club, language: str, words: list[str]) -> None:
    evening(club)

    with translation.override(language):
        pages, text = pdf_text(
            render_season_report(report_data(club=club, season=2025, min_deals=2))
        )

    assert pages == 1
    for word in words:
        assert word in text, word
    # Every player is ranked (8 rated deals each); Chloé made all her contracts.
    for name in ("Aurélie", "Bruno", "Chloé", "Denis"):
        assert name in text
    ranking = text.split(words[1], 1)[1].split(words[2], 1)[0]
    assert ranking.split()[4:6] == ["1", "Chloé"]  # after the header: Chloé first


def test_the_leaders_of_each_category() -> None:
    def row(name: str, points: int, deals: int, taken: int, won: int) -> LeaderRow:
        return LeaderRow(0, len(name), name, points, deals, taken, won)

    board = [
        row("Ana", 500, LEADER_MIN_DEALS - 1, 9, 9),  # best average and rate: too few deals
        row("Bea", 300, LEADER_MIN_DEALS, 4, 4),  # perfect taker, but too few takes
        row("Cid", 400, LEADER_MIN_DEALS + 5, 6, 3),
        row("Dan", 100, LEADER_MIN_DEALS + 9, 6, 5),
    ]

    with translation.override("en"):
        found = [(leader.name, leader.value) for leader in leaders(board)]

    assert found == [
        ("Ana", "500"),  # most points
        ("Cid", "16.0"),  # best average among those with the minimum of deals
        ("Dan", str(LEADER_MIN_DEALS + 9)),  # most deals
        ("Ana", "9"),  # most takes
        ("Ana", "100 %"),  # the rate needs takes, not deals
    ]


def test_a_tie_goes_to_the_name() -> None:
    board = [LeaderRow(0, 2, "Zoé", 10, 1, 0, 0), LeaderRow(0, 1, "Ana", 10, 1, 0, 0)]

    found = leaders(board)

    assert [leader.name for leader in found] == ["Ana", "Ana"]  # points, deals; nobody took


def test_an_empty_season_still_prints(club: Club) -> None:
    with translation.override("en"):
        pages, text = pdf_text(
            render_season_report(report_data(club=club, season=2025, min_deals=20))
        )

    assert pages == 1
    assert "Nobody is ranked yet." in text
    assert "No deal recorded in this season." in text
    assert "No record yet for these choices." in text


def test_a_long_ranking_runs_over_pages(club: Club, settings: Settings) -> None:
    for n in range(60):
        Player.objects.create(name=f"Joueur {n:02d}").clubs.add(club)
    everyone = list(club.players.order_by("name"))
    for i in range(0, len(everyone) - 3, 4):
        game = make_game(club=club, players=everyone[i : i + 4], date=AUTUMN)
        services.deal_record(game=game, payload=garde(everyone[i].pk), by=None)

    with translation.override("en"):
        pages, text = pdf_text(
            render_season_report(report_data(club=club, season=2025, min_deals=1))
        )

    assert pages >= 2
    assert "Joueur 00" in text and "Joueur 59" in text
    assert text.count("Rank") >= 2  # the ranking's header repeats


def test_the_download(client: Client, club: Club, settings: Settings) -> None:
    settings.RATING_MIN_DEALS = 2
    evening(club)
    url = reverse("clubs:season_report", args=[club.slug])

    response = client.get(url, {"season": "2025"}, HTTP_ACCEPT_LANGUAGE="fr")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].endswith(f'{club.slug}-season-2025.pdf"')
    _pages, text = pdf_text(b"".join(response.streaming_content))  # type: ignore[attr-defined]
    assert "saison 2025–2026" in text
    assert "Chloé" in text


def test_the_default_season_is_the_latest(client: Client, club: Club) -> None:
    evening(club)
    url = reverse("clubs:season_report", args=[club.slug])

    response = client.get(url, {"season": "nonsense"}, HTTP_ACCEPT_LANGUAGE="en")

    assert response["Content-Disposition"].endswith('-season-2025.pdf"')


@pytest.mark.parametrize(
    ("who", "status"), [("anonymous", 404), ("outsider", 404), ("member", 200), ("organiser", 200)]
)
def test_a_private_club_report_is_for_its_members(
    private_club: Club,
    organiser: User,
    member: User,
    outsider: User,
    who: str,
    status: int,
) -> None:
    evening(private_club)
    users = {"anonymous": None, "outsider": outsider, "member": member, "organiser": organiser}
    url = reverse("clubs:season_report", args=[private_club.slug])

    response = signed_in_client(users[who]).get(url, {"season": "2025"})

    assert response.status_code == status


def test_the_report_reads_a_bounded_number_of_queries(
    club: Club, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    evening(club, deals=40)

    # The ranking, the leaderboard, three record queries and the run holder's name.
    with django_assert_max_num_queries(6):
        data = report_data(club=club, season=2025, min_deals=2)

    assert len(data.ranking.ranked) == 4


def test_no_report_link_for_every_season(client: Client, club: Club) -> None:
    evening(club)
    url = reverse("clubs:leaderboard", args=[club.slug])

    page = client.get(url, {"season": "all"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "Club records" in page
    assert reverse("clubs:season_report", args=[club.slug]) not in page
