"""Who reaches a page, as every concern's views check it: anonymous writers log in first (htmx
or not), and a private club, with everything in it, does not exist for outsiders (404, so its
existence is not revealed). Who may do what inside a club is ``clubs.permissions``."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Club
from tarot_scores.core.htmx import HtmxHttpRequest


def login_first(request: HtmxHttpRequest, next_url: str) -> HttpResponse:
    """Anonymous writers log in, then come back to ``next_url`` (a page, not a POST): htmx is
    told to load the login page whole, a plain request is redirected to it."""
    if request.htmx:
        return HttpResponseClientRedirect(f"{reverse('login')}?next={next_url}")
    return redirect_to_login(next_url)


def club_readable(request: HttpRequest, club: Club) -> None:
    """Private clubs do not exist for outsiders: 404 unless this user may see ``club``."""
    if not permissions.can_view_club(request, club):
        raise Http404


def club_for(request: HttpRequest, slug: str) -> Club:
    """The club, if this user may see it; otherwise 404, whether or not it exists."""
    club = get_object_or_404(Club, slug=slug)
    club_readable(request, club)
    return club
