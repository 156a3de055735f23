"""What every tournament endpoint shares: who may call it, how a body is read, what a refusal
looks like, and the common answers described once for the schema.

Bodies go through the calculator's guarded JSON parser (size, nesting, Unicode) and refusals
have its shape, ``{field: [messages]}`` with ``non_field_errors`` for the request as a whole.
Who may read or write is ``tarot_scores.permissions``, the questions the pages ask: a private
club's tournaments do not exist for outsiders (404); writing is for the club's organisers.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from tarot_scores import permissions
from tarot_scores.api.calculator import (
    FIELD_ERRORS_SCHEMA,
    AlwaysJSON,
    DealJSONParser,
    refusal_as_field_errors,
)
from tarot_scores.models import Club
from tournaments.models import Entry, Tournament

# Ids must fit the database's bigint columns: a larger one is refused as a value, never queried.
MAX_ID = 2**63 - 1


class ReadAnyoneWriteSignedIn(BasePermission):
    """Reads are checked per tournament; a write without an account is 401 before any lookup."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


class TournamentAPIView(GenericAPIView):  # type: ignore[type-arg]
    """Base of the tournament endpoints: JSON only, bounded bodies, one refusal shape.

    Token authentication comes first so that an anonymous write is answered 401 with
    ``WWW-Authenticate: Token`` (with the session first, DRF would answer 403).
    """

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [ReadAnyoneWriteSignedIn]
    parser_classes = [DealJSONParser]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSON
    queryset = Tournament.objects.all()

    def get_exception_handler(self) -> Any:
        return refusal_as_field_errors


def tournament_or_404(user: Any, pk: int) -> Tournament:
    """The tournament, with its club; 404 if unknown or in a private club the user is not in."""
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is None or not permissions.can_view_club(user, tournament.club):
        raise Http404
    return tournament


def entry_or_404(tournament: Tournament, pk: int) -> Entry:
    entry = (
        Entry.objects.select_related("player", "team", "tournament")
        .filter(tournament=tournament, pk=pk)
        .first()
    )
    if entry is None:
        raise Http404
    return entry


def require_organiser(user: Any, club: Club) -> None:
    """403 unless the user organises the club (or is a superuser)."""
    if not permissions.is_organiser(user, club):
        raise PermissionDenied()


def club_filter(request: Request) -> Club | None:
    """The club of ``?club=id``, or None; 400 if it is not an id, 404 if unknown or private."""
    raw = request.query_params.get("club")
    if raw is None:
        return None
    field = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    try:
        pk = field.run_validation(raw)
    except serializers.ValidationError as error:
        raise serializers.ValidationError({"club": error.detail}) from None
    club = Club.objects.filter(pk=pk).first()
    if club is None or not permissions.can_view_club(request.user, club):
        raise Http404
    return club


def refusal(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=FIELD_ERRORS_SCHEMA, description=description)


CLUB_QUERY = OpenApiParameter(
    "club", int, description="Only this club's (404 if it is private and the caller not in it)."
)

NOT_FOUND = refusal(
    "No such tournament (or entry), or it belongs to a private club the caller is not in."
)
READ_ERRORS: dict[int, Any] = {404: NOT_FOUND}
WRITE_ERRORS: dict[int, Any] = {
    400: refusal("A message per field; `non_field_errors` for the body as a whole."),
    401: refusal("No valid token or session: sign in (`Authorization: Token ...`)."),
    403: refusal("Signed in, but not an organiser of the tournament's club."),
    404: NOT_FOUND,
    413: refusal("The body is over 64 KB."),
    415: refusal("The body is not sent as application/json."),
}
