"""Site-wide pages that belong to no club: the home page and the load balancer's health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tarot_scores/home.html")


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    # Liveness only: no database query, so a slow database does not get the process restarted.
    return HttpResponse("ok", content_type="text/plain")
