"""The NUL character (``\\0``), refused at the door: in a path, a query string, a form or a JSON
body it is never something a person typed, and PostgreSQL cannot store it in a text column (it
would end as a server error deep in a view). One middleware answers 400 with a message in the
reader's language, before any view runs, for the pages and the API alike.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path_info:
        return True
    if any(
        "\x00" in key or any("\x00" in v for v in values) for key, values in request.GET.lists()
    ):
        return True
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    # A body too large for Django to hold in memory is left to the view's own limits.
    if not 0 < length <= (settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0):
        return False
    body = request.body
    if b"\x00" in body:
        return True
    content_type = request.content_type or ""
    if content_type == "application/x-www-form-urlencoded":
        return b"%00" in body
    if content_type.endswith("json"):
        return b"\\u0000" in body.lower()
    return False


def nul_refused(request: HttpRequest) -> HttpResponse:
    message = _(
        "The address or the form contains a NUL character (\\0), which the site never accepts."
    )
    if request.path_info.startswith("/api/") or "json" in (request.content_type or ""):
        return JsonResponse({"detail": message, "code": "nul_character"}, status=400)
    return render(request, "tarot_scores/bad_request.html", {"message": message}, status=400)


class RefuseNulCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return nul_refused(request)
        return self.get_response(request)
