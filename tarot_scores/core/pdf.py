"""PDF building blocks (reportlab platypus) shared by every printed paper: score sheets,
tournament table sheets, seating lists, standings, brackets. Each paper's ``render_*`` builds
its story with these and returns bytes; its view answers ``pdf_response``."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from django.http import FileResponse
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph, SimpleDocTemplate, TableStyle

HEAD_FILL = colors.HexColor("#e6e6e6")  # the header row of every grid
GRID = colors.HexColor("#777777")
GRID_LIGHT = colors.HexColor("#999999")  # a score sheet's many lines, lighter


def styles(*, text_size: float = 9, title_left: bool = False) -> dict[str, ParagraphStyle]:
    """The paragraph styles of a paper: title, big, meta, small, h2, and table cells (``cell``,
    ``head``) of ``text_size`` points."""
    base = getSampleStyleSheet()
    normal = base["Normal"]
    title_extra: dict[str, Any] = {"alignment": 0, "spaceAfter": 4} if title_left else {}
    leading = text_size + 2
    return {
        "title": ParagraphStyle(
            "title", parent=base["Title"], fontName="Helvetica-Bold", **title_extra
        ),
        "big": ParagraphStyle(
            "big", parent=normal, fontName="Helvetica-Bold", fontSize=20, leading=24
        ),
        "meta": ParagraphStyle("meta", parent=normal, fontSize=10, leading=13),
        "small": ParagraphStyle("small", parent=normal, fontSize=7, leading=9),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], fontName="Helvetica-Bold"),
        "cell": ParagraphStyle("cell", parent=normal, fontSize=text_size, leading=leading),
        "head": ParagraphStyle(
            "head", parent=normal, fontSize=text_size, leading=leading, fontName="Helvetica-Bold"
        ),
    }


def para(text: Any, style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text. Paragraph reads a little markup: names typed by players must
    not be taken for it."""
    escaped = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return Paragraph(escaped, style)


CELL_PADDING = 6  # reportlab's padding on each side of a table cell, in points


def fitting_width(
    *texts: Any, size: float, bold: bool = True, least: float = 0, padding: float = CELL_PADDING
) -> float:
    """The narrowest column in which every word of ``texts`` fits whole at ``size`` points,
    padding included: a header may wrap between its words, never inside one ("Dea/l"), in
    whichever language it is printed. ``least`` is the width the column keeps anyway."""
    font = "Helvetica-Bold" if bold else "Helvetica"
    words = [word for text in texts for word in str(text).split()]
    widest = max((stringWidth(word, font, size) for word in words), default=0.0)
    # A point to spare: a word exactly as wide as its cell may still be cut by rounding.
    return max(least, widest + 2 * padding + 1)


def grid_style(
    *commands: tuple[Any, ...],
    size: float,
    head: bool = True,
    rule: float = 0.3,
    rule_colour: colors.Color = GRID,
) -> TableStyle:
    """A table's look: Helvetica at ``size``, a grey header row (``head``), a thin rule under
    each row (``rule`` points; 0 for none), then the table's own ``commands``."""
    base: list[tuple[Any, ...]] = [("FONT", (0, 0), (-1, -1), "Helvetica", size)]
    if head:
        base.append(("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL))
    if rule:
        base.append(("LINEBELOW", (0, 0), (-1, -1), rule, rule_colour))
    return TableStyle([*base, *commands])


def page_number(canvas: Any, doc: Any) -> None:
    """The page's number, bottom right (a platypus page callback)."""
    width = doc.pagesize[0]
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawRightString(width - doc.rightMargin, 1 * cm, str(doc.page))
    canvas.restoreState()


def build(
    story: Sequence[Any],
    *,
    title: str,
    author: str,
    pagesize: Any = A4,
    margin: float = 1.2 * cm,
    numbered: bool = False,
) -> bytes:
    """The PDF's bytes: ``story`` laid out on ``pagesize`` pages, numbered if asked."""
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
        title=title,
        author=author,
    )
    if numbered:
        doc.build(list(story), onFirstPage=page_number, onLaterPages=page_number)
    else:
        doc.build(list(story))
    return buffer.getvalue()


def pdf_response(data: bytes, filename: str) -> FileResponse:
    """A PDF download."""
    return FileResponse(
        io.BytesIO(data), as_attachment=True, filename=filename, content_type="application/pdf"
    )
