"""The PDF building blocks every printed paper uses: plain-text paragraphs, numbered pages and
the download answer."""

from __future__ import annotations

import io

from pypdf import PdfReader
from reportlab.platypus import PageBreak

from tarot_scores.core.pdf import build, para, pdf_response, styles


def _texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_a_name_with_markup_characters_is_printed_as_typed() -> None:
    st = styles()
    data = build([para("Léa <b> & Co", st["meta"])], title="t", author="a")
    assert "Léa <b> & Co" in _texts(data)[0]


def test_pages_are_numbered_only_when_asked() -> None:
    st = styles(text_size=8)
    story = [para("un", st["cell"]), PageBreak(), para("deux", st["cell"])]
    numbered = _texts(build(story, title="t", author="a", numbered=True))
    plain = _texts(build(story, title="t", author="a"))
    assert [sorted(t.split()) for t in numbered] == [["1", "un"], ["2", "deux"]]
    assert [t.split() for t in plain] == [["un"], ["deux"]]


def test_the_download_is_a_pdf_attachment() -> None:
    response = pdf_response(b"%PDF-1.4 ...", "feuille.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="feuille.pdf"'
    assert b"".join(response.streaming_content) == b"%PDF-1.4 ..."  # type: ignore[arg-type]
