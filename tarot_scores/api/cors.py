"""Which API answers a page on any origin may read: the public ones, named by their view.

django-cors-headers lets the origins of ``API_CORS_ORIGINS`` call any of ``/api/`` (with a
token). Beyond them, a view that sets ``open_to_any_origin = True`` (the public calculator, a
tournament's standings and bracket) is readable from every origin without any setting, as long
as the request carries no token: what it answers is what anyone may read.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import Resolver404, resolve

from tarot_scores.api.errors import API_PREFIX


def open_to_any_origin(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """``corsheaders.signals.check_request_enabled`` receiver: True lets this request's origin
    read the answer (and its preflight through)."""
    if not request.path_info.startswith(API_PREFIX):
        return False
    asks_token = "authorization" in request.headers.get("Access-Control-Request-Headers", "")
    if asks_token or "Authorization" in request.headers:
        return False
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return False
    view = getattr(match.func, "view_class", None)
    return bool(getattr(view, "open_to_any_origin", False))
