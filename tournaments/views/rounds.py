"""Rounds (séances), or knockout stages: seating the next one, its table plan with the repeated
meetings the seating could not avoid, swapping two players before the first deal, starting the
countdown, closing a complete round, and the sheets printed for it."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Player
from tarot_scores.core.access import login_first
from tarot_scores.core.collation import by_name, name_key
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.prepared import pdf_later
from tarot_scores.games.models import Seat
from tournaments import errors as tournament_errors
from tournaments import rules as tournament_rules
from tournaments import words
from tournaments.duplicate import DIRECTIONS
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for
from tournaments.forms import SubstituteForm, SwapForm
from tournaments.models import Entry, Penalty, Round, Substitution, Table, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.printing import pdf
from tournaments.printing.jobs import TABLE_SHEETS
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState
from tournaments.standings import selectors as standings_selectors
from tournaments.views.access import (
    countdown,
    entry_url,
    managed,
    qr_svg,
    readable,
    round_name,
    round_of,
)
from tournaments.words import direction_name

TEMPLATES = "tournaments/"


def _round_url(tournament_id: int, number: int) -> str:
    return reverse("tournaments:round", args=[tournament_id, number])


@require_POST
def round_seat(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Seat the next round (or knockout stage) from the players checked in (or qualified)."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:detail", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    try:
        round_ = round_services.round_seat_next(
            tournament=tournament, by=request.user, byes=request.POST.get("byes") == "1"
        )
    except tournament_errors.TournamentError as error:
        messages.error(request, str(error))
        return redirect("tournaments:detail", tournament_id=tournament.pk)
    messages.success(
        request,
        _("%(round)s is seated: print the table sheets, then start it.")
        % {"round": round_name(tournament, round_.number)},
    )
    return redirect(_round_url(tournament.pk, round_.number))


@dataclass(frozen=True)
class TableCard:
    state: TableState
    seats: list[tuple[int, Player]]  # seat numbers from 1; seat 1 deals first
    entry_url: str  # organisers only
    qr: SafeString | str
    penalties: list[Penalty] = field(default_factory=list)  # its players' live ones this round
    # A word beside each seat: its direction at a duplicate table (where boards, not turns,
    # say who deals); none elsewhere, where seat 1 deals first.
    directions: tuple[str, ...] = ()

    @property
    def seat_rows(self) -> list[tuple[int, Player, str]]:
        notes = self.directions
        return [(s, p, notes[s - 1] if s <= len(notes) else "") for s, p in self.seats]


def _cards(
    request: HtmxHttpRequest,
    round_: Round,
    *,
    organiser: bool,
    substitutions: list[Substitution] | None = None,
) -> list[TableCard]:
    """The round's tables; each lists the live penalties of its players, those seated now and
    those a substitute replaced there (``substitutions``: the round's, read if not given)."""
    if substitutions is None:
        substitutions = people_selectors.round_substitutions(round_=round_)
    replaced: dict[int, list[int]] = defaultdict(list)
    for done in substitutions:
        replaced[done.table_id].append(done.replaced.player_id)
    cards = []
    given: dict[int, list[Penalty]] = defaultdict(list)
    for penalty in standings_selectors.penalties_for(
        tournament=round_.tournament, round_=round_, live_only=True
    ):
        given[penalty.entry.player_id].append(penalty)
    directions = (
        tuple(direction_name(d) for d in DIRECTIONS)
        if format_for(round_.tournament).compares_boards
        else ()
    )
    for state in round_selectors.round_tables(round_=round_):
        url = entry_url(request, state.table) if organiser else ""
        title = _("Table %(n)s: enter the deals") % {"n": state.table.number}
        cards.append(
            TableCard(
                state,
                list(enumerate(state.players, start=1)),
                url,
                qr_svg(url, title) if organiser else "",
                [
                    p
                    for pid in [
                        *(player.pk for player in state.players),
                        *replaced.get(state.table.pk, []),
                    ]
                    for p in given.get(pid, [])
                ],
                directions,
            )
        )
    return cards


def _swap_form(cards: list[TableCard], data: object = None) -> SwapForm:
    where = [
        (player, _("table %(t)s, seat %(s)s") % {"t": card.state.table.number, "s": seat})
        for card in cards
        for seat, player in card.seats
    ]
    return SwapForm(data, players=sorted(where, key=lambda pw: name_key(pw[0].label)))


def substitute_form(round_: Round, data: object = None) -> SubstituteForm:
    """The players seated in the round (with their table) and the club's players not
    registered in the tournament, who may take over a seat (two queries)."""
    tournament = round_.tournament
    where = dict(
        Seat.objects.filter(game__tournament_table__round=round_).values_list(
            "player_id", "game__tournament_table__number"
        )
    )
    seated = sorted(
        (
            (entry, _("table %(t)s") % {"t": where[entry.player_id]})
            for entry in Entry.objects.filter(
                tournament=tournament, player_id__in=list(where)
            ).select_related("player")
        ),
        key=lambda ew: name_key(ew[0].player.label),
    )
    club_players = by_name(
        Player.objects.filter(clubs=tournament.club_id).exclude(entries__tournament=tournament),
        lambda p: p.label,
    )
    return SubstituteForm(data, seated=seated, club_players=club_players)


def _round_context(
    request: HtmxHttpRequest,
    tournament: Tournament,
    round_: Round,
    swap_form: SwapForm | None,
    *,
    substitute: SubstituteForm | None = None,
) -> dict[str, object]:
    organiser = permissions.is_organiser(request, tournament.club)
    substitutions = people_selectors.round_substitutions(round_=round_)
    cards = _cards(request, round_, organiser=organiser, substitutions=substitutions)
    started = any(c.state.entered for c in cards)
    complete = bool(cards) and all(c.state.complete for c in cards)
    last = tournament_rules.next_round_number(tournament) == round_.number + 1
    # A duplicate tournament's seats are the movement's: no swap, no substitute offered.
    movement_seats = duplicate_format.seats_fixed_refusal(tournament) is not None
    swappable = (
        organiser and round_.status == Round.Status.SEATED and not started and not movement_seats
    )
    return {
        "tournament": tournament,
        "round": round_,
        "name": round_name(tournament, round_.number),
        "cards": cards,
        "repeats": round_selectors.round_repeats(round_=round_),
        "seating_quality": words.seating_quality(
            round_selectors.round_seating_quality(round_=round_)
        ),
        "is_organiser": organiser,
        "countdown": countdown(tournament, round_),
        "complete": complete,
        "entered": sum(c.state.entered for c in cards),
        "goal": sum(c.state.goal for c in cards),
        "swap_form": (swap_form or _swap_form(cards)) if swappable else None,
        "can_start": organiser and round_.status == Round.Status.SEATED,
        "can_close": organiser and round_.status != Round.Status.CLOSED and complete,
        # Time is up before every table finished: the organiser may close the round now.
        "close_now": _close_now(cards)
        if organiser and round_.status == Round.Status.PLAYING and not complete
        else None,
        "can_seat_next": organiser
        and last
        and round_services.next_round_refusal(tournament) is None,
        "knockout": format_for(tournament).has_bracket,
        "previous": round_.number - 1 if round_.number > 1 else None,
        "next": None if last else round_.number + 1,
        "clashes": people_selectors.round_clashes(round_=round_),
        "byes": people_selectors.round_byes(round_=round_),
        "substitutions": substitutions,
        "substitute_form": (substitute or substitute_form(round_))
        if organiser and round_.status != Round.Status.CLOSED and not movement_seats
        else None,
    }


@dataclass(frozen=True)
class CloseNow:
    """What closing the round now would do, said before the organiser confirms it."""

    unfinished: int  # tables short of deals, or with deals waiting
    missing: int  # deals not entered: they score nothing
    pending: int  # deals waiting for the other side: confirmed as entered
    disputed: int  # deals a referee must settle first: closing is refused until then


def _close_now(cards: list[TableCard]) -> CloseNow:
    states = [card.state for card in cards]
    return CloseNow(
        unfinished=sum(1 for s in states if not s.complete),
        missing=sum(max(s.goal - s.entered, 0) for s in states),
        pending=sum(s.pending for s in states),
        disputed=sum(s.disputed for s in states),
    )


@require_safe
def round_detail(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """The table plan: players in seat order, each table's progress; for organisers, each
    table's private entry link and QR code."""
    tournament = readable(request, tournament_id)
    round_ = round_of(tournament, number)
    context = _round_context(request, tournament, round_, None)
    return render(request, TEMPLATES + "round.html", context)


def _round_write(
    request: HtmxHttpRequest, tournament_id: int, number: int
) -> tuple[Tournament, Round] | HttpResponse:
    if not request.user.is_authenticated:
        return login_first(request, _round_url(tournament_id, number))
    tournament = managed(request, tournament_id)
    return tournament, round_of(tournament, number)


@require_POST
def round_table_new_link(
    request: HtmxHttpRequest, tournament_id: int, number: int, table_number: int
) -> HttpResponse:
    """Organisers: give a table a new private link; the old one stops at once."""
    found = _round_write(request, tournament_id, number)
    if isinstance(found, HttpResponse):
        return found
    _tournament, round_ = found
    table = get_object_or_404(Table, round=round_, number=table_number)
    round_services.table_link_renew(table=table)
    messages.success(
        request,
        _("Table %(n)s has a new link: the old one no longer works.") % {"n": table.number},
    )
    return redirect(_round_url(tournament_id, number) + f"#table-{table.number}")


@require_POST
def round_swap(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Swap two players' seats, before the round's first deal."""
    found = _round_write(request, tournament_id, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, round_ = found
    cards = _cards(request, round_, organiser=False)
    form = _swap_form(cards, request.POST)
    if form.is_valid():
        first, second = form.chosen()
        try:
            round_services.round_swap(round_=round_, first=first, second=second)
        except tournament_errors.TournamentError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("%(a)s and %(b)s swapped seats.") % {"a": first.label, "b": second.label},
            )
        return redirect(_round_url(tournament.pk, round_.number))
    context = _round_context(request, tournament, round_, form)
    return render(request, TEMPLATES + "round.html", context, status=400)


@require_POST
def round_start(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Start the round: its countdown runs from now."""
    found = _round_write(request, tournament_id, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, round_ = found
    try:
        round_services.round_start(round_=round_)
    except tournament_errors.TournamentError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            ngettext(
                "%(round)s has started: %(minutes)s minute to play.",
                "%(round)s has started: %(minutes)s minutes to play.",
                tournament.round_minutes,
            )
            % {"round": round_name(tournament, number), "minutes": tournament.round_minutes},
        )
    return redirect(_round_url(tournament.pk, number))


@require_POST
def round_close(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Close a complete round: its tables' links take no more deals."""
    found = _round_write(request, tournament_id, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, round_ = found
    try:
        round_services.round_close(round_=round_)
    except tournament_errors.TournamentError as error:
        messages.error(request, str(error))
        return redirect(_round_url(tournament.pk, number))
    return _closed(request, tournament, number)


def _closed(request: HtmxHttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """After a round closed: the final ranking if it was the last one, else the round."""
    tournament.refresh_from_db(fields=["status"])
    if tournament.status == Tournament.Status.FINISHED:
        messages.success(request, _("The last round is closed: here is the final ranking."))
        return redirect("tournaments:standings", tournament_id=tournament.pk)
    messages.success(request, _("%(round)s is closed.") % {"round": round_name(tournament, number)})
    return redirect(_round_url(tournament.pk, number))


@require_POST
def round_close_now(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Close a round before every table has finished, once the organiser has confirmed it
    (``confirm``: the confirmation's button); what happens to the unfinished tables is
    ``rounds.services.round_close_now``'s."""
    found = _round_write(request, tournament_id, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, round_ = found
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("The round was not closed: confirm it with the button."))
        return redirect(_round_url(tournament.pk, number))
    try:
        round_services.round_close_now(round_=round_, by=request.user)
    except tournament_errors.TournamentError as error:
        messages.error(request, str(error))
        return redirect(_round_url(tournament.pk, number))
    return _closed(request, tournament, number)


# --- printed sheets ----------------------------------------------------------------------------


@require_safe
def table_sheets_pdf(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponseBase:
    """One page per table, to fill in by hand; its QR code is the table's private link, so
    only organisers print it."""
    if not request.user.is_authenticated:
        return login_first(request, _round_url(tournament_id, number))
    tournament = managed(request, tournament_id)
    round_ = round_of(tournament, number)  # 404 for a round that does not exist
    site = request.build_absolute_uri("/")
    language = translation.get_language()
    # Drawn by the worker: about 0.2 s a table, 48 s at 250 (docs/performance.md, "Heavy PDFs").
    # Tapped again, the same drawing answers until the seating or a table's link changes.
    return pdf_later(
        request,
        kind=TABLE_SHEETS,
        args={"tournament_id": tournament.pk, "number": number, "site": site, "language": language},
        filename=f"tournament-{tournament.pk}-round-{number}-tables.pdf",
        key=f"{TABLE_SHEETS}:{round_.pk}:{language}:{_seating_digest(round_, site)}",
    )


def _seating_digest(round_: Round, site: str) -> str:
    """What a round's table sheets print, in a few characters: who sits where, each table's
    link, and the address the links start with (one query)."""
    seats = Seat.objects.filter(game__tournament_table__round=round_).order_by(
        "game__tournament_table__number", "position"
    )
    printed = list(
        seats.values_list(
            "game__tournament_table__number",
            "game__tournament_table__token",
            "position",
            "player_id",
            "player__name",
            "player__nickname",
        )
    )
    return hashlib.sha256(repr((site, printed)).encode()).hexdigest()[:32]


@require_safe
def seating_pdf(request: HtmxHttpRequest, tournament_id: int, number: int) -> FileResponse:
    """The list to pin on the wall: every player, alphabetically, with table and seat."""
    tournament = readable(request, tournament_id)
    round_ = round_of(tournament, number)
    lines = [
        pdf.SeatingLine(player.label, state.table.number, seat)
        for state in round_selectors.round_tables(round_=round_)
        for seat, player in enumerate(state.players, start=1)
    ]
    data = pdf.render_seating_list(
        tournament=tournament,
        round_name=round_name(tournament, number),
        lines=lines,
        byes=[bye.entry.player.label for bye in people_selectors.round_byes(round_=round_)],
        quality=words.seating_quality(round_selectors.round_seating_quality(round_=round_)),
    )
    return pdf_response(data, f"tournament-{tournament.pk}-round-{number}-seating.pdf")
