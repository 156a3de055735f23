"""What every concern's views do first for a writer: anonymous writers log in first (htmx or
not). Whether a reader may see a club (a private club, with everything in it, does not exist
for outsiders: 404) and what he may do in it is ``clubs.permissions``."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from tarot_scores.core.htmx import HtmxHttpRequest


def login_first(request: HtmxHttpRequest, next_url: str) -> HttpResponse:
    """Anonymous writers log in, then come back to ``next_url`` (a page, not a POST): htmx is
    told to load the login page whole, a plain request is redirected to it."""
    if request.htmx:
        return HttpResponseClientRedirect(f"{reverse('login')}?next={next_url}")
    return redirect_to_login(next_url)
