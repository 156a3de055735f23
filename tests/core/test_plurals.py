"""Counts read in the right number in both languages ("1 deal", "2 deals"; "1 donne"), never
"deal(s)": messages of the services, printed papers and the engine's explanations."""

from __future__ import annotations

import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tests.factories import ClubFactory, build_table, garde
from tournaments.models import Tournament
from tournaments.printing import pdf

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("max_deals", "language", "words"),
    [
        (1, "en", "The 1 deal of this table is entered."),
        (2, "en", "All 2 deals of this table are entered."),
        (1, "fr", "La donne de cette table est saisie (1)."),
        (2, "fr", "Les 2 donnes de cette table sont saisies."),
    ],
)
def test_a_full_table_says_how_many_deals_in_the_right_number(
    max_deals: int, language: str, words: str
) -> None:
    table = build_table()
    table.game.max_deals = max_deals
    table.game.save()
    for n in range(max_deals):
        table.record(garde(table.ids[n]))
    with translation.override(language), pytest.raises(Refusal) as refused:
        game_services.deal_record(game=table.game, payload=garde(table.ids[0]), by=None)
    assert list(refused.value.messages().values()) == [[words]]


@pytest.mark.parametrize(
    ("deals", "language", "words"),
    [
        (1, "en", "1 deal, then sign"),
        (6, "en", "6 deals, then sign"),
        (1, "fr", "1 donne, puis signez"),
        (6, "fr", "6 donnes, puis signez"),
    ],
)
def test_the_table_sheet_counts_its_deals_in_the_right_number(
    deals: int, language: str, words: str
) -> None:
    tournament = Tournament(name="Open", deals_per_round=deals, club=ClubFactory.build(name="C"))
    tables = [pdf.SheetTable(1, ["Aurélie", "Bruno", "Chloé", "Denis"], "https://t.example/x/")]
    with translation.override(language):
        data = pdf.render_table_sheets(tournament=tournament, round_name="R1", tables=tables)
    text = " ".join(PdfReader(io.BytesIO(data)).pages[0].extract_text().split())
    assert words in text
