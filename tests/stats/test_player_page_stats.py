"""The statistics and the rating on a player's page, in English and in French, and the rating
chart that a PDF can draw too."""

from __future__ import annotations

import datetime
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader
from pytest_django import Settings
from reportlab.graphics import renderPDF

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.ratings.models import PlayerRating
from tarot_scores.ratings.rating import cote
from tarot_scores.stats.charts import render_rating_chart, svg_markup
from tests.clubs.helpers import garde, text_of

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def page(client: Client, club: Club, player: Player, lang: str) -> str:
    url = reverse("clubs:player", args=[club.slug, player.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def played(club: Club, players: list[Player]) -> Club:
    game = services.game_create(
        club=club, players=players[:4], variant="fft", by=None, date=datetime.date(2025, 10, 1)
    )
    for taker in (0, 0, 1, 2, 3):
        services.deal_record(game=game, payload=garde(players[taker].pk), by=None)
    return club


SECTIONS = {
    "en": [
        "Rating",
        "What the rating means, in plain words",
        "Statistics",
        "5 tarot deals played at this club, every season.",
        "Takes by contract",
        "Average score as taker",
        "Average score as defender",
        "Called partner (five players, called king)",
        "Head-to-head",
        "Scores best against",
        "Scores worst against",
        "Petit au bout for his side",
        "Handfuls shown: Simple",
        "Slams made by his side",
    ],
    "fr": [
        "Cote",
        "Ce que veut dire la cote, en quelques mots",
        "Statistiques",
        "5 donnes de tarot jouées dans ce club, toutes saisons.",
        "Prises par contrat",
        "Score moyen comme preneur",
        "Score moyen en défense",
        "Partenaire appelé (à cinq, roi appelé)",
        "Face à face",
        "Marque le plus contre",
        "Marque le moins contre",
        "Petit au bout pour son camp",
        "Poignées montrées : Simple",
        "Chelems réussis par son camp",
    ],
}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_page_shows_every_section(
    client: Client, played: Club, players: list[Player], lang: str
) -> None:
    html = page(client, played, players[0], lang)
    text = text_of(html)
    for words in SECTIONS[lang]:
        assert words in text, words
    assert reverse("clubs:ratings", args=[played.slug]) + "#rating-meaning" in html


def test_the_takes_table_has_headers_and_values(
    client: Client, played: Club, players: list[Player]
) -> None:
    html = page(client, played, players[0], "en")
    table = html.split('id="takes-caption"', 1)[1].split("</table>", 1)[0]
    assert [text_of(h) for h in re.findall(r'<th scope="col">(.*?)</th>', table)] == [
        "Contract",
        "Times taker",
        "Success rate",
        "Average per deal",
    ]
    row = table.split("<tbody>", 1)[1]
    assert text_of(re.findall(r'<th scope="row">(.*?)</th>', row)[0]) == "Garde"
    assert [text_of(c) for c in re.findall(r"<td>(.*?)</td>", row, re.S)] == [
        "2",
        "100 %",
        "198.0",
    ]


def test_the_rating_and_its_chart(
    client: Client, played: Club, players: list[Player], settings: Settings
) -> None:
    settings.RATING_MIN_DEALS = 5  # ranked from 5 rated deals: he has 5
    html = page(client, played, players[0], "en")
    stored = PlayerRating.objects.get(club=played, player=players[0])
    shown = cote(stored.mu, stored.sigma)
    assert f"Rating {shown}, after 5 rated deals at this club" in html
    assert shown >= 0 and 900 < shown < 1400  # five deals: near a newcomer's 1000
    charts = [ET.fromstring(m) for m in re.findall(r"<svg.*?</svg>", html, re.S)]
    assert len(charts) == 2  # the score and the rating
    rating = charts[1]
    assert rating.get("role") == "img"
    assert "rating after each rated deal" in (rating.findtext(f"{SVG}title") or "")
    assert "5 deals" in (rating.findtext(f"{SVG}desc") or "")
    assert "The values of the rating chart" in html


def test_a_player_without_deals(client: Client, club: Club, players: list[Player]) -> None:
    html = page(client, club, players[4], "fr")
    assert "Pas encore de donne classée dans ce club." in html
    assert "Pas encore de donne de tarot dans ce club." in html
    assert "<svg" not in html


@pytest.mark.parametrize("count", [0, 1, 30, 200])
def test_rating_chart_draws_for_the_web_and_for_a_pdf(count: int) -> None:
    points = [(f"{i}/10", -20.0 + i * 0.3) for i in range(1, count + 1)]
    drawing = render_rating_chart(points)
    svg = ET.fromstring(svg_markup(drawing, title="Chloé", description="Cote"))
    assert svg.findtext(f"{SVG}title") == "Chloé"
    assert len(svg.findall(f".//{SVG}circle")) == (count if count <= 60 else 0)
    assert renderPDF.drawToString(drawing).startswith(b"%PDF")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Called 1 time, won 1, average 35.0."),
        ("fr", "Appelé 1 fois, gagné 1 fois, moyenne 35,0."),
    ],
)
def test_the_called_partner_line(
    client: Client, club: Club, players: list[Player], lang: str, words: str
) -> None:
    game = services.game_create(
        club=club, players=players, variant="classic", by=None, five_players="called_king"
    )
    payload = {
        "taker": players[1].pk,
        "partner": players[0].pk,
        "contract": "prise",
        "points": 51,
        "oudlers": 2,
    }
    services.deal_record(game=game, payload=payload, by=None)
    text = text_of(page(client, club, players[0], lang))
    assert words in text
    assert "Bruno" in text.split(words, 1)[1]  # the partners' table follows


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["5 tarot deals played.", "Takes by contract", "rating after each rated deal"]),
        ("fr", ["5 donnes de tarot jouées.", "Prises par contrat", "cote après chaque donne"]),
    ],
)
def test_the_player_pdf_holds_the_figures_and_both_curves(
    client: Client,
    played: Club,
    players: list[Player],
    lang: str,
    words: list[str],
    settings: Settings,
) -> None:
    settings.RATING_MIN_DEALS = 5
    player = players[0]
    url = reverse("clubs:player_report", args=[played.slug, player.pk])
    assert url in page(client, played, player, lang)

    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))  # type: ignore[attr-defined]
    text = " ".join((p.extract_text() or "") for p in reader.pages)
    assert len(reader.pages) >= 1
    assert player.label in text and played.name in text
    for word in words:
        assert word in " ".join(text.split()), word
    # Both curves are drawn: the score chart's and the rating chart's titles.
    assert text.count(player.label) >= 3


def test_the_player_pdf_of_a_private_club_is_404_for_outsiders(
    client: Client, private_club: Club
) -> None:
    player = private_club.players.first()
    assert player is not None
    url = reverse("clubs:player_report", args=[private_club.slug, player.pk])
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Not yet ranked: 5 rated deals of the 20 a rating needs."),
        ("fr", "Pas encore classé : 5 donnes cotées sur les 20 qu'il faut pour une cote."),
    ],
)
def test_no_rating_on_the_page_while_the_ranking_has_none(
    client: Client, played: Club, players: list[Player], lang: str, said: str
) -> None:
    """The one rule of "ranked" (ratings.selectors.is_ranked): with 5 rated deals of the 20
    needed, the ranking says nobody is ranked, and the player's page shows no rating either."""
    ratings = text_of(
        client.get(
            reverse("clubs:ratings", args=[played.slug]), HTTP_ACCEPT_LANGUAGE=lang
        ).content.decode()
    )
    assert ("No player is ranked yet." if lang == "en" else "Aucun joueur") in ratings
    html = page(client, played, players[0], lang)
    assert said in text_of(html)
    assert not re.search(r"(Rating|Cote) \d+, (after|après)", text_of(html))
    assert len(re.findall(r"<svg", html)) == 1  # the score's curve, no rating curve
    pdf = client.get(
        reverse("clubs:player_report", args=[played.slug, players[0].pk]), HTTP_ACCEPT_LANGUAGE=lang
    )
    reader = PdfReader(io.BytesIO(b"".join(pdf.streaming_content)))  # type: ignore[attr-defined]
    text = " ".join(p.extract_text() for p in reader.pages)
    assert " ".join(said.split()) in " ".join(text.split())
