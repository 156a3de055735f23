"""Refereeing a tournament: the tables its organisers and referees (arbitres) may settle, with
their round's state and a link to each table's game page (finish, reopen, correct with a
written reason), and, for organisers, naming and removing the referees."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tarot_scores.clubs import permissions
from tarot_scores.clubs.forms import AccountForm
from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tournaments.models import DealConfirmation, Tournament
from tournaments.registration import referees as referee_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rules import can_referee
from tournaments.views.access import readable, round_name


def _context(request: HtmxHttpRequest, tournament: Tournament, form: AccountForm) -> dict[str, Any]:
    rounds = [
        (round_, round_name(tournament, round_.number), tables)
        for round_, tables in round_selectors.tournament_rounds(tournament=tournament)
    ]
    # The disputes first: each links to its case on the referee desk, where it is settled.
    disputes = [
        (
            _("%(round)s, table %(n)s, deal %(deal)s")
            % {
                "round": round_name(tournament, c.deal.game.tournament_table.round.number),
                "n": c.deal.game.tournament_table.number,
                "deal": c.deal.number,
            },
            c.deal_id,
        )
        for c in round_selectors.deals_waiting(tournament=tournament)
        if c.status == DealConfirmation.Status.DISPUTED
    ]
    return {
        "tournament": tournament,
        "disputes": disputes,
        "rounds": rounds,
        "referees": tournament.referees.order_by("username"),
        "is_organiser": permissions.is_organiser(request, tournament.club),
        "form": form,
    }


@require_http_methods(["GET", "HEAD", "POST"])
def referees(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Organisers and referees: the tables to settle; organisers name or remove referees."""
    here = reverse("tournaments:referees", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = readable(request, tournament_id)
    if not can_referee(request, tournament):
        raise PermissionDenied
    form = AccountForm(prefix="referee")
    if request.method == "POST":
        if not permissions.is_organiser(request, tournament.club):
            raise PermissionDenied
        if request.POST.get("action") == "remove":
            user = get_object_or_404(
                get_user_model(), pk=request.POST.get("user") or 0, refereed_tournaments=tournament
            )
            referee_services.referee_remove(tournament=tournament, user=user)
            messages.success(
                request, _("%(name)s is no longer a referee.") % {"name": user.get_username()}
            )
            return redirect(here)
        form = AccountForm(request.POST, prefix="referee")
        if form.is_valid():
            user = form.cleaned_data["identifier"]
            try:
                referee_services.referee_add(tournament=tournament, user=user)
            except Refusal as refusal:
                refusal.add_to_form(form, {"user": "identifier"})
            else:
                messages.success(
                    request, _("%(name)s is a referee now.") % {"name": user.get_username()}
                )
                return redirect(here)
        return render(
            request, "tournaments/referees.html", _context(request, tournament, form), status=400
        )
    return render(request, "tournaments/referees.html", _context(request, tournament, form))
