"""What the site answers when a part it needs fails: the database unreachable is a 503 with
``Retry-After`` (under ``/api/`` the API's one error shape, a problem; elsewhere a page that says
so); any other failure is the 500 page, or under ``/api/`` a problem too, never HTML.

Django calls ``server_error`` (``handler500``) for any exception a view or a middleware lets
through, while that exception is being handled: ``sys.exc_info()`` tells which. A database
that refuses connections, or drops one mid-request, raises ``OperationalError`` or
``InterfaceError``; the request changed nothing (its transaction never committed), and the next
one, once the database is back, works: nothing to do but ask the reader to try again.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body, problem_json

logger = logging.getLogger("tarot_scores.outage")

API_PREFIX = "/api/"
# Seconds a client is told to wait before asking again: a database restart or fail-over.
RETRY_AFTER_SECONDS = 30


def database_down(error: BaseException | None) -> bool:
    return isinstance(error, OperationalError | InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 when the database is unreachable, else the 500 page (JSON under
    ``/api/``). Renders nothing that reads the database."""
    error = sys.exc_info()[1]
    api = request.path.startswith(API_PREFIX)
    if database_down(error):
        logger.warning("The database is unreachable; answered 503: %s", error)
        message = _("The site cannot reach its database just now. Try again in a minute.")
        response: HttpResponse
        if api:
            response = problem_json(
                problem_body(status=503, code=Code.DATABASE_UNAVAILABLE, detail=message)
            )
        else:
            body = loader.render_to_string("503.html", {"message": message})
            response = HttpResponse(body, status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if api:
        message = _("The site could not answer this request. Try again in a moment.")
        return problem_json(problem_body(status=500, code=Code.SERVER_ERROR, detail=message))
    return defaults.server_error(request)
