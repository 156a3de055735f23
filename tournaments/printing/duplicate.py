"""The printed papers of a duplicate session: the movement sheet (one page per round: each
table's boards and who sits at each direction), the labels stuck on the boards (étuis: "Étui 7
— donneur Nord") and the travellers (one page per board: every table's result on it).

Built with the project's reportlab building blocks; each ``render_*`` takes the pure package's
values and returns the PDF's bytes. Django is imported for the translations only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.platypus import KeepInFrame, PageBreak, Spacer, Table, TableStyle

from tarot_scores.core.pdf import GRID, HEAD_FILL, build, grid_style, para, styles
from tarot_scores.games.words import CONTRACT_SHORT
from tournaments.duplicate.movement import Direction, Movement, board_labels, movement_rows
from tournaments.duplicate.traveller import Traveller
from tournaments.words import direction_name, movement_rule

_MARGIN = 1.2 * cm
LABELS_PER_PAGE = 12  # two columns of six labels on an A4 page


def board_label_text(board: int, dealer: Direction) -> str:
    return _("Board %(number)s — dealer %(direction)s") % {
        "number": board,
        "direction": direction_name(dealer),
    }


def _directions() -> list[str]:
    return [direction_name(d) for d in Direction]


def render_movement_sheet(
    plan: Movement, *, title: str, author: str = "", names: Mapping[int, str] | None = None
) -> bytes:
    """One page per round: each table's boards, where they come from and who sits where (the
    players' numbers, with their names from ``names`` once drawn); the rule of the movement
    printed on each page."""
    names = names or {}

    def player(number: int) -> str:
        name = names.get(number)
        return f"{number}. {name}" if name else str(number)

    st = styles(text_size=11, title_left=True)
    rule = movement_rule(plan.strides)
    usable_w, usable_h = A4[0] - 2 * _MARGIN, A4[1] - 2 * _MARGIN
    rows = movement_rows(plan)
    story: list[Any] = []
    for round_number in range(1, plan.rounds + 1):
        if story:
            story.append(PageBreak())
        data: list[list[Any]] = [[_("Table"), _("Boards"), _("Boards from table"), *_directions()]]
        data += [
            [
                str(row.table),
                row.boards,
                "" if row.boards_from is None else str(row.boards_from),
                player(row.north),
                player(row.east),
                player(row.south),
                player(row.west),
            ]
            for row in rows
            if row.round == round_number
        ]
        grid = Table(data, repeatRows=1, hAlign="LEFT")
        grid.setStyle(
            grid_style(
                ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 11),
                ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                size=12,
                rule=0.4,
            )
        )
        content = [
            para(title, st["title"]),
            para(_("Round %(n)s") % {"n": round_number}, st["big"]),
            para(rule, st["meta"]),
            Spacer(1, 0.4 * cm),
            grid,
        ]
        story.append(KeepInFrame(usable_w, usable_h - 0.1 * cm, content=content, mode="shrink"))
    return build(story, title=title, author=author)


def render_board_labels(plan: Movement, *, title: str, author: str = "") -> bytes:
    """A label per board, twelve to a page, to cut out and stick on the étuis: the board's
    number and dealer in large type, the table it starts at."""
    st = styles(title_left=True)
    big = ParagraphStyle("label", parent=st["big"], fontSize=16, leading=20)
    usable_w = A4[0] - 2 * _MARGIN
    labels = board_labels(plan)
    story: list[Any] = []
    for start in range(0, len(labels), LABELS_PER_PAGE):
        if story:
            story.append(PageBreak())
        cells = [
            [
                para(board_label_text(label.board, label.dealer), big),
                para(_("Starts at table %(n)s") % {"n": label.first_table}, st["meta"]),
                para(title, st["small"]),
            ]
            for label in labels[start : start + LABELS_PER_PAGE]
        ]
        if len(cells) % 2:
            cells.append([])
        grid = Table(
            [cells[i : i + 2] for i in range(0, len(cells), 2)],
            colWidths=[usable_w / 2] * 2,
            rowHeights=[4.2 * cm] * (len(cells) // 2),
        )
        grid.setStyle(
            TableStyle(
                [
                    ("BOX", (0, 0), (-1, -1), 0.5, GRID),
                    ("INNERGRID", (0, 0), (-1, -1), 0.5, GRID),
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 12),
                ]
            )
        )
        story.append(grid)
    if not story:
        story.append(para(title, st["title"]))
    return build(story, title=title, author=author)


def _points(value: Decimal | None) -> str:
    return "" if value is None else formats.number_format(value)


def render_travellers(
    travellers: Sequence[Traveller],
    *,
    title: str,
    author: str = "",
    differences: Mapping[tuple[int, int], Sequence[int]] | None = None,
) -> bytes:
    """One page per board: each table's contract, taker, card points, the four scores and the
    four seats' matchpoints; or, given ``differences`` ((board, table) -> the four seats'
    differences from the average, rounded), those instead (a tournament ranked by the
    average)."""
    st = styles(text_size=9, title_left=True)
    compared = _("Matchpoints") if differences is None else _("Difference from the average")
    story: list[Any] = []
    for sheet in travellers:
        if story:
            story.append(PageBreak())
        names = _directions()
        data: list[list[Any]] = [
            ["", "", "", "", _("Scores"), "", "", "", compared, "", "", ""],
            [_("Table"), _("Contract"), _("Taker"), _("Points"), *names, *names],
        ]
        for line in sheet.lines:
            contract = CONTRACT_SHORT.get(line.contract or "", _("All passed"))
            data.append(
                [
                    str(line.table),
                    str(contract),
                    "" if line.taker is None else direction_name(line.taker),
                    _points(line.points),
                    *[str(score) for score in line.scores],
                    *(
                        [str(mp) for mp in line.matchpoints]
                        if differences is None
                        else [
                            f"{d:+d}" if d else "0" for d in differences[(sheet.board, line.table)]
                        ]
                    ),
                ]
            )
        grid = Table(data, repeatRows=2, hAlign="LEFT")
        grid.setStyle(
            grid_style(
                ("SPAN", (4, 0), (7, 0)),
                ("SPAN", (8, 0), (11, 0)),
                ("BACKGROUND", (0, 0), (-1, 1), HEAD_FILL),
                ("FONT", (0, 0), (-1, 1), "Helvetica-Bold", 9),
                ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                ("ALIGN", (4, 0), (-1, 1), "CENTER"),
                size=9,
                rule=0.4,
            )
        )
        maximum = sheet.lines[0].maximum if sheet.lines else 0
        rule = (
            _("Matchpoints: 2 for each score beaten at the same seat, 1 for a tie, out of %(max)s.")
            % {"max": maximum}
            if differences is None
            else _(
                "Each score against the average of the scores made at the same direction on "
                "this board."
            )
        )
        story += [
            para(title, st["title"]),
            para(board_label_text(sheet.board, sheet.dealer), st["big"]),
            para(rule, st["meta"]),
            Spacer(1, 0.3 * cm),
            grid,
        ]
    if not story:
        story.append(para(title, st["title"]))
    return build(story, title=title, author=author)
