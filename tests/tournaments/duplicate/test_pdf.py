"""The duplicate papers opened with pypdf: the movement sheet (a page per round), the board
labels (twelve a page, "Étui 7 — donneur Nord") and the travellers (a page per board), in
French and in English. No database."""

from __future__ import annotations

import io
import re
from decimal import Decimal

import pytest
from django.utils import translation
from pypdf import PdfReader

from tournaments.duplicate import DIRECTIONS, Direction, TableDeal, movement, traveller
from tournaments.printing.duplicate import (
    render_board_labels,
    render_movement_sheet,
    render_travellers,
)


def read(content: bytes) -> tuple[int, list[str]]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Séance 2", "Nord", "Ouest", "Étuis", "Nord reste"]),
        ("en", ["Round 2", "North", "West", "Boards", "North stays"]),
    ],
)
def test_the_movement_sheet_has_a_page_per_round(language: str, words: list[str]) -> None:
    plan = movement(5, 3, 2)
    with translation.override(language):
        pages, texts = read(render_movement_sheet(plan, title="Duplicate du jeudi"))
    assert pages == 3
    assert all("Duplicate du jeudi" in text for text in texts)
    for word in words:
        assert word in texts[1]
    # Round 2, table 1: boards 3-4 from table 2, players 1, 18, 15, 12 (docs/duplicate.md).
    assert "1 3-4 2 1 18 15 12" in texts[1]


@pytest.mark.parametrize(
    ("language", "label"),
    [("fr", "Étui 7 — donneur Sud"), ("en", "Board 7 — dealer South")],
)
def test_board_labels_twelve_a_page(language: str, label: str) -> None:
    plan = movement(7, 7, 2)  # 14 boards: two pages
    with translation.override(language):
        pages, texts = read(render_board_labels(plan, title="Duplicate"))
    assert pages == 2
    assert label in texts[0]
    text = " ".join(texts)
    assert sum(text.count(word) for word in ("Étui ", "Board ")) == 14
    starts = "Part de la table 7" if language == "fr" else "Starts at table 7"
    assert starts in texts[1]  # boards 13 and 14 start at table 7


def test_travellers_a_page_per_board() -> None:
    deals = [
        TableDeal(
            b,
            t,
            "garde",
            Direction.SOUTH,
            Decimal("55.5"),
            {d: 4 * t + i for i, d in enumerate(DIRECTIONS)},
            dict(zip(DIRECTIONS, s, strict=True)),
        )
        for b in (1, 2)
        for t, s in ((1, (-58, -58, 174, -58)), (2, (-70, -70, 210, -70)))
    ]
    sheets = [traveller(b, deals) for b in (1, 2)]
    with translation.override("fr"):
        pages, texts = read(render_travellers(sheets, title="Duplicate"))
    assert pages == 2
    assert "Étui 2 — donneur Est" in texts[1]
    assert "Points de match" in texts[0] and "sur 2" in texts[0]
    assert "1 Garde Sud 55,5 -58 -58 174 -58 2 2 0 2" in texts[0]
    assert "2 Garde Sud 55,5 -70 -70 210 -70 0 0 2 0" in texts[0]
    with translation.override("en"):
        pages, texts = read(render_travellers(sheets, title="Duplicate"))
    assert "Board 1 — dealer North" in texts[0] and "55.5" in texts[0]


def test_empty_papers_still_build() -> None:
    assert read(render_travellers([], title="Vide"))[0] == 1
