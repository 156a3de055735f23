"""Every phone of a tournament table on the same state, and a table link that says what became
of it.

- The table's poll (``table_poll``, ``/tournaments/t/<token>/state/``): each phone on the
  table's link asks every ``TABLE_POLL_SECONDS`` for the table's block (the deals waiting for
  the other side, the totals, the boards, the score sheet), with the ETag of the block it shows,
  as the projector does (``core.results``: the club's results version, which every deal,
  confirmation, disagreement, penalty and closed round bumps, and what else the block depends
  on: the phone's session, its account, the language). Nothing changed: 304, after one query
  (the table with its club), whatever the table's history. Something changed: the block, drawn
  as the table's page draws it, each part swapped in place (htmx, out of band). Without
  JavaScript the block's "Refresh" is a real link to the page. A round closed or a link
  replaced meanwhile: the phone reloads its page, which says so.
- A replaced link (``replaced_link_answered``): the organisers gave the table a new link
  (``rounds.services.table_link_renew``); the old one, opened again from a phone or the QR code
  of the old score sheet, answers 410 with what to do (ask the organisers, scan the new sheet),
  instead of a bare 404. A token that never opened a table stays a 404.
- The table's pages are never kept by the browser (``fresh_page``: ``Cache-Control: no-store``,
  set where the URLs are declared): Back after a save asks the site again, so it shows the deal
  just saved. The service worker keeps its own copy for a reload offline, refreshed after each
  save (``static/js/offline.js``, ``static/js/sw.js``).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.results import etag_matches, not_modified, results_etag, with_etag
from tournaments.models import ReplacedTableLink, Round, Table
from tournaments.views import table_entry
from tournaments.views.access import round_name

TEMPLATES = "tournaments/"

# The pages of the table's link and a club's game pages (entry and sheet): never kept by the
# browser's cache, so that Back shows the deals stored now (Django's own decorator).
fresh_page = never_cache


def _phone(request: HttpRequest) -> str:
    """What the block depends on that is this phone's, as a digest of its session: who holds
    it, the card that proved it, the account signed in (its id is in the session: the account
    itself is not read)."""
    session = json.dumps(dict(request.session.items()), sort_keys=True, default=str)
    return hashlib.sha256(session.encode()).hexdigest()[:32]


def _refresh(response: HttpResponse) -> HttpResponse:
    """htmx reloads the whole page instead of swapping anything (htmx's ``HX-Refresh``)."""
    response["HX-Refresh"] = "true"
    return response


@require_safe
def table_poll(request: HtmxHttpRequest, token: str) -> HttpResponseBase:
    """The table's block for a phone polling it: 304 while what it shows (its ETag) is current;
    a closed round or a replaced link reloads the page. Asked without htmx (a link followed),
    the table's page itself."""
    table = (
        Table.objects.select_related("round__tournament__club", "game").filter(token=token).first()
    )
    if table is None and not ReplacedTableLink.objects.filter(token=token).exists():
        raise Http404
    if not request.htmx:
        return redirect("tournaments:table_entry", token=token)  # the page says what stands
    if table is None:
        return _refresh(HttpResponse(status=410))
    if table.round.status == Round.Status.CLOSED:
        return _refresh(HttpResponse(status=204))
    club = table.round.tournament.club  # read before the block: a later change is a new tag
    etag = results_etag(club=club, parts=["table", table.pk, get_language(), _phone(request)])
    if etag_matches(request.headers, etag):
        return not_modified(etag)
    context = table_entry.table_state(request, table)
    context.update(poll_etag=etag)
    return with_etag(render(request, TEMPLATES + "table_state.html", context), etag)


def replaced_link_answered(
    view: Callable[..., HttpResponseBase],
) -> Callable[..., HttpResponseBase]:
    """A view of the table's link that answers a replaced link's token with the page saying so
    (410), where it would have answered 404; any other 404 stands."""

    @functools.wraps(view)
    def answered(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return view(request, token, *args, **kwargs)
        except Http404:
            replaced = (
                ReplacedTableLink.objects.select_related("table__round__tournament")
                .filter(token=token)
                .first()
            )
            if replaced is None:
                raise
            return _replaced(request, replaced)

    return answered


@fresh_page
def _replaced(request: HttpRequest, replaced: ReplacedTableLink) -> HttpResponse:
    table = replaced.table
    tournament = table.round.tournament
    context = {
        "tournament": tournament,
        "table": table,
        "round_name": round_name(tournament, table.round.number),
    }
    response = render(request, TEMPLATES + "table_replaced.html", context, status=410)
    # htmx (a save, a poll) reloads the page, which then says it.
    return _refresh(response) if request.headers.get("HX-Request") else response
