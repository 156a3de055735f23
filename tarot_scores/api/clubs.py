"""Clubs and their players over the API: list what the caller may read, create a club (its
creator becomes its organiser), add a player to a club one is a member of.

Private clubs do not exist for outsiders: they are not listed and their ids answer 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import CREATE_ERRORS, READ_ERRORS, ClubAPIView, refusal
from tarot_scores.api.permissions import club_or_404, require
from tarot_scores.api.serializers import (
    MAX_ID,
    ClubRefSerializer,
    ClubSerializer,
    PlayerSerializer,
)
from tarot_scores.clubs import permissions, selectors, services
from tarot_scores.clubs.models import Club, Player


def club_filter(request: Request) -> Club | None:
    """The club of ``?club=id``, or None without one; 400 if it is not an id, 404 if unknown or
    private to others."""
    raw = request.query_params.get("club")
    if raw is None:
        return None
    field = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    try:
        pk = field.run_validation(raw)
    except serializers.ValidationError as error:
        raise serializers.ValidationError({"club": error.detail}) from None
    return club_or_404(request, pk)


# A club's id in a query string: the bounds ``club_filter`` checks.
CLUB_ID = {"type": "integer", "minimum": 1, "maximum": MAX_ID}
CLUB_QUERY = OpenApiParameter(
    "club",
    CLUB_ID,
    description="Only this club (404 if it is private and the caller not in it).",
)
# A season, by the year it starts in: the bounds every filter on it checks.
SEASON_TYPE = {"type": "integer", "minimum": 1900, "maximum": 9999}


class ClubListView(ClubAPIView):
    serializer_class = ClubSerializer
    paged = True

    def get_queryset(self) -> QuerySet[Club]:
        return selectors.clubs_for(user=self.request.user).order_by("name", "id")

    @extend_schema(
        operation_id="clubs_list",
        summary="Clubs the caller may read",
        description="Public clubs, and the private clubs the caller is a member of (every club "
        "for a superuser), by name, 50 a page.",
        tags=["clubs"],
        responses={
            200: ClubSerializer(many=True),
            404: refusal("`page` is not a page of the list (past its end, or not a number)."),
        },
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(ClubSerializer(page, many=True).data)

    @extend_schema(
        operation_id="clubs_create",
        summary="Create a club",
        description="Any signed-in user may create a club and becomes its organiser. The short "
        "name (`slug`) is made from the name. `public` (default true): anyone may read its "
        "games and players.",
        tags=["clubs"],
        request=ClubSerializer,
        responses={201: ClubSerializer, **{k: v for k, v in CREATE_ERRORS.items() if k != 403}},
        examples=[
            OpenApiExample(
                "new_club",
                value={"name": "Tarot Club de Lyon", "public": True},
                request_only=True,
            ),
            OpenApiExample(
                "created",
                value={
                    "id": 3,
                    "name": "Tarot Club de Lyon",
                    "slug": "tarot-club-de-lyon",
                    "public": True,
                },
                response_only=True,
                status_codes=["201"],
            ),
            OpenApiExample(
                "name_taken",
                value={"name": ["A club with this name already exists."]},
                response_only=True,
                status_codes=["400"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = ClubSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        # A name taken is the service's Refusal: answered 400 on ``name`` (api.problems).
        club = services.club_create(name=data["name"], public=data["public"], by=request.user)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailView(ClubAPIView):
    serializer_class = ClubSerializer
    queryset = Club.objects.all()

    @extend_schema(
        operation_id="clubs_retrieve",
        summary="One club",
        tags=["clubs"],
        responses={200: ClubSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(ClubSerializer(club_or_404(request, pk)).data)


PLAYER_EXAMPLES = [
    OpenApiExample(
        "new_player",
        value={"name": "Chloé Martin", "nickname": "Chloé", "licence": "", "club": 3},
        request_only=True,
    ),
    OpenApiExample(
        "created",
        value={
            "id": 14,
            "name": "Chloé Martin",
            "nickname": "Chloé",
            "licence": "",
            "label": "Chloé",
        },
        response_only=True,
        status_codes=["201"],
    ),
    OpenApiExample(
        "label_taken",
        value={"nickname": ["A player of this club is already called “Chloé”: add a nickname."]},
        response_only=True,
        status_codes=["400"],
    ),
]


class PlayerListView(ClubAPIView):
    serializer_class = PlayerSerializer
    paged = True

    def get_queryset(self) -> QuerySet[Player]:
        club = club_filter(self.request)
        if club is not None:
            return selectors.club_players(club=club)
        readable = selectors.clubs_for(user=self.request.user)
        return Player.objects.filter(clubs__in=readable).distinct().order_by("name", "id")

    @extend_schema(
        operation_id="players_list",
        summary="Players of a club",
        description="With `?club=id`, that club's players; without, the players of every club "
        "the caller may read. By name, 50 a page.",
        tags=["players"],
        parameters=[CLUB_QUERY],
        responses={
            200: PlayerSerializer(many=True),
            400: refusal("`club` is not an id."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(
        operation_id="players_create",
        summary="Add a player to a club",
        description="Members of the club (and superusers) only. Two players of one club may not "
        "share a name on score sheets: give one a nickname.",
        tags=["players"],
        request=PlayerSerializer,
        responses={201: PlayerSerializer, **CREATE_ERRORS},
        examples=PLAYER_EXAMPLES,
    )
    def post(self, request: Request) -> Response:
        context: dict[str, Any] = {"request": request}
        ref = ClubRefSerializer(data=request.data, context=context)
        ref.is_valid(raise_exception=True)
        club: Club = ref.validated_data["club"]
        require(permissions.can_add_player(request, club))
        serializer = PlayerSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        player = services.player_create(
            club=club,
            name=data["name"],
            nickname=data.get("nickname", ""),
            licence=data.get("licence", ""),
        )
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)
