"""The body of every error the API answers: RFC 9457 problem details (the shape is described in
``tarot_scores.api.problems`` and docs/api.md). Here, below every concern, so that a middleware
or a page-level guard (NUL characters, the sign-in lockout, the database down) answers an API
client in the same shape as the API's own views.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from http import HTTPStatus
from typing import Any

from django.http import JsonResponse

from tarot_scores.core.errors import WHOLE

PROBLEM_MEDIA_TYPE = "application/problem+json"

# One field error: (field or None for the whole request, stable code, message).
FieldError = tuple[str | None, str, str]


def problem_body(
    *,
    status: int,
    code: str,
    detail: str = "",
    errors: Iterable[FieldError] = (),
    **members: Any,
) -> dict[str, Any]:
    """The body of every API error. ``members`` adds the problem's own members (``current``)."""
    entries: list[dict[str, Any]] = [
        {
            "field": field if field and field != WHOLE else None,
            "code": field_code,
            "message": message,
        }
        for field, field_code, message in errors
    ]
    if entries:
        code = entries[0]["code"] or code
        detail = detail or entries[0]["message"]
    title = HTTPStatus(status).phrase
    return {
        "type": "about:blank",
        "title": title,
        "status": status,
        "code": code,
        "detail": detail or title,
        "errors": entries,
        **members,
    }


def problem_json(body: Mapping[str, Any], headers: Mapping[str, str] | None = None) -> JsonResponse:
    """A problem as a plain Django answer (no DRF view around it)."""
    response = JsonResponse(
        dict(body),
        status=int(body["status"]),
        content_type=PROBLEM_MEDIA_TYPE,
        json_dumps_params={"ensure_ascii": False},
    )
    for name, value in (headers or {}).items():
        response[name] = value
    return response
