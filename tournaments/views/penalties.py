"""Penalties: the page where a tournament's referees and organisers give a player a penalty
(points off his score, with a written reason, on a deal or on a round) and remove one, with
the history of every penalty given and removed (``tournaments.play.penalties``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tarot_scores.clubs import permissions
from tarot_scores.core.access import login_first
from tarot_scores.core.collation import by_name
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tournaments.forms import PenaltyForm
from tournaments.models import Entry, Penalty, Tournament
from tournaments.play import penalties
from tournaments.rules import can_referee
from tournaments.standings import selectors as standings_selectors
from tournaments.views.access import readable, round_name


def _form(tournament: Tournament, data: Any = None) -> PenaltyForm:
    entries = by_name(
        Entry.objects.filter(tournament=tournament).select_related("player"),
        lambda e: e.player.label,
    )
    numbers = tournament.round_set.order_by("number").values_list("number", flat=True)
    rounds = [(n, round_name(tournament, n)) for n in numbers]
    return PenaltyForm(data, entries=entries, rounds=rounds, prefix="penalty")


def _context(request: HtmxHttpRequest, tournament: Tournament, form: PenaltyForm) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "penalties": standings_selectors.penalties_for(tournament=tournament),
        "is_organiser": permissions.is_organiser(request, tournament.club),
        "can_referee": True,
        "form": form,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def penalties_page(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Referees and organisers: give a penalty, remove one, read every penalty's history."""
    here = reverse("tournaments:penalties", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = readable(request, tournament_id)
    if not can_referee(request, tournament):
        raise PermissionDenied
    form = _form(tournament)
    if request.method == "POST":
        if request.POST.get("action") == "remove":
            penalty = get_object_or_404(
                Penalty,
                pk=whole_number(request.POST.get("penalty"), default=0),
                tournament=tournament,
            )
            try:
                penalties.penalty_remove(
                    penalty=penalty, by=request.user, reason=request.POST.get("reason", "")
                )
            except Refusal as refusal:
                messages.error(request, str(refusal))
            else:
                messages.success(request, _("The penalty is removed; it stays in the history."))
            return redirect(here)
        form = _form(tournament, request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                penalty = penalties.penalty_give(
                    tournament=tournament,
                    entry=form.entries[data["entry"]],
                    points=data["points"],
                    reason=data["reason"],
                    by=request.user,
                    round_number=data["round"],
                    deal_number=data["deal"],
                )
            except Refusal as refusal:
                refusal.add_to_form(form, {})
            else:
                messages.success(
                    request,
                    _("%(name)s: %(points)s points off in %(round)s.")
                    % {
                        "name": penalty.entry.player.label,
                        "points": penalty.points,
                        "round": round_name(tournament, penalty.round.number),
                    },
                )
                return redirect(here)
        return render(
            request, "tournaments/penalties.html", _context(request, tournament, form), status=400
        )
    return render(request, "tournaments/penalties.html", _context(request, tournament, form))
