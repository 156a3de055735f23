"""A duplicate tournament's boards and movement: each board's traveller (every table's result
on it, with the comparison of each seat) as a page and in print, the movement (which boards
each table plays in each round, who sits at each direction) as a page and as the printed
sheet, and the labels of the boards (étuis). Read like the standings (``readable``); a
tournament that is not duplicate has none of them (404), nor has a board beyond the last."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tarot_scores.clubs import permissions
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.pdf import pdf_response
from tarot_scores.games.words import CONTRACT_SHORT
from tournaments import words as tournament_words
from tournaments.duplicate import DIRECTIONS, Movement, MovementError, board_dealer
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for
from tournaments.models import Entry, Tournament
from tournaments.printing import duplicate as duplicate_pdf
from tournaments.standings import duplicate as duplicate_results
from tournaments.views.access import readable

TEMPLATES = "tournaments/"


def _duplicate(request: HtmxHttpRequest, tournament_id: int) -> Tournament:
    tournament = readable(request, tournament_id)
    if not format_for(tournament).compares_boards:
        raise Http404
    return tournament


def _movement_or_none(tournament: Tournament) -> Movement | None:
    try:
        return duplicate_results.movement_of(tournament)
    except MovementError:
        return None


def _unseatable_reason(tournament: Tournament) -> str | None:
    """Why the checked-in players cannot be seated in a duplicate session, or None."""
    checked_in = Entry.objects.filter(tournament=tournament, checked_in=True).count()
    refusal = duplicate_format.seating_refusal(tournament, checked_in)
    return str(refusal) if refusal else None


def _movement_or_404(tournament: Tournament) -> Movement:
    plan = _movement_or_none(tournament)
    if plan is None:
        raise Http404
    return plan


def _board_or_404(tournament: Tournament, board: int) -> Movement:
    plan = _movement_or_404(tournament)
    if not 1 <= board <= plan.boards:
        raise Http404
    return plan


@dataclass(frozen=True)
class ShownSeat:
    player: str
    score: int
    matchpoints: int
    difference: int


@dataclass(frozen=True)
class ShownLine:
    """A table's line of a traveller, in words."""

    table: int
    contract: str
    taker: str
    bouts: str
    points: str
    seats: list[ShownSeat]  # North, East, South, West


def _shown(sheet: duplicate_results.BoardTraveller) -> list[ShownLine]:
    return [
        ShownLine(
            table=line.table,
            contract=str(CONTRACT_SHORT.get(line.contract or "", _("All passed"))),
            taker="" if line.taker is None else tournament_words.direction_name(line.taker),
            bouts="" if line.bouts is None else str(line.bouts),
            points="" if line.points is None else formats.number_format(line.points),
            seats=[
                ShownSeat(
                    "" if seat.player is None else seat.player.label,
                    seat.score,
                    seat.matchpoints,
                    seat.shown_difference,
                )
                for seat in line.seats
            ],
        )
        for line in sheet.tables
    ]


def _directions() -> list[str]:
    return [tournament_words.direction_name(d) for d in DIRECTIONS]


def _title(tournament: Tournament) -> str:
    return f"{tournament.name} · {tournament.club.name}"


@require_safe
def board(request: HtmxHttpRequest, tournament_id: int, board: int) -> HttpResponse:
    """Board ``board``'s traveller: each table's contract, taker, bouts, card points and the
    four seats' players, scores and matchpoints (or differences from the average)."""
    tournament = _duplicate(request, tournament_id)
    plan = _board_or_404(tournament, board)
    found = duplicate_results.travellers(tournament=tournament, board=board)
    sheet = found[0] if found else None
    average = tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE
    context = {
        "tournament": tournament,
        "board": board,
        "label": duplicate_pdf.board_label_text(board, board_dealer(board)),
        "sheet": sheet,
        "lines": _shown(sheet) if sheet else [],
        "maximum": sheet.tables[0].maximum if sheet else 0,
        "directions": _directions(),
        "average": average,
        "previous": board - 1 if board > 1 else None,
        "next": board + 1 if board < plan.boards else None,
        "boards": range(1, plan.boards + 1),
        "is_organiser": permissions.is_organiser(request, tournament.club),
    }
    return render(request, TEMPLATES + "board.html", context)


def _travellers_pdf(tournament: Tournament, found: list[duplicate_results.BoardTraveller]) -> bytes:
    """The travellers printed with the tournament's comparison: matchpoints, or each seat's
    difference from the board's average."""
    differences = None
    if tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE:
        differences = {
            (sheet.board, line.table): [seat.shown_difference for seat in line.seats]
            for sheet in found
            for line in sheet.tables
        }
    return duplicate_pdf.render_travellers(
        [t.pure for t in found],
        title=_title(tournament),
        author=tournament.club.name,
        differences=differences,
    )


@require_safe
def board_pdf(request: HtmxHttpRequest, tournament_id: int, board: int) -> FileResponse:
    """Board ``board``'s traveller, printed (a page saying only its title if nobody played
    it yet)."""
    tournament = _duplicate(request, tournament_id)
    _board_or_404(tournament, board)
    found = duplicate_results.travellers(tournament=tournament, board=board)
    data = _travellers_pdf(tournament, found)
    return pdf_response(data, f"tournament-{tournament.pk}-board-{board}.pdf")


@require_safe
def travellers_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    """Every board played so far, one page each."""
    tournament = _duplicate(request, tournament_id)
    found = duplicate_results.travellers(tournament=tournament)
    data = _travellers_pdf(tournament, found)
    return pdf_response(data, f"tournament-{tournament.pk}-travellers.pdf")


@require_safe
def movement(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Each round: every table's boards, the table they come from and the player at each
    direction (by name once round 1 is seated and the numbers drawn)."""
    tournament = _duplicate(request, tournament_id)
    plan = _movement_or_none(tournament)
    names = duplicate_results.movement_names(tournament=tournament) if plan else {}
    context = {
        "tournament": tournament,
        "plan": plan,
        "rounds": duplicate_results.movement_lines(plan, names) if plan else [],
        "drawn": bool(names),
        # Before the draw the movement follows the players checked in: say now when round 1
        # could not be seated with them (not a multiple of 4, too few, too many rounds).
        "unseatable": None if names else _unseatable_reason(tournament),
        "directions": _directions(),
        "repeats": len(plan.repeated_meetings()) if plan else 0,
        "rule": tournament_words.movement_rule(plan.strides) if plan else "",
        "is_organiser": permissions.is_organiser(request, tournament.club),
    }
    return render(request, TEMPLATES + "movement.html", context)


@require_safe
def movement_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    """The movement sheet: one page per round, the players named once drawn."""
    tournament = _duplicate(request, tournament_id)
    plan = _movement_or_404(tournament)
    names = duplicate_results.movement_names(tournament=tournament)
    data = duplicate_pdf.render_movement_sheet(
        plan,
        title=_title(tournament),
        author=tournament.club.name,
        names={number: player.label for number, player in names.items()},
    )
    return pdf_response(data, f"tournament-{tournament.pk}-movement.pdf")


@require_safe
def board_labels_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    """The labels to stick on the boards: number, dealer, the table each starts at."""
    tournament = _duplicate(request, tournament_id)
    plan = _movement_or_404(tournament)
    data = duplicate_pdf.render_board_labels(
        plan, title=_title(tournament), author=tournament.club.name
    )
    return pdf_response(data, f"tournament-{tournament.pk}-board-labels.pdf")
