"""The tournament API's referees: the accounts its organisers name to settle the tables'
results."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.clubs.forms import account_named
from tournaments.api.base import (
    TAGS,
    WRITE_ERRORS,
    TournamentAPIView,
    require_organiser,
    tournament_or_404,
)
from tournaments.models import Tournament
from tournaments.registration import referees as referee_services
from tournaments.rules import can_referee


class RefereeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True, help_text="The account's id.")
    username = serializers.CharField(read_only=True)


class RefereeAddSerializer(serializers.Serializer[Any]):
    user = serializers.CharField(
        max_length=254,
        help_text="The account's user name (an e-mail address is not looked up: the answer "
        "would tell whether it has an account).",
    )

    def validate_user(self, value: str) -> Any:
        found = account_named(value.strip())
        if found is None:
            raise serializers.ValidationError(
                _(
                    "No account has this user name. An e-mail address is not looked up: "
                    "ask the person for the user name they sign in with."
                )
            )
        return found


def _referees_json(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"id": user.pk, "username": user.get_username()}
        for user in tournament.referees.order_by("username")
    ]


class RefereeListView(TournamentAPIView):
    serializer_class = RefereeSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_referees_list",
        summary="A tournament's referees",
        description="The organisers and the referees themselves. Referees (arbitres), with the "
        "organisers, finish and reopen the tables and correct them after their round has "
        "closed (with a `reason`).",
        tags=TAGS,
        responses={200: RefereeSerializer(many=True), **WRITE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not can_referee(request, tournament):
            raise PermissionDenied()
        return self.page_of(_referees_json(tournament))

    @extend_schema(
        operation_id="tournament_referees_create",
        summary="Name a referee",
        description="Organisers only. `user`: an existing account, by user name or e-mail "
        "address. In a private club the referee must be a member. The answer is the list.",
        tags=TAGS,
        request=RefereeAddSerializer,
        responses={201: RefereeSerializer(many=True), **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        serializer = RefereeAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        referee_services.referee_add(tournament=tournament, user=serializer.validated_data["user"])
        return Response(_referees_json(tournament), status=status.HTTP_201_CREATED)


class RefereeDetailView(TournamentAPIView):
    serializer_class = RefereeSerializer

    @extend_schema(
        operation_id="tournament_referees_destroy",
        summary="Remove a referee",
        description="Organisers only. 404 if that account is not a referee of the tournament.",
        tags=TAGS,
        request=None,
        responses={204: None, **WRITE_ERRORS},
    )
    def delete(self, request: Request, pk: int, user_id: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        user = tournament.referees.filter(pk=user_id).first()
        if user is None:
            raise NotFound()
        referee_services.referee_remove(tournament=tournament, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)
