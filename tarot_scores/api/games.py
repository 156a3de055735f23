"""Games (parties) and their deals (donnes) over the API: start a game at a table, read its
score sheet, finish and reopen it, enter deals, correct, delete and restore them, read a deal's
history.

A deal is the scoring contract without ``players`` and ``variant`` (the game knows both),
players named by id. The engine's refusals come back per field in the reader's language;
a deal number already taken, a stale version, or a finished or full game answer 409, with the
deal as it is now when there is one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import (
    BAD_BODY,
    CREATE_ERRORS,
    FORBIDDEN,
    NOT_FOUND,
    READ_ERRORS,
    UNAUTHENTICATED,
    WRITE_ERRORS,
    ClubAPIView,
    busy_if_locked,
    refusal,
)
from tarot_scores.api.calculator import deal_schema, read_deal
from tarot_scores.api.clubs import CLUB_QUERY, club_filter
from tarot_scores.api.feed import UPDATED_SINCE_QUERY, FeedPages, asks_feed, feed_answer
from tarot_scores.api.permissions import deal_or_404, game_or_404, readable_club, require
from tarot_scores.api.problems import refusal_problem, scoring_problem
from tarot_scores.api.serializers import (
    ClubRefSerializer,
    ConflictSerializer,
    DealSerializer,
    DealVersionSerializer,
    GameCreateSerializer,
    GameSerializer,
    GameSheetSerializer,
    NewDealSerializer,
    RevisionSerializer,
    has_nul,
    player_reference_errors,
    reason_field,
    sheet_json,
)
from tarot_scores.clubs import permissions
from tarot_scores.clubs import selectors as club_selectors
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, Seat
from tarot_scores.games.services import DealConflict, GameClosed
from tarot_scores.scoring import ScoringError
from tarot_scores.scoring.messages import Msg

# --- the schema of what is sent -------------------------------------------------------------

PLAYER_ID = {"type": "integer", "minimum": 1, "description": "Player id."}


def _site_deal_schema(*, extra: Mapping[str, Any], required: list[str]) -> dict[str, Any]:
    """The calculator's deal schema, players by id, without the fields the game knows."""
    schema = deal_schema(PLAYER_ID)
    props: dict[str, Any] = schema["properties"]
    for key in ("variant", "players"):
        props.pop(key)
    props["card_points"] = {
        "type": "object",
        "description": "Novatarok: card points by player id.",
        "additionalProperties": {"type": "integer"},
    }
    props["points"] = {
        "oneOf": [
            props["points"],
            {
                "type": "string",
                "pattern": r"^\s*[0-9]+([.,][0-9]+)?\s*$",
                "description": "As typed at the table (`41`, `40,5`), read as on the entry "
                "page: no sign, exponent or other digits than 0 to 9. Stored as a number.",
            },
        ]
    }
    schema["properties"] = {**extra, **props}
    schema.pop("required")
    if required:
        schema["required"] = required
    schema["description"] = (
        "One deal of the scoring contract (docs/scoring.md) without `variant` and `players`: "
        "the game knows its rules and its table. Players are named by id."
    )
    return schema


REASON_SCHEMA = {
    "type": "string",
    "maxLength": 500,
    "description": "Why the deal changes, kept in its history: required for a tournament "
    "table once its round has closed (400 on `reason` without it).",
}
NEW_DEAL_SCHEMA = _site_deal_schema(
    extra={
        "reason": REASON_SCHEMA,
        "number": {
            "type": "integer",
            "minimum": 1,
            "description": "The deal number the client expects (the game's `next_number`). "
            "If it is taken already, the answer is 409 with that deal: sending a deal twice "
            "stores it once.",
        },
        "client_id": {
            "type": "string",
            "format": "uuid",
            "nullable": True,
            "description": "The client's own name for this deal, a UUID it makes once per deal "
            "(e.g. `crypto.randomUUID()`). Sent again, with any body, it stores nothing and "
            "answers 200 with the deal stored under it, as it is now (201 when it is new). A "
            "UUID of another game's deal is refused (400 on `client_id`).",
        },
        "board": {
            "type": "integer",
            "minimum": 1,
            "nullable": True,
            "description": "A duplicate tournament's table only, and required there: the board "
            "(étui) the deal was played from, one of the table's boards of its round not "
            "entered yet (400 on `board` otherwise; another game: 400 on `board` if sent). "
            "The board says who dealt. There `number` is not checked: the board names the deal.",
        },
    },
    required=[],
)
EDIT_DEAL_SCHEMA = _site_deal_schema(
    extra={
        "reason": REASON_SCHEMA,
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "The version the correction was made from (409 if it changed since).",
        },
    },
    required=["version"],
)

# The other side's version of a deal (a tournament table's dispute): the deal as corrected,
# with the version read, optional.
DISPUTE_DEAL_SCHEMA = _site_deal_schema(
    extra={
        "version": {
            "type": "integer",
            "minimum": 1,
            "description": "The version the other side read (409 if it changed since).",
        },
    },
    required=[],
)

GARDE_BODY = {
    "number": 1,
    "client_id": "3f1c7a52-9b8e-4d1a-a6f0-5c2e8d4b7a10",
    "taker": 14,
    "contract": "garde",
    "points": 49,
    "oudlers": 2,
    "petit_au_bout": None,
    "handfuls": [],
    "slam": None,
}
GARDE_DEAL = {
    "id": 101,
    "game": 7,
    "number": 1,
    "dealer": 12,
    "payload": {k: v for k, v in GARDE_BODY.items() if k not in ("number", "client_id")},
    "scores": {"12": -66, "13": -66, "14": 198, "15": -66},
    "version": 1,
    "deleted": False,
    "counted": True,
    "taker": 14,
    "contract": "garde",
    "won": True,
    "client_id": GARDE_BODY["client_id"],
    "created_at": "2026-03-06T19:31:07.120000Z",
    "updated_at": "2026-03-06T19:31:07.120000Z",
}
DEAL_EXAMPLES = [
    OpenApiExample(
        "four_players_garde",
        summary="4 players (ids 12 to 15): player 14 takes a garde, 49 points with 2 bouts",
        value=GARDE_BODY,
        request_only=True,
    ),
    OpenApiExample("entered", value=GARDE_DEAL, response_only=True, status_codes=["201"]),
    OpenApiExample(
        "replayed",
        summary="The same client_id sent again (the phone lost the first answer): the deal "
        "already stored, nothing new",
        value=GARDE_DEAL,
        response_only=True,
        status_codes=["200"],
    ),
    OpenApiExample(
        "refused_en",
        summary="40.5 points at 4 players, Accept-Language: en",
        value={
            "points": [
                "At four players the attack's points are always whole: each side holds an even "
                "number of cards."
            ]
        },
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "refused_fr",
        summary="The same, in French (the default)",
        value={
            "points": [
                "À quatre joueurs, les points de l'attaque sont toujours entiers : chaque camp a "
                "un nombre pair de cartes."
            ]
        },
        response_only=True,
        status_codes=["400"],
    ),
    OpenApiExample(
        "number_taken",
        summary="Deal 1 was entered from another phone first",
        value={
            "non_field_errors": ["Deal 1 was just entered from another device."],
            "current": GARDE_DEAL,
        },
        response_only=True,
        status_codes=["409"],
    ),
]
CONFLICT = OpenApiResponse(
    response=ConflictSerializer,
    description="The deal changed (or its number was taken) since the client read it: "
    "`current` is the deal as it is now. A finished game or a full table answers 409 too, "
    "with `non_field_errors` only.",
)
ENGINE_REFUSAL = refusal(
    "The engine refuses the deal (a message per field, in the reader's language), or the body "
    "is not a JSON object."
)


# --- helpers ----------------------------------------------------------------------------------


def deal_body(request: Request) -> dict[str, Any]:
    """The body as a deal: a JSON object without NUL characters, players named by id."""
    body = read_deal(request)
    if not isinstance(body, dict):
        raise ScoringError({"non_field_errors": [Msg("not_an_object")]})
    if has_nul(body):
        # Valid JSON, but no database column can hold it.
        raise ParseError(gettext("The body contains text that is not valid Unicode."))
    player_reference_errors(body)
    return body


def own_fields(body: dict[str, Any], serializer_class: type[serializers.Serializer[Any]]) -> Any:
    """Validate and remove the site's own fields (number, version) from the deal's body."""
    own = {key: body.pop(key) for key in list(serializer_class().fields) if key in body}
    serializer = serializer_class(data=own)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _deal_answer(deal: Deal) -> Response:
    """The deal as it is now, read again with its score lines (after a correction, a deletion
    or a restore)."""
    fresh = Deal.objects.prefetch_related("lines").get(pk=deal.pk)
    return Response(DealSerializer(fresh).data)


def conflict_answer(error: DealConflict) -> Response:
    return refusal_problem(
        error, status=status.HTTP_409_CONFLICT, current=DealSerializer(error.current).data
    )


def closed_answer(error: GameClosed) -> Response:
    return refusal_problem(error, status=status.HTTP_409_CONFLICT)


def _refused(error: ScoringError) -> Response:
    return scoring_problem(error)


# --- games ------------------------------------------------------------------------------------


GAME_EXAMPLES = [
    OpenApiExample(
        "four_players_fft",
        value={"club": 3, "players": [12, 13, 14, 15], "variant": "fft", "label": "Table 1"},
        request_only=True,
    ),
    OpenApiExample(
        "five_players_house_rules",
        summary="Five at a table, the club's house rules (id 2), the dealer sits out",
        value={
            "club": 3,
            "players": [12, 13, 14, 15, 16],
            "variant": 2,
            "five_players": "sitting_out",
            "date": "2026-03-06",
        },
        request_only=True,
    ),
    OpenApiExample(
        "wrong_table",
        value={"players": ["Tarot is played by 3, 4 or 5 players (here 2)."]},
        response_only=True,
        status_codes=["400"],
    ),
]


class GameListView(ClubAPIView):
    serializer_class = GameSerializer
    paged = True
    pagination_class = FeedPages

    def get_queryset(self) -> QuerySet[Game]:
        club = club_filter(self.request)
        if club is not None:
            return game_selectors.club_games(club=club).select_related("club")
        readable = club_selectors.clubs_for(user=self.request.user)
        return (
            Game.objects.filter(club__in=readable)
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
            .order_by("-date", "-id")
        )

    @extend_schema(
        operation_id="games_list",
        summary="Games of a club",
        description="Newest first, 50 a page, each with its players in seat order. Without "
        "`?club=id`, the games of every club the caller may read. With `?updated_since=`, "
        "the change feed of these games: those started, finished, reopened or reseated "
        "after the cursor, oldest change first (a deal changes its own feed, not its game's).",
        tags=["games"],
        parameters=[CLUB_QUERY, UPDATED_SINCE_QUERY],
        responses={
            200: GameSerializer(many=True),
            400: refusal("`club` is not an id, or `updated_since` is not a cursor."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        if asks_feed(self):
            return feed_answer(
                self, self.get_queryset(), lambda rows: GameSerializer(rows, many=True).data
            )
        page = self.paginate_queryset(self.get_queryset())
        return self.get_paginated_response(GameSerializer(page, many=True).data)

    @extend_schema(
        operation_id="games_create",
        summary="Start a game at one table",
        description="Members of the club (and superusers). `players` in seat order, all of the "
        "club and all different: tarot 3 to 5, Novatarok 2 to 5, buraco 2 or 4 (these two only "
        "where the club plays them, 400 on `variant` otherwise). The rules are frozen into the "
        "game: later changes to a house rule set do not rescore it.",
        tags=["games"],
        request=GameCreateSerializer,
        responses={201: GameSerializer, **CREATE_ERRORS},
        examples=GAME_EXAMPLES,
    )
    def post(self, request: Request) -> Response:
        context = {"request": request}
        ref = ClubRefSerializer(data=request.data, context=context)
        ref.is_valid(raise_exception=True)
        require(permissions.can_create_game(request, ref.validated_data["club"]))
        serializer = GameCreateSerializer(data=request.data, context=context)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        game = services.game_create(
            club=data["club"],
            players=data["players"],
            variant=data["variant"],
            house_rules=data["house_rules"],
            five_players=data["five_players"],
            date=data.get("date"),
            label=data.get("label", ""),
            max_deals=data.get("max_deals"),
            by=request.user,
            imposed=False,  # the caller's choice: it must fit the rules (else 400)
        )
        game = game_selectors.club_games(club=data["club"]).get(pk=game.pk)
        return Response(GameSerializer(game).data, status=status.HTTP_201_CREATED)


class GameDetailView(ClubAPIView):
    serializer_class = GameSheetSerializer
    queryset = Game.objects.all()

    @extend_schema(
        operation_id="games_retrieve",
        summary="A game's score sheet",
        description="Players in seat order, every deal (deleted ones too, with `scores` null), "
        "each player's total and the ranking. A fixed number of queries, whatever the number "
        "of deals.",
        tags=["games"],
        responses={200: GameSheetSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        try:
            sheet = game_selectors.game_sheet(game_id=pk)
        except Game.DoesNotExist:
            raise Http404 from None
        readable_club(request, sheet.game.club)
        return Response(sheet_json(sheet))


class GameStatusView(ClubAPIView):
    """Finish a game or reopen it, as the sheet's buttons do: no body, the same rule
    (``can_manage_game``) and the same service. Asking for the status the game already has
    changes nothing and answers 200, as the page does."""

    serializer_class = GameSheetSerializer
    queryset = Game.objects.all()
    status_wanted: Game.Status

    def set_status(self, request: Request, pk: int) -> Response:
        game = game_or_404(request, pk)
        require(permissions.can_manage_game(request, game))
        busy_if_locked(lambda: services.game_set_status(game=game, status=self.status_wanted))
        return Response(sheet_json(game_selectors.game_sheet(game_id=game.pk)))


STATUS_ERRORS: dict[int, Any] = {401: UNAUTHENTICATED, 403: FORBIDDEN, 404: NOT_FOUND}


class GameFinishView(GameStatusView):
    status_wanted = Game.Status.FINISHED

    @extend_schema(
        operation_id="games_finish",
        summary="Finish a game",
        description="Whoever may enter the game's deals; a tournament table: the tournament's "
        "organisers and referees only. No body. "
        "A finished game's sheet is final: entering, correcting, deleting or restoring its "
        "deals answers 409 until it is reopened. Finishing a finished game changes nothing. "
        "The answer is the score sheet, as `GET /api/v1/games/{id}/` returns it, with "
        '`"status": "finished"`.',
        tags=["games"],
        request=None,
        responses={200: GameSheetSerializer, **STATUS_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.set_status(request, pk)


class GameReopenView(GameStatusView):
    status_wanted = Game.Status.OPEN

    @extend_schema(
        operation_id="games_reopen",
        summary="Reopen a finished game",
        description="Whoever may enter the game's deals; a tournament table: the tournament's "
        "organisers and referees only. No body. "
        "Its deals may be entered and corrected again. Reopening an open game changes "
        'nothing. The answer is the score sheet, with `"status": "open"`.',
        tags=["games"],
        request=None,
        responses={200: GameSheetSerializer, **STATUS_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        return self.set_status(request, pk)


DEAL_FEED_DESCRIPTION = (
    " With `?updated_since=`, their change feed: the deals entered, corrected, deleted or "
    "restored after the cursor, oldest change first, each once as it is now (a deleted deal "
    "with `deleted: true` and `scores` null; restored, its scores again): a consumer that "
    "applies them in order mirrors the sheet exactly."
)


def deals_json(rows: Sequence[Deal]) -> list[Any]:
    return list(DealSerializer(rows, many=True).data)


class GameDealsView(ClubAPIView):
    """A game's deals: listed (a change feed with ``updated_since``), and the next one entered."""

    serializer_class = DealSerializer
    queryset = Game.objects.all()
    paged = True
    pagination_class = FeedPages

    @extend_schema(
        operation_id="game_deals_list",
        summary="The deals of a game",
        description="In the sheet's order (by number; a struck deal before the live one that "
        "took its number again), deleted ones included (`deleted: true`, `scores` null), "
        "50 a page." + DEAL_FEED_DESCRIPTION,
        tags=["deals"],
        parameters=[UPDATED_SINCE_QUERY],
        responses={
            200: DealSerializer(many=True),
            400: refusal("`updated_since` is not a cursor."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        game = game_or_404(request, pk)
        deals = Deal.objects.filter(game=game).prefetch_related("lines")
        if asks_feed(self):
            return feed_answer(self, deals, deals_json)
        page = self.paginate_queryset(deals.order_by("number", "pk"))
        return self.get_paginated_response(deals_json(page or []))

    @extend_schema(
        operation_id="deals_create",
        summary="Enter the next deal of a game",
        description="Organisers of the club, and members who sit at this table (a tournament "
        "table: while its round is open; after, its organisers and referees). The body is "
        "the scoring contract without `variant` and `players`, players by id, and the "
        "optional `number` the client expects: the same number sent twice stores one deal "
        "(the second answer is 409 with it). Without `number`, the next one is used. With "
        "`client_id`, a request sent again answers 200 with the deal it stored, and stores "
        "nothing: a phone may resend what it is not sure was received.",
        tags=["deals"],
        request={"application/json": NEW_DEAL_SCHEMA},
        responses={
            201: DealSerializer,
            200: OpenApiResponse(
                DealSerializer,
                description="A replay: a deal was already stored under this `client_id`; "
                "it is answered as it is now and nothing is written.",
            ),
            **WRITE_ERRORS,
            400: ENGINE_REFUSAL,
            409: CONFLICT,
        },
        examples=DEAL_EXAMPLES,
    )
    def post(self, request: Request, pk: int) -> Response:
        game = game_or_404(request, pk)
        require(permissions.can_enter_deals(request, game))
        try:
            body = deal_body(request)
            own = own_fields(body, NewDealSerializer)
            recorded = busy_if_locked(
                lambda: services.deal_record(
                    game=game,
                    payload=body,
                    by=request.user,
                    number=own.get("number"),
                    client_id=own.get("client_id"),
                    reason=own["reason"],
                    board=own.get("board"),
                )
            )
        except ScoringError as error:
            return _refused(error)
        except DealConflict as conflict:
            return conflict_answer(conflict)
        except GameClosed as closed:
            return closed_answer(closed)
        # The scores as written: no need to read the new deal's lines back.
        answer = DealSerializer(recorded.deal, context={"scores": recorded.scores})
        if recorded.replayed:
            return Response(answer.data, status=status.HTTP_200_OK)
        return Response(answer.data, status=status.HTTP_201_CREATED)


class DealListView(ClubAPIView):
    serializer_class = DealSerializer
    paged = True
    pagination_class = FeedPages

    @extend_schema(
        operation_id="deals_list",
        summary="Deals of a club",
        description="The deals of the club's games (`?club=id`), or of every club the caller "
        "may read, in the order they were first entered, deleted ones included "
        "(`deleted: true`, `scores` null), 50 a page." + DEAL_FEED_DESCRIPTION,
        tags=["deals"],
        parameters=[CLUB_QUERY, UPDATED_SINCE_QUERY],
        responses={
            200: DealSerializer(many=True),
            400: refusal("`club` is not an id, or `updated_since` is not a cursor."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        club = club_filter(request)
        if club is not None:
            deals = Deal.objects.filter(game__club=club)
        else:
            deals = Deal.objects.filter(game__club__in=club_selectors.clubs_for(user=request.user))
        deals = deals.prefetch_related("lines")
        if asks_feed(self):
            return feed_answer(self, deals, deals_json)
        page = self.paginate_queryset(deals.order_by("pk"))
        return self.get_paginated_response(deals_json(page or []))


# --- one deal ---------------------------------------------------------------------------------

STALE_EXAMPLE = OpenApiExample(
    "stale",
    value={
        "non_field_errors": [
            "This deal was changed by someone else (now version 2); here is the newer version."
        ],
        "current": {**GARDE_DEAL, "version": 2},
    },
    response_only=True,
    status_codes=["409"],
)
VERSION_QUERY = OpenApiParameter(
    "version", int, required=True, description="The version the client read (409 if stale)."
)
REASON_QUERY = OpenApiParameter(
    "reason",
    str,
    description="Why the deal changes, kept in its history: required for a tournament table "
    "once its round has closed (400 on `reason` without it).",
)


class ReasonSerializer(serializers.Serializer[Any]):
    reason = reason_field()


class DealDetailView(ClubAPIView):
    serializer_class = DealSerializer
    queryset = Deal.objects.all()

    @extend_schema(
        operation_id="deals_retrieve",
        summary="One deal",
        tags=["deals"],
        responses={200: DealSerializer, **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        return _deal_answer(deal_or_404(request, pk))

    def _correct(self, request: Request, pk: int, *, merge: bool) -> Response:
        deal = deal_or_404(request, pk)
        require(permissions.can_correct_deal(request, deal))
        try:
            body = deal_body(request)
            own = own_fields(body, DealVersionSerializer)
            deal = busy_if_locked(
                lambda: services.deal_update(
                    deal=deal,
                    payload=body,
                    version=own["version"],
                    by=request.user,
                    reason=own["reason"],
                    merge=merge,
                )
            )
        except ScoringError as error:
            return _refused(error)
        except DealConflict as conflict:
            return conflict_answer(conflict)
        except GameClosed as closed:
            return closed_answer(closed)
        return _deal_answer(deal)

    @extend_schema(
        operation_id="deals_replace",
        summary="Correct a deal: the whole deal",
        description="Whoever may enter the game's deals. Send the `version` read and the whole "
        "deal as it should be: a field left out is left out of the deal (for only some "
        "fields, use PATCH). A stale version answers 409 with the deal as it is now; a "
        "deleted deal must be restored first (409).",
        tags=["deals"],
        request={"application/json": EDIT_DEAL_SCHEMA},
        responses={200: DealSerializer, **WRITE_ERRORS, 400: ENGINE_REFUSAL, 409: CONFLICT},
        examples=[
            OpenApiExample(
                "correction",
                value={
                    **{k: v for k, v in GARDE_BODY.items() if k not in ("number", "client_id")},
                    "version": 1,
                    "points": 56,
                },
                request_only=True,
            ),
            STALE_EXAMPLE,
        ],
    )
    def put(self, request: Request, pk: int) -> Response:
        return self._correct(request, pk, merge=False)

    @extend_schema(
        operation_id="deals_update",
        summary="Correct some fields of a deal",
        description="Whoever may enter the game's deals. Send the `version` read and only the "
        "fields to change: they are laid over the deal as entered (a list, such as "
        "`handfuls`, is replaced whole; `null` clears a field), and the result is scored "
        "again. A stale version answers 409 with the deal as it is now; a deleted deal must "
        "be restored first (409).",
        tags=["deals"],
        request={"application/json": EDIT_DEAL_SCHEMA},
        responses={200: DealSerializer, **WRITE_ERRORS, 400: ENGINE_REFUSAL, 409: CONFLICT},
        examples=[
            OpenApiExample("points_only", value={"version": 1, "points": 56}, request_only=True),
            STALE_EXAMPLE,
        ],
    )
    def patch(self, request: Request, pk: int) -> Response:
        return self._correct(request, pk, merge=True)

    @extend_schema(
        operation_id="deals_destroy",
        summary="Delete a deal (it can be restored)",
        description="Strikes the deal off the sheet: its scores no longer count, its history "
        "keeps it. `?version=` is the version read (409 with the current deal if stale). "
        "The answer is the deleted deal with its new version.",
        tags=["deals"],
        parameters=[VERSION_QUERY, REASON_QUERY],
        request=None,
        responses={
            200: DealSerializer,
            400: BAD_BODY,
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: CONFLICT,
        },
    )
    def delete(self, request: Request, pk: int) -> Response:
        deal = deal_or_404(request, pk)
        require(permissions.can_correct_deal(request, deal))
        params = DealVersionSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        version, reason = params.validated_data["version"], params.validated_data["reason"]
        try:
            deal = busy_if_locked(
                lambda: services.deal_delete(
                    deal=deal, version=version, by=request.user, reason=reason
                )
            )
        except DealConflict as conflict:
            return conflict_answer(conflict)
        except GameClosed as closed:
            return closed_answer(closed)
        return _deal_answer(deal)


class DealRestoreView(ClubAPIView):
    serializer_class = DealSerializer
    queryset = Deal.objects.all()

    @extend_schema(
        operation_id="deals_restore",
        summary="Restore a deleted deal",
        description="Its scores count again (a restored deal is scored again by the game's "
        "rules). Restoring a live deal changes nothing. 409 if the game is finished or its "
        "table full.",
        tags=["deals"],
        parameters=[REASON_QUERY],
        request=None,
        responses={
            200: DealSerializer,
            400: ENGINE_REFUSAL,
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: CONFLICT,
        },
    )
    def post(self, request: Request, pk: int) -> Response:
        deal = deal_or_404(request, pk)
        require(permissions.can_correct_deal(request, deal))
        params = ReasonSerializer(data=request.query_params)
        params.is_valid(raise_exception=True)
        reason = params.validated_data["reason"]
        try:
            deal = busy_if_locked(
                lambda: services.deal_restore(deal=deal, by=request.user, reason=reason)
            )
        except ScoringError as error:
            return _refused(error)
        except GameClosed as closed:
            return closed_answer(closed)
        return _deal_answer(deal)


class DealHistoryView(ClubAPIView):
    serializer_class = RevisionSerializer
    queryset = Deal.objects.all()
    paged = True

    @extend_schema(
        operation_id="deals_history",
        summary="A deal's history",
        description="Every revision, oldest first: who entered, corrected, deleted or restored "
        "the deal, when, and what it was then.",
        tags=["deals"],
        responses={200: RevisionSerializer(many=True), **READ_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        deal = deal_or_404(request, pk)
        revisions = DealRevision.objects.filter(deal=deal).select_related("by")
        ordered = revisions.order_by("version", "id")
        return self.page_of(list(RevisionSerializer(ordered, many=True).data))
