"""The tournament API's entries (registrations): register players, check them in, set their
series, withdraw them."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import (
    READ_ERRORS,
    TAGS,
    WRITE_ERRORS,
    TournamentAPIView,
    entry_or_404,
    refusal,
    require_organiser,
    tournament_or_404,
)
from tournaments.api.examples import (
    ENTRY_EXAMPLES,
    ENTRY_UPDATE_EXAMPLES,
)
from tournaments.api.serializers import (
    TournamentEntryCreateSerializer,
    TournamentEntrySerializer,
    TournamentEntryUpdateSerializer,
    entry_json,
)
from tournaments.errors import TournamentError
from tournaments.models import Entry
from tournaments.registration import services as registration_services


class EntryListView(TournamentAPIView):
    serializer_class = TournamentEntrySerializer
    paged = True

    @extend_schema(
        operation_id="tournament_entries_list",
        summary="A tournament's entries",
        description="Every registered player, by name (not paginated), withdrawn ones included.",
        tags=TAGS,
        responses={200: TournamentEntrySerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        entries = Entry.objects.filter(tournament=tournament).select_related("player", "team")
        return self.page_of([entry_json(e) for e in entries.order_by("player__name", "id")])

    @extend_schema(
        operation_id="tournament_entries_create",
        summary="Register a player",
        description="Organisers only. Either `player` (an id: a player of another club is a "
        "guest, who stays his own club's player) or `name` (a newcomer, who becomes a "
        "player of the club). Registered "
        "after round 1 was seated, a player is seated from the next round on. A player "
        "already registered, or a full team, is refused with 400.",
        tags=TAGS,
        request=TournamentEntryCreateSerializer,
        responses={
            201: TournamentEntrySerializer,
            **WRITE_ERRORS,
            409: refusal("Registered at the same moment from another device: read the list."),
        },
        examples=ENTRY_EXAMPLES,
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        serializer = TournamentEntryCreateSerializer(
            data=request.data, context={"request": request}
        )
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        field = "team"
        try:
            with transaction.atomic():
                team = None
                if data["team"]:
                    team = registration_services.team_for_name(
                        tournament=tournament, name=data["team"]
                    )
                field = "player" if data.get("player") is not None else "name"
                entry = registration_services.entry_add(
                    tournament=tournament,
                    player=data.get("player"),
                    name=data["name"],
                    team=team,
                    checked_in=data["checked_in"],
                )
        except TournamentError as error:
            return Response({field: [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
        except IntegrityError:
            # The same player (or a team of the same name) registered at the same instant.
            return Response(
                {"non_field_errors": [_("This was just registered from another device.")]},
                status=status.HTTP_409_CONFLICT,
            )
        entry = Entry.objects.select_related("player", "team").get(pk=entry.pk)
        return Response(entry_json(entry), status=status.HTTP_201_CREATED)


class EntryDetailView(TournamentAPIView):
    serializer_class = TournamentEntrySerializer

    @extend_schema(
        operation_id="tournament_entries_retrieve",
        summary="One entry",
        tags=TAGS,
        responses={200: TournamentEntrySerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int, entry_id: int) -> Response:
        tournament = tournament_or_404(request, pk)
        return Response(entry_json(entry_or_404(tournament, entry_id)))

    @extend_schema(
        operation_id="tournament_entries_update",
        summary="Check a player in, withdraw them, or set their series",
        description="Organisers only. `checked_in`: only checked-in players are seated in the "
        "next round. `withdrawn: true`: the player leaves after the last round seated and keeps "
        "the points scored; it cannot be undone (`withdrawn: false` on a withdrawn entry is "
        "400). `series`: open, s1, s2, s3, promotion, or empty for none (anything else is 400). "
        "Fields left out are unchanged.",
        tags=TAGS,
        request=TournamentEntryUpdateSerializer,
        responses={200: TournamentEntrySerializer, **WRITE_ERRORS},
        examples=ENTRY_UPDATE_EXAMPLES,
    )
    def patch(self, request: Request, pk: int, entry_id: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        entry = entry_or_404(tournament, entry_id)
        serializer = TournamentEntryUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        withdrawn = data.get("withdrawn")
        if withdrawn is False and entry.withdrawn_after is not None:
            return Response(
                {"withdrawn": [_("A withdrawal cannot be undone.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        field = "checked_in"
        try:
            with transaction.atomic():
                if "checked_in" in data and data["checked_in"] != entry.checked_in:
                    registration_services.entry_check_in(entry=entry, checked_in=data["checked_in"])
                field = "withdrawn"
                if withdrawn and entry.withdrawn_after is None:
                    registration_services.entry_withdraw(entry=entry)
                if "series" in data and data["series"] != entry.series:
                    registration_services.entry_series_set(entry=entry, series=data["series"])
        except TournamentError as error:  # a duplicate's movement is drawn: the field is fixed
            return Response({field: [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
        return Response(entry_json(entry))
