"""A club's webhooks, for its organisers (the club's settings area): the list and a new one
(its secret shown once), one webhook with its delivery log, and what an organiser does to it:
pause, resume, send a test, a new secret, delete, send a failed delivery again.

Every action is a plain form (POST, then back to the page), so the pages work without
JavaScript; htmx refreshes the log in place. A new webhook or a new secret goes to the webhook's
page too, the secret kept in the session for that one showing: a reload (or a phone restoring
its tab) shows the page again, it never posts again (a second webhook, another secret that
silently replaces the one just copied). A tournament's webhooks are listed and added on its
own page (tournaments.views.webhooks) and managed here like the club's.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Club
from tarot_scores.clubs.permissions import club_for
from tarot_scores.core.compression import secret_inside
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.webhooks import selectors, services
from tarot_scores.webhooks.forms import WebhookForm
from tarot_scores.webhooks.models import Event, Webhook


def organised_club(request: HtmxHttpRequest, slug: str) -> Club:
    """The club, for its organisers only (404 for a private club's outsiders, 403 else)."""
    club = club_for(request, slug)
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    return club


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def webhooks(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = organised_club(request, slug)
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            webhook = services.webhook_create(
                club=club,
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
        "tarot_scores/webhooks/list.html",
        {"club": club, "form": form, "webhooks": selectors.webhooks_of(club)},
        status=400 if form.is_bound else 200,
    )


def _secret_key(webhook: Webhook) -> str:
    return f"webhook-secret-{webhook.pk}"


def secret_shown_once(request: HtmxHttpRequest, club: Club, webhook: Webhook) -> HttpResponse:
    """To the webhook's page, which shows its secret this once (a new webhook, a new secret)."""
    request.session[_secret_key(webhook)] = webhook.secret
    return redirect("clubs:webhook", slug=club.slug, webhook_id=webhook.pk)


def webhook_page_context(
    club: Club, webhook: Webhook, *, secret: str | None = None, form: WebhookForm | None = None
) -> dict[str, Any]:
    """What the webhook's page shows (``secret``: just made, shown this once; ``form``: the
    change of its address and events as typed, else as they are)."""
    return {
        "club": club,
        "webhook": webhook,
        "events": [Event(event).label for event in webhook.events if event in Event.values],
        "secret": secret,
        "form": form or WebhookForm(initial=WebhookForm.initial_of(webhook)),
        "log": selectors.delivery_log(webhook),
    }


def _detail(
    request: HtmxHttpRequest,
    club: Club,
    webhook: Webhook,
    *,
    secret: str | None = None,
    form: WebhookForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = webhook_page_context(club, webhook, secret=secret, form=form)
    if request.htmx and not secret:
        return render(request, "tarot_scores/webhooks/detail.html#log", context)
    return render(request, "tarot_scores/webhooks/detail.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def webhook_detail(request: HtmxHttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    """The webhook and its log; a POST changes its address and events."""
    club = organised_club(request, slug)
    webhook = selectors.webhook_in(club, webhook_id)
    if request.method != "POST":
        # The secret of a new webhook or a new secret, once; not one replaced since.
        secret = request.session.pop(_secret_key(webhook), None)
        if secret is not None and secret == webhook.secret:
            response = _detail(request, club, webhook, secret=secret)
            # Not kept for the Back button either, nor compressed (core.compression).
            response["Cache-Control"] = "no-store"
            return secret_inside(response)
        return _detail(request, club, webhook)
    form = WebhookForm(request.POST)
    if form.is_valid():
        try:
            services.webhook_update(
                webhook=webhook, url=form.cleaned_data["url"], events=form.cleaned_data["events"]
            )
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            messages.success(request, _("Webhook changed."))
            return redirect("clubs:webhook", slug=club.slug, webhook_id=webhook.pk)
    return _detail(request, club, webhook, form=form, status=400)


@login_required
@require_POST
def webhook_action(
    request: HtmxHttpRequest, slug: str, webhook_id: int, action: str
) -> HttpResponse:
    club = organised_club(request, slug)
    webhook = selectors.webhook_in(club, webhook_id)
    if action == "pause":
        services.webhook_update(webhook=webhook, active=False)
        messages.success(request, _("Webhook paused: it hears of nothing new until it resumes."))
    elif action == "resume":
        services.webhook_update(webhook=webhook, active=True)
        messages.success(request, _("Webhook resumed."))
    elif action == "ping":
        services.webhook_ping(webhook=webhook)
        messages.success(request, _("Test sent: its line is in the log below."))
    elif action == "secret":
        services.secret_rotate(webhook=webhook)
        return secret_shown_once(request, club, webhook)
    elif action == "delete":
        services.webhook_delete(webhook=webhook)
        messages.success(request, _("Webhook deleted."))
        return redirect("clubs:webhooks", slug=club.slug)
    else:
        raise Http404
    return redirect("clubs:webhook", slug=club.slug, webhook_id=webhook.pk)


@login_required
@require_POST
def delivery_resend(
    request: HtmxHttpRequest, slug: str, webhook_id: int, delivery_id: int
) -> HttpResponse:
    club = organised_club(request, slug)
    webhook = selectors.webhook_in(club, webhook_id)
    delivery = selectors.delivery_in(webhook, delivery_id)
    try:
        services.delivery_resend(delivery=delivery)
    except Refusal as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, _("The delivery will be sent again."))
    return redirect("clubs:webhook", slug=club.slug, webhook_id=webhook.pk)
