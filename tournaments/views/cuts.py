"""The "Cut after round k" page of a championship: the organiser or referee asks for a cut (a
number of players or a share of the field, scores carried over or not), sees the ranking with
the line drawn and the counts, then confirms it; once made, the cut is shown, and undone while
the next round is not seated (``tournaments.standings.cuts``). A plain form: the preview is a GET,
the
confirmation and the undoing are POSTs."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tournaments.errors import CutRefused
from tournaments.forms import CutForm
from tournaments.models import Round, Tournament
from tournaments.rules import can_referee
from tournaments.standings import cuts
from tournaments.views.access import readable, round_of


def _cut_round_name(number: int) -> str:
    """The round a cut follows, inside a sentence: "Cut after round 2", "Coupure après la
    séance 2" (only a rounds tournament has cuts)."""
    return _("round %(n)s") % {"n": number}


def _context(
    tournament: Tournament,
    round_: Round,
    form: CutForm,
    preview: cuts.CutPreview | None = None,
) -> dict[str, Any]:
    made = cuts.cut_of(tournament, round_.number)
    state = cuts.cut_state_refusal(tournament, round_.number) if made is None else None
    undo = cuts.cut_undo_refusal(tournament, round_.number) if made is not None else None
    return {
        "tournament": tournament,
        "round": round_,
        "name": _cut_round_name(round_.number),
        "form": form,
        "preview": preview,
        "made": made,
        "state": str(state) if state is not None else "",
        "can_undo": made is not None and undo is None,
        "history": [c for c in cuts.cuts_history(tournament=tournament) if not c.live],
        "cut_url": reverse("tournaments:cut", args=[tournament.pk, round_.number]),
    }


@require_http_methods(["GET", "HEAD", "POST"])
def cut(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """Organisers and referees: preview the cut after this round (``?preview=1`` with the
    request), confirm it (POST), undo it (POST ``action=undo``)."""
    here = reverse("tournaments:cut", args=[tournament_id, number])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = readable(request, tournament_id)
    if not can_referee(request, tournament):
        raise PermissionDenied
    round_ = round_of(tournament, number)
    if request.method == "POST":
        return _post(request, tournament, round_, here)
    bound = "preview" in request.GET
    form = CutForm(request.GET if bound else None)
    preview = None
    if bound and form.is_valid():
        try:
            preview = cuts.cut_preview(tournament=tournament, after_round=number, **form.asked())
        except CutRefused:
            pass  # the page says why no cut can be made now, above the form
        except Refusal as refusal:
            refusal.add_to_form(form)
    status = 400 if bound and form.errors else 200
    return render(
        request,
        "tournaments/cut.html",
        _context(tournament, round_, form, preview),
        status=status,
    )


def _post(
    request: HtmxHttpRequest, tournament: Tournament, round_: Round, here: str
) -> HttpResponse:
    name = _cut_round_name(round_.number)
    if request.POST.get("action") == "undo":
        try:
            cuts.cut_undo(tournament=tournament, after_round=round_.number, by=request.user)
        except Refusal as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(
                request,
                _("The cut after %(round)s is undone: its players are in again.") % {"round": name},
            )
        return redirect(here)
    form = CutForm(request.POST)
    if form.is_valid():
        try:
            made = cuts.cut_confirm(
                tournament=tournament, after_round=round_.number, by=request.user, **form.asked()
            )
        except CutRefused as refusal:
            messages.error(request, str(refusal))
            return redirect(here)
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            messages.success(
                request,
                ngettext(
                    "The cut after %(round)s is made: %(n)s player goes through.",
                    "The cut after %(round)s is made: %(n)s players go through.",
                    made.keep,
                )
                % {"round": name, "n": made.keep},
            )
            return redirect(here)
    return render(request, "tournaments/cut.html", _context(tournament, round_, form), status=400)
