"""Players' cards (``tournaments.play.cards``): the organisers print them from the registration
page and issue a new one for a lost card; a player opens his card's personal link on his own
phone, which then confirms deals as him at his table, without typing his PIN."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tarot_scores.core.access import login_first
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.prepared import pdf_later
from tournaments.models import Entry
from tournaments.play import cards
from tournaments.printing.jobs import PLAYER_CARDS
from tournaments.rounds import selectors as round_selectors
from tournaments.views.access import managed

TEMPLATES = "tournaments/"


@require_safe
def player_card(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A card's personal link, opened on the player's phone: the phone is his for this
    tournament. A forged or replaced card proves nothing (404, saying to ask the organisers)."""
    entry = cards.card_entry(token)
    if entry is None:
        return render(request, TEMPLATES + "player_card.html", {"entry": None}, status=404)
    cards.card_prove(request.session, entry)
    # His table in the round being played, one tap away (else he scans the table sheet).
    table = round_selectors.table_now(entry=entry)
    context = {"entry": entry, "tournament": entry.tournament, "table": table}
    return render(request, TEMPLATES + "player_card.html", context)


@require_safe
def player_cards_pdf(request: HtmxHttpRequest, tournament_id: int) -> HttpResponseBase:
    """Organisers: every registered player's card, eight a page (``?entry=<id>``: that player's
    card alone, after a new one was issued). Drawn by the worker, as the table sheets are."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:player_cards", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    only = whole_number(request.GET.get("entry"), minimum=1)
    if "entry" in request.GET and only is None:
        raise Http404  # not a player's number: never every card instead
    if only is not None:
        get_object_or_404(Entry, pk=only, tournament=tournament)
    return pdf_later(
        request,
        kind=PLAYER_CARDS,
        args={
            "tournament_id": tournament.pk,
            "entry_id": only,
            "site": request.build_absolute_uri("/"),
            "language": translation.get_language(),
        },
        filename=f"tournament-{tournament.pk}-cards.pdf",
    )


@require_POST
def entry_card_new(request: HtmxHttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """Organisers: a new card for a player (his card was lost or seen): the old card's link and
    PIN stop working at once; the page offers the new card to print."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:registration", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    entry = get_object_or_404(
        Entry.objects.select_related("player"), pk=entry_id, tournament=tournament
    )
    cards.card_renew(entry=entry)
    messages.success(
        request,
        _("New card for %(name)s: print it and hand it over. The old card no longer works.")
        % {"name": entry.player.label},
    )
    url = reverse("tournaments:registration", args=[tournament.pk])
    url = f"{url}?card={entry.pk}#entry-{entry.pk}"
    # Asked with htmx (after its "Sure?", a tap on a phone is easily a slip): a full page load.
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
