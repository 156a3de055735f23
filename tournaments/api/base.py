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
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response

from tarot_scores.api.base import ClubAPIView, refusal
from tarot_scores.api.clubs import CLUB_ID, club_filter
from tarot_scores.api.serializers import MAX_ID
from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Club
from tournaments.errors import TournamentError
from tournaments.models import Entry, Round, Tournament

__all__ = ["MAX_ID", "TournamentAPIView", "club_filter", "refusal"]


class TournamentAPIView(ClubAPIView):
    """Base of the tournament endpoints: the club endpoints' sign-in, parser and refusals."""

    queryset = Tournament.objects.all()


def tournament_or_404(who: Any, pk: int) -> Tournament:
    """The tournament, with its club; 404 if unknown or in a private club the caller is not in."""
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is None or not permissions.can_view_club(who, tournament.club):
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


def round_or_404(tournament: Tournament, number: int) -> Round:
    """The tournament's round (or knockout stage) of that number, sharing ``tournament``."""
    round_ = Round.objects.filter(tournament=tournament, number=number).first()
    if round_ is None:
        raise Http404
    round_.tournament = tournament
    return round_


def require_organiser(who: Any, club: Club) -> None:
    """401 for an anonymous caller (sign in first), else 403 unless the caller organises the
    club (or is a superuser): an organisers' read asked anonymously says to sign in, as a write
    does."""
    user = getattr(who, "user", who)
    if user is None or not user.is_authenticated:
        raise NotAuthenticated()
    if not permissions.is_organiser(who, club):
        raise PermissionDenied()


CLUB_QUERY = OpenApiParameter(
    "club", CLUB_ID, description="Only this club's (404 if it is private and the caller not in it)."
)
ROUND_NUMBER = OpenApiParameter(
    "number",
    int,
    OpenApiParameter.PATH,
    description="The round's (or knockout stage's) number, as in the rounds list: 1, 2...",
)

NOT_FOUND = refusal(
    "No such tournament, entry or round, or it belongs to a private club the caller is not in."
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


TAGS = ["tournaments"]
CONFLICT = refusal("The tournament's state refuses it now: `non_field_errors` says why.")


def conflict(error: TournamentError) -> Response:
    """A request the tournament's state refuses now: 409 with the service's message."""
    return Response({"non_field_errors": [str(error)]}, status=status.HTTP_409_CONFLICT)
