"""Site-wide pages that belong to no club: the home page, the liveness check (``/healthz``) and
the readiness check (``/readyz``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tarot_scores.core.readiness import readiness
from tarot_scores.core.sections import home_page_sections


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """What the site is; for a signed-in reader, first what is theirs: clubs, open games,
    tournaments today (each concern adds its part, ``core.sections``)."""
    sections = home_page_sections(request) if request.user.is_authenticated else []
    return render(request, "tarot_scores/home.html", {"sections": sections})


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    # Liveness only: no database query, so a slow database does not get the process restarted.
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def readyz(request: HttpRequest) -> HttpResponse:
    """Whether this server can serve now, part by part (``core.readiness``): 503 without the
    database, 200 otherwise (``"status": "degraded"`` when the cache or the queue is down, or a
    queue is behind: each queue's oldest job due, and the jobs running too long, are listed)."""
    ready = readiness()
    response = JsonResponse(ready.as_json(), status=200 if ready.serving else 503)
    response["Cache-Control"] = "no-store"
    if not ready.serving:
        response["Retry-After"] = "30"
    return response
