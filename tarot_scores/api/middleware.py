"""What every answer under ``/api/`` keeps, whichever view gave it (DRF's, a tournament's, the
schema's, Django's own 404):

- times in UTC, written with ``Z`` (``2026-03-06T19:31:07.120000Z``): the site's time zone
  (Europe/Paris) is for its pages; DRF writes a time in the current zone, UTC here;
- with ``DEBUG`` on, a 404 is the API's problem, as with it off (Django would answer its
  technical page, 26 KB of HTML no client reads).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from tarot_scores.api.errors import API_PREFIX, not_found


class ApiAnswers:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        # The answer is rendered inside: every time a serializer writes is in UTC.
        with timezone.override(datetime.UTC):
            response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and response.get("Content-Type", "").startswith("text/html")
        ):
            return not_found(request)
        return response
