"""A championship's cuts through the API: the tournament's organisers and referees preview the
cut after a closed round (the ranking with the line drawn), confirm it and undo it
(``tournaments.standings.cuts``, the services the "Cut after round k" page calls)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.problems import refusal_problem
from tarot_scores.api.serializers import time_json
from tournaments.api.base import (
    ROUND_NUMBER,
    WRITE_ERRORS,
    TournamentAPIView,
    refusal,
    round_or_404,
    tournament_or_404,
)
from tournaments.errors import CutRefused
from tournaments.models import Cut, Round, Tournament
from tournaments.rules import can_referee
from tournaments.standings import cuts

TAGS = ["tournaments"]
BOUND = 2**31 - 1


class CutRequestSerializer(serializers.Serializer[Any]):
    keep = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-BOUND,
        max_value=BOUND,
        help_text="How many players go through (at least 1, fewer than the field); or `share`.",
    )
    share = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=-BOUND,
        max_value=BOUND,
        help_text="Or the share of the field that goes through, in percent (1 to 99), rounded up.",
    )
    carry = serializers.BooleanField(
        required=False,
        default=True,
        help_text="The qualified keep their points (true), or restart from zero (false).",
    )


class CutPlayerSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="His total of the current stage.")
    qualified = serializers.BooleanField(help_text="Above the line: goes through.")


class CutPreviewSerializer(serializers.Serializer[Any]):
    after_round = serializers.IntegerField()
    field = serializers.IntegerField(help_text="The players still in (withdrawn ones left out).")
    asked = serializers.IntegerField(help_text="The places asked: `keep`, or the share's.")
    keep = serializers.IntegerField(help_text="The places kept: ties at the line included.")
    tied = serializers.IntegerField(help_text="Players above the places asked, tied at the line.")
    carry = serializers.BooleanField()
    players = CutPlayerSerializer(many=True)


class CutSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    after_round = serializers.IntegerField()
    field = serializers.IntegerField()
    asked_count = serializers.IntegerField(allow_null=True)
    asked_share = serializers.IntegerField(allow_null=True, help_text="In percent, or null.")
    keep = serializers.IntegerField()
    carry = serializers.BooleanField()
    confirmed_by = serializers.CharField(allow_null=True)
    confirmed_at = serializers.DateTimeField()


def preview_json(preview: cuts.CutPreview) -> dict[str, Any]:
    return {
        "after_round": preview.after_round,
        "field": len(preview.field),
        "asked": preview.asked,
        "keep": preview.keep,
        "tied": preview.tied,
        "carry": preview.carry,
        "players": [
            {
                "rank": row.rank,
                "player": row.player.pk,
                "name": row.player.label,
                "total": row.total,
                "qualified": i < preview.keep,
            }
            for i, row in enumerate(preview.field)
        ],
    }


def cut_json(cut: Cut) -> dict[str, Any]:
    return {
        "id": cut.pk,
        "after_round": cut.after_round,
        "field": cut.field_size,
        "asked_count": cut.asked_count,
        "asked_share": cut.asked_share,
        "keep": cut.keep,
        "carry": cut.carry,
        "confirmed_by": cut.confirmed_by.get_username() if cut.confirmed_by else None,
        "confirmed_at": time_json(cut.confirmed_at),
    }


def _referee_round(request: Request, pk: int, number: int) -> tuple[Tournament, Round]:
    tournament = tournament_or_404(request, pk)
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if not can_referee(request, tournament):
        raise PermissionDenied()
    return tournament, round_or_404(tournament, number)


def conflict(refused: CutRefused) -> Response:
    return refusal_problem(refused, status=status.HTTP_409_CONFLICT)


ERRORS = {
    **WRITE_ERRORS,
    403: refusal("Signed in, but neither an organiser nor a referee of the tournament."),
    409: refusal(
        "No cut now: the round is not closed, the next one is seated, players were cut after "
        "it already, it is the last round, or the tournament is not in rounds."
    ),
}

CUT_EXAMPLES = [
    OpenApiExample("Half the field", request_only=True, value={"share": 50, "carry": True}),
    OpenApiExample("52 players, from zero", request_only=True, value={"keep": 52, "carry": False}),
]


class RoundCutView(TournamentAPIView):
    serializer_class = CutSerializer

    @extend_schema(
        operation_id="tournament_rounds_cut_preview",
        summary="Preview the cut after a round",
        description="Organisers and referees. The players still in, ranked as the standings "
        "rank them, with the line drawn: `qualified` above it. `?keep=N` or `?share=P` (percent, "
        "rounded up); players tied with the last place on the total, the best and the last round "
        "go through too (`tied`). 400 per field for a request out of range; 409 when no cut can "
        "be made after this round now.",
        tags=TAGS,
        parameters=[
            ROUND_NUMBER,
            OpenApiParameter("keep", int, description="How many players go through."),
            OpenApiParameter("share", int, description="Or a share of the field, in percent."),
            OpenApiParameter("carry", bool, description="Scores carried over (default true)."),
        ],
        responses={200: CutPreviewSerializer, **ERRORS},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        tournament, round_ = _referee_round(request, pk, number)
        asked = CutRequestSerializer(data=request.query_params.dict())
        asked.is_valid(raise_exception=True)
        try:
            preview = cuts.cut_preview(
                tournament=tournament, after_round=round_.number, **asked.validated_data
            )
        except CutRefused as refused:
            return conflict(refused)
        return Response(preview_json(preview))

    @extend_schema(
        operation_id="tournament_rounds_cut_confirm",
        summary="Make the cut after a round",
        description="Organisers and referees. The players below the line are eliminated after "
        "this round: ranked below the players still in, in their order at the cut, and no longer "
        "seated. `carry: false`: the qualified restart from zero (their totals count the rounds "
        "after this one). 400 per field, 409 as for the preview.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=CutRequestSerializer,
        responses={201: CutSerializer, **ERRORS},
        examples=CUT_EXAMPLES,
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        tournament, round_ = _referee_round(request, pk, number)
        asked = CutRequestSerializer(data=request.data)
        asked.is_valid(raise_exception=True)
        try:
            made = cuts.cut_confirm(
                tournament=tournament,
                after_round=round_.number,
                by=request.user,
                **asked.validated_data,
            )
        except CutRefused as refused:
            return conflict(refused)
        return Response(cut_json(made), status=status.HTTP_201_CREATED)

    @extend_schema(
        operation_id="tournament_rounds_cut_undo",
        summary="Undo the cut after a round",
        description="Organisers and referees, while the next round is not seated (409 "
        "otherwise, or when no cut was made): its players are in again. The cut stays in the "
        "history, marked undone.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=None,
        responses={204: None, **ERRORS},
    )
    def delete(self, request: Request, pk: int, number: int) -> Response:
        tournament, round_ = _referee_round(request, pk, number)
        try:
            cuts.cut_undo(tournament=tournament, after_round=round_.number, by=request.user)
        except CutRefused as refused:
            return conflict(refused)
        return Response(status=status.HTTP_204_NO_CONTENT)
