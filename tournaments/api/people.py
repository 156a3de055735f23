"""The people of a tournament through the API: the pairs kept apart (list, add, remove) and
substitutes (``tournaments.people``, the services the registration and round pages call).
Organisers only: a pair's reason may be private (family)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.clubs.models import Player
from tournaments.api.base import (
    MAX_ID,
    ROUND_NUMBER,
    WRITE_ERRORS,
    TournamentAPIView,
    require_organiser,
    round_or_404,
    tournament_or_404,
)
from tournaments.models import APART_REASON_MAX, ApartPair, Entry, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.people import services as people
from tournaments.standings import selectors as standings_selectors

TAGS = ["tournaments"]


class ApartPairSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    first = serializers.IntegerField(help_text="An entry's id (see `.../entries/`).")
    second = serializers.IntegerField(help_text="The other entry's id.")
    names = serializers.ListField(child=serializers.CharField())
    reason = serializers.CharField()


class ApartPairCreateSerializer(serializers.Serializer[Any]):
    first = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="An entry's id.")
    second = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The other entry's id."
    )
    reason = serializers.CharField(max_length=APART_REASON_MAX)


class SubstituteSerializer(serializers.Serializer[Any]):
    replaced = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The entry of the player who leaves his seat."
    )
    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        allow_null=True,
        help_text="A club player's id, not registered in the tournament; or give `name`.",
    )
    name = serializers.CharField(
        max_length=80, required=False, allow_blank=True, default="", help_text="A new name."
    )
    returns = serializers.BooleanField(
        required=False,
        default=False,
        help_text="The replaced player comes back next round; else he withdrew.",
    )


class SubstitutionSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    replaced = serializers.IntegerField(help_text="The replaced player's entry id.")
    substitute = serializers.IntegerField(help_text="The substitute's own entry id.")
    deals_before = serializers.IntegerField()
    returns = serializers.BooleanField()


def pair_json(pair: ApartPair) -> dict[str, Any]:
    return {
        "id": pair.pk,
        "first": pair.first_id,
        "second": pair.second_id,
        "names": [pair.first.player.label, pair.second.player.label],
        "reason": pair.reason,
    }


def _organised(request: Request, pk: int) -> Tournament:
    tournament = tournament_or_404(request, pk)
    require_organiser(request, tournament.club)
    return tournament


def _entry(tournament: Tournament, pk: int | None) -> Entry | None:
    if pk is None:
        return None
    return Entry.objects.select_related("player").filter(tournament=tournament, pk=pk).first()


class ApartPairListView(TournamentAPIView):
    serializer_class = ApartPairSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_apart_pairs_list",
        summary="Players kept apart",
        description="Organisers only. The pairs of entries who never share a table, with the "
        "reason, in the order they were added.",
        tags=TAGS,
        responses={200: ApartPairSerializer(many=True), **WRITE_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = _organised(request, pk)
        return self.page_of(
            [pair_json(p) for p in people_selectors.apart_pairs_listed(tournament=tournament)]
        )

    @extend_schema(
        operation_id="tournament_apart_pairs_create",
        summary="Keep two players apart",
        description="Organisers only. Every seating from now on keeps the two entries at "
        "different tables, as teammates; what it cannot avoid is reported on the round. 400 "
        "with a message per field: an unknown entry, the same entry twice, a pair already kept "
        "apart, no reason.",
        tags=TAGS,
        request=ApartPairCreateSerializer,
        responses={201: ApartPairSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "Siblings", request_only=True, value={"first": 3, "second": 8, "reason": "Sisters"}
            )
        ],
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = _organised(request, pk)
        serializer = ApartPairCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        first, second = _entry(tournament, data["first"]), _entry(tournament, data["second"])
        unknown = {
            field: [_("No such entry in this tournament.")]
            for field, entry in (("first", first), ("second", second))
            if entry is None
        }
        if unknown:
            raise serializers.ValidationError(unknown)
        pair = people.apart_pair_add(
            tournament=tournament,
            first=first,
            second=second,
            reason=data["reason"],
            by=request.user,
        )
        return Response(pair_json(pair), status=status.HTTP_201_CREATED)


class ApartPairDetailView(TournamentAPIView):
    serializer_class = ApartPairSerializer

    @extend_schema(
        operation_id="tournament_apart_pairs_destroy",
        summary="Let two players share a table again",
        description="Organisers only. From the next round seated.",
        tags=TAGS,
        request=None,
        responses={204: None, **WRITE_ERRORS},
    )
    def delete(self, request: Request, pk: int, pair_id: int) -> Response:
        tournament = _organised(request, pk)
        pair = ApartPair.objects.filter(tournament=tournament, pk=pair_id).first()
        if pair is None:
            raise NotFound()
        people.apart_pair_remove(pair=pair)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RoundSubstituteView(TournamentAPIView):
    serializer_class = SubstitutionSerializer

    @extend_schema(
        operation_id="tournament_rounds_substitute",
        summary="Put in a substitute",
        description="Organisers only, in a seated or playing round. The substitute (`player`, a "
        "club player not registered in the tournament, or `name`, a new one) takes over "
        "`replaced`'s seat for the table's next deals; the deals already entered keep the "
        "replaced player's score lines. The substitute gets his own entry, ranked apart "
        "(`.../standings/` lists him under `substitutes`). The replaced player withdrew after "
        "the previous round unless `returns`. 400 with a message per field: not seated here, "
        "the round closed, a substitute already seated in the round or registered.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=SubstituteSerializer,
        responses={201: SubstitutionSerializer, **WRITE_ERRORS},
        examples=[
            OpenApiExample(
                "A new name", request_only=True, value={"replaced": 12, "name": "Denise"}
            )
        ],
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        tournament = _organised(request, pk)
        round_ = round_or_404(tournament, number)
        serializer = SubstituteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        replaced = _entry(tournament, data["replaced"])
        if replaced is None:
            raise serializers.ValidationError(
                {"replaced": [_("No such entry in this tournament.")]}
            )
        player = None
        if data.get("player") is not None:
            player = Player.objects.filter(pk=data["player"], clubs=tournament.club_id).first()
            if player is None:
                raise serializers.ValidationError({"player": [_("No such player in this club.")]})
        done = people.substitute_seat(
            round_=round_,
            replaced=replaced,
            player=player,
            name=data["name"],
            returns=data["returns"],
            by=request.user,
        )
        return Response(
            {
                "id": done.pk,
                "round": round_.number,
                "table": done.table.number,
                "replaced": done.replaced_id,
                "substitute": done.substitute_id,
                "deals_before": done.deals_before,
                "returns": done.returns,
            },
            status=status.HTTP_201_CREATED,
        )


class SubstituteStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Among the substitutes only.")
    player = serializers.IntegerField(help_text="The substitute's player id.")
    name = serializers.CharField()
    replaced = serializers.CharField(help_text="The name of the player he replaced.")
    total = serializers.IntegerField()
    rounds = serializers.ListField(child=serializers.IntegerField(allow_null=True))


class SubstituteStandingsView(TournamentAPIView):
    serializer_class = SubstituteStandingSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_substitute_standings",
        summary="Substitutes' standings",
        description="The substitutes, ranked apart from the players (never in "
        "`.../standings/`): the points each scored in the seat he took over, ranked as the "
        "standings are.",
        tags=TAGS,
        responses={200: SubstituteStandingSerializer(many=True), 404: WRITE_ERRORS[404]},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        rows = standings_selectors.standings_for(tournament=tournament, substitutes=True)
        replaced = people_selectors.substitute_labels(tournament=tournament)
        return self.page_of(
            [
                {
                    "rank": row.rank,
                    "player": row.player.pk,
                    "name": row.player.label,
                    "replaced": replaced.get(row.player.pk, ""),
                    "total": row.total,
                    "rounds": row.rounds,
                }
                for row in rows
            ]
        )
