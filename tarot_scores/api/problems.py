"""The API's one error shape: RFC 9457 problem details, for every 4xx and 5xx under ``/api/``.

Every refusal, whatever raised it (a serializer, a service's ``Refusal``, the scoring engine,
DRF's sign-in, permission and throttle checks, the JSON 404 of an unknown path, the sign-in
lockout), answers ``Content-Type: application/problem+json`` with::

    {"type": "about:blank", "title": "Bad Request", "status": 400,
     "code": "points_invalid", "detail": "Card points go from 0 to 91.",
     "errors": [{"field": "points", "code": "points_invalid",
                 "message": "Card points go from 0 to 91."}]}

- ``title``: the HTTP status phrase, in English (``type`` is ``about:blank``);
- ``code``: a stable code for programs: the first field error's code when there are field
  errors (the codes ``Refusal`` and the scoring engine carry: ``club_name_taken``,
  ``points_invalid``...), otherwise the refusal's own (``not_authenticated``, ``not_found``,
  ``throttled``, ``locked_out``, ``database_busy``...);
- ``detail``: the sentence a person reads, in the reader's language (Accept-Language);
- ``errors``: one entry per message, ``field`` null for the request as a whole.

Every code the API may answer is listed (``answered_codes``, the schema's ``Problem``
component): the club side's ``core.errors.Code`` and those registered beside it (a
tournament's ``Code``), the scoring engine's message codes, and the generic ones made here from
what Django REST framework raises (``required``, ``invalid_choice``, ``not_authenticated``,
``throttled``...) or from an answer's HTTP status (``not_found``, ``method_not_allowed``).

A problem may carry more members: a conflict over a deal carries ``current``, the deal as it
is now. The body itself is built in one place, ``tarot_scores.core.problems.problem_body``
(with ``problem_json``, the plain Django answer, for code outside DRF: a middleware answering
503 when the database is down, the 404 handler, the sign-in lockout); this module turns what
DRF and the services raise into it.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator, Mapping, Sequence
from http import HTTPStatus
from typing import Any, TypeVar

from django.core import validators
from rest_framework import fields, serializers
from rest_framework import status as http
from rest_framework import validators as drf_validators
from rest_framework.exceptions import APIException, ErrorDetail, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tarot_scores.core.errors import WHOLE, Code, Refusal, refusal_codes
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.problems import PROBLEM_MEDIA_TYPE, FieldError, problem_body
from tarot_scores.scoring import ScoringError
from tarot_scores.scoring.messages import CATALOG


def problem(body: dict[str, Any], headers: Mapping[str, str] | None = None) -> Response:
    """A problem as a DRF answer."""
    return Response(
        body, status=int(body["status"]), headers=headers, content_type=PROBLEM_MEDIA_TYPE
    )


# --- from what the site raises ----------------------------------------------------------------


def refusal_errors(refusal: Refusal) -> list[FieldError]:
    return [
        (field, reason.code, reason.message)
        for field, reasons in refusal.reasons.items()
        for reason in reasons
    ]


def refusal_detail(refusal: Refusal) -> dict[str, list[ErrorDetail]]:
    """A refusal as a serializer's ``ValidationError`` detail, each message with its stable code
    (raised from ``validate``, it answers the refusal's codes, not DRF's ``invalid``)."""
    return {
        field: [ErrorDetail(reason.message, code=reason.code) for reason in reasons]
        for field, reasons in refusal.reasons.items()
    }


def scoring_errors(error: ScoringError, lang: str | None = None) -> list[FieldError]:
    language = lang or engine_language()
    return [
        (field, message.code, message.render(language))
        for field, messages in error.errors.items()
        for message in messages
    ]


def detail_errors(detail: Any, field: str | None = None) -> list[FieldError]:
    """DRF's nested ``ValidationError.detail`` flattened: ``handfuls.0.player``."""
    if isinstance(detail, Mapping):
        out: list[FieldError] = []
        for key, value in detail.items():
            name = str(key) if field is None else f"{field}.{key}"
            out.extend(detail_errors(value, None if key == WHOLE and field is None else name))
        return out
    if isinstance(detail, Sequence) and not isinstance(detail, str):
        if all(isinstance(item, str) for item in detail):
            out = []
            for item in detail:
                out.extend(detail_errors(item, field))
            return out
        out = []
        for index, item in enumerate(detail):
            if item:  # DRF puts {} for the items of a list that were fine
                out.extend(detail_errors(item, f"{field}.{index}" if field else str(index)))
        return out
    code = detail.code if isinstance(detail, ErrorDetail) and detail.code else "invalid"
    return [(field, str(code), str(detail))]


def refusal_problem(
    refusal: Refusal, *, status: int = http.HTTP_400_BAD_REQUEST, **members: Any
) -> Response:
    """A service's refusal, each reason with its stable code (400, or 409 for a conflict)."""
    return problem(
        problem_body(status=status, code=Code.INVALID, errors=refusal_errors(refusal), **members)
    )


def scoring_problem(error: ScoringError, lang: str | None = None) -> Response:
    """A deal the engine will not score: 400, a message per field with the engine's codes."""
    return problem(
        problem_body(
            status=http.HTTP_400_BAD_REQUEST, code=Code.INVALID, errors=scoring_errors(error, lang)
        )
    )


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's exception handler for the API: every exception it answers becomes a problem."""
    if isinstance(exc, Refusal):
        return refusal_problem(exc)
    if isinstance(exc, ScoringError):
        return scoring_problem(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    headers = {
        name: value
        for name, value in response.items()
        if name in ("WWW-Authenticate", "Retry-After", "Allow")
    }
    if isinstance(exc, ValidationError):
        body = problem_body(
            status=response.status_code, code=Code.INVALID, errors=detail_errors(exc.detail)
        )
    elif isinstance(exc, APIException):
        codes = exc.get_codes()
        body = problem_body(
            status=response.status_code,
            code=str(codes) if isinstance(codes, str) else exc.default_code,
            detail=str(exc.detail) if not isinstance(exc.detail, dict | list) else "",
            errors=[] if isinstance(exc.detail, str) else detail_errors(exc.detail),
        )
    else:  # Http404 and PermissionDenied of Django, turned into DRF's by exception_handler
        body = legacy_problem(response.data, response.status_code)
    return problem(body, headers)


def is_problem(data: Any) -> bool:
    return isinstance(data, Mapping) and {"type", "title", "status", "code"} <= set(data)


def legacy_problem(data: Any, status: int) -> dict[str, Any]:
    """A body in DRF's own shapes (``{"detail": ...}``, ``{field: [messages]}``) as a problem."""
    if isinstance(data, Mapping) and set(data) <= {"detail", "code"} and "detail" in data:
        detail = data["detail"]
        code = data.get("code") or getattr(detail, "code", None) or _status_code_name(status)
        return problem_body(status=status, code=str(code), detail=str(detail))
    return problem_body(status=status, code=_status_code_name(status), errors=detail_errors(data))


def _status_code_name(status: int) -> str:
    return HTTPStatus(status).phrase.lower().replace(" ", "_").replace("-", "_")


class ProblemAnswers:
    """For API views: exceptions answered as problems, and any error answer a view returns
    itself in DRF's shapes converted on its way out, so no refusal escapes the one shape."""

    def get_exception_handler(self) -> Any:
        return problem_exception_handler

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, Response) and response.status_code >= 400:
            if not is_problem(response.data):
                response.data = legacy_problem(response.data, response.status_code)
            response.content_type = PROBLEM_MEDIA_TYPE
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]


# --- the codes answered -----------------------------------------------------------------------

# A code is a word of lowercase letters, digits and underscores (an HTTP status phrase that
# would not make one, "I'm a Teapot", is no status the API answers).
T = TypeVar("T")
CODE_SHAPE = re.compile(r"[a-z][a-z0-9_]*")
# DRF's unique and unique-together validators say "unique" without a class attribute for it.
UNIQUE = "unique"


def _subclasses(cls: type[T]) -> Iterator[type[T]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def generic_codes() -> frozenset[str]:
    """The codes the API answers that no rule of the site names: a serializer field's own
    (every key of a DRF field's or serializer's ``default_error_messages``: ``required``,
    ``null``, ``max_length``, ``invalid_choice``, ``does_not_exist``...), a Django validator's
    (``max_value``, ``step_size``...), a DRF exception's ``default_code`` (``parse_error``,
    ``not_authenticated``, ``permission_denied``, ``throttled``...) and an HTTP status's name
    (``not_found``, ``method_not_allowed``, ``request_entity_too_large``)."""
    codes = {UNIQUE}
    roots: tuple[type, ...] = (fields.Field, serializers.BaseSerializer)
    for root in roots:
        for field in (root, *_subclasses(root)):
            for klass in inspect.getmro(field):
                codes.update(getattr(klass, "default_error_messages", None) or {})
    for module in (validators, drf_validators):
        for _name, validator in inspect.getmembers(module, inspect.isclass):
            code = getattr(validator, "code", None)
            if isinstance(code, str):
                codes.add(code)
    exceptions: list[type[APIException]] = [APIException, *_subclasses(APIException)]
    codes.update(str(exception.default_code) for exception in exceptions)
    codes.update(_status_code_name(status) for status in HTTPStatus if status >= 400)
    return frozenset(code for code in codes if CODE_SHAPE.fullmatch(code))


def answered_codes() -> list[str]:
    """Every code the API may answer, in a problem's ``code`` or a field error's, sorted:
    the refusals' (``core.errors.refusal_codes``), the scoring engine's messages' and the
    generic ones (``generic_codes``)."""
    return sorted(refusal_codes() | frozenset(CATALOG) | generic_codes())
