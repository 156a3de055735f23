"""Password guessing, slowed down: the login page, the admin's, the API token endpoint and the
password reset form, per account and per client.

django-axes counts the failed sign-ins (``AUTHENTICATION_BACKENDS`` puts its backend first, its
middleware answers a locked-out request); this module gives it the site's client address (the
same ``DJANGO_NUM_PROXIES`` rule as the API throttle), the answer a person or a script reads, and
the rule that a success forgets only the failures of the account that signed in. The password
reset form sends mail rather than checking a password, so it is bounded by request count per
address typed and per client, with DRF's throttles (the calculator's machinery).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body, problem_json
from tarot_scores.core.site import site_identity

LOCKED_STATUS = 429


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the API throttle reads it: ``REMOTE_ADDR``, or behind
    ``DJANGO_NUM_PROXIES`` proxies the address the outermost trusted proxy saw, so that a
    client cannot choose its own by sending a made-up ``X-Forwarded-For``."""
    remote: str | None = request.META.get("REMOTE_ADDR")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    proxies = api_settings.NUM_PROXIES
    if proxies and forwarded:
        addresses = [str(part).strip() for part in str(forwarded).split(",") if part.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return remote


def cool_off_minutes() -> int:
    cool_off = settings.AXES_COOLOFF_TIME
    if isinstance(cool_off, timedelta):
        return max(1, round(cool_off.total_seconds() / 60))
    return 0


def locked_out_message() -> str:
    minutes = cool_off_minutes()
    if not minutes:
        return _(
            "Too many failed sign-ins: this account or this connection is locked. "
            "Ask an administrator to unlock it."
        )
    return ngettext(
        "Too many failed sign-ins: try again in %(minutes)d minute, or reset your password.",
        "Too many failed sign-ins: try again in %(minutes)d minutes, or reset your password.",
        minutes,
    ) % {"minutes": minutes}


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or "application/json" in request.headers.get(
        "Accept", ""
    )


def locked_out_response(
    request: HttpRequest, original_response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """What a locked-out client reads instead of the answer to its sign-in (``AXES_LOCKOUT_
    CALLABLE``): the login page's own frame with the reason, or JSON for the API; 429 either way,
    with ``Retry-After`` when the lock ends by itself."""
    message = locked_out_message()
    if _wants_json(request):
        response: HttpResponse = problem_json(
            problem_body(status=LOCKED_STATUS, code=Code.LOCKED_OUT, detail=message)
        )
    else:
        response = render(
            request, "registration/locked_out.html", {"message": message}, status=LOCKED_STATUS
        )
    if minutes := cool_off_minutes():
        response["Retry-After"] = str(minutes * 60)
    return response


def lock_the_django_request(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """axes flags the request it was handed; DRF's token view hands it DRF's wrapper, so the
    flag is copied onto the Django request underneath, where axes' middleware looks for it."""
    if isinstance(request, Request):
        request._request.axes_locked_out = True  # type: ignore[attr-defined]
        request._request.axes_credentials = getattr(request, "axes_credentials", None)  # type: ignore[attr-defined]


class SignInGuard(AxesStandaloneBackend):  # type: ignore[misc]
    """axes' backend (first in ``AUTHENTICATION_BACKENDS``: it refuses a locked-out client
    before any password is checked), except that a sign-in with no request (a shell, a
    management command, the test client's ``login()``) has no client to count and goes on to
    the next backend instead of failing."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        return None


def forget_failures(*, username: str) -> int:
    """A successful sign-in forgets the failures of that account, and only those."""
    if not username:
        return 0
    count, _deleted = AccessAttempt.objects.filter(username=username).delete()
    return int(count)


class SignInAttempts(AxesDatabaseHandler):  # type: ignore[misc]
    """axes' database handler, except that a successful sign-in forgets the failures of that
    account only. axes would also forget every failure made from the same client, whichever
    account they targeted: signing in to one's own account between guesses would then reset
    the count of the account being guessed."""

    def reset_user_attempts(self, request: HttpRequest, credentials: Any = None) -> int:
        return forget_failures(username=get_client_username(request, credentials) or "")


class _ResetThrottle(SimpleRateThrottle):
    """DRF's rate throttle on a plain Django view: one rate per scope, read from the settings
    on every request (so tests can change it)."""

    def __init__(self) -> None:
        pass

    def get_rate(self) -> str | None:
        rates: dict[str, str] = settings.PASSWORD_RESET_RATES
        return rates[str(self.scope)]

    def allow(self, request: HttpRequest, email: str) -> bool:
        self.rate = self.get_rate()
        num_requests, duration = self.parse_rate(self.rate)
        self.num_requests, self.duration = num_requests, duration
        self.key = self.key_for(request, email)
        if self.key is None or num_requests is None or duration is None:
            return True
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - duration:
            self.history.pop()
        if len(self.history) >= num_requests:
            return False
        return bool(self.throttle_success())

    def key_for(self, request: HttpRequest, email: str) -> str | None:
        raise NotImplementedError


class ResetPerAccount(_ResetThrottle):
    scope = "account"

    def key_for(self, request: HttpRequest, email: str) -> str | None:
        ident = email.strip().casefold()
        return self.cache_format % {"scope": "reset-account", "ident": ident} if ident else None


class ResetPerClient(_ResetThrottle):
    scope = "client"

    def key_for(self, request: HttpRequest, email: str) -> str | None:
        ident = client_address(request)
        return self.cache_format % {"scope": "reset-client", "ident": ident} if ident else None


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset form, refused (429, nothing sent) past the rate per typed address and per
    client: it would otherwise send any number of mails and let anyone probe addresses fast.
    Its mail names the site (``SITE_NAME``), not the host."""

    @property
    def extra_email_context(self) -> dict[str, str]:  # type: ignore[override]
        return {"site_name": site_identity(self.request).name}

    def form_valid(self, form: Any) -> HttpResponse:
        email = str(form.cleaned_data.get("email", ""))
        # Both counters move on every request, so that probing many addresses from one client
        # and one address from many clients are both bounded.
        allowed = [
            throttle.allow(self.request, email)
            for throttle in (ResetPerClient(), ResetPerAccount())
        ]
        if not all(allowed):
            return render(
                self.request,
                "registration/locked_out.html",
                {
                    "message": _(
                        "Too many password reset requests: wait a while before asking again."
                    )
                },
                status=LOCKED_STATUS,
            )
        return super().form_valid(form)
