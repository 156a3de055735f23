"""What the API answers for a path it does not know: the same JSON 404 as for an unknown id.

Ids in API paths are read by the ``id`` converter (at most 18 digits, so any id it lets
through fits the database's integer columns); a path it does not match (``/clubs/abc/``,
``/deals/-1/``, a 40-digit id) matches no route, and Django's 404 handler answers here. Pages
outside ``/api/`` keep the site's HTML 404. With ``DEBUG`` on, Django answers its own HTML
page instead of calling the handler: ``api.middleware.ApiAnswers`` puts the problem back.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import register_converter
from django.views.defaults import page_not_found
from rest_framework.exceptions import NotFound

from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body, problem_json

API_PREFIX = "/api/"


class IdConverter:
    """A database id or a round number in a path: 1 to 18 digits, so never past 2**63 - 1."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


# Registered once, when the first API URLconf imports this module: ``<id:pk>`` in its paths.
register_converter(IdConverter, "id")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: a problem, as every API refusal, under ``/api/``, the HTML page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return problem_json(
            problem_body(status=404, code=Code.NOT_FOUND, detail=str(NotFound.default_detail))
        )
    return page_not_found(request, exception or Exception())
