"""Results: the standings (with team standings and the tie-breaks explained), the projector view
that refreshes itself, the knockout bracket, and their CSV and PDF exports. Each page reads a
fixed number of queries, whatever the number of deals."""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tarot_scores.clubs import permissions
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.results import tournament_results_key
from tournaments import exports, pdf, selectors
from tournaments.models import Entry, Round, Tournament
from tournaments.views.access import countdown, is_knockout, readable, round_name

TEMPLATES = "tournaments/"
PROJECTOR_SECONDS = 10


def _results(tournament: Tournament, user: Any = None) -> dict[str, Any]:
    rows = selectors.standings_for(tournament=tournament)
    numbers = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    has_teams = any(r.team for r in rows)
    return {
        "tournament": tournament,
        "rows": rows,
        "round_numbers": numbers,
        "round_names": [round_name(tournament, n) for n in numbers],
        "round_headers": [(round_name(tournament, n), _("R%(n)s") % {"n": n}) for n in numbers],
        "teams": selectors.team_standings_for(tournament=tournament, rows=rows)
        if has_teams
        else [],
        "has_teams": has_teams,
        "knockout": is_knockout(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "is_organiser": permissions.is_organiser(user, tournament.club),
        "confirming": tournament.require_confirmation,
        "waiting": selectors.deals_waiting_count(tournament=tournament),
    }


RESULTS_SECONDS = 600


def _results_key(request: HttpRequest, tournament: Tournament, page: str, slot: int = 0) -> str:
    """Results pages change only with the club's results version, which every deal, round and
    registration write bumps in its transaction: a key that names it is never stale."""
    return tournament_results_key(
        club=tournament.club,
        tournament_id=tournament.pk,
        page=page,
        language=get_language(),
        htmx=bool(getattr(request, "htmx", False)),
        slot=slot,
    )


@require_GET
def standings(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = readable(request, tournament_id)
    key = _results_key(request, tournament, "standings")
    html = cache.get(key)
    if html is None:
        html = render_to_string(TEMPLATES + "_standings_block.html", _results(tournament))
        cache.set(key, html, RESULTS_SECONDS)
    context = {
        "tournament": tournament,
        "standings_html": mark_safe(html),
        "knockout": is_knockout(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "is_organiser": permissions.is_organiser(request, tournament.club),
    }
    return render(request, TEMPLATES + "standings.html", context)


@require_GET
def standings_csv(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = readable(request, tournament_id)
    results = _results(tournament)
    return exports.StandingsCsv(
        tournament, results["rows"], results["round_names"], results["teams"]
    ).response()


@require_GET
def standings_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    tournament = readable(request, tournament_id)
    results = _results(tournament)
    data = pdf.render_standings(
        tournament=tournament,
        rows=results["rows"],
        round_names=results["round_names"],
        teams=results["teams"],
    )
    return pdf_response(data, f"tournament-{tournament.pk}-standings.pdf")


# Two columns of eight rows: what a 1920x1080 screen shows whole, in type read from the back
# of the room, with the round's countdown and the tables still playing above.
PROJECTOR_ROWS = 16


def _pinned_page(request: HttpRequest) -> int | None:
    """``?page=2`` keeps the board on one page of the ranking (a link, or without JavaScript);
    anything else lets it page through by itself."""
    asked = request.GET.get("page", "")
    return int(asked) if asked.isdigit() and int(asked) > 0 else None


@require_GET
def projector(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Big type for a wall: standings, the tables still playing and the round's countdown.
    htmx fetches the board every 10 s; without JavaScript the page reloads itself. A ranking
    longer than a screen shows its next page at each refresh, unless a page is asked for."""
    tournament = readable(request, tournament_id)
    pinned = _pinned_page(request)
    if pinned is not None:
        # No page past the registrations' last (?page=999 is no new cache entry), and none to
        # pin when the whole ranking fits one screen.
        most = -(-Entry.objects.filter(tournament=tournament).count() // PROJECTOR_ROWS)
        pinned = min(pinned, most) if most > 1 else None
    slot = int(time.time() // PROJECTOR_SECONDS)
    # A standalone page with no form: cached whole, per refresh period for the countdown.
    name = "projector" if pinned is None else f"projector-page-{pinned}"
    key = _results_key(request, tournament, name, slot)
    page = cache.get(key)
    if page is None:
        page = _projector(request, tournament, pinned=pinned, slot=slot).content
        cache.set(key, page, RESULTS_SECONDS)
    return HttpResponse(page)


def _projector(
    request: HtmxHttpRequest, tournament: Tournament, *, pinned: int | None, slot: int
) -> HttpResponse:
    context = _results(tournament)
    current = Round.objects.filter(tournament=tournament).order_by("-number").first()
    playing: list[selectors.TableState] = []
    if current is not None:
        current.tournament = tournament
        if current.status != Round.Status.CLOSED:
            playing = [s for s in selectors.round_tables(round_=current) if not s.complete]
    rows = context["rows"]
    pages = max(1, -(-len(rows) // PROJECTOR_ROWS))
    # The refresh that brings new scores also turns the page: the same 10-second slot the
    # cache is keyed on, so every screen and worker shows the same page at the same time.
    number = min(pinned, pages) if pinned is not None else slot % pages + 1
    first = (number - 1) * PROJECTOR_ROWS
    board_url = reverse("tournaments:projector", args=[tournament.pk])
    context.update(
        current=current,
        current_name=round_name(tournament, current.number) if current else "",
        playing=playing,
        countdown=countdown(tournament, current),
        refresh_seconds=PROJECTOR_SECONDS,
        page_rows=rows[first : first + PROJECTOR_ROWS],
        page_number=number,
        page_numbers=range(1, pages + 1),
        pinned=pinned is not None,
        board_url=board_url if pinned is None else f"{board_url}?page={number}",
        projector_url=board_url,
    )
    template = "projector.html#board" if request.htmx else "projector.html"
    return render(request, TEMPLATES + template, context)


def _bracket_or_404(tournament: Tournament) -> selectors.Bracket:
    if not is_knockout(tournament):
        raise Http404
    return selectors.bracket(tournament=tournament)


@require_GET
def bracket(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Every knockout stage: its tables, each player's score there, who went through."""
    tournament = readable(request, tournament_id)
    result = _bracket_or_404(tournament)
    stages = [(round_name(tournament, s.number), s) for s in result.stages]
    context = {
        "tournament": tournament,
        "bracket": result,
        "stages": stages,
        "is_organiser": permissions.is_organiser(request, tournament.club),
    }
    return render(request, TEMPLATES + "bracket.html", context)


@require_GET
def bracket_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    tournament = readable(request, tournament_id)
    result = _bracket_or_404(tournament)
    data = pdf.render_bracket(
        tournament=tournament,
        bracket=result,
        stage_names=[round_name(tournament, s.number) for s in result.stages],
    )
    return pdf_response(data, f"tournament-{tournament.pk}-bracket.pdf")
