"""A club's leaderboard and a player's history over the API: the same reads as the club's
leaderboard page and the player's page (``stats.selectors.leaderboard``, ``player_history``).

A private club's leaderboard, and a player seen only in private clubs the caller is not in, do
not exist for him (404).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import READ_ERRORS, ClubAPIView, refusal
from tarot_scores.api.clubs import CLUB_ID, SEASON_TYPE
from tarot_scores.api.permissions import club_or_404
from tarot_scores.api.serializers import MAX_ID
from tarot_scores.clubs.models import Player
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core.kinds import TABLE_SIZES, TAROT
from tarot_scores.stats.selectors import LEADERBOARD_SORTS, LeaderRow, leaderboard, player_history

KINDS = sorted(TABLE_SIZES)
SIZES = sorted({size for sizes in TABLE_SIZES.values() for size in sizes})


class LeaderboardQuerySerializer(serializers.Serializer[Any]):
    """The query string, checked whole so that each wrong field gets its message."""

    season = serializers.IntegerField(required=False, min_value=1900, max_value=9999)
    size = serializers.ChoiceField(choices=SIZES, required=False)
    kind = serializers.ChoiceField(choices=KINDS, required=False, default=TAROT)
    ordering = serializers.ChoiceField(
        choices=list(LEADERBOARD_SORTS), required=False, default="points"
    )


class LeaderRowSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="1 for the first, in the order asked.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField(help_text="As on score sheets: the nickname, else the name.")
    points = serializers.IntegerField(help_text="The sum of the player's scores.")
    deals = serializers.IntegerField(help_text="Deals played (not sat out).")
    average = serializers.FloatField(help_text="points / deals.")
    taken = serializers.IntegerField(help_text="Deals as taker.")
    taken_won = serializers.IntegerField(help_text="Of those, contracts made.")
    success = serializers.FloatField(allow_null=True, help_text="taken_won / taken, 0 to 1.")


def leader_json(row: LeaderRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player_id,
        "name": row.name,
        "points": row.points,
        "deals": row.deals,
        "average": row.average,
        "taken": row.taken,
        "taken_won": row.taken_won,
        "success": row.success,
    }


class ClubLeaderboardView(ClubAPIView):
    serializer_class = LeaderRowSerializer
    paged = True

    @extend_schema(
        operation_id="clubs_leaderboard",
        summary="A club's leaderboard",
        description="The club's players ranked as on its leaderboard page, from its statistics "
        "(one query, whatever the number of deals). Without `season`, every season together; "
        "without `size`, every table size. `ordering`: `points` (default: the highest total "
        "first), `average`, `deals`, `taken`, `success` (each highest first) or `name`; ties "
        "by name. Players with no deal in the scope are left out.",
        tags=["clubs"],
        parameters=[
            OpenApiParameter(
                "season", SEASON_TYPE, description="The season, by the year it starts in (2025)."
            ),
            OpenApiParameter("size", int, enum=SIZES, description="Only tables of this size."),
            OpenApiParameter("kind", str, enum=KINDS, description="The game (default `tarot`)."),
            OpenApiParameter(
                "ordering", str, enum=list(LEADERBOARD_SORTS), description="The order."
            ),
        ],
        responses={
            200: LeaderRowSerializer(many=True),
            400: refusal("A filter's value is not one it takes."),
            **READ_ERRORS,
        },
        examples=[
            OpenApiExample(
                "leader",
                value={
                    "rank": 1,
                    "player": 14,
                    "name": "Chloé",
                    "points": 1290,
                    "deals": 48,
                    "average": 26.875,
                    "taken": 14,
                    "taken_won": 10,
                    "success": 0.714,
                },
                response_only=True,
                status_codes=["200"],
            )
        ],
    )
    def get(self, request: Request, pk: int) -> Response:
        club = club_or_404(request, pk)
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        rows = leaderboard(
            club=club,
            season=data.get("season"),
            table_size=data.get("size"),
            kind=data["kind"],
            sort=data["ordering"],
        )
        return self.page_of([leader_json(row) for row in rows])


class HistoryQuerySerializer(serializers.Serializer[Any]):
    club = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)


class PlayerGameSerializer(serializers.Serializer[Any]):
    game = serializers.IntegerField(help_text="The game's id (`GET /api/v1/games/{id}/`).")
    club = serializers.IntegerField()
    date = serializers.DateField()
    label = serializers.CharField()  # type: ignore[assignment]
    status = serializers.CharField(help_text="`open` or `finished`.")
    deals = serializers.IntegerField(help_text="Live deals the player had a score in.")
    total = serializers.IntegerField(help_text="The player's total in this game.")


class PlayerHistoryView(ClubAPIView):
    serializer_class = PlayerGameSerializer
    paged = True

    @extend_schema(
        operation_id="players_history",
        summary="A player's games",
        description="Every game the player has a score in, oldest first, with the player's "
        "total and deals in each, summed from the score lines (deleted deals left out). With "
        "`?club=id`, that club's games only; without, those of every club the caller may read.",
        tags=["players"],
        parameters=[OpenApiParameter("club", CLUB_ID, description="Only this club's games.")],
        responses={
            200: PlayerGameSerializer(many=True),
            400: refusal("`club` is not an id."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        query = HistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        readable = clubs_for(user=request.user)
        player = Player.objects.filter(pk=pk, clubs__in=readable).distinct().first()
        if player is None:
            raise Http404
        if "club" in query.validated_data:
            clubs = [club_or_404(request, query.validated_data["club"])]
        else:
            clubs = list(readable.filter(players=player).order_by("pk"))
        games = [entry for club in clubs for entry in player_history(club=club, player=player)]
        games.sort(key=lambda entry: (entry.game.date, entry.game.pk))
        return self.page_of(
            [
                {
                    "game": entry.game.pk,
                    "club": entry.game.club_id,
                    "date": entry.game.date,
                    "label": entry.game.label,
                    "status": entry.game.status,
                    "deals": entry.deals,
                    "total": entry.total,
                }
                for entry in games
            ]
        )
