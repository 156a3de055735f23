"""Results: the standings (with team standings and the tie-breaks explained), the projector view
that refreshes itself, the knockout bracket, and their CSV and PDF exports. Each page reads a
fixed number of queries, whatever the number of deals; the standings and the projector answer
304 Not Modified to a reader who already has what they would show."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tarot_scores.clubs import permissions
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.prepared import pdf_shared
from tarot_scores.core.results import (
    etag_matches,
    not_modified,
    results_etag,
    results_version,
    shared_results,
    tournament_page_key,
    with_etag,
)
from tournaments.formats import format_for
from tournaments.models import Entry, Round, Tournament
from tournaments.printing import exports, pdf
from tournaments.printing.jobs import STANDINGS_PDF, standings_pdf_bytes
from tournaments.rounds import selectors as round_selectors
from tournaments.standings import duplicate as duplicate_results
from tournaments.standings import selectors as standings_selectors
from tournaments.views.access import Countdown, countdown, readable, round_name

TEMPLATES = "tournaments/"
PROJECTOR_SECONDS = 10
BodyT = TypeVar("BodyT")


def _results(
    tournament: Tournament,
    user: Any = None,
    series: str = "",
    *,
    page: tuple[int, int] | None = None,
    wall: bool = False,
) -> dict[str, Any]:
    """What the results show; with a ``series``, that series' players ranked among themselves
    (and no team standings: a team's total counts every member). With a ``page`` (first, size),
    only those rows of the ranking, which the database pages (``count``: the players ranked):
    its cost does not grow with the field. A duplicate tournament is ranked by comparing each
    board's scores (read whole, then sliced: such events are a few tables); it has no team
    standings (a team's duplicate result is not a sum of its players' percentages). The
    ``wall`` (the projector) does not show the substitutes: not read."""
    duplicate = format_for(tournament).compares_boards
    rows: list[Any]
    if duplicate:
        ranked: list[Any] = list(
            duplicate_results.duplicate_standings(tournament=tournament, series=series)
        )
        count, has_teams = len(ranked), False
        has_penalties = any(r.penalties for r in ranked)
        rows = ranked if page is None else ranked[page[0] : page[0] + page[1]]
        cuts = standings_selectors.CutSummary([], 1)
    elif page is None:
        rows = list(standings_selectors.standings_for(tournament=tournament, series=series))
        count = len(rows)
        has_teams = not series and any(r.team for r in rows)
        has_penalties = any(r.penalties for r in rows)
        cuts = standings_selectors.cut_summary(rows)
    else:
        summary = standings_selectors.standings_summary(tournament=tournament, series=series)
        first, size = page
        rows, lines = standings_selectors.standings_slice_and_cuts(
            tournament=tournament, series=series, first=first, size=size
        )
        count, has_penalties = summary.count, summary.has_penalties
        has_teams = not series and summary.has_teams
        cuts = standings_selectors.cut_summary_of(lines)
    numbers = list(tournament.round_set.order_by("number").values_list("number", flat=True))
    return {
        "tournament": tournament,
        "rows": rows,
        "count": count,
        "round_numbers": numbers,
        "round_names": [round_name(tournament, n) for n in numbers],
        "round_headers": [(round_name(tournament, n), _("R%(n)s") % {"n": n}) for n in numbers],
        # A team's total needs every member's: the whole ranking then (teams are small events).
        "teams": standings_selectors.team_standings_for(
            tournament=tournament, rows=rows if page is None else None
        )
        if has_teams
        else [],
        "has_teams": has_teams,
        "has_penalties": has_penalties,
        "cuts": cuts,
        # Their reasons, read only when someone has one (no query otherwise).
        "penalties": standings_selectors.penalties_for(tournament=tournament, live_only=True)
        if has_penalties
        else [],
        "knockout": format_for(tournament).has_bracket,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "is_organiser": permissions.is_organiser(user, tournament.club),
        "confirming": tournament.require_confirmation,
        "waiting": round_selectors.deals_waiting_count(tournament=tournament),
        "series": series,
        "series_label": Entry.Series(series).label if series else "",
        "duplicate": duplicate,
        "average": duplicate and tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE,
        # Ranked apart, never among the players (tournaments.people); not by series.
        "substitutes": []
        if series or wall
        else standings_selectors.standings_for(tournament=tournament, substitutes=True),
    }


RESULTS_SECONDS = 600


def _shared(
    request: HttpRequest,
    tournament: Tournament,
    page: str,
    *,
    parts: list[object],
    draw: Callable[[], BodyT],
    fresh: Callable[[], bool],
) -> tuple[str, BodyT | None]:
    """A results page as its readers share it (``shared_results``): drawn at most about once in
    ``RESULTS_LAG_SECONDS`` while deals land, whatever the number of readers; an organiser
    (``fresh()``) reads the current results. Returns the ETag (of the version served, and
    ``parts``) and the body, None when the reader's copy is it."""
    club = tournament.club
    return shared_results(
        key=tournament_page_key(
            club=club,
            tournament_id=tournament.pk,
            page=page,
            language=get_language(),
            htmx=bool(getattr(request, "htmx", False)),
        ),
        club=club,
        tag=lambda version: results_etag(club=club, parts=parts, version=version),
        headers=request.headers,
        draw=draw,
        fresh=fresh,
        timeout=RESULTS_SECONDS,
    )


# Rows per page of the standings: a phone scrolls one page, a festival's field is many pages.
STANDINGS_ROWS = 50
SEARCH_LENGTH = 80


def _ranked_count(tournament: Tournament, series: str = "") -> int:
    """How many players the standings rank: stored on the tournament for the whole ranking of
    a championship (no query), counted otherwise (one query)."""
    if format_for(tournament).compares_boards:
        return duplicate_results.duplicate_count(tournament=tournament, series=series)
    return standings_selectors.standings_count(tournament=tournament, series=series)


def _positive(request: HttpRequest, name: str) -> int | None:
    return whole_number(request.GET.get(name), minimum=1, maximum=2**31 - 1)


def _series(request: HttpRequest) -> str:
    return standings_selectors.series_or_overall(request.GET.get("series"))


def _series_links(tournament: Tournament, series: str) -> list[tuple[str, str, bool]]:
    """ "All", then each series the standings rank: (label, link, shown now); none when no
    player has a series."""
    present = standings_selectors.series_present(tournament=tournament)
    if not present:
        return []
    url = reverse("tournaments:standings", args=[tournament.pk])
    links = [(pgettext("series", "All"), url, not series)]
    for value, label in present:
        links.append((label, f"{url}?{urlencode({'series': value})}", value == series))
    return links


def _standings_block(
    tournament: Tournament, *, number: int | None, query: str, player: int | None, series: str
) -> str:
    if query or player is not None:
        context = _results(tournament, series=series)
        page = standings_selectors.standings_page(
            context["rows"], size=STANDINGS_ROWS, number=number, query=query, player=player
        )
    else:
        number = number or 1
        first = (number - 1) * STANDINGS_ROWS
        context = _results(tournament, series=series, page=(first, STANDINGS_ROWS))
        pages = max(1, -(-context["count"] // STANDINGS_ROWS))
        if number > pages:  # a series' page beyond its last (asked within the whole ranking's)
            number, first = pages, (pages - 1) * STANDINGS_ROWS
            context = _results(tournament, series=series, page=(first, STANDINGS_ROWS))
        page = standings_selectors.StandingsPage(context["rows"], number, pages, first)
    url = reverse("tournaments:standings", args=[tournament.pk])
    within = {"series": series} if series else {}
    context.update(
        page=page,
        rows=page.rows,
        found=[
            (
                row,
                f"{url}?{urlencode({**within, 'q': page.query, 'player': str(row.player.pk)})}",
            )
            for row in page.found
        ],
        page_numbers=range(1, page.pages + 1),
        standings_url=url,
        # The page links keep the series: "?series=s1&page=2".
        page_query=f"{urlencode(within)}&" if within else "",
        series_links=_series_links(tournament, series),
    )
    return render_to_string(TEMPLATES + "_standings_block.html", context)


@require_safe
def standings(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The standings, a page at a time; ``?q=`` finds a player by name (his row highlighted,
    on its page), ``?player=`` shows a found player's page. htmx asks for the block alone.
    A reader polling with the ETag of the results version he has gets 304 until it changes."""
    tournament = readable(request, tournament_id, rules=False)
    number, player = _positive(request, "page"), _positive(request, "player")
    query = request.GET.get("q", "")[:SEARCH_LENGTH].strip()
    series = _series(request)
    htmx = bool(request.htmx)
    # The page's links depend on the reader's role: a member made organiser (or no longer one)
    # gets the page again, not a 304 of the one drawn for his former role.
    organiser = permissions.is_organiser(request, tournament.club)
    parts: list[object] = ["standings", tournament.pk, get_language(), htmx, request.user.pk]
    parts += [number, player, query, series, organiser]

    def draw() -> str:
        return _standings_block(
            tournament, number=number, query=query, player=player, series=series
        )

    if query or player is not None:
        # A search is drawn for its reader, from the current results.
        etag = results_etag(club=tournament.club, parts=parts)
        html = None if etag_matches(request.headers, etag) else draw()
    else:
        # Shared per page shown (a page beyond the last shows the last): one entry per page.
        # The first page always exists: no count for it (what most readers ask). Beyond it,
        # the whole ranking's count bounds the page (stored: no query before the ETag); a
        # series' own last page is found when drawn.
        if number is not None and number > 1:
            count = _ranked_count(tournament)
            number = min(number, max(1, -(-count // STANDINGS_ROWS)))
        number = number or 1
        etag, html = _shared(
            request,
            tournament,
            f"standings-{series}-{number}",
            parts=parts,
            draw=draw,
            fresh=lambda: organiser,
        )
    if html is None:
        return not_modified(etag)
    if htmx:
        return with_etag(HttpResponse(html), etag)
    context = {
        "tournament": tournament,
        "standings_html": mark_safe(html),
        "query": query,
        "series": series,
        "knockout": format_for(tournament).has_bracket,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "is_organiser": organiser,
    }
    return with_etag(render(request, TEMPLATES + "standings.html", context), etag)


@require_safe
def standings_csv(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """The standings (``?series=``: of one series) as CSV."""
    tournament = readable(request, tournament_id)
    series = _series(request)
    results = _results(tournament, series=series)
    if results["duplicate"]:
        return exports.DuplicateStandingsCsv(tournament, results["rows"], series=series).response()
    return exports.StandingsCsv(
        tournament,
        results["rows"],
        results["round_names"],
        results["teams"],
        series=series,
        substitutes=results["substitutes"],
    ).response()


# Above this many players the standings PDF is drawn by the worker, once per results version
# and shared by its readers; at or below, in the request. bench/pdfs.py: 78 ms at 200 players,
# 340 ms at 1,000, on a quiet machine (docs/performance.md, "Heavy PDFs").
STANDINGS_PDF_IN_REQUEST = 200


@require_safe
def standings_pdf(request: HtmxHttpRequest, tournament_id: int) -> HttpResponseBase:
    """The standings (``?series=``: of one series) as PDF: drawn here for a small field; for a
    big one, by the worker once per results version, every reader of that version getting the
    same file (or its "being prepared" page)."""
    tournament = readable(request, tournament_id)
    series = _series(request)
    filename = f"tournament-{tournament.pk}-standings{f'-{series}' if series else ''}.pdf"
    # A duplicate tournament is a few tables: always drawn here.
    if (
        format_for(tournament).compares_boards
        or _ranked_count(tournament, series=series) <= STANDINGS_PDF_IN_REQUEST
    ):
        return pdf_response(standings_pdf_bytes(tournament, series=series), filename)
    language = get_language()
    version = results_version(tournament.club)
    return pdf_shared(
        kind=STANDINGS_PDF,
        key=f"{STANDINGS_PDF}:{tournament.pk}:{version}:{series}:{language}",
        args={"tournament_id": tournament.pk, "series": series, "language": language},
        filename=filename,
    )


# Up to sixty rows a page: the board lays them in as many columns as fit (``board_layout``),
# whole on a 1920x1080 or 1280x720 screen with the countdown and the tables still playing
# above, in type read from the back of the room.
PROJECTOR_ROWS = 60
# A page of so many rows at most -> its layout (site.css's fit-N: so many rows a column) and
# its columns: a dozen players fill the screen's height in one column of large type; more share
# it in columns wide enough for a name, each round's score and the total.
BOARD_LAYOUTS = ((12, "fit-12", 1), (24, "fit-24", 2), (36, "fit-36", 2), (48, "fit-48", 3))
BOARD_LAST = ("fit-60", 4)


# The board's columns make room for so many rounds' scores at most (site.css's rounds-N).
BOARD_ROUNDS = 12


def board_layout(rows: int) -> tuple[str, int]:
    """The projector's layout for a page of ``rows`` rows: its class and its columns."""
    for most, name, columns in BOARD_LAYOUTS:
        if rows <= most:
            return name, columns
    return BOARD_LAST


# The tables still playing the wall lists, the furthest behind: a festival's 250 would not fit.
PROJECTOR_TABLES = 12


def _pinned_page(request: HttpRequest) -> int | None:
    """``?page=2`` keeps the board on one page of the ranking (a link, or without JavaScript);
    anything else lets it page through by itself."""
    return whole_number(request.GET.get("page"), minimum=1)


@require_safe
def projector(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Big type for a wall: standings, the tables still playing and the round's countdown.
    htmx fetches the board every 10 s; without JavaScript the page reloads itself. A ranking
    longer than a screen shows its next page at each refresh, unless a page is asked for.

    What the board shows is named before anything is rendered: the page of the ranking and the
    countdown's minute, with the results version of the shared drawing (``_shared``). A board
    polling with that ETag gets 304 (three queries) until one of them changes."""
    tournament = readable(request, tournament_id, rules=False)
    pinned = _pinned_page(request)
    slot = int(time.time() // PROJECTOR_SECONDS)
    current = Round.objects.filter(tournament=tournament).order_by("-number").first()
    if current is not None:
        current.tournament = tournament
    pages = max(1, -(-_ranked_count(tournament) // PROJECTOR_ROWS))
    if pages == 1:
        pinned = None  # nothing to pin when the whole ranking fits one screen
    # The refresh that brings new scores also turns the page: the same 10-second slot on every
    # screen and worker, so they all show the same page at the same time.
    number = min(pinned, pages) if pinned is not None else slot % pages + 1
    clock = countdown(tournament, current)
    minute = "" if clock is None else f"{clock.over}:{clock.minutes_left}:{clock.minutes_over}"
    shown = f"{number}-{pages}-{pinned is not None}-{minute}"
    htmx = bool(request.htmx)

    def draw() -> bytes:
        return _projector(
            request, tournament, current=current, clock=clock, pinned=pinned, number=number
        ).content

    etag, page = _shared(
        request,
        tournament,
        f"projector-{shown}",
        parts=["projector", tournament.pk, get_language(), htmx, shown],
        draw=draw,
        fresh=lambda: permissions.is_organiser(request, tournament.club),
    )
    if page is None:
        return not_modified(etag)
    return with_etag(HttpResponse(page), etag)


def _projector(
    request: HtmxHttpRequest,
    tournament: Tournament,
    *,
    current: Round | None,
    clock: Countdown | None,
    pinned: int | None,
    number: int,
) -> HttpResponse:
    first = (number - 1) * PROJECTOR_ROWS
    context = _results(tournament, page=(first, PROJECTOR_ROWS), wall=True)
    playing: list[round_selectors.TableProgress] = []
    playing_count = 0
    if current is not None and current.status != Round.Status.CLOSED:
        playing, playing_count = round_selectors.tables_playing(
            round_=current, limit=PROJECTOR_TABLES
        )
    pages = max(1, -(-context["count"] // PROJECTOR_ROWS))
    fit, columns = board_layout(len(context["rows"]))
    board_url = reverse("tournaments:projector", args=[tournament.pk])
    context.update(
        current=current,
        current_name=round_name(tournament, current.number) if current else "",
        playing=playing,
        playing_more=playing_count - len(playing),
        countdown=clock,
        refresh_seconds=PROJECTOR_SECONDS,
        page_rows=context["rows"],
        board_fit=fit
        if context["duplicate"]
        else f"{fit} rounds-{min(len(context['round_numbers']), BOARD_ROUNDS)}",
        board_columns=range(columns),
        page_number=number,
        page_numbers=range(1, pages + 1),
        pinned=pinned is not None,
        board_url=board_url if pinned is None else f"{board_url}?page={number}",
        projector_url=board_url,
    )
    template = "projector.html#board" if request.htmx else "projector.html"
    return render(request, TEMPLATES + template, context)


def _bracket_or_404(tournament: Tournament) -> round_selectors.Bracket:
    if not format_for(tournament).has_bracket:
        raise Http404
    return round_selectors.bracket(tournament=tournament)


@require_safe
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


@require_safe
def bracket_pdf(request: HtmxHttpRequest, tournament_id: int) -> FileResponse:
    tournament = readable(request, tournament_id)
    result = _bracket_or_404(tournament)
    data = pdf.render_bracket(
        tournament=tournament,
        bracket=result,
        stage_names=[round_name(tournament, s.number) for s in result.stages],
    )
    return pdf_response(data, f"tournament-{tournament.pk}-bracket.pdf")
