"""Site-wide pages that belong to no club: the home page and the load balancer's health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tarot_scores.core.sections import home_page_sections


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """What the site is; for a signed-in reader, first what is theirs: clubs, open games,
    tournaments today (each concern adds its part, ``core.sections``)."""
    sections = home_page_sections(request) if request.user.is_authenticated else []
    return render(request, "tarot_scores/home.html", {"sections": sections})


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # Liveness only: no database query, so a slow database does not get the process restarted.
    return HttpResponse("ok", content_type="text/plain")
