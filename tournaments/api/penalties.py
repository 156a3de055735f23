"""Penalties through the API: a tournament's referees and organisers list, give and remove
them (``tournaments.play.penalties``, the services the Penalties page calls). A removed penalty
stays in the list, marked removed."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.serializers import time_json
from tournaments.api.base import (
    MAX_ID,
    WRITE_ERRORS,
    TournamentAPIView,
    refusal,
    tournament_or_404,
)
from tournaments.models import PENALTY_POINTS_MAX, PENALTY_REASON_MAX, Entry, Penalty, Tournament
from tournaments.play import penalties
from tournaments.rules import can_referee
from tournaments.standings import selectors as standings_selectors

TAGS = ["tournaments"]


class PenaltySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    entry = serializers.IntegerField(help_text="The entry's id (see `.../entries/`).")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    round = serializers.IntegerField(help_text="The round's number; the penalty lowers it.")
    deal = serializers.IntegerField(allow_null=True, help_text="The deal's id, or null.")
    deal_number = serializers.IntegerField(
        allow_null=True, help_text="The deal's number at the player's table, or null."
    )
    points = serializers.IntegerField(help_text="Points taken off (a positive number).")
    reason = serializers.CharField()
    given_by = serializers.CharField(allow_null=True)
    given_at = serializers.DateTimeField()
    removed = serializers.BooleanField(help_text="Removed: kept in the history, counts no more.")
    removed_by = serializers.CharField(allow_null=True)
    removed_at = serializers.DateTimeField(allow_null=True)
    removal_reason = serializers.CharField()


class PenaltyCreateSerializer(serializers.Serializer[Any]):
    entry = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The entry's id.")
    round = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        help_text="The round's number; may be left out when `deal` is given.",
    )
    deal = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        help_text="The deal's id, one of the player's table; null or left out: the round's.",
    )
    points = serializers.IntegerField(
        min_value=1, max_value=PENALTY_POINTS_MAX, help_text="Points taken off."
    )
    reason = serializers.CharField(max_length=PENALTY_REASON_MAX)


class PenaltyRemoveSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(
        max_length=PENALTY_REASON_MAX, required=False, allow_blank=True, default=""
    )


def penalty_json(penalty: Penalty) -> dict[str, Any]:
    return {
        "id": penalty.pk,
        "entry": penalty.entry_id,
        "player": penalty.entry.player_id,
        "name": penalty.entry.player.label,
        "round": penalty.round.number,
        "deal": penalty.deal_id,
        "deal_number": penalty.deal.number if penalty.deal else None,
        "points": penalty.points,
        "reason": penalty.reason,
        "given_by": penalty.given_by.get_username() if penalty.given_by else None,
        "given_at": time_json(penalty.given_at),
        "removed": penalty.removed_at is not None,
        "removed_by": penalty.removed_by.get_username() if penalty.removed_by else None,
        "removed_at": time_json(penalty.removed_at),
        "removal_reason": penalty.removal_reason,
    }


def _referee_only(request: Request, tournament: Tournament) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if not can_referee(request, tournament):
        raise PermissionDenied()


CREATE_EXAMPLES = [
    OpenApiExample(
        "On a deal",
        request_only=True,
        value={"entry": 12, "deal": 345, "points": 20, "reason": "Card exposed before the lead."},
    ),
    OpenApiExample(
        "On a round",
        request_only=True,
        value={"entry": 12, "round": 2, "points": 50, "reason": "Late to the table."},
    ),
]

ERRORS = {
    **WRITE_ERRORS,
    403: refusal("Signed in, but neither an organiser nor a referee of the tournament."),
}


class PenaltyListView(TournamentAPIView):
    serializer_class = PenaltySerializer
    paged = True

    @extend_schema(
        operation_id="tournament_penalties_list",
        summary="A tournament's penalties",
        description="Organisers and referees. Every penalty given, in round order, the removed "
        "ones included (`removed`: they count no more). A penalty lowers the player's points of "
        "its round in the standings.",
        tags=TAGS,
        responses={200: PenaltySerializer(many=True), **ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        _referee_only(request, tournament)
        return self.page_of(
            [penalty_json(p) for p in standings_selectors.penalties_for(tournament=tournament)]
        )

    @extend_schema(
        operation_id="tournament_penalties_create",
        summary="Give a penalty",
        description="Organisers and referees. `points` (1 to 10000) come off the player's score "
        "in the round of `deal` (a deal of his table) or in `round`; `reason` is required. The "
        "answer is the penalty. 400 with a message per field: an unknown entry, a round he was "
        "not seated in, a deal of another table...",
        tags=TAGS,
        request=PenaltyCreateSerializer,
        responses={201: PenaltySerializer, **ERRORS},
        examples=CREATE_EXAMPLES,
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        _referee_only(request, tournament)
        serializer = PenaltyCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        entry = (
            Entry.objects.select_related("player")
            .filter(tournament=tournament, pk=data["entry"])
            .first()
        )
        if entry is None:
            raise serializers.ValidationError({"entry": [_("No such entry in this tournament.")]})
        penalty = penalties.penalty_give(
            tournament=tournament,
            entry=entry,
            points=data["points"],
            reason=data["reason"],
            by=request.user,
            round_number=data.get("round"),
            deal_id=data.get("deal"),
        )
        found = standings_selectors.penalties_for(tournament=tournament)
        return Response(
            penalty_json(next(p for p in found if p.pk == penalty.pk)),
            status=status.HTTP_201_CREATED,
        )


class PenaltyDetailView(TournamentAPIView):
    serializer_class = PenaltySerializer
    delete_body_fields = frozenset({"reason"})

    @extend_schema(
        operation_id="tournament_penalties_destroy",
        summary="Remove a penalty",
        description="Organisers and referees. The penalty counts no more but stays in the list, "
        "marked removed, with who removed it, when and the optional `reason` (`?reason=`, as "
        'for a deal\'s deletion; a JSON body `{"reason": ...}` is read too). 400 if it was '
        "removed already.",
        tags=TAGS,
        # A DELETE's body is not declared by the schema (drf-spectacular leaves it out), so a
        # generated client could not send the reason: the query parameter carries it.
        parameters=[
            OpenApiParameter(
                "reason",
                str,
                description="Why the penalty is removed (at most 500 characters), kept with it.",
            )
        ],
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, pk: int, penalty_id: int) -> Response:
        tournament = tournament_or_404(request, pk)
        _referee_only(request, tournament)
        penalty = Penalty.objects.filter(tournament=tournament, pk=penalty_id).first()
        if penalty is None:
            raise NotFound()
        sent = dict(request.data) if isinstance(request.data, dict) else {}
        if "reason" in request.query_params:
            sent["reason"] = request.query_params["reason"]
        serializer = PenaltyRemoveSerializer(data=sent)
        serializer.is_valid(raise_exception=True)
        penalties.penalty_remove(
            penalty=penalty, by=request.user, reason=serializer.validated_data["reason"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
