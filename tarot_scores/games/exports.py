"""A game's score sheet as CSV and as a printable PDF (reportlab platypus). The PDF shows a
tournament table's live penalties as its page does: marked on their deal's cell, listed below
the grid with their reasons, and the totals before and after them."""

from __future__ import annotations

from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import cm
from reportlab.platypus import KeepTogether, Spacer, Table

from tarot_scores.core.exports import CsvExport, RowWriter
from tarot_scores.core.french import french
from tarot_scores.core.pdf import (
    GRID_LIGHT,
    HEAD_FILL,
    build,
    fitting_width,
    grid_style,
    para,
    styles,
)
from tarot_scores.games.penalties import SheetPenalties
from tarot_scores.games.selectors import DealRow, GameSheet
from tarot_scores.games.words import DealWords, deal_words, outcome, rules_label


def sheet_filename(sheet: GameSheet, extension: str) -> str:
    game = sheet.game
    return f"{game.club.slug}-{game.date.isoformat()}-{game.pk}.{extension}"


def live_rows(sheet: GameSheet) -> list[tuple[DealRow, DealWords]]:
    game = sheet.game
    return [
        (row, deal_words(game, sheet.table, row.deal.payload, row.deal.number, outcome(row.deal)))
        for row in sheet.rows
        if not row.deal.is_deleted
    ]


class GameCsv(CsvExport):
    """A game's deals, one line each, with every player's score, then the totals. With a
    table's live ``penalties``: a line per penalty (its points in the player's column, so that
    a column adds up to his total after penalties), then the totals before and after them."""

    def __init__(self, sheet: GameSheet, penalties: SheetPenalties | None = None) -> None:
        self.sheet = sheet
        self.penalties = penalties or SheetPenalties()
        self.filename = sheet_filename(sheet, "csv")

    def header(self) -> list[str]:
        names = [self.sheet.table.labels[p.pk] for p in self.sheet.players]
        return [
            _("Deal"),
            _("Dealer"),
            _("Taker"),
            _("Contract"),
            _("Won"),
            _("Points"),
            _("Bouts"),
            *names,
        ]

    def write_rows(self, writer: RowWriter) -> None:
        table = self.sheet.table
        for row, words in live_rows(self.sheet):
            deal = row.deal
            won = "" if deal.won is None else (_("yes") if deal.won else _("no"))
            taker = words.taker if not words.partner else f"{words.taker} + {words.partner}"
            writer.writerow(
                [
                    deal.number,
                    table.labels.get(deal.dealer_id or 0, "") if deal.dealer_id else "",
                    taker or words.text,
                    words.contract,
                    won,
                    words.points,
                    "" if words.bouts is None else words.bouts,
                    *("" if s is None else s for s in row.scores),
                ]
            )
        penalties = self.penalties
        if not penalties:
            writer.writerow([_("Total"), "", "", "", "", "", "", *self.sheet.totals])
            return
        writer.writerow([_("Total before penalties"), "", "", "", "", "", "", *self.sheet.totals])
        players = [p.pk for p in self.sheet.players]
        for _name, mark in penalties.listed:
            points = [-mark.points if pk == mark.player_id else "" for pk in players]
            where = mark.deal_number if mark.deal_number is not None else ""
            said = _("Penalty: %(reason)s") % {"reason": mark.reason}
            writer.writerow([where, "", "", said, "", "", "", *points])
        writer.writerow([_("Total after penalties"), "", "", "", "", "", "", *penalties.after])


def render_score_sheet(sheet: GameSheet, penalties: SheetPenalties | None = None) -> bytes:
    """The feuille de marque of one game, A4 portrait, the table header on every page; with
    ``penalties`` (a table's live ones), each deal's marked "[n]" on its cell and listed under
    the grid, and the totals before and after them."""
    penalties = penalties or SheetPenalties()
    # Each penalty's note number, in the order they are listed under the grid.
    note = {mark.key: i for i, (_name, mark) in enumerate(penalties.listed, start=1)}
    game = sheet.game
    st = styles(text_size=8)
    names = [sheet.table.labels[p.pk] for p in sheet.players]
    tarot = game.kind == "tarot"

    story: list[Any] = [
        para(_("Score sheet"), st["title"]),
        para(_("Club: %(name)s") % {"name": game.club.name}, st["meta"]),
        para(
            _("Date: %(date)s") % {"date": formats.date_format(game.date, "DATE_FORMAT")},
            st["meta"],
        ),
        para(_("Rules: %(rules)s") % {"rules": rules_label(game)}, st["meta"]),
        para(_("Players: %(names)s") % {"names": ", ".join(names)}, st["meta"]),
    ]
    # The game's title, as its page names it (its label, or its day and place in the day).
    story.insert(1, para(game.title, st["meta"]))
    story.append(Spacer(1, 0.4 * cm))

    size = 8
    rows = live_rows(sheet)
    # The called partner has a column of his own where a partner can be called (five at the
    # table): "Taker" holds the taker only.
    partners = tarot and (len(names) == 5 or any(words.partner for _row, words in rows))
    # At five with the dealer sitting out, who sat out each deal (the mort) has a column.
    sat_out = tarot and any(words.sitting_out for _row, words in rows)
    if tarot:
        head = [_("Deal"), _("Taker"), *([_("Partner")] if partners else [])]
        head += [*([pgettext("score sheet column", "Sat out")] if sat_out else []), _("Contract")]
        head.append(_("Result"))
    else:
        head = [_("Deal"), _("Details")]
    # Under each player's name: the deal's score, then the running total after it.
    sub_head = [pgettext("score sheet column", "Score"), pgettext("running total", "Total")]
    numbers = [str(row.deal.number) for row in sheet.rows] or ["1"]
    deal_w = fitting_width(_("Deal"), *numbers, size=size, least=0.9 * cm)
    # A marked score is one unbroken string in its cell: measured whole.
    marked = [f"+1234-[{n}]" for n in note.values()]
    score_w = fitting_width(*sub_head, "+1234", *marked, size=size, padding=3, least=0.9 * cm)

    def names_w(title: str, *values: str) -> float:
        # As wide as its longest word (a name wraps between its words), within bounds.
        return float(min(3.5 * cm, fitting_width(title, *values, size=size, least=1.4 * cm)))

    if tarot:
        fixed = [deal_w, names_w(_("Taker"), *names)]
        if partners:
            fixed.append(names_w(_("Partner"), *names, "—"))
        if sat_out:
            fixed.append(names_w(pgettext("score sheet column", "Sat out"), *names))
        contracts = [words.contract for _row, words in rows]
        fixed.append(min(2.6 * cm, fitting_width(_("Contract"), *contracts, size=size)))
        fixed.append(0.0)  # the result's words take what is left
    else:
        fixed = [deal_w, 0.0]
    flexible = len(fixed) - 1
    least_flexible = 3.2 * cm if tarot else 2.4 * cm
    scores_w = 2 * score_w * len(names)
    pagesize = A4
    if A4[0] - 3 * cm - sum(fixed) - scores_w < least_flexible:
        pagesize = landscape(A4)  # five players and wide numbers: turn the page
    usable = pagesize[0] - 3 * cm
    fixed[flexible] = max(least_flexible, usable - sum(fixed) - scores_w)
    widths = [*fixed, *([score_w] * 2 * len(names))]

    first_score = len(head)
    data: list[list[Any]] = [
        [para(h, st["head"]) for h in head] + [x for n in names for x in (para(n, st["head"]), "")],
        [""] * first_score + [para(h, st["head"]) for _n in names for h in sub_head],
    ]
    for row, words in rows:
        scores = [
            " ".join(
                ["" if s is None else f"{s:+d}" if s else "0"]
                + [f"[{note[m.key]}]" for m in penalties.on(row.deal.pk, p.pk)]
            )
            for s, p in zip(row.scores, sheet.players, strict=True)
        ]
        if tarot:
            result = words.result
            if words.extras:
                result = french(f"{result}; {'; '.join(words.extras)}")
            cells = [str(row.deal.number), para(words.taker, st["cell"])]
            if partners:
                # Alone at five: the taker called no one (or himself).
                cells.append(para(words.partner or "—", st["cell"]))
            if sat_out:
                cells.append(para(words.sitting_out or "—", st["cell"]))
            cells += [para(words.contract, st["cell"]), para(result, st["cell"])]
        else:
            cells = [str(row.deal.number), para(words.text, st["cell"])]
        running = [x for s, t in zip(scores, row.totals, strict=True) for x in (s, str(t))]
        data.append([*cells, *running])
    if penalties:
        foot = [
            (_("Total before penalties"), [str(t) for t in sheet.totals]),
            (_("Penalties"), [f"-{off}" if off else "" for off in penalties.taken]),
            (_("Total after penalties"), [str(t) for t in penalties.after]),
        ]
    else:
        foot = [(_("Total"), [str(t) for t in sheet.totals])]
    for label, values in foot:
        data.append(
            [para(label, st["head"]), *[""] * (first_score - 1)]
            + [x for v in values for x in (v, "")]
        )
    last_deal = -len(foot) - 1  # the last deal's row, counted from the end
    first_foot = -len(foot)

    per_column: list[tuple[Any, ...]] = [("SPAN", (i, 0), (i, 1)) for i in range(first_score)]
    for i in range(len(names)):
        column = first_score + 2 * i
        per_column += [
            ("SPAN", (column, 0), (column + 1, 0)),
            *[("SPAN", (column, r), (column + 1, r)) for r in range(first_foot, 0)],
            # Each player's two columns read together: a heavier rule before them, the deal's
            # score in grey, the running total in bold.
            ("LINEBEFORE", (column, 0), (column, -1), 1, colors.black),
            ("TEXTCOLOR", (column, 2), (column, last_deal), colors.HexColor("#444444")),
            ("FONT", (column + 1, 2), (column + 1, last_deal), "Helvetica-Bold", size),
        ]
    grid = Table(data, colWidths=widths, repeatRows=2)
    grid.setStyle(
        grid_style(
            ("GRID", (0, 0), (-1, -1), 0.4, GRID_LIGHT),
            ("BACKGROUND", (0, 1), (-1, 1), HEAD_FILL),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("ALIGN", (first_score, 1), (-1, -1), "RIGHT"),
            ("ALIGN", (0, 1), (0, -1), "RIGHT"),
            ("LEFTPADDING", (first_score, 0), (-1, -1), 3),
            ("RIGHTPADDING", (first_score, 0), (-1, -1), 3),
            ("FONT", (0, first_foot), (-1, -1), "Helvetica-Bold", 9),
            *[("SPAN", (0, r), (first_score - 1, r)) for r in range(first_foot, 0)],
            ("LINEABOVE", (0, first_foot), (-1, first_foot), 1.2, colors.black),
            *per_column,
            size=size,
            rule=0,
        )
    )
    story.append(grid)

    if penalties:
        story.append(Spacer(1, 0.5 * cm))
        notes: list[Any] = [
            para(_("Penalties"), st["h2"]),
            para(
                _("Given by the referee: taken off the player's total, not off the deal's scores."),
                st["meta"],
            ),
        ]
        for name, mark in penalties.listed:
            if mark.deal_number is not None:
                line = _("%(name)s: −%(points)s on deal %(deal)s") % {
                    "name": name,
                    "points": mark.points,
                    "deal": mark.deal_number,
                }
            else:
                line = _("%(name)s: −%(points)s on the round") % {
                    "name": name,
                    "points": mark.points,
                }
            # Helvetica's encoding has no minus sign (U+2212): a hyphen prints instead.
            line = line.replace("−", "-")
            notes.append(para(f"[{note[mark.key]}] {line} — {mark.reason}", st["meta"]))
        # The heading stays with its first lines: never alone at the foot of a page.
        story.append(KeepTogether(notes[:3]))
        story.extend(notes[3:])

    story.append(Spacer(1, 0.5 * cm))
    finished = game.status == game.Status.FINISHED
    # The ranking's heading, its notes and its table go to the same page.
    together: list[Any] = [para(_("Final ranking") if finished else _("Ranking so far"), st["h2"])]
    if penalties:
        together.append(para(_("Ranked by the totals after penalties."), st["meta"]))
    ranked_by = penalties.ranking if penalties else sheet.ranking
    ranking = [[f"{r.rank}.", sheet.table.labels[r.player.pk], str(r.total)] for r in ranked_by]
    if sheet.winners:
        winners = ", ".join(sheet.table.labels[p.pk] for p in sheet.winners)
        together.append(para(_("Game over: %(names)s won.") % {"names": winners}, st["meta"]))
    ranked = Table(ranking, colWidths=[1.2 * cm, 6 * cm, 2.5 * cm], hAlign="LEFT")
    ranked.setStyle(
        grid_style(("ALIGN", (2, 0), (2, -1), "RIGHT"), size=10, head=False, rule_colour=GRID_LIGHT)
    )
    together.append(ranked)
    story.append(KeepTogether(together))

    return build(
        story,
        title=f"{game.club.name} {game.date.isoformat()}",
        author=game.club.name,
        pagesize=pagesize,
        margin=1.5 * cm,
        numbered=True,
    )
