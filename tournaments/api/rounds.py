"""The tournament API's rounds (séances) and knockout stages: seat the next one, read them with
their tables, start, close, swap two players."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api.base import (
    CONFLICT,
    READ_ERRORS,
    ROUND_NUMBER,
    TAGS,
    WRITE_ERRORS,
    TournamentAPIView,
    conflict,
    require_organiser,
    round_or_404,
    tournament_or_404,
)
from tournaments.api.examples import (
    ROUND_CLOSE_EXAMPLES,
    ROUND_EXAMPLES,
    ROUND_START_EXAMPLES,
    ROUND_SWAP_EXAMPLES,
)
from tournaments.api.serializers import (
    RoundSwapSerializer,
    TournamentRoundSerializer,
)
from tournaments.errors import TournamentError
from tournaments.models import Round
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState


def round_json(round_: Round, tables: list[TableState], round_minutes: int) -> dict[str, Any]:
    return {
        "number": round_.number,
        "status": round_.status,
        "started_at": round_.started_at,
        "ends_at": round_.ends_at(round_minutes),
        "closed_at": round_.closed_at,
        "repeats": round_.repeats,
        "complete": all(t.complete for t in tables),
        "tables": [
            {
                "number": t.table.number,
                "game": t.table.game_id,
                "players": [p.pk for p in t.players],
                "names": [p.label for p in t.players],
                "entered": t.entered,
                "goal": t.goal,
                "pending": t.pending,
                "disputed": t.disputed,
                "complete": t.complete,
            }
            for t in tables
        ],
    }


class RoundSeatSerializer(serializers.Serializer[Any]):
    """The body of seating the next round: optional, empty or ``{"byes": true}``."""

    byes = serializers.BooleanField(
        required=False,
        default=False,
        help_text="Rounds format: seat a count that cannot make tables with the fewest players "
        "sitting out (a bye). A JSON boolean only.",
    )


class RoundListView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_rounds_list",
        summary="Rounds, their tables and progress",
        description="Every round (or knockout stage) seated so far, oldest first, with its "
        "tables: the game to enter deals into, players in seat order, deals entered out of "
        "the deals per round. Three queries, whatever the number of rounds and deals.",
        tags=TAGS,
        responses={200: TournamentRoundSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        rounds = round_selectors.tournament_rounds(tournament=tournament)
        minutes = tournament.round_minutes
        return self.page_of([round_json(r, tables, minutes) for r, tables in rounds])

    @extend_schema(
        operation_id="tournament_rounds_create",
        summary="Seat the next round",
        description="Organisers only; no body. Draws the next round (or knockout stage) from "
        "the checked-in players (the qualified ones, in a knockout) with the tournament's "
        "seating method and seed, and creates one game per table with the tournament's rules "
        "and deals per round. Then each table's deals go to `POST /api/v1/games/{game}/deals/`. "
        "409 while the previous round is not complete, once every round is played (or the "
        'final table), or when the players present cannot make tables. With `{"byes": true}` '
        "(rounds format), a count that cannot make tables is seated with the fewest players "
        "sitting out (a bye, 0 points for the round: docs/tournaments.md); `byes` is a boolean, "
        "anything else is 400.",
        tags=TAGS,
        request=RoundSeatSerializer,
        responses={201: TournamentRoundSerializer, **WRITE_ERRORS, 409: CONFLICT},
        examples=ROUND_EXAMPLES,
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        byes = request.data.get("byes", False) if isinstance(request.data, dict) else False
        if not isinstance(byes, bool):  # "true", 1, null...: not silently a round without byes
            return Response(
                {"byes": [_("Send true or false: whether players may sit out.")]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        try:
            round_ = round_services.round_seat_next(
                tournament=tournament, by=request.user, byes=byes
            )
        except TournamentError as error:
            return conflict(error)
        tables = round_selectors.round_tables(round_=round_)
        answer = round_json(round_, tables, tournament.round_minutes)
        return Response(answer, status=status.HTTP_201_CREATED)


def _managed_round(request: Request, pk: int, number: int) -> Round:
    """The round, for an organiser. In this order, as for entries: 404 for an unknown tournament
    (or a private club's, to outsiders), 403 for readers who do not organise it, then 404 for an
    unknown round."""
    tournament = tournament_or_404(request, pk)
    require_organiser(request, tournament.club)
    return round_or_404(tournament, number)


def _round_action(round_: Round, action: Callable[[], object]) -> Response:
    """Carry out an organiser's action on the round: 409 with the service's refusal, or the
    round as ``GET .../rounds/`` shows it, read again after the change."""
    try:
        action()
    except TournamentError as error:
        return conflict(error)
    tables = round_selectors.round_tables(round_=round_)
    return Response(round_json(round_, tables, round_.tournament.round_minutes))


class RoundStartView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer

    @extend_schema(
        operation_id="tournament_rounds_start",
        summary="Start a round's countdown",
        description="Organisers only; no body. The round is "
        "`playing` from now, for the tournament's `round_minutes`, and its players can no "
        "longer be swapped. Once only: a round already started, or closed, answers 409 and "
        "keeps its start time. Starting is not needed to enter deals; it is the clock.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=None,
        responses={200: TournamentRoundSerializer, **WRITE_ERRORS, 409: CONFLICT},
        examples=ROUND_START_EXAMPLES,
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        round_ = _managed_round(request, pk, number)
        return _round_action(round_, lambda: round_services.round_start(round_=round_))


class RoundCloseView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer

    @extend_schema(
        operation_id="tournament_rounds_close",
        summary="Close a complete round",
        description="Organisers only; no body. Every table must "
        "have all its deals (409 otherwise, or if the round is already closed). Its games "
        "are finished: they take no more deals until an organiser reopens one. Closing the "
        "last round (or the final table of a knockout) finishes the tournament. Seating the "
        "next round closes a complete round by itself.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=None,
        responses={200: TournamentRoundSerializer, **WRITE_ERRORS, 409: CONFLICT},
        examples=ROUND_CLOSE_EXAMPLES,
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        round_ = _managed_round(request, pk, number)
        return _round_action(round_, lambda: round_services.round_close(round_=round_))


class RoundSwapView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer

    @extend_schema(
        operation_id="tournament_rounds_swap",
        summary="Swap two players' seats",
        description="Organisers only. `first` and `second` take each other's table and seat "
        "(at the same table, their seats). Only before the round starts: once it is started "
        "or a deal has been entered at any of its tables, 409; a player not seated in this "
        "round is 409 too. Unknown ids, or the same player twice, are 400.",
        tags=TAGS,
        parameters=[ROUND_NUMBER],
        request=RoundSwapSerializer,
        responses={200: TournamentRoundSerializer, **WRITE_ERRORS, 409: CONFLICT},
        examples=ROUND_SWAP_EXAMPLES,
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        round_ = _managed_round(request, pk, number)
        serializer = RoundSwapSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        first, second = serializer.validated_data["first"], serializer.validated_data["second"]
        return _round_action(
            round_, lambda: round_services.round_swap(round_=round_, first=first, second=second)
        )
