"""The NUL character (``\\0``), refused at the door: in a path, a query string or a form it is never
something a person typed, and PostgreSQL cannot store it in a text column (it would end as a
server error deep in a view). One middleware answers 400 with a message in the reader's language,
before any view runs: a page, or for the API its refusal shape (a list of messages per field,
the query parameter's name as the field).

JSON bodies are left to the API, which refuses a NUL beside the field it is in (DRF's text
fields prohibit it; the deal's own fields are checked by the scoring contract);
``tests/core/test_no_500.py`` posts one to every route.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body, problem_json

WHOLE = "non_field_errors"


def nul_fields(request: HttpRequest) -> list[str] | None:
    """Where the request holds a NUL: the query parameters or form fields that do (``WHOLE``
    for the path or a part of the body that is no field), or None if it holds none."""
    if "\x00" in request.path_info:
        return [WHOLE]
    fields = [
        key.replace("\x00", "") or WHOLE
        for key, values in request.GET.lists()
        if "\x00" in key or any("\x00" in v for v in values)
    ]
    if fields:
        return fields
    content_type = request.content_type or ""
    if content_type.endswith("json") or request.method in {"GET", "HEAD", "OPTIONS"}:
        return None
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return None
    # A body too large for Django to hold in memory is left to the view's own limits.
    if not 0 < length <= (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0):
        return None
    body = request.body
    if content_type == "application/x-www-form-urlencoded":
        if b"%00" not in body and b"\x00" not in body:
            return None
        fields = [
            key.replace("\x00", "") or WHOLE
            for key, values in request.POST.lists()
            if "\x00" in key or any("\x00" in v for v in values)
        ]
        return fields or [WHOLE]
    return [WHOLE] if b"\x00" in body else None


def nul_refused(request: HttpRequest, fields: list[str]) -> HttpResponse:
    message = _(
        "The address or the form contains a NUL character (\\0), which the site never accepts."
    )
    if request.path_info.startswith("/api/"):
        return problem_json(
            problem_body(
                status=400,
                code=Code.NUL_CHARACTER,
                errors=[(f, Code.NUL_CHARACTER, message) for f in fields],
            )
        )
    return render(request, "tarot_scores/bad_request.html", {"message": message}, status=400)


class RefuseNulCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        fields = nul_fields(request)
        if fields:
            return nul_refused(request, fields)
        return self.get_response(request)
