"""The tournament API's tournaments: list, create, read one. Beside it, one module per area:
entries (inscriptions, pointage), rounds (séances) with their tables, standings (classement)
and brackets, referees, cuts, people, penalties, confirmations.

Reads follow the club's visibility; every write is for the club's organisers (and superusers).
An anonymous write is 401 before anything is looked up, a private club's tournament is 404 for
outsiders, and a reader who may not write gets 403. A request the tournament's state refuses
(a round still being played, all rounds played, a swap after the first deal) is 409 with the
services' message.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.feed import UPDATED_SINCE_QUERY, FeedPages, asks_feed, feed_answer
from tarot_scores.clubs.selectors import clubs_for
from tournaments.api.base import (
    CLUB_QUERY,
    READ_ERRORS,
    TAGS,
    WRITE_ERRORS,
    TournamentAPIView,
    club_filter,
    refusal,
    require_organiser,
    tournament_or_404,
)
from tournaments.api.examples import (
    CREATE_EXAMPLES,
)
from tournaments.api.serializers import (
    TournamentCreateSerializer,
    TournamentSerializer,
    VisibleClubField,
)
from tournaments.models import Tournament
from tournaments.registration import services as registration_services


class ClubRefSerializer(serializers.Serializer[Any]):
    """Just the ``club`` of a body: resolved first, so that permissions come before the rest."""

    club = VisibleClubField()


# --- tournaments ------------------------------------------------------------------------------


class TournamentListView(TournamentAPIView):
    serializer_class = TournamentSerializer
    paged = True
    pagination_class = FeedPages

    def get_queryset(self) -> QuerySet[Tournament]:
        club = club_filter(self.request)
        if club is not None:
            return Tournament.objects.filter(club=club).order_by("-date", "-id")
        readable = clubs_for(user=self.request.user)
        return Tournament.objects.filter(club__in=readable).order_by("-date", "-id")

    @extend_schema(
        operation_id="tournaments_list",
        summary="Tournaments",
        description="Newest first, 50 a page. With `?club=id`, that club's; without, those of "
        "every club the caller may read. With `?updated_since=`, the change feed of these "
        "tournaments: those created, started (`running`) or `finished` after the cursor, oldest "
        "change first. Their standings have their own feed: `GET .../tournaments/standings/`.",
        tags=TAGS,
        parameters=[CLUB_QUERY, UPDATED_SINCE_QUERY],
        responses={
            200: TournamentSerializer(many=True),
            400: refusal("`club` is not an id, or `updated_since` is not a cursor."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        if asks_feed(self):
            return feed_answer(
                self,
                self.get_queryset(),
                lambda rows: TournamentSerializer(rows, many=True).data,
            )
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(TournamentSerializer(page, many=True).data)

    @extend_schema(
        operation_id="tournaments_create",
        summary="Create a tournament",
        description="Organisers of the club (and superusers). Only `club` and `name` are "
        "required; the rest have the defaults shown. Players are then registered with "
        "`POST .../entries/` and rounds seated with `POST .../rounds/`.",
        tags=TAGS,
        request=TournamentCreateSerializer,
        responses={201: TournamentSerializer, **WRITE_ERRORS},
        examples=CREATE_EXAMPLES,
    )
    def post(self, request: Request) -> Response:
        context = {"request": request}
        ref = ClubRefSerializer(data=request.data, context=context)
        ref.is_valid(raise_exception=True)
        require_organiser(request, ref.validated_data["club"])
        serializer = TournamentCreateSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        tournament = registration_services.tournament_create(
            club=data["club"],
            name=data["name"],
            by=request.user,
            variant=data["variant"],
            house_rules=data["house_rules"],
            format=data["format"],
            rounds=data["rounds"],
            deals_per_round=data["deals_per_round"],
            seating_method=data["seating"],
            five_mode=data["five_mode"],
            allow_threes=data["allow_threes"],
            team_size=data["team_size"],
            qualifiers_per_table=data["qualifiers_per_table"],
            round_minutes=data["round_minutes"],
            seed=data.get("seed"),
            date=data.get("date"),
            require_confirmation=data["require_confirmation"],
            confirmation_proof=data["confirmation_proof"],
            duplicate_method=data["duplicate_method"],
        )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentAPIView):
    serializer_class = TournamentSerializer

    @extend_schema(
        operation_id="tournaments_retrieve",
        summary="One tournament",
        tags=TAGS,
        responses={200: TournamentSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(TournamentSerializer(tournament_or_404(request, pk)).data)


# --- entries ----------------------------------------------------------------------------------


# --- rounds -----------------------------------------------------------------------------------


# --- standings and brackets -------------------------------------------------------------------


# --- referees ---------------------------------------------------------------------------------
