"""What every club endpoint shares: token or session sign-in, JSON in and out through the
calculator's guarded parser, refusals shaped ``{field: [messages]}``, and the common answers
(401, 403, 404, 409...) described once for the schema.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import OperationalError
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import APIException, ErrorDetail, ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.calculator import (
    FIELD_ERRORS_SCHEMA,
    AlwaysJSON,
    DealJSONParser,
)
from tarot_scores.api.permissions import ReadAnyoneWriteSignedIn
from tarot_scores.api.problems import ProblemAnswers
from tarot_scores.api.tokens import HashedTokenAuthentication
from tarot_scores.core.errors import Code
from tarot_scores.core.i18n import engine_language
from tarot_scores.scoring.messages import Msg

T = TypeVar("T")


class ClubAPIView(ProblemAnswers, GenericAPIView):  # type: ignore[type-arg]
    """Base of the club endpoints.

    Token authentication comes first so that an anonymous write is answered 401 with
    ``WWW-Authenticate: Token`` (with the session first, DRF would answer 403).
    """

    authentication_classes = [HashedTokenAuthentication, SessionAuthentication]
    permission_classes = [ReadAnyoneWriteSignedIn]
    parser_classes = [DealJSONParser]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSON

    # A list of the API: paged (``page``, ``page_size``) by ``tarot_scores.api.paging.Pages``.
    paged = False
    # False for a list that is only a change feed, paged by its cursor (``api.feed``): no
    # ``page``.
    page_numbers = True
    # The body fields a DELETE reads: none, but where a view says (the schema cannot declare a
    # DELETE's body, so such a field is a query parameter too).
    delete_body_fields: frozenset[str] = frozenset()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        refuse_unknown_parameters(self, request)
        refuse_unknown_fields(self, request)

    def page_of(self, items: Sequence[Any]) -> Response:
        """One page of a list already built (``items``: the whole list, in its order)."""
        return self.get_paginated_response(self.paginate_queryset(items))


# The query parameters each view's handler declares to the schema, read once per view and method.
_DECLARED: dict[tuple[type, str], frozenset[str]] = {}


def declared_query_parameters(view: ClubAPIView, method: str) -> frozenset[str]:
    """The query parameters ``view`` documents for ``method``: those of its ``extend_schema``,
    and ``page`` and ``page_size`` for a list. The schema and what is accepted are one list."""
    key = (type(view), method)
    if key not in _DECLARED:
        handler = getattr(view, method.lower(), None)
        schema_class = getattr(handler, "kwargs", {}).get("schema")
        names: set[str] = set()
        if schema_class is not None:
            inspector = schema_class()
            inspector.view = view
            inspector.method = method
            names = {
                parameter.name
                for parameter in inspector.get_override_parameters()
                if isinstance(parameter, OpenApiParameter)
                and parameter.location == OpenApiParameter.QUERY
            }
        if view.paged and method == "GET":
            names |= {"page", "page_size"} if view.page_numbers else {"page_size"}
        _DECLARED[key] = frozenset(names)
    return _DECLARED[key]


def refuse_unknown_parameters(view: ClubAPIView, request: Request) -> None:
    """400 on a query parameter the endpoint does not read, rather than ignoring it silently
    (a misspelt filter would otherwise answer the whole list)."""
    method = "GET" if request.method == "HEAD" else (request.method or "GET")
    known = declared_query_parameters(view, method)
    unknown = sorted(set(request.query_params) - known)
    if unknown:
        message = gettext("This address reads no such parameter. It reads: %(known)s.") % {
            "known": ", ".join(sorted(known)) or gettext("none")
        }
        raise ValidationError(
            {name: [ErrorDetail(message, code=Code.UNKNOWN_PARAMETER)] for name in unknown}
        )


# The body each view's handler declares to the schema (a serializer, a JSON schema, or None),
# read once per view and method.
_DECLARED_BODY: dict[tuple[type, str], Any] = {}


def declared_body(view: ClubAPIView, method: str) -> Any:
    """The body ``view`` documents for ``method``: its ``extend_schema``'s ``request``, a
    serializer (an instance) or a JSON schema; None for no body."""
    key = (type(view), method)
    if key not in _DECLARED_BODY:
        handler = getattr(view, method.lower(), None)
        schema_class = getattr(handler, "kwargs", {}).get("schema")
        declared: Any = None
        if schema_class is not None:
            inspector = schema_class()
            inspector.view = view
            inspector.method = method
            declared = inspector.get_request_serializer()
            if isinstance(declared, type) and issubclass(declared, serializers.BaseSerializer):
                declared = declared()
        _DECLARED_BODY[key] = declared
    return _DECLARED_BODY[key]


def declared_body_fields(view: ClubAPIView, method: str) -> frozenset[str] | None:
    """The fields of the body ``view`` documents for ``method``: a serializer's writable
    fields, or a JSON schema's properties. The schema and what is accepted are one list, as
    for the query parameters."""
    declared = declared_body(view, method)
    if isinstance(declared, serializers.Serializer):
        return frozenset(name for name, field in declared.fields.items() if not field.read_only)
    if isinstance(declared, dict):
        schema = declared.get("application/json", declared)
        if isinstance(schema, dict) and "properties" in schema:
            return frozenset(schema["properties"])
    return None


def body_fields_read(view: ClubAPIView, method: str) -> frozenset[str] | None:
    """The body fields ``view`` reads for ``method``: those it declares; none for an endpoint
    that reads no body (``request=None``: finish, reopen, ping, start a round...) or a DELETE
    (``delete_body_fields`` apart); None for a body declared without a list of fields, or a
    method the view does not take (answered 405 whatever the body)."""
    if getattr(view, method.lower(), None) is None:
        return None
    if method == "DELETE":
        return view.delete_body_fields
    known = declared_body_fields(view, method)
    if known is None and declared_body(view, method) is None:
        return frozenset()
    return known


def refuse_unknown_fields(view: ClubAPIView, request: Request) -> None:
    """400 ``unknown_field`` on a body field the endpoint does not read, rather than dropping
    it (a webhook sent ``"event"`` for ``"events"`` would hear every event), on every field of
    a body sent to an endpoint that reads none (an empty body or ``{}`` passes); and a number
    sent for a text field (DRF would read ``{"name": 0}`` as the name "0", where the schema
    says a string). A body that is not JSON, or not an object, is left to the handler, which
    says what is wrong with it."""
    if request.method in SAFE_METHODS:
        return
    media_type = (request.content_type or "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        return
    method = request.method or "POST"
    known = body_fields_read(view, method)
    body = request.data
    if known is None or not isinstance(body, dict):
        return
    unknown = sorted(set(body) - known)
    if unknown:
        message = Msg("unknown_field").render(engine_language())
        raise ValidationError(
            {name[:60]: [ErrorDetail(message, code=Code.UNKNOWN_FIELD)] for name in unknown}
        )
    declared = declared_body(view, method)
    if isinstance(declared, serializers.Serializer):
        not_text = {
            name: [ErrorDetail(str(field.error_messages["invalid"]), code=Code.INVALID)]
            for name, field in declared.fields.items()
            if isinstance(field, serializers.CharField) and isinstance(body.get(name), int | float)
        }
        if not_text:
            raise ValidationError(not_text)


class DatabaseBusy(APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = Code.DATABASE_BUSY
    # Seconds: DRF's handler sends it as Retry-After (the lock is held for a moment only).
    wait = 1


def busy_if_locked(write: Callable[[], T]) -> T:
    """Run a write; a database still locked when its wait runs out answers 503, not 500.

    PostgreSQL makes concurrent writers wait for each other's row locks, and so does SQLite with
    ``transaction_mode`` IMMEDIATE and a timeout (the settings), after which it says "database is
    locked". The write was refused whole, so trying later is safe.
    """
    try:
        return write()
    except OperationalError as error:
        if "locked" not in str(error):
            raise
        raise DatabaseBusy(gettext("The database is busy: try again in a moment.")) from None


def refusal(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=FIELD_ERRORS_SCHEMA, description=description)


# Answers every club endpoint may give, for the schema.
UNAUTHENTICATED = refusal("No valid token or session: sign in (`Authorization: Token ...`).")
FORBIDDEN = refusal("Signed in, but not allowed to do this in this club.")
NOT_FOUND = refusal("No such object, or it belongs to a private club the caller is not in.")
BAD_BODY = refusal("A message per field; `non_field_errors` for the body as a whole.")
TOO_LARGE = refusal("The body is over 64 KB.")
NOT_JSON = refusal("The body is not sent as application/json.")

READ_ERRORS: dict[int, Any] = {404: NOT_FOUND}
# Creating a club, a player or a game: the club is named in the body (400 if unknown).
CREATE_ERRORS: dict[int, Any] = {
    400: BAD_BODY,
    401: UNAUTHENTICATED,
    403: FORBIDDEN,
    413: TOO_LARGE,
    415: NOT_JSON,
}
# Changing an object named in the path.
WRITE_ERRORS: dict[int, Any] = {**CREATE_ERRORS, 404: NOT_FOUND}
