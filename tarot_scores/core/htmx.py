"""htmx: what django-htmx's middleware adds to a request."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it: ``request.htmx`` says if htmx sent it."""

    htmx: HtmxDetails
