"""Tournament endpoints: tournaments, entries (inscriptions, pointage), rounds (séances) with
their tables (seated, swapped, started, closed), standings (classement), team standings and
knockout brackets.

Reads follow the club's visibility; every write is for the club's organisers (and superusers).
An anonymous write is 401 before anything is looked up, a private club's tournament is 404 for
outsiders, and a reader who may not write gets 403. A request the tournament's state refuses
(a round still being played, all rounds played, a swap after the first deal) is 409 with the
services' message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.clubs import permissions
from tarot_scores.clubs.forms import account_named
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core.results import (
    etag_matches,
    results_etag,
    shared_results,
    tournament_page_key,
    with_etag,
)
from tournaments import selectors, services
from tournaments.api.base import (
    CLUB_QUERY,
    READ_ERRORS,
    ROUND_NUMBER,
    WRITE_ERRORS,
    TournamentAPIView,
    club_filter,
    entry_or_404,
    refusal,
    require_organiser,
    round_or_404,
    tournament_or_404,
)
from tournaments.api.examples import (
    BRACKET_EXAMPLES,
    CREATE_EXAMPLES,
    ENTRY_EXAMPLES,
    ENTRY_UPDATE_EXAMPLES,
    ROUND_CLOSE_EXAMPLES,
    ROUND_EXAMPLES,
    ROUND_START_EXAMPLES,
    ROUND_SWAP_EXAMPLES,
    STANDINGS_EXAMPLES,
    TEAM_STANDINGS_EXAMPLES,
)
from tournaments.api.serializers import (
    DuplicateStandingSerializer,
    KnockoutBracketSerializer,
    RoundSwapSerializer,
    TournamentCreateSerializer,
    TournamentEntryCreateSerializer,
    TournamentEntrySerializer,
    TournamentEntryUpdateSerializer,
    TournamentRoundSerializer,
    TournamentSerializer,
    TournamentStandingSerializer,
    TournamentTeamStandingSerializer,
    VisibleClubField,
    entry_json,
)
from tournaments.duplicate_selectors import DuplicateRow, duplicate_standings, is_duplicate
from tournaments.models import Entry, Round, Tournament
from tournaments.permissions import can_referee
from tournaments.selectors import Bracket, TableState
from tournaments.services import TournamentError

TAGS = ["tournaments"]
CONFLICT = refusal("The tournament's state refuses it now: `non_field_errors` says why.")


class ClubRefSerializer(serializers.Serializer[Any]):
    """Just the ``club`` of a body: resolved first, so that permissions come before the rest."""

    club = VisibleClubField()


def _conflict(error: TournamentError) -> Response:
    return Response({"non_field_errors": [str(error)]}, status=status.HTTP_409_CONFLICT)


# --- tournaments ------------------------------------------------------------------------------


class TournamentListView(TournamentAPIView):
    serializer_class = TournamentSerializer
    paged = True

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
        "every club the caller may read.",
        tags=TAGS,
        parameters=[CLUB_QUERY],
        responses={
            200: TournamentSerializer(many=True),
            400: refusal("`club` is not an id."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
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
        tournament = services.tournament_create(
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
                    team = services.team_for_name(tournament=tournament, name=data["team"])
                field = "player" if data.get("player") is not None else "name"
                entry = services.entry_add(
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
                    services.entry_check_in(entry=entry, checked_in=data["checked_in"])
                field = "withdrawn"
                if withdrawn and entry.withdrawn_after is None:
                    services.entry_withdraw(entry=entry)
                if "series" in data and data["series"] != entry.series:
                    services.entry_series_set(entry=entry, series=data["series"])
        except TournamentError as error:  # a duplicate's movement is drawn: the field is fixed
            return Response({field: [str(error)]}, status=status.HTTP_400_BAD_REQUEST)
        return Response(entry_json(entry))


# --- rounds -----------------------------------------------------------------------------------


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
        rounds = selectors.tournament_rounds(tournament=tournament)
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
            round_ = services.round_seat_next(tournament=tournament, by=request.user, byes=byes)
        except TournamentError as error:
            return _conflict(error)
        tables = selectors.round_tables(round_=round_)
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
        return _conflict(error)
    tables = selectors.round_tables(round_=round_)
    return Response(round_json(round_, tables, round_.tournament.round_minutes))


class RoundStartView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer

    @extend_schema(
        operation_id="tournament_rounds_start",
        summary="Start a round's countdown",
        description="Organisers only; no body (anything sent is ignored). The round is "
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
        return _round_action(round_, lambda: services.round_start(round_=round_))


class RoundCloseView(TournamentAPIView):
    serializer_class = TournamentRoundSerializer

    @extend_schema(
        operation_id="tournament_rounds_close",
        summary="Close a complete round",
        description="Organisers only; no body (anything sent is ignored). Every table must "
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
        return _round_action(round_, lambda: services.round_close(round_=round_))


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
            round_, lambda: services.round_swap(round_=round_, first=first, second=second)
        )


# --- standings and brackets -------------------------------------------------------------------


NOT_MODIFIED = (
    "The `If-None-Match` header names the current `ETag`: nothing changed since, no body."
)


def duplicate_json(row: DuplicateRow) -> dict[str, Any]:
    average = row.method == "average"
    shown = row.shown_percentage
    return {
        "rank": row.rank,
        "player": row.player.pk,
        "name": row.player.label,
        "method": str(row.method),
        "boards": row.boards,
        "matchpoints": row.matchpoints,
        "maximum": row.maximum,
        "percentage": None if shown is None else str(shown),
        "total": row.shown_total if average else None,
        "tops": row.tops,
        "penalties": row.penalties,
    }


class StandingsView(TournamentAPIView):
    serializer_class = TournamentStandingSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_standings",
        summary="Standings",
        description="Every player seated so far, ranked by total, then the better best round, "
        "then the better last round, then name; equal on all of these share a rank. Totals are "
        "sums of the score lines of the tables' live deals (confirmed ones, where the tournament "
        "requires confirmation), kept in step as deals are written: a fixed number of queries, "
        "whatever the number of deals. A penalty lowers its round's points (and so the total); "
        "`penalties` is their sum. The answer carries an `ETag` named after the club's "
        "results version: send it back in `If-None-Match` and the answer is `304 Not Modified` "
        "(no body) until a deal, a confirmation or a round changes the results. Team events: "
        "see `.../teams/standings/`. `?series=s1`: only that series' players, ranked among "
        "themselves. After a championship's cuts (`.../rounds/{number}/cut/`), the players still "
        "in come first, then each group cut, latest cut first, in its order at its cut "
        "(`eliminated_after`); `total` counts from round `counted_from`. "
        "A duplicate tournament answers its own lines (`DuplicateStanding`): "
        "boards played, matchpoints out of the maximum and percentage, or the total difference "
        "from the boards' averages, tops and penalties, ranked by the result then the tops.",
        tags=TAGS,
        parameters=[
            OpenApiParameter(
                "series",
                str,
                enum=list(Entry.Series.values),
                description="Only the players of this series (open, s1, s2, s3, promotion), "
                "ranked 1..n among themselves. Any other value is ignored: the overall "
                "standings.",
            )
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="TournamentStandingOrDuplicate",
                serializers=[TournamentStandingSerializer, DuplicateStandingSerializer],
                resource_type_field_name=None,
                many=True,
            ),
            304: OpenApiResponse(description=NOT_MODIFIED),
            **READ_ERRORS,
        },
        examples=STANDINGS_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        series = selectors.series_or_overall(request.query_params.get("series"))
        club = tournament.club

        def draw() -> list[dict[str, Any]]:
            if is_duplicate(tournament):
                ranked = duplicate_standings(tournament=tournament, series=series)
                return [duplicate_json(row) for row in ranked]
            return [
                {
                    "rank": row.rank,
                    "player": row.player.pk,
                    "name": row.player.label,
                    "team": row.team or None,
                    "total": row.total,
                    "rounds": row.rounds,
                    "penalties": row.penalties,
                    "eliminated_after": row.eliminated_after,
                    "counted_from": row.counted_from,
                    "byes": [place + 1 for place in row.byes],
                }
                for row in selectors.standings_for(tournament=tournament, series=series)
            ]

        # Shared by its readers as the standings pages are (tarot_scores.core.results): a
        # burst of deals moves it at most about once in RESULTS_LAG_SECONDS.
        etag, rows = shared_results(
            key=tournament_page_key(
                club=club,
                tournament_id=tournament.pk,
                page=f"api-standings-{series}",
                language=None,
                htmx=False,
            ),
            club=club,
            tag=lambda version: results_etag(
                club=club, parts=["api-standings", tournament.pk, series], version=version
            ),
            headers=request.headers,
            draw=draw,
            fresh=lambda: permissions.is_organiser(request, club),
        )
        if rows is None:
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), etag)
        return with_etag(self.page_of(rows), etag)


class TeamStandingsView(TournamentAPIView):
    serializer_class = TournamentTeamStandingSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_team_standings",
        summary="Team standings",
        description="Each team's total is the sum of its members' totals; equal totals share a "
        "rank. An empty list when the tournament has no teams. With an `ETag`, as the "
        "standings: `If-None-Match` answers `304 Not Modified` until the results change.",
        tags=TAGS,
        responses={
            200: TournamentTeamStandingSerializer(many=True),
            304: OpenApiResponse(description=NOT_MODIFIED),
            **READ_ERRORS,
        },
        examples=TEAM_STANDINGS_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        etag = results_etag(club=tournament.club, parts=["api-team-standings", tournament.pk])
        if etag_matches(request.headers, etag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), etag)
        rows = selectors.team_standings_for(tournament=tournament)
        return with_etag(
            self.page_of(
                [
                    {"rank": r.rank, "name": r.name, "total": r.total, "members": r.members}
                    for r in rows
                ]
            ),
            etag,
        )


def bracket_json(result: Bracket) -> dict[str, Any]:
    return {
        "stages": [
            {
                "number": stage.number,
                "final": stage.final,
                "complete": stage.complete,
                "tables": [
                    {
                        "number": table.number,
                        "players": [
                            {
                                "player": seat.player.pk,
                                "name": seat.player.label,
                                "points": seat.points,
                                "qualified": seat.qualified,
                            }
                            for seat in table.seats
                        ],
                    }
                    for table in stage.tables
                ],
                "qualified": stage.qualified,
            }
            for stage in result.stages
        ],
        "ranking": [
            {"rank": rank, "player": player.pk, "name": player.label}
            for rank, player in result.ranking
        ],
    }


class BracketView(TournamentAPIView):
    serializer_class = KnockoutBracketSerializer

    @extend_schema(
        operation_id="tournament_bracket",
        summary="Knockout bracket",
        description="Knockout tournaments only (404 for a tournament in rounds: read its "
        "standings). Every stage seated so far: its tables, each player's points there (best "
        "first) and who goes through; the final ranking once the final table is complete.",
        tags=TAGS,
        responses={
            200: KnockoutBracketSerializer,
            404: refusal(
                "No such tournament, a private club's for an outsider, or not a knockout."
            ),
        },
        examples=BRACKET_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        if tournament.format != Tournament.Format.KNOCKOUT:
            raise NotFound(_("This tournament is not a knockout: it has standings, no bracket."))
        return Response(bracket_json(selectors.bracket(tournament=tournament)))


# --- referees ---------------------------------------------------------------------------------


class RefereeSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True, help_text="The account's id.")
    username = serializers.CharField(read_only=True)


class RefereeAddSerializer(serializers.Serializer[Any]):
    user = serializers.CharField(
        max_length=254, help_text="The account's user name or e-mail address."
    )

    def validate_user(self, value: str) -> Any:
        try:
            found = account_named(value.strip())
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.messages) from None
        if found is None:
            raise serializers.ValidationError(_("No account has this user name or e-mail address."))
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
        services.referee_add(tournament=tournament, user=serializer.validated_data["user"])
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
        services.referee_remove(tournament=tournament, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)
