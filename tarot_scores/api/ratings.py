"""A club's players ranked by rating over the API: today's ratings, or as a season ended.

The same ranking as the club's page (``ratings.selectors.rating_ranking``): only the players
with at least ``RATING_MIN_DEALS`` rated deals, best first. A private club does not exist for
outsiders (404).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import READ_ERRORS, ClubAPIView, refusal
from tarot_scores.api.clubs import SEASON_TYPE
from tarot_scores.api.paging import Pages
from tarot_scores.api.permissions import club_or_404
from tarot_scores.ratings import selectors
from tarot_scores.ratings.selectors import RatedPlayer


class RatedPlayerRefSerializer(serializers.Serializer):  # type: ignore[type-arg]
    id = serializers.IntegerField()
    name = serializers.CharField()


class RatingRowSerializer(serializers.Serializer):  # type: ignore[type-arg]
    rank = serializers.IntegerField()
    player = RatedPlayerRefSerializer()
    rating = serializers.IntegerField(
        help_text="The rating shown: 1000 + 40 (mu - 3 sigma), rounded, never below 0."
    )
    mu = serializers.FloatField(help_text="The skill the site believes in (a newcomer: 25).")
    sigma = serializers.FloatField(help_text="How unsure it still is (a newcomer: 8.33).")
    deals = serializers.IntegerField(help_text="Rated deals (in the season, with `season`).")


def rating_row(row: RatedPlayer) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": {"id": row.player_id, "name": row.name},
        "rating": row.rating,
        "mu": row.mu,
        "sigma": row.sigma,
        "deals": row.deals,
    }


def season_filter(request: Request) -> int | None:
    """The season of ``?season=2025`` (the year it starts in), None without one; 400 else."""
    raw = request.query_params.get("season")
    if not raw:
        return None
    field = serializers.IntegerField(min_value=1900, max_value=9999)
    try:
        season: int = field.run_validation(raw)
    except serializers.ValidationError as error:
        raise serializers.ValidationError({"season": error.detail}) from None
    return season


# One row: drf-spectacular wraps it in a page ({"count", "next", "previous", "results"}).
RATINGS_EXAMPLE = OpenApiExample(
    "ranking",
    value={
        "rank": 1,
        "player": {"id": 14, "name": "Chloé Martin"},
        "rating": 12,
        "mu": 27.93,
        "sigma": 5.21,
        "deals": 64,
    },
    response_only=True,
    status_codes=["200"],
)


class RatingsPages(Pages):
    """The page of a club's ratings: every list's members, and since when the ratings wait for
    the background job (the view fills it in)."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged: dict[str, Any] = super().get_paginated_response_schema(schema)
        paged["properties"]["ratings_behind_since"] = {
            "type": "string",
            "format": "date-time",
            "nullable": True,
            "description": "Null, or the time since which a deal entered or corrected waits "
            "to be taken into the ratings (recomputed in the background).",
            # drf-spectacular builds the page's example from each member's own example; without
            # one it warns, and the schema (generated with fail-on-warn) is refused.
            "example": None,
        }
        paged["required"] = [*paged.get("required", []), "ratings_behind_since"]
        return paged


class ClubRatingsView(ClubAPIView):
    serializer_class = RatingRowSerializer
    paged = True
    pagination_class = RatingsPages

    @extend_schema(
        operation_id="clubs_ratings",
        summary="A club's players ranked by rating",
        description="Players with at least `RATING_MIN_DEALS` rated deals of this club (20 "
        "unless the site says otherwise), best first by the rating shown "
        "(`1000 + 40 (mu - 3 sigma)`). "
        "Without `season`, today's ratings; with it, each player's rating just after his last "
        "deal of that season, and `deals` counts the deals he played in it. 50 a page. "
        "`ratings_behind_since` is null, or the time since which a deal entered or corrected "
        "waits to be taken into the ratings (they are recomputed in the background).",
        tags=["clubs"],
        parameters=[
            OpenApiParameter(
                "season", SEASON_TYPE, description="The year the season starts in, e.g. 2025."
            )
        ],
        responses={
            200: RatingRowSerializer(many=True),
            400: refusal("`season` is not a year."),
            **READ_ERRORS,
        },
        examples=[RATINGS_EXAMPLE],
    )
    def get(self, request: Request, pk: int) -> Response:
        club = club_or_404(request, pk)
        season = season_filter(request)
        ranking = selectors.rating_ranking(
            club=club, season=season, min_deals=settings.RATING_MIN_DEALS
        )
        page = self.paginate_queryset(ranking.ranked)
        response = self.get_paginated_response([rating_row(row) for row in page or []])
        # Null, or since when a deal entered or corrected waits for the ratings' job.
        response.data["ratings_behind_since"] = selectors.ratings_behind_since(club=club)
        return response
