"""Printed tournament papers, built with reportlab platypus: the table sheets of a round (one
page per table, filled in by hand, with the table's QR code), the seating list pinned on the
wall, the standings and the knockout bracket.

Each ``render_*`` function takes what it prints (already read by the selectors) and returns the
PDF's bytes; none makes a query.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.platypus import (
    KeepInFrame,
    KeepTogether,
    PageBreak,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from tarot_scores.core.collation import name_key
from tarot_scores.core.pdf import GRID, HEAD_FILL, build, fitting_width, grid_style, para, styles
from tournaments.duplicate import DIRECTIONS, board_dealer
from tournaments.models import Tournament
from tournaments.printing.exports import bye_cell
from tournaments.ranking import StandingRow
from tournaments.rounds.selectors import Bracket
from tournaments.standings.duplicate import DuplicateRow, duplicate_columns
from tournaments.standings.selectors import TeamRow, cut_summary
from tournaments.words import direction_name

_MARGIN = 1.2 * cm


@dataclass(frozen=True)
class SheetTable:
    """One table of a round as its sheet prints it."""

    number: int
    players: list[str]  # seat order: seat 1 deals first
    entry_url: str  # the table's private link, printed as a QR code
    # A duplicate table's boards this round: a row each, dealt by the direction the board
    # names (North, East, South, West: the seats in order), not by turns.
    boards: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeatingLine:
    player: str
    table: int
    seat: int


def _standings_heading(tournament: Tournament, series_label: str, st: Any) -> list[Any]:
    """A standings sheet's first lines: the tournament, its heading, "Standings" (of a series)."""
    title = _("Standings: %(series)s") % {"series": series_label} if series_label else None
    return [
        para(tournament.name, st["title"]),
        para(_heading(tournament), st["meta"]),
        para(title or _("Standings"), st["h2"]),
    ]


def _heading(tournament: Tournament) -> str:
    date = formats.date_format(tournament.date, "DATE_FORMAT")
    return f"{tournament.club.name} · {date}"


def _short(name: str, limit: int = 20) -> str:
    """A name that fits its column: long ones end with an ellipsis."""
    return name if len(name) <= limit else name[: limit - 1].rstrip() + "…"


def _qr(url: str, size: float) -> Drawing:
    widget = QrCodeWidget(url, barLevel="M")
    x0, y0, x1, y1 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x1 - x0), 0, 0, size / (y1 - y0), 0, 0])
    drawing.add(widget)
    return drawing


# --- table sheets ------------------------------------------------------------------------------


def render_table_sheets(
    *, tournament: Tournament, round_name: str, tables: Sequence[SheetTable]
) -> bytes:
    """One landscape page per table: who sits where, a grid of the round's deals to fill in
    (the dealer of each deal printed already) and the QR code of the table's entry link."""
    st = styles(title_left=True)
    pagesize = landscape(A4)
    width, height = pagesize
    usable_w = width - 2 * _MARGIN
    deals = tournament.deals_per_round
    sits_out = tournament.five_mode == Tournament.FiveMode.SITTING_OUT
    usable_h = height - 2 * _MARGIN
    qr_size = 3.6 * cm
    header_h = 5.2 * cm
    grid_h = usable_h - header_h - 0.6 * cm
    row_h = max(0.3 * cm, min(1.0 * cm, grid_h / (deals + 3)))
    font = max(5.0, min(10.0, row_h * 0.55))

    story: list[Any] = []
    for index, table in enumerate(tables):
        if index:
            story.append(PageBreak())
        # No PIN here: the sheet lies in the middle of the table. A player's PIN is on his own
        # card (``render_player_cards``).
        names = table.players
        if table.boards:
            seats = [
                _("%(seat)s. %(name)s") % {"seat": direction_name(direction), "name": name}
                for direction, name in zip(DIRECTIONS, names, strict=False)
            ]
        else:
            seats = [
                (_("%(seat)s. %(name)s (deals first)") if i == 1 else _("%(seat)s. %(name)s"))
                % {"seat": i, "name": name}
                for i, name in enumerate(names, start=1)
            ]
        left: list[Any] = [
            para(tournament.name, st["title"]),
            para(_heading(tournament), st["meta"]),
            para(f"{round_name} · " + _("Table %(n)s") % {"n": table.number}, st["big"]),
            Spacer(1, 0.15 * cm),
            para(_("Seats: %(seats)s") % {"seats": " · ".join(seats)}, st["meta"]),
        ]
        if len(table.players) == 5:
            note = (
                _("At a table of 5 the dealer sits each deal out and scores 0.")
                if sits_out
                else _("At a table of 5 the taker calls a king.")
            )
            left.append(para(note, st["meta"]))
        left.append(
            para(
                ngettext(
                    "%(deals)s deal, then sign the sheet and hand it to the organisers.",
                    "%(deals)s deals, then sign the sheet and hand it to the organisers.",
                    deals,
                )
                % {"deals": deals},
                st["meta"],
            )
        )
        right = [
            _qr(table.entry_url, qr_size),
            para(_("Scan to enter the deals:"), st["small"]),
            para(table.entry_url, st["small"]),
        ]
        head = Table([[left, right]], colWidths=[usable_w - qr_size - 1.4 * cm, qr_size + 1.4 * cm])
        head.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("ALIGN", (1, 0), (1, 0), "CENTER"),
                ]
            )
        )

        first = pgettext("duplicate", "Board") if table.boards else _("Deal")
        columns = [first, _("Dealer"), _("Taker"), _("Contract"), _("Points"), _("Bouts")]
        least = [1.5 * cm, 3.2 * cm, 3.2 * cm, 2.6 * cm, 1.6 * cm, 1.4 * cm]
        fixed = [
            fitting_width(column, size=font, least=width)
            for column, width in zip(columns, least, strict=True)
        ]
        player_w = (usable_w - sum(fixed)) / max(1, len(table.players))
        head_style = ParagraphStyle(
            "grid-head", parent=st["head"], fontSize=font, leading=font * 1.15
        )
        data: list[list[Any]] = [[para(c, head_style) for c in [*columns, *table.players]]]
        rows = [
            (board, table.players[DIRECTIONS.index(board_dealer(board))]) for board in table.boards
        ] or [
            (number, table.players[(number - 1) % len(table.players)] if table.players else "")
            for number in range(1, deals + 1)
        ]
        for number, dealer in rows:
            data.append(
                [str(number), _short(dealer), *[""] * (len(columns) - 2 + len(table.players))]
            )
        data.append([_("Total"), *[""] * (len(columns) - 1 + len(table.players))])
        grid = Table(
            data,
            colWidths=[*fixed, *[player_w] * len(table.players)],
            # The header row has room for names on two lines.
            rowHeights=[max(row_h, 2.4 * font + 4), *[row_h] * (len(data) - 1)],
        )
        grid.setStyle(
            grid_style(
                ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", font),
                ("BACKGROUND", (0, -1), (-1, -1), HEAD_FILL),
                ("GRID", (0, 0), (-1, -1), 0.5, GRID),
                ("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                ("TEXTCOLOR", (1, 1), (1, -2), colors.HexColor("#555555")),
                size=font,
                rule=0,
            )
        )
        # Long names or many deals shrink the page's content rather than spill onto a second
        # page: one sheet per table, always.
        story.append(
            KeepInFrame(usable_w, usable_h - 0.1 * cm, content=[head, grid], mode="shrink")
        )
    if not story:
        story.append(para(_("This round has no tables."), st["meta"]))
    return build(
        story,
        title=f"{tournament.name} · {round_name}",
        author=tournament.club.name,
        pagesize=pagesize,
    )


# --- seating list ------------------------------------------------------------------------------


def render_seating_list(
    *,
    tournament: Tournament,
    round_name: str,
    lines: Sequence[SeatingLine],
    byes: Sequence[str] = (),
    quality: str = "",
) -> bytes:
    """Every player in alphabetical order with table and seat, in type read from a distance;
    those who sit the round out (``byes``) among them, "bye" in place of a table; under the
    heading, how fair the seating is (``quality``, ``words.seating_quality``)."""
    st = styles(title_left=True)
    ordered = sorted(
        [*lines, *(SeatingLine(name, 0, 0) for name in byes)],
        key=lambda line: (name_key(line.player), line.table, line.seat),
    )
    story: list[Any] = [
        para(tournament.name, st["title"]),
        para(_heading(tournament), st["meta"]),
        para(round_name + " · " + _("Seating"), st["big"]),
    ]
    if quality:
        story.append(para(quality, st["meta"]))
    story.append(Spacer(1, 0.4 * cm))
    data: list[list[Any]] = [[_("Player"), _("Table"), _("Seat")]]
    data += [
        [line.player, str(line.table), str(line.seat)]
        if line.table
        else [line.player, _("bye"), "–"]
        for line in ordered
    ]
    grid = Table(data, colWidths=[10 * cm, 3 * cm, 3 * cm], repeatRows=1, hAlign="LEFT")
    grid.setStyle(
        grid_style(
            ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 12),
            ("FONT", (1, 1), (1, -1), "Helvetica-Bold", 16),
            ("ALIGN", (1, 0), (-1, -1), "CENTER"),
            ("TOPPADDING", (0, 0), (-1, -1), 5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 5),
            size=14,
            rule=0.4,
        )
    )
    story.append(grid)
    return build(story, title=f"{tournament.name} · {round_name}", author=tournament.club.name)


# --- standings and bracket ---------------------------------------------------------------------


def _tie_breaks(st: dict[str, ParagraphStyle]) -> Paragraph:
    return para(
        _(
            "Ties are broken by the total, then the best round, then the last round played, "
            "then the name."
        ),
        st["small"],
    )


def _cut_paragraphs(rows: Sequence[StandingRow], st: dict[str, ParagraphStyle]) -> list[Any]:
    """What the ranking says about a championship's cuts (nothing without one)."""
    summary = cut_summary(list(rows))
    if not summary:
        return []
    lines = [
        _(
            "Stage %(stage)s of the championship (cuts after round %(rounds)s): the players still "
            "in are ranked first; those cut are ranked below them, in their order at their cut."
        )
        % {"stage": summary.stage, "rounds": ", ".join(str(n) for n in summary.cut_after)}
    ]
    if summary.counted_from > 1:
        lines.append(
            _(
                "Scores restarted from zero: the totals of the players still in count from "
                "round %(n)s."
            )
            % {"n": summary.counted_from}
        )
    else:
        lines.append(_("Scores carried over: the totals count every round."))
    return [para(line, st["meta"]) for line in lines]


def render_standings(
    *,
    tournament: Tournament,
    rows: Sequence[StandingRow],
    round_names: Sequence[str],
    teams: Sequence[TeamRow] = (),
    series_label: str = "",
    substitutes: Sequence[StandingRow] = (),
) -> bytes:
    """The ranking with every round's score ("bye" for a bye) and the total; team standings
    when there are teams; the substitutes, ranked apart, when there are some.
    ``series_label``: the rows are that series' players, ranked among themselves."""
    st = styles(title_left=True)
    many = len(round_names) > 6
    pagesize = landscape(A4) if many else A4
    usable = pagesize[0] - 2 * _MARGIN
    has_teams = any(r.team for r in rows)
    story: list[Any] = [
        *_standings_heading(tournament, series_label, st),
    ]
    story += _cut_paragraphs(rows, st)
    # Penalties are already out of their rounds' points; their own column says how many.
    has_penalties = any(r.penalties for r in rows)
    numbers = [*round_names, *([_("Penalties")] if has_penalties else [])]
    head = [_("Rank"), _("Player"), *([_("Team")] if has_teams else []), *numbers, _("Total")]
    data: list[list[Any]] = [[para(h, st["head"]) for h in head]]
    for row in rows:
        rounds = ["–" if r is None else str(bye_cell(r, bye)) for r, bye in row.cells]
        if has_penalties:
            rounds.append(f"−{row.penalties}" if row.penalties else "")
        team = [para(row.team, st["cell"])] if has_teams else []
        name: Any = para(row.player.label, st["cell"])
        if row.eliminated_after is not None:
            out = _("eliminated after round %(n)s") % {"n": row.eliminated_after}
            name = [name, para(out, st["small"])]
        data.append([f"{row.rank}.", name, *team, *rounds, str(row.total)])
    fixed = [fitting_width(_("Rank"), size=9, least=1.2 * cm), 5.0 * cm]
    fixed += [3.5 * cm] if has_teams else []
    number_w = min(2.2 * cm, (usable - sum(fixed)) / max(1, len(numbers) + 1))
    number_w = max(number_w, fitting_width(*numbers, _("Total"), size=9))
    grid = Table(
        data,
        colWidths=[*fixed, *[number_w] * (len(numbers) + 1)],
        repeatRows=1,
        hAlign="LEFT",
    )
    grid.setStyle(
        grid_style(
            ("FONT", (-1, 1), (-1, -1), "Helvetica-Bold", 10),
            ("ALIGN", (len(fixed), 1), (-1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            size=9,
        )
    )
    story += [grid, Spacer(1, 0.3 * cm), _tie_breaks(st)]
    if teams:
        story += [Spacer(1, 0.5 * cm), para(_("Teams"), st["h2"])]
        team_data: list[list[Any]] = [[_("Rank"), _("Team"), _("Players"), _("Total")]]
        team_data += [
            [
                f"{t.rank}.",
                para(t.name, st["cell"]),
                para(", ".join(t.members), st["cell"]),
                t.total,
            ]
            for t in teams
        ]
        team_grid = Table(
            team_data, colWidths=[1.2 * cm, 4.5 * cm, 9 * cm, 2.2 * cm], hAlign="LEFT"
        )
        team_grid.setStyle(
            grid_style(
                ("ALIGN", (-1, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                size=9,
            )
        )
        story.append(team_grid)
    if substitutes:
        story += [Spacer(1, 0.5 * cm), para(_("Substitutes"), st["h2"])]
        sub_data: list[list[Any]] = [
            [para(h, st["head"]) for h in (_("Rank"), _("Player"), *round_names, _("Total"))]
        ]
        sub_data += [
            [
                f"{row.rank}.",
                para(row.player.label, st["cell"]),
                *["–" if r is None else str(r) for r in row.rounds],
                str(row.total),
            ]
            for row in substitutes
        ]
        sub_grid = Table(
            sub_data,
            colWidths=[fixed[0], 5.0 * cm, *[number_w] * (len(round_names) + 1)],
            hAlign="LEFT",
        )
        sub_grid.setStyle(grid_style(("ALIGN", (2, 1), (-1, -1), "RIGHT"), size=9))
        story.append(sub_grid)
    return build(
        story,
        title=f"{tournament.name} · {_('Standings')}",
        author=tournament.club.name,
        pagesize=pagesize,
    )


def render_duplicate_standings(
    *, tournament: Tournament, rows: Sequence[DuplicateRow], series_label: str = ""
) -> bytes:
    """A duplicate tournament's ranking: each player's boards, matchpoints out of the maximum
    and percentage (or total difference from the boards' averages), tops and penalties."""
    st = styles(title_left=True)
    has_penalties = any(r.penalties for r in rows)
    average = tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE
    head, cells = duplicate_columns(average=average, penalties=has_penalties)
    story: list[Any] = [
        *_standings_heading(tournament, series_label, st),
        para(str(tournament.get_duplicate_method_display()), st["meta"]),
    ]
    data: list[list[Any]] = [[para(h, st["head"]) for h in head]]
    for row in rows:
        data.append(
            [f"{row.rank}.", para(row.player.label, st["cell"]), *[str(c) for c in cells(row)]]
        )
    usable = A4[0] - 2 * _MARGIN
    fixed = [fitting_width(_("Rank"), size=9, least=1.2 * cm), 5.5 * cm]
    number_w = (usable - sum(fixed)) / max(1, len(head) - 2)
    grid = Table(data, colWidths=[*fixed, *[number_w] * (len(head) - 2)], repeatRows=1)
    grid.hAlign = "LEFT"
    grid.setStyle(
        grid_style(
            ("ALIGN", (2, 1), (-1, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            size=9,
        )
    )
    story += [grid, Spacer(1, 0.3 * cm), para(_duplicate_rule(average), st["small"])]
    return build(
        story,
        title=f"{tournament.name} · {_('Standings')}",
        author=tournament.club.name,
    )


def _duplicate_rule(average: bool) -> str:
    if average:
        return _(
            "On each board a score is compared with the scores made at the same direction: "
            "its difference from their average. The total is the sum over the boards, rounded "
            "once; ties are broken by the number of tops. Penalties are taken off the total."
        )
    return _(
        "On each board a score is compared with the scores made at the same direction: 2 "
        "matchpoints for each one beaten, 1 for a tie. The percentage is of the maximum the "
        "player could have had; ties are broken by the number of tops. Penalties are "
        "matchpoints taken off."
    )


def render_bracket(
    *, tournament: Tournament, bracket: Bracket, stage_names: Sequence[str]
) -> bytes:
    """Every stage's tables, each player's score there and who went through; the final ranking."""
    st = styles(title_left=True)
    story: list[Any] = [
        para(tournament.name, st["title"]),
        para(_heading(tournament), st["meta"]),
    ]
    through = _("through")
    for name, stage in zip(stage_names, bracket.stages, strict=True):
        title = name + (" · " + _("Final") if stage.final else "")
        if not stage.complete:
            title += " · " + _("being played")
        block: list[Any] = [para(title, st["h2"])]
        for table in stage.tables:
            data: list[list[Any]] = [[_("Table %(n)s") % {"n": table.number}, "", ""]]
            data += [
                [
                    para(seat.player.label, st["cell"]),
                    str(seat.points),
                    through if seat.qualified else "",
                ]
                for seat in table.seats
            ]
            grid = Table(data, colWidths=[6 * cm, 2.2 * cm, 2.6 * cm], hAlign="LEFT")
            grid.setStyle(
                grid_style(
                    ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 10),
                    ("SPAN", (0, 0), (-1, 0)),
                    ("ALIGN", (1, 1), (1, -1), "RIGHT"),
                    ("FONT", (2, 1), (2, -1), "Helvetica-Bold", 9),
                    size=9,
                )
            )
            block += [grid, Spacer(1, 0.25 * cm)]
        story.append(KeepTogether(block))
    if bracket.ranking:
        story.append(para(_("Final ranking"), st["h2"]))
        data = [[f"{rank}.", para(player.label, st["cell"])] for rank, player in bracket.ranking]
        ranking = Table(data, colWidths=[1.2 * cm, 7 * cm], hAlign="LEFT")
        ranking.setStyle(grid_style(size=10, head=False))
        story.append(ranking)
    elif not bracket.stages:
        story.append(para(_("No stage has been seated yet."), st["meta"]))
    return build(story, title=f"{tournament.name} · {_('Bracket')}", author=tournament.club.name)


# --- player cards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerCard:
    """One player's card: handed to him at check-in, kept to himself."""

    player: str
    pin: str
    link: str  # his personal link, printed as a QR code: it proves his phone as him


CARDS_ACROSS, CARDS_DOWN = 2, 4  # eight cards on an A4 page, cut along the dashed lines


def render_player_cards(*, tournament: Tournament, cards: Sequence[PlayerCard]) -> bytes:
    """Eight cards a page, one per player: the tournament, his name, his PIN and the QR code of
    his personal link, with what each is for. Nothing on a card is printed anywhere else a
    player of his table could read it."""
    st = styles(title_left=True)
    width, height = A4
    # The page's frame keeps 6 points of padding on each side: the grid fits inside it.
    cell_w = (width - 2 * _MARGIN - 12) / CARDS_ACROSS
    cell_h = (height - 2 * _MARGIN - 13) / CARDS_DOWN
    qr_size = 3.4 * cm
    name_style = ParagraphStyle("card-name", parent=st["big"], fontSize=15, leading=18)
    pin_style = ParagraphStyle("card-pin", parent=st["big"], fontSize=13, leading=16)
    heading = _heading(tournament)

    def card(item: PlayerCard) -> Table:
        left = [
            para(tournament.name, st["head"]),
            para(heading, st["small"]),
            Spacer(1, 0.25 * cm),
            para(item.player, name_style),
            para(_("PIN %(pin)s") % {"pin": item.pin}, pin_style),
            Spacer(1, 0.2 * cm),
            para(
                _(
                    "Scan the code with your own phone: at your table it then confirms deals "
                    "as you, with no PIN to type. Or type your PIN when you confirm."
                ),
                st["small"],
            ),
            para(_("Keep this card to yourself."), st["small"]),
        ]
        right = [_qr(item.link, qr_size)]
        inner = Table(
            [[left, right]],
            colWidths=[cell_w - qr_size - 0.9 * cm, qr_size + 0.3 * cm],
        )
        inner.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 2),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return inner

    story: list[Any] = []
    per_page = CARDS_ACROSS * CARDS_DOWN
    for start in range(0, len(cards), per_page):
        if start:
            story.append(PageBreak())
        page = [card(item) for item in cards[start : start + per_page]]
        page += [""] * (per_page - len(page))
        rows = [page[i : i + CARDS_ACROSS] for i in range(0, per_page, CARDS_ACROSS)]
        grid = Table(rows, colWidths=[cell_w] * CARDS_ACROSS, rowHeights=[cell_h] * CARDS_DOWN)
        grid.setStyle(
            TableStyle(
                [
                    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ("GRID", (0, 0), (-1, -1), 0.4, GRID, None, (2, 2)),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0.3 * cm),
                ]
            )
        )
        story.append(grid)
    if not cards:
        story.append(para(_("No player is registered."), st["meta"]))
    title = f"{tournament.name} · " + _("Player cards")
    return build(story, title=title, author=tournament.club.name)
