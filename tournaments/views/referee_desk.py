"""The referee's page of a tournament that requires confirmation: the deals the tables have not
agreed on yet, disputed ones first with both versions side by side, and what a referee (or an
organiser) decides: confirm a deal, keep the version entered or the other side's, or correct
the deal. Decisions go through ``tournaments.play.confirmations`` and the deal services, so the
deal's history records them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tarot_scores.clubs import permissions
from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.games.entry import (
    DealCard,
    deal_card,
    deal_correct,
    preview_context,
)
from tarot_scores.games.forms import DealForm, deal_form_for
from tarot_scores.games.models import Deal, Game
from tarot_scores.games.seats import deal_seats, table_seats
from tarot_scores.games.words import deal_words
from tournaments.models import DealConfirmation, PinAttempts, Tournament
from tournaments.play import confirmations, pins
from tournaments.rounds import selectors as round_selectors
from tournaments.rules import can_referee
from tournaments.views.access import readable, round_name

TEMPLATES = "tournaments/"


def _refereed(request: HtmxHttpRequest, tournament_id: int) -> Tournament | HttpResponse:
    """The tournament, for its referees and its club's organisers; 404 if it does not ask for
    confirmations, or for outsiders of a private club; 403 for other readers."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:referee", args=[tournament_id]))
    tournament = get_object_or_404(
        Tournament.objects.select_related("club", "house_rules"), pk=tournament_id
    )
    if not can_referee(request, tournament):
        readable(request, tournament_id)  # outsiders of a private club: 404, as if it did not exist
        raise PermissionDenied
    # A referee named from another club reaches this page even if the club is private.
    if not tournament.require_confirmation:
        raise Http404
    return tournament


@dataclass(frozen=True)
class Case:
    """One deal waiting, as the referee reads it."""

    confirmation: DealConfirmation
    where: str  # "Round 2, table 3"
    entered: DealCard
    other: DealCard | None  # the other side's version of a disputed deal
    entered_by: str
    disputed_by: str
    other_side: str  # "the defence": whose version ``other`` is


def _cases(tournament: Tournament) -> list[Case]:
    cases = []
    views: dict[int, Any] = {}
    for confirmation in round_selectors.deals_waiting(tournament=tournament):
        deal = confirmation.deal
        game = deal.game
        view = deal_seats(deal, views.setdefault(game.pk, table_seats(game)))
        table = game.tournament_table
        where = _("%(round)s, table %(n)s") % {
            "round": round_name(tournament, table.round.number),
            "n": table.number,
        }
        other = None
        if confirmation.status == DealConfirmation.Status.DISPUTED and confirmation.dispute_payload:
            scores = confirmation.dispute_scores or {}
            other = DealCard(
                deal.number,
                deal.version,
                deal_words(game, view, confirmation.dispute_payload, deal.number),
                [(view.labels[p.pk], scores.get(str(p.pk))) for p in view.players],
            )
        entered_side = confirmation.entered_side
        cases.append(
            Case(
                confirmation,
                where,
                deal_card(game, view, deal),
                other,
                confirmation.entered_by.label if confirmation.entered_by else "",
                confirmation.disputed_by.label if confirmation.disputed_by else "",
                confirmations.side_label(confirmations.other_side(entered_side))
                if entered_side
                else "",
            )
        )
    return cases


@require_safe
def referee_deals(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    tournament = found
    cases = _cases(tournament)
    context = {
        "tournament": tournament,
        "is_organiser": permissions.is_organiser(request, tournament.club),
        "can_referee": True,
        "can_settle": True,
        "disputed": [c for c in cases if c.other is not None],
        "pending": [c for c in cases if c.other is None],
        "keep_entered": confirmations.KEEP_ENTERED,
        "keep_other": confirmations.KEEP_OTHER,
        "locked_pins": pins.locked_places(tournament=tournament),
    }
    return render(request, TEMPLATES + "referee.html", context)


@require_POST
def referee_pin_unlock(request: HtmxHttpRequest, tournament_id: int, lock_id: int) -> HttpResponse:
    """Lift a lock on PIN typing (too many wrong PINs on a phone, or at a table): the referee
    came to the table."""
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    attempts = get_object_or_404(PinAttempts, pk=lock_id, tournament=found)
    pins.pin_unlock(attempts=attempts)
    messages.success(request, _("PINs are taken again there."))
    return _back(found)


def _tournament_deal(tournament: Tournament, deal_id: int) -> Deal:
    return get_object_or_404(
        Deal.objects.select_related("game__club"),
        pk=deal_id,
        game__tournament_table__round__tournament=tournament,
        deleted_at__isnull=True,
    )


def _back(tournament: Tournament) -> HttpResponse:
    return redirect("tournaments:referee", tournament_id=tournament.pk)


@require_POST
def referee_confirm(request: HtmxHttpRequest, tournament_id: int, deal_id: int) -> HttpResponse:
    """Confirm a deal for its table (the version entered, if it was disputed)."""
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    deal = _tournament_deal(found, deal_id)
    try:
        confirmations.deal_confirm(
            deal=deal,
            by=request.user,
            version=whole_number(request.POST.get("version")),
            reason=request.POST.get("reason", ""),
        )
    except Refusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("Deal %(number)s confirmed.") % {"number": deal.number})
    return _back(found)


@require_POST
def referee_settle(request: HtmxHttpRequest, tournament_id: int, deal_id: int) -> HttpResponse:
    """Keep one of the two versions of a disputed deal."""
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    deal = _tournament_deal(found, deal_id)
    keep = request.POST.get("keep", "")
    try:
        confirmations.dispute_settle(
            deal=deal, keep=keep, by=request.user, reason=request.POST.get("reason", "")
        )
    except Refusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _settled(keep) % {"number": deal.number})
    return _back(found)


def _settled(keep: str) -> str:
    if keep == confirmations.KEEP_ENTERED:
        return _("Deal %(number)s settled: the version entered stands.")
    return _("Deal %(number)s settled: corrected to the other side's version.")


@require_http_methods(["GET", "HEAD", "POST"])
def referee_deal_edit(request: HtmxHttpRequest, tournament_id: int, deal_id: int) -> HttpResponse:
    """Correct a deal as the referee: the correction is the decision (confirmed at once)."""
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    tournament = found
    deal = _tournament_deal(tournament, deal_id)
    game = deal.game
    view = deal_seats(deal)
    table = game.tournament_table
    if not confirmations.referee_for(request.user, table, [p.pk for p in view.players]):
        raise PermissionDenied  # he plays at this table: another referee decides
    back = reverse("tournaments:referee", args=[tournament.pk])

    def context_for(deal: Deal, form: DealForm, **extra: Any) -> dict[str, Any]:
        context: dict[str, Any] = {
            "tournament": tournament,
            "table": table,
            "round_name": round_name(tournament, table.round.number),
            "game": game,
            "deal": deal,
            "back": back,
            "form": form,
            "slots": form.slot_errors(),
            "post_url": reverse("tournaments:referee_deal_edit", args=[tournament.pk, deal.pk]),
            # The referee's own preview: a referee's page never carries the table's link.
            "preview_url": reverse(
                "tournaments:referee_deal_preview", args=[tournament.pk, deal.pk]
            ),
            "htmx_save": False,
            "dealer_label": view.labels[form.dealer.pk],
            "sitting_label": view.labels[form.sitting_out.pk] if form.sitting_out else "",
            "submit_label": _("Save the correction"),
            "is_open": game.status == Game.Status.OPEN,
        }
        context.update(extra)
        return context

    answer = deal_correct(request, deal, view, by=request.user, by_label=_("Referee"))
    if answer.saved:
        return redirect(back)
    context = context_for(answer.deal, answer.form, **answer.extra)
    return render(request, TEMPLATES + "referee_deal_edit.html", context, status=answer.status)


@require_POST
def referee_deal_preview(
    request: HtmxHttpRequest, tournament_id: int, deal_id: int
) -> HttpResponse:
    """Score the referee's correction as typed, store nothing (the referee's own route: his
    pages never carry a table's private link, which he would keep after being removed)."""
    found = _refereed(request, tournament_id)
    if isinstance(found, HttpResponse):
        return found
    deal = _tournament_deal(found, deal_id)
    game = deal.game
    view = deal_seats(deal)
    if not confirmations.referee_for(
        request.user, game.tournament_table, [p.pk for p in view.players]
    ):
        raise PermissionDenied
    form = deal_form_for(game)(request.POST, game=game, table=view, number=deal.number)
    return render(request, "tarot_scores/game/deal_preview.html", preview_context(game, view, form))
