"""CSV and PDF exports of a game's score sheet."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from reportlab.lib.units import cm

from tarot_scores.core.exports import CsvExport, RowWriter
from tarot_scores.games import selectors, services
from tarot_scores.games.exports import render_score_sheet
from tests.factories import Table, build_table, garde

pytestmark = pytest.mark.django_db


def test_csv_has_a_line_per_live_deal_and_the_totals(table: Table) -> None:
    a, b, c, d = table.ids
    table.record(garde(c, partner=None))
    gone = table.record(garde(a, points=30))
    table.record(garde(b, points=40.5 + 0.5, oudlers=1, contract="prise"))
    services.deal_delete(deal=gone, version=1, by=None)

    response = table.client("anonymous").get(
        reverse("games:csv", args=[table.game.pk]), headers={"Accept-Language": "en"}
    )

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].endswith(f'-{table.game.pk}.csv"')
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Deal",
        "Dealer",
        "Taker",
        "Contract",
        "Won",
        "Points",
        "Bouts",
        "Aurélie",
        "Bruno",
        "Chloé",
        "Denis",
    ]
    assert rows[1] == [
        "1",
        "Aurélie",
        "Chloé",
        "Garde",
        "yes",
        "49",
        "2",
        "-66",
        "-66",
        "198",
        "-66",
    ]
    # Deal 2 is deleted: left out. Deal 3: Bruno's prise, 41 with 1 bout, lost by 10.
    assert rows[2] == ["3", "Chloé", "Bruno", "Prise", "no", "41", "1", "35", "-105", "35", "35"]
    assert rows[3] == ["Total", "", "", "", "", "", "", "-31", "-171", "233", "-31"]
    assert len(rows) == 4


def test_csv_base_class_writes_header_then_rows() -> None:
    class Squares(CsvExport):
        filename = "squares.csv"

        def header(self) -> list[str]:
            return ["n", "square"]

        def write_rows(self, writer: RowWriter) -> None:
            for n in range(1, 4):
                writer.writerow([n, n * n])

    response = Squares().response()

    assert response["Content-Disposition"] == 'attachment; filename="squares.csv"'
    assert response.content.decode("utf-8-sig").splitlines() == ["n;square", "1;1", "2;4", "3;9"]


def pdf_text(data: bytes) -> tuple[int, str]:
    reader = PdfReader(io.BytesIO(data))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_the_pdf_score_sheet_runs_over_pages_with_its_header_on_each() -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    for n in range(60):
        table.record(garde(table.ids[n % 5], points=30 + n % 40, partner=table.ids[(n + 1) % 5]))
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override("en"):
        pages, text = pdf_text(render_score_sheet(sheet))

    assert pages >= 2
    assert "Tarot Club de Lyon" in text
    for name in ("Aurélie", "Bruno", "Chloé", "Denis", "Émile"):
        assert name in text
    assert text.count("Taker") >= pages  # the table header repeats on every page
    assert "Ranking so far" in text
    for total in sheet.totals:
        assert str(total) in text
    assert sum(sheet.totals) == 0


def test_the_pdf_download(table: Table) -> None:
    table.record(garde(table.ids[2]))

    response = table.client("anonymous").get(reverse("games:pdf", args=[table.game.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    assert response["Content-Disposition"].endswith(f'-{table.game.pk}.pdf"')
    data = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    pages, text = pdf_text(data)
    assert pages == 1
    assert "Tarot Club de Lyon" in text and "198" in text


def test_the_pdf_of_a_novatarok_game_names_the_winner() -> None:
    table = build_table(variant="novatarok")
    a, b, c, d = table.ids
    for _n in range(8):
        table.record({"card_points": {str(a): 60, str(b): 10, str(c): 5, str(d): 5}, "kings": a})
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override("en"):
        _pages, text = pdf_text(render_score_sheet(sheet))

    assert "Game over: Aurélie won." in text
    assert "640" in text


def words_of(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize(
    ("language", "headers", "running", "ranking"),
    [
        ("en", ["Deal", "Taker", "Contract", "Result", "Total"], "Total", "Ranking so far"),
        ("fr", ["Donne", "Preneur", "Contrat", "Résultat", "Total"], "Cumul", "Classement"),
    ],
)
def test_the_pdf_headers_are_whole_words_with_a_running_total_under_each_player(
    language: str, headers: list[str], running: str, ranking: str
) -> None:
    table = build_table(players=5)
    for n in range(12):
        table.record(garde(table.ids[n % 5], points=30 + n, partner=table.ids[(n + 1) % 5]))
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override(language):
        pages, text = pdf_text(render_score_sheet(sheet))

    assert pages == 1
    # No header is cut inside a word ("Dea/l", "Tot/al" before).
    assert set(headers) <= words_of(text)
    assert text.count(running) >= 5  # one running-total column under each of the 5 players
    # Each deal's line carries every player's running total after it: the last one, the totals.
    for row in sheet.rows:
        assert " ".join(
            f"{s:+d} {t}" if s else f"0 {t}" for s, t in zip(row.scores, row.totals, strict=True)
        ) in " ".join(text.split())
    assert ranking in text
    assert "Final ranking" not in text and "Classement final" not in text


def test_the_final_ranking_is_printed_only_once_the_game_is_finished(table: Table) -> None:
    table.record(garde(table.ids[2]))
    table.game.status = table.game.Status.FINISHED
    table.game.save(update_fields=["status"])
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override("en"):
        _pages, english = pdf_text(render_score_sheet(sheet))
    with translation.override("fr"):
        _pages, french = pdf_text(render_score_sheet(sheet))

    assert "Final ranking" in english and "Ranking so far" not in english
    assert "Classement final" in french


def _page_of(reader: Any, words: str) -> int:
    return next(i for i, page in enumerate(reader.pages) if words in page.extract_text())


@pytest.mark.parametrize("deals", [12, 14, 17, 19, 21, 43, 46])
def test_the_ranking_heading_is_printed_on_the_page_of_its_table(deals: int) -> None:
    """Whatever the length of the sheet, "Final ranking" never sits alone at a page's foot:
    the first ranked line (rank 1.) is on its page."""
    table = build_table(players=5)
    for n in range(deals):
        table.record(garde(table.ids[n % 5], points=30 + n % 40, partner=table.ids[(n + 1) % 5]))
    services.game_set_status(game=table.game, status="finished")
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override("en"):
        reader = PdfReader(io.BytesIO(render_score_sheet(sheet)))

    heading = _page_of(reader, "Final ranking")
    lines = reader.pages[heading].extract_text().split("Final ranking", 1)[1]
    assert "1." in lines and sheet.table.labels[sheet.ranking[-1].player.pk] in lines


def test_the_pdf_prints_the_taker_and_the_partner_in_their_own_columns() -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    table.record(garde(a, partner=c))
    table.record(garde(b, partner=None))
    sheet = selectors.game_sheet(game_id=table.game.pk)

    with translation.override("fr"):
        text = pdf_text(render_score_sheet(sheet))[1]

    assert "Preneur" in text and "Partenaire" in text
    assert "Aurélie + Chloé" not in text  # no longer both under "Taker"


@pytest.mark.parametrize(
    ("language", "line"),
    [
        # A French spreadsheet: semicolons between cells, a decimal comma (40,5 half points).
        ("fr", "1;Aurélie;Chloé;Garde;non;40,5;2;"),
        ("en", "1,Aurélie,Chloé,Garde,no,40.5,2,"),
    ],
)
def test_csv_opens_in_the_readers_spreadsheet(language: str, line: str) -> None:
    # At three the attack's points can end in a half.
    table = build_table(players=3)
    table.record(garde(table.ids[2], points=40.5))
    response = table.client("anonymous").get(
        reverse("games:csv", args=[table.game.pk]), headers={"Accept-Language": language}
    )
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[1].startswith(line), lines


def test_the_base_writes_decimals_the_readers_way() -> None:
    class Figures(CsvExport):
        def header(self) -> list[str]:
            return ["what", "value"]

        def write_rows(self, writer: RowWriter) -> None:
            writer.writerow(["average", 40.5])
            writer.writerow(["percentage", "66.67"])
            writer.writerow(["loss", -0.5])
            writer.writerow(["a name", "Dupont, Jean"])

    with translation.override("fr"):
        french = Figures().response().content.decode("utf-8-sig").splitlines()
    with translation.override("en"):
        english = Figures().response().content.decode("utf-8-sig").splitlines()
    assert french == [
        "what;value",
        "average;40,5",
        "percentage;66,67",
        "loss;-0,5",
        "a name;Dupont, Jean",
    ]
    assert english == [
        "what,value",
        "average,40.5",
        "percentage,66.67",
        "loss,-0.5",
        'a name,"Dupont, Jean"',
    ]


def header_x(data: bytes) -> dict[str, float]:
    """Where (x, in points) each word first appears on the PDF's first page."""
    found: dict[str, float] = {}

    def visit(text: str, cm_: Any, tm: Any, _font: Any, _size: Any) -> None:
        word = text.strip()
        if word and word not in found:
            found[word] = float(cm_[4]) + float(tm[4])

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    return found


def test_a_five_player_sheet_says_who_sat_out_and_gives_room_to_the_result() -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    dealer = selectors.game_sheet(game_id=table.game.pk).next_dealer.pk
    taker = next(pk for pk in table.ids if pk != dealer)
    table.record(garde(taker, partner=None, sitting_out=dealer, points=30, petit_au_bout="attack"))
    sheet = selectors.game_sheet(game_id=table.game.pk)
    out = sheet.table.labels[dealer]

    with translation.override("fr"):
        pdf = render_score_sheet(sheet)
    text = pdf_text(pdf)[1]
    assert "Mort" in text
    # Deal 1: the taker, no partner, who sat out, in their columns.
    assert f"\n1\n{sheet.table.labels[taker]}\n—\n{out}\nGarde\n" in text
    x = header_x(pdf)
    # The taker's column as wide as a name, the result's words with room of their own.
    assert x["Mort"] - x["Preneur"] < 4 * cm
    result_room = x[sheet.table.labels[sheet.players[0].pk]] - x["Résultat"]
    assert result_room >= 3.2 * cm - 1
    assert "chutée de 11" in text
