"""The people of a tournament on its pages: players kept apart (on the registration page) and
substitutes (on the round page). Thin: ``tournaments.people`` holds the rules."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.french import french
from tarot_scores.core.htmx import HtmxHttpRequest
from tournaments.errors import Code, TournamentRefusal
from tournaments.forms import ApartPairForm
from tournaments.models import ApartPair
from tournaments.people import services as people
from tournaments.views import registration, rounds
from tournaments.views.access import managed, round_of


@require_POST
def apart_pair_new(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Keep two players apart: they never share a table in the rounds seated from now on."""
    here = reverse("tournaments:registration", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = managed(request, tournament_id)
    entries = registration._entries(tournament)
    form = ApartPairForm(request.POST, entries=entries)
    if form.is_valid():
        data = form.cleaned_data
        try:
            pair = people.apart_pair_add(
                tournament=tournament,
                first=form.entries.get(data["first"]),
                second=form.entries.get(data["second"]),
                reason=data["reason"],
                by=request.user,
            )
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            messages.success(
                request,
                _("%(a)s and %(b)s will never share a table.")
                % {"a": pair.first.player.label, "b": pair.second.player.label},
            )
            return redirect(f"{here}#apart-heading")
    context = registration._registration_context(request, tournament, apart_form=form)
    return render(request, registration.TEMPLATES + "registration.html", context, status=400)


@require_POST
def apart_pair_remove(request: HtmxHttpRequest, tournament_id: int, pair_id: int) -> HttpResponse:
    here = reverse("tournaments:registration", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = managed(request, tournament_id)
    pair = get_object_or_404(
        ApartPair.objects.select_related("first__player", "second__player"),
        pk=pair_id,
        tournament=tournament,
    )
    people.apart_pair_remove(pair=pair)
    messages.success(
        request,
        _("%(a)s and %(b)s may share a table again.")
        % {"a": pair.first.player.label, "b": pair.second.player.label},
    )
    return redirect(f"{here}#apart-heading")


@require_POST
def round_substitute(request: HtmxHttpRequest, tournament_id: int, number: int) -> HttpResponse:
    """A substitute takes over a player's seat for the table's deals from now on."""
    here = reverse("tournaments:round", args=[tournament_id, number])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = managed(request, tournament_id)
    round_ = round_of(tournament, number)
    form = rounds.substitute_form(round_, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        replaced = form.seated.get(data["replaced"])
        chosen = form.club_players.get(data["player"]) if data["player"] else None
        try:
            if replaced is None:  # pragma: no cover - the choices hold the seated only
                raise TournamentRefusal.on(
                    "replaced", Code.REQUIRED, _("Choose the player replaced.")
                )
            done = people.substitute_seat(
                round_=round_,
                replaced=replaced,
                player=chosen,
                name="" if chosen else data["name"],
                returns=data["returns"],
                by=request.user,
            )
        except Refusal as refusal:
            refusal.add_to_form(form, {"substitute": "name" if not chosen else "player"})
        else:
            messages.success(
                request,
                french(
                    _("%(sub)s takes over %(name)s's seat at table %(t)s.")
                    % {
                        "sub": done.substitute.player.label,
                        "name": replaced.player.label,
                        "t": done.table.number,
                    }
                ),
            )
            return redirect(here)
    context = rounds._round_context(request, tournament, round_, None, substitute=form)
    return render(request, rounds.TEMPLATES + "round.html", context, status=400)
