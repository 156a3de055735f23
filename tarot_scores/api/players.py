"""A player's tarot statistics over the API: the same figures as his page
(``stats.selectors.player_stats``), over one club's deals or every club the caller may read.

A player seen only in private clubs the caller is not in does not exist for him (404); without
``club``, the deals of clubs he may not read are left out.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import READ_ERRORS, ClubAPIView, refusal
from tarot_scores.api.clubs import CLUB_QUERY, SEASON_TYPE
from tarot_scores.api.permissions import club_or_404
from tarot_scores.api.serializers import MAX_ID
from tarot_scores.clubs.models import Player
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.scoring import Contract
from tarot_scores.stats.selectors import (
    HEAD_TO_HEAD_MIN_DEALS,
    PlayerStats,
    WithPlayer,
    player_stats,
)


class StatsQuerySerializer(serializers.Serializer):  # type: ignore[type-arg]
    """The query string, checked whole so that each wrong field gets its message."""

    club = serializers.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    season = serializers.IntegerField(required=False, min_value=1900, max_value=9999)


class ContractSerializer(serializers.Serializer):  # type: ignore[type-arg]
    contract = serializers.ChoiceField(choices=[c.value for c in Contract])
    taken = serializers.IntegerField()
    won = serializers.IntegerField()
    success = serializers.FloatField(help_text="won / taken, from 0 to 1.")
    average = serializers.FloatField(help_text="The player's average score on these deals.")


class WithPlayerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    player = serializers.DictField(help_text="`{id, name}`.")
    deals = serializers.IntegerField()
    average = serializers.FloatField(help_text="The player's average score in those deals.")


class PartnerSerializer(serializers.Serializer):  # type: ignore[type-arg]
    deals = serializers.IntegerField(help_text="Deals as the called partner (five, called king).")
    won = serializers.IntegerField()
    average = serializers.FloatField(allow_null=True)
    partners = WithPlayerSerializer(many=True, help_text="Same attack, best average first.")


class HeadToHeadSerializer(serializers.Serializer):  # type: ignore[type-arg]
    min_deals = serializers.IntegerField(help_text="Deals in the other camp to be listed.")
    best = WithPlayerSerializer(many=True)
    worst = WithPlayerSerializer(many=True)


class PetitSerializer(serializers.Serializer):  # type: ignore[type-arg]
    made = serializers.IntegerField(help_text="Won in the last trick by the player's camp.")
    lost = serializers.IntegerField(help_text="Won in the last trick by the other camp.")


class SlamSerializer(serializers.Serializer):  # type: ignore[type-arg]
    made = serializers.IntegerField(help_text="Every trick taken by the player's camp.")
    failed = serializers.IntegerField(help_text="Announced by his attack and failed.")
    against = serializers.IntegerField(help_text="Every trick taken by the other camp.")


class PlayerStatsSerializer(serializers.Serializer):  # type: ignore[type-arg]
    player = serializers.DictField(help_text="`{id, name}`.")
    club = serializers.IntegerField(allow_null=True)
    season = serializers.IntegerField(allow_null=True)
    deals = serializers.IntegerField(help_text="Live tarot deals played (not sat out).")
    taken = serializers.IntegerField()
    contracts = ContractSerializer(many=True)
    taker_average = serializers.FloatField(allow_null=True)
    defender_average = serializers.FloatField(allow_null=True)
    partner = PartnerSerializer()
    head_to_head = HeadToHeadSerializer()
    petit_au_bout = PetitSerializer()
    handfuls = serializers.DictField(
        child=serializers.IntegerField(), help_text="Handfuls shown, by size."
    )
    slams = SlamSerializer()


def _with(row: WithPlayer) -> dict[str, Any]:
    return {
        "player": {"id": row.player_id, "name": row.name},
        "deals": row.deals,
        "average": row.average,
    }


def stats_body(
    player: Player, club_id: int | None, season: int | None, stats: PlayerStats
) -> dict[str, Any]:
    return {
        "player": {"id": player.pk, "name": player.label},
        "club": club_id,
        "season": season,
        "deals": stats.deals,
        "taken": stats.taken,
        "contracts": [
            {
                "contract": c.contract,
                "taken": c.taken,
                "won": c.won,
                "success": c.success,
                "average": c.average,
            }
            for c in stats.contracts
        ],
        "taker_average": stats.taker_average,
        "defender_average": stats.defender_average,
        "partner": {
            "deals": stats.partner_deals,
            "won": stats.partner_won,
            "average": stats.partner_average,
            "partners": [_with(r) for r in stats.partners],
        },
        "head_to_head": {
            "min_deals": HEAD_TO_HEAD_MIN_DEALS,
            "best": [_with(r) for r in stats.best_against],
            "worst": [_with(r) for r in stats.worst_against],
        },
        "petit_au_bout": {"made": stats.petit_made, "lost": stats.petit_lost},
        "handfuls": stats.handfuls,
        "slams": {
            "made": stats.slams_made,
            "failed": stats.slams_failed,
            "against": stats.slams_against,
        },
    }


STATS_EXAMPLE = OpenApiExample(
    "statistics",
    value={
        "player": {"id": 14, "name": "Chloé"},
        "club": 3,
        "season": 2025,
        "deals": 7,
        "taken": 3,
        "contracts": [
            {"contract": "prise", "taken": 1, "won": 0, "success": 0.0, "average": -138.0},
            {"contract": "garde", "taken": 2, "won": 2, "success": 1.0, "average": 225.0},
        ],
        "taker_average": 104.0,
        "defender_average": 68.0,
        "partner": {
            "deals": 1,
            "won": 1,
            "average": 35.0,
            "partners": [{"player": {"id": 15, "name": "Denis"}, "deals": 1, "average": 35.0}],
        },
        "head_to_head": {
            "min_deals": 3,
            "best": [{"player": {"id": 16, "name": "Émile"}, "deals": 4, "average": 142.75}],
            "worst": [{"player": {"id": 17, "name": "Bruno"}, "deals": 3, "average": 27.0}],
        },
        "petit_au_bout": {"made": 1, "lost": 1},
        "handfuls": {"simple": 1},
        "slams": {"made": 1, "failed": 0, "against": 0},
    },
    response_only=True,
    status_codes=["200"],
)


class PlayerStatsView(ClubAPIView):
    serializer_class = PlayerStatsSerializer

    @extend_schema(
        operation_id="players_stats",
        summary="A player's tarot statistics",
        description="Over the player's live tarot deals: at one club with `club`, else at every "
        "club the caller may read; one season with `season`. Takes by contract, averages as "
        "taker and defender, the called partner's results and best partners, head-to-head "
        "(opponents met at least `min_deals` times in the other camp), petit au bout, handfuls "
        "shown and slams.",
        tags=["players"],
        parameters=[
            CLUB_QUERY,
            OpenApiParameter(
                "season", SEASON_TYPE, description="The year the season starts in, e.g. 2025."
            ),
        ],
        responses={
            200: PlayerStatsSerializer,
            400: refusal("`club` is not an id, or `season` not a year: a message per field."),
            **READ_ERRORS,
        },
        examples=[STATS_EXAMPLE],
    )
    def get(self, request: Request, pk: int) -> Response:
        query = StatsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        club_id: int | None = query.validated_data.get("club")
        season: int | None = query.validated_data.get("season")
        readable = clubs_for(user=request.user)
        player = Player.objects.filter(pk=pk, clubs__in=readable).distinct().first()
        if player is None:
            raise Http404
        if club_id is not None:
            club = club_or_404(request, club_id)
            stats = player_stats(player=player, club=club, season=season)
        else:
            stats = player_stats(player=player, season=season, clubs=readable)
        return Response(stats_body(player, club_id, season, stats))
