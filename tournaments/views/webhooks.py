"""A tournament's webhooks, for its club's organisers: those told of this tournament alone,
and a new one (its secret shown once). Each is then managed on the club's webhook page (pause,
test, new secret, delete, the delivery log), like the club's own."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from tarot_scores.clubs import permissions
from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.webhooks.forms import WebhookForm
from tarot_scores.webhooks.views import secret_shown_once
from tournaments.views.access import readable
from tournaments.webhooks import tournament_webhook_create, tournament_webhooks


@require_http_methods(["GET", "HEAD", "POST"])
def webhooks(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    here = reverse("tournaments:webhooks", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = readable(request, tournament_id)
    club = tournament.club
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            webhook = tournament_webhook_create(
                tournament=tournament,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                by=request.user,
            )
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            return secret_shown_once(request, club, webhook)
    return render(
        request,
        "tournaments/webhooks.html",
        {
            "tournament": tournament,
            "club": club,
            "is_organiser": True,
            "form": form,
            "here_url": here,
            "webhooks": tournament_webhooks(tournament),
        },
        status=400 if form.is_bound else 200,
    )
