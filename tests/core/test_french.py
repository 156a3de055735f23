"""French once names and numbers are put in: elision (d'Éloïse, qu'Anaïs) and the
non-breaking space before ; : ! ? (chutée de 11 ; petit au bout), French only."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club
from tarot_scores.core.french import elided, french, spaced
from tarot_scores.games import services
from tarot_scores.games.seats import table_seats
from tarot_scores.games.words import deal_words
from tests.factories import make_game
from tests.games.helpers import page_text

NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Les dernières parties de Éloïse", "Les dernières parties d'Éloïse"),
        ("Le code PIN de Anaïs est débloqué.", "Le code PIN d'Anaïs est débloqué."),
        ("en tant que Ugo pour répondre", "en tant qu'Ugo pour répondre"),
        ("De Hélène à Bruno", "D'Hélène à Bruno"),
        ("la place de Yannick", "la place de Yannick"),  # a Y sounds as a consonant
        ("moins de huit", "moins de huit"),  # the catalogue's own words are right as written
        ("chutée de 11", "chutée de 11"),
        ("l'équipe de Tarot Scores", "l'équipe de Tarot Scores"),
        ("Code de Éric et de Anaïs", "Code d'Éric et d'Anaïs"),
    ],
)
def test_de_and_que_are_elided_before_a_vowel(text: str, expected: str) -> None:
    with translation.override("fr"):
        assert elided(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chutée de 11; petit au bout", f"chutée de 11{NBSP}; petit au bout"),
        ("Garde : gagnée de 3", f"Garde{NBSP}: gagnée de 3"),
        ("Vraiment ?", f"Vraiment{NBSP}?"),
        ("Bravo!", f"Bravo{NBSP}!"),
        ("à 12:30", "à 12:30"),  # a time keeps its colon
        ("https://example.org/a", "https://example.org/a"),
    ],
)
def test_a_non_breaking_space_goes_before_high_marks(text: str, expected: str) -> None:
    with translation.override("fr"):
        assert spaced(text) == expected


def test_english_is_left_alone() -> None:
    with translation.override("en"):
        assert french("Sign in as de Éloïse; now") == "Sign in as de Éloïse; now"


@pytest.mark.django_db
def test_deal_words_are_set_in_french(club: Club) -> None:
    players = list(club.players.order_by("name"))[:4]
    game = make_game(club=club, players=players)
    payload = {
        "taker": players[0].pk,
        "contract": "garde",
        "points": 30,
        "oudlers": 2,
        "petit_au_bout": "attack",
    }
    deal = services.deal_record(game=game, payload=payload, by=None).deal
    with translation.override("fr"):
        summary = deal_words(
            game, table_seats(game), deal.payload, 1, (deal.won, deal.margin)
        ).summary
    assert f"chutée de 11{NBSP}; petit au bout" in summary
    assert f"{NBSP}: chutée" in summary
    assert "; " not in summary.replace(f"{NBSP}; ", "")


def test_the_template_filter_keeps_escaping() -> None:
    template = Template(
        "{% load i18n french %}{% blocktranslate with player=name asvar said %}"
        "The latest games of {{ player }}, newest first{% endblocktranslate %}{{ said|french }}"
    )
    with translation.override("fr"):
        out = template.render(Context({"name": "Éloïse <b>"}))
    assert out.startswith("Les dernières parties d'Éloïse &lt;b&gt;")


@pytest.mark.django_db
def test_a_players_page_says_d_eloise(club: Club) -> None:
    eloise = club_services.player_create(club=club, name="Éloïse")
    game = make_game(club=club, players=[eloise, *list(club.players.exclude(pk=eloise.pk))[:3]])
    services.deal_record(
        game=game,
        payload={"taker": eloise.pk, "contract": "garde", "points": 49, "oudlers": 2},
        by=None,
    )
    text = page_text(Client().get(reverse("clubs:player", args=[club.slug, eloise.pk])).content)
    assert "Les dernières parties d'Éloïse" in text
    assert "de Éloïse" not in text
