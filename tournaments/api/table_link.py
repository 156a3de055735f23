"""A tournament table's link over the API (``/api/v1/tables/<token>/``): what the table's page
(``tournaments.views.table_entry``) lets a phone do, for a table app.

The token opens that table's game and nothing else, and only while its round is not closed
(403 ``table_closed`` after): read the table, enter the next deal, correct one of its deals, and,
where the tournament requires confirmation, confirm or dispute a deal of the other side. A token
the organisers replaced answers 410 ``link_replaced``, saying what to do, as the page does. No
account is needed: the token is the credential, as on the page. Where the tournament requires
confirmation, the body names who holds the phone (``player``, one of the table's players), as
the page asks before any deal. Every write goes through the same services as the page (deal
entry, correction, confirmation), recorded with no user and the label "Table N, link".
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import FORBIDDEN, busy_if_locked, refusal
from tarot_scores.api.games import (
    EDIT_DEAL_SCHEMA,
    NEW_DEAL_SCHEMA,
    closed_answer,
    conflict_answer,
    deal_body,
    own_fields,
)
from tarot_scores.api.problems import refusal_problem
from tarot_scores.api.serializers import (
    MAX_ID,
    DealSerializer,
    DealVersionSerializer,
    NewDealSerializer,
)
from tarot_scores.api.tokens import HashedTokenAuthentication
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services
from tarot_scores.games.models import Deal
from tarot_scores.games.services import DealConflict, GameClosed
from tournaments.api.base import (
    READ_ERRORS,
    TournamentAPIView,
    require_organiser,
    round_or_404,
    tournament_or_404,
)
from tournaments.api.confirmations import ConfirmationSerializer, confirmation_json
from tournaments.errors import Code, PinLocked, TournamentRefusal
from tournaments.models import DealConfirmation, ReplacedTableLink, Round, Table
from tournaments.play import confirmations, holder
from tournaments.play.holder import Holder

TAGS = ["table link"]
TOKEN = OpenApiParameter(
    "token", str, OpenApiParameter.PATH, description="The table's token, from its link."
)
DEAL_ID = OpenApiParameter("deal_id", int, OpenApiParameter.PATH, description="The deal's id.")
HOLDER = {
    "type": "integer",
    "description": "Who holds the phone, one of the table's players (by id): required where "
    "the tournament requires confirmation, ignored elsewhere.",
}
PIN = {
    "type": "string",
    "maxLength": 8,
    "description": "The acting player's PIN (on his player card): on every write where the "
    "tournament asks for personal proof, and to confirm or disagree whatever the proof asked "
    "(the link's API is no phone). Not needed with the token of the account linked to him.",
}


def _held(schema: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A deal's request schema with who holds the phone (and ``extra`` fields) added."""
    return {**schema, "properties": {"player": HOLDER, **extra, **schema["properties"]}}


REPLACED = refusal(
    "The organisers replaced this table's link (`link_replaced`): it opens nothing any more. "
    "The detail says what to do: scan the QR code on the table's new score sheet, or ask the "
    "organisers for the new link."
)
ERRORS: dict[int, Any] = {
    400: refusal("A message per field, as on the table's page."),
    403: refusal("The table's round is closed: the link takes no more changes."),
    404: refusal("No table has this token, or no such deal at this table."),
    409: refusal("The deal number is taken, the version stale, or the table full."),
    410: REPLACED,
    413: refusal("The body is over 64 KB."),
    415: refusal("The body is not sent as application/json."),
}
# Confirming and disputing check the acting player's PIN where the tournament asks for it.
ANSWER_ERRORS: dict[int, Any] = {
    **ERRORS,
    429: refusal(
        "Too many wrong PINs through this table's API (or at this table): no PIN is taken "
        "there until the time said (Retry-After), or until a referee lifts the lock."
    ),
}


class TablePlayerSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    label = serializers.CharField(help_text="As on the score sheet.")  # type: ignore[assignment]


class TableLinkSerializer(serializers.Serializer[Any]):
    tournament = serializers.IntegerField()
    round = serializers.IntegerField(help_text="The round's number.")
    number = serializers.IntegerField(help_text="The table's number in its round.")
    game = serializers.IntegerField(help_text="The table's game.")
    players = TablePlayerSerializer(many=True, help_text="In seat order.")
    deals = serializers.IntegerField(help_text="Live deals entered so far.")
    deals_per_round = serializers.IntegerField()
    open = serializers.BooleanField(help_text="False once the round is closed.")
    requires_confirmation = serializers.BooleanField()
    deal_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text="The table's live deals, in order."
    )


class LinkReplaced(APIException):
    """A table's link the organisers replaced: gone (410), with what to do, not "not found"."""

    status_code = status.HTTP_410_GONE
    default_code = Code.LINK_REPLACED


def _table(token: str) -> Table:
    table = (
        Table.objects.select_related("round__tournament__club", "game__club")
        .filter(token=token)
        .first()
    )
    if table is None:
        replaced = ReplacedTableLink.objects.select_related("table").filter(token=token).first()
        if replaced is None:
            raise Http404
        # The table page's words (table_replaced.html), for a phone's app to show.
        raise LinkReplaced(
            detail=" ".join(
                (
                    _(
                        "The organisers gave table %(n)s a new link: this one no longer opens "
                        "it, and nothing can be entered through it."
                    )
                    % {"n": replaced.table.number},
                    _(
                        "Ask the organisers for the new link, or scan the QR code on the "
                        "table's new score sheet."
                    ),
                )
            ),
            code=Code.LINK_REPLACED,
        )
    return table


def _open(table: Table) -> None:
    if table.round.status == Round.Status.CLOSED:
        raise PermissionDenied(
            detail=_("This round is closed: the table's link takes no more changes."),
            code=Code.TABLE_CLOSED,
        )


def _deal(table: Table, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("game__club")
        .filter(pk=deal_id, game_id=table.game_id, deleted_at__isnull=True)
        .first()
    )
    if deal is None:
        raise Http404
    return deal


def _holder(
    request: Request, table: Table, body: dict[str, Any], *, answering: bool = False
) -> Holder:
    """Who acts (``play.holder.api_holder``): the body's ``player`` and ``pin`` (removed from
    it), where the tournament asks for confirmation; the link itself elsewhere."""
    named = body.pop("player", None)
    pin = body.pop("pin", None)
    if not table.round.tournament.require_confirmation:
        return Holder(None, False, holder.api_place(table), holder.api_place(table))
    if pin is not None and not isinstance(pin, str):
        raise TournamentRefusal.on("pin", Code.PIN_WRONG, _("Type your PIN as text."))
    players = [s.player for s in table.game.seats.select_related("player").order_by("position")]
    return holder.api_holder(request.user, table, players, named, pin, answering=answering)


def _by_label(table: Table, acting: Holder) -> str:
    if acting.player is not None:
        return _("Table %(n)s, link (%(name)s)") % {"n": table.number, "name": acting.player.label}
    return _("Table %(n)s, link") % {"n": table.number}


class RoundLinkSerializer(serializers.Serializer[Any]):
    table = serializers.IntegerField(help_text="The table's number in its round.")
    game = serializers.IntegerField()
    token = serializers.CharField(help_text="The table's link: `/api/v1/tables/{token}/`.")


class RoundLinksView(TournamentAPIView):
    """The organiser hands each table its link (printed, or sent to the table's app)."""

    serializer_class = RoundLinkSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_round_links",
        summary="The table links of a round",
        description="Organisers only: each table's token, to hand to the table (its page is "
        "`/tournaments/t/{token}/`, its API `/api/v1/tables/{token}/`). By table number.",
        tags=TAGS,
        parameters=[
            OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round.")
        ],
        responses={200: RoundLinkSerializer(many=True), **READ_ERRORS, 403: FORBIDDEN},
    )
    def get(self, request: Request, pk: int, number: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        round_ = round_or_404(tournament, number)
        tables = Table.objects.filter(round=round_).order_by("number")
        return self.page_of(
            [{"table": t.number, "game": t.game_id, "token": t.token} for t in tables]
        )


class TableLinkAPIView(TournamentAPIView):
    """The token in the path is the credential: no session (so no CSRF either). An account's API
    token may come with it: a player whose account is linked acts through it alone."""

    authentication_classes = [HashedTokenAuthentication]
    permission_classes = [AllowAny]


class TableLinkView(TableLinkAPIView):
    serializer_class = TableLinkSerializer

    @extend_schema(
        operation_id="table_link_retrieve",
        summary="The table of a link",
        description="Its players in seat order, its game, the deals entered so far, and "
        "whether the round is still open.",
        tags=TAGS,
        auth=[],
        parameters=[TOKEN],
        responses={200: TableLinkSerializer, 404: ERRORS[404], 410: REPLACED},
    )
    def get(self, request: Request, token: str) -> Response:
        table = _table(token)
        seats = list(table.game.seats.select_related("player").order_by("position"))
        deal_ids = list(
            Deal.objects.filter(game_id=table.game_id, deleted_at__isnull=True)
            .order_by("number")
            .values_list("pk", flat=True)
        )
        return Response(
            {
                "tournament": table.round.tournament_id,
                "round": table.round.number,
                "number": table.number,
                "game": table.game_id,
                "players": [{"id": s.player_id, "label": s.player.label} for s in seats],
                "deals": len(deal_ids),
                "deals_per_round": table.round.tournament.deals_per_round,
                "open": table.round.status != Round.Status.CLOSED,
                "requires_confirmation": table.round.tournament.require_confirmation,
                "deal_ids": deal_ids,
            }
        )


class TableDealsView(TableLinkAPIView):
    serializer_class = DealSerializer

    @extend_schema(
        operation_id="table_link_deals_create",
        summary="Enter the table's next deal",
        description="The body of `POST /api/v1/games/{id}/deals/` (players by id; `number`, "
        "`client_id`, `board` as there), plus `player` where the tournament requires "
        "confirmation. The same rules as the table's page.",
        tags=TAGS,
        auth=[],
        parameters=[TOKEN],
        request={"application/json": _held(NEW_DEAL_SCHEMA, pin=PIN)},
        responses={200: DealSerializer, 201: DealSerializer, **ERRORS},
    )
    def post(self, request: Request, token: str) -> Response:
        table = _table(token)
        _open(table)
        body = deal_body(request)
        try:
            acting = _holder(request, table, body)
        except Refusal as error:
            return _answer_refusal(error)
        own = own_fields(body, NewDealSerializer)
        try:
            recorded = busy_if_locked(
                lambda: services.deal_record(
                    game=table.game,
                    payload=body,
                    by=request.user,
                    by_label=_by_label(table, acting),
                    number=own.get("number"),
                    client_id=own.get("client_id"),
                    reason=own["reason"],
                    board=own.get("board"),
                    at_table=acting.at_table(),
                )
            )
        except DealConflict as conflict:
            return conflict_answer(conflict)
        except GameClosed as closed:
            return closed_answer(closed)
        answer = DealSerializer(recorded.deal, context={"scores": recorded.scores})
        code = status.HTTP_200_OK if recorded.replayed else status.HTTP_201_CREATED
        return Response(answer.data, status=code)


class TableDealView(TableLinkAPIView):
    serializer_class = DealSerializer

    @extend_schema(
        operation_id="table_link_deals_update",
        summary="Correct one of the table's deals",
        description="The body of `PATCH /api/v1/deals/{id}/` (the `version` read and the fields "
        "that change), plus `player` where the tournament requires confirmation.",
        tags=TAGS,
        auth=[],
        parameters=[TOKEN, DEAL_ID],
        request={"application/json": _held(EDIT_DEAL_SCHEMA, pin=PIN)},
        responses={200: DealSerializer, **ERRORS},
    )
    def patch(self, request: Request, token: str, deal_id: int) -> Response:
        table = _table(token)
        _open(table)
        deal = _deal(table, deal_id)
        body = deal_body(request)
        try:
            acting = _holder(request, table, body)
        except Refusal as error:
            return _answer_refusal(error)
        own = own_fields(body, DealVersionSerializer)
        try:
            deal = busy_if_locked(
                lambda: services.deal_update(
                    deal=deal,
                    payload=body,
                    version=own["version"],
                    by=request.user,
                    by_label=_by_label(table, acting),
                    reason=own["reason"],
                    merge=True,
                    at_table=acting.at_table(),
                )
            )
        except DealConflict as conflict:
            return conflict_answer(conflict)
        except GameClosed as closed:
            return closed_answer(closed)
        fresh = Deal.objects.prefetch_related("lines").get(pk=deal.pk)
        return Response(DealSerializer(fresh).data)


class HolderSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text=HOLDER["description"]
    )
    version = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text="The deal's version read."
    )
    pin = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=8,
        help_text="The acting player's PIN (on his player card), unless the account linked to "
        "him sends its token. Too many wrong PINs through this table's API, or at this table, "
        "stop PINs there for a while (429, with Retry-After).",
    )


def _answer_refusal(error: Refusal) -> Response:
    if isinstance(error, PinLocked):
        locked = refusal_problem(error, status=status.HTTP_429_TOO_MANY_REQUESTS)
        locked["Retry-After"] = str(error.retry_after(timezone.now()))
        return locked
    if isinstance(error, DealConflict | GameClosed):
        return refusal_problem(error, status=status.HTTP_409_CONFLICT)
    codes = {code for items in error.codes().values() for code in items}
    if codes & {"not_at_table", "same_side", "not_referee", "holder_linked", "confirmed_stands"}:
        return refusal_problem(error, status=status.HTTP_403_FORBIDDEN)
    if set(error.reasons) - {"non_field_errors"}:
        return refusal_problem(error)
    return refusal_problem(error, status=status.HTTP_409_CONFLICT)


def _state(deal: Deal) -> Response:
    found = DealConfirmation.objects.select_related("deal__game__tournament_table__round").get(
        deal=deal
    )
    return Response(confirmation_json(found))


class TableConfirmView(TableLinkAPIView):
    serializer_class = ConfirmationSerializer

    @extend_schema(
        operation_id="table_link_deals_confirm",
        summary="Confirm a deal of the other side",
        description="Where the tournament requires confirmation: `player`, of the side that "
        "did not enter the deal, confirms it (403 for the side that entered it).",
        tags=TAGS,
        auth=[],
        parameters=[TOKEN, DEAL_ID],
        request=HolderSerializer,
        responses={200: ConfirmationSerializer, **ANSWER_ERRORS},
    )
    def post(self, request: Request, token: str, deal_id: int) -> Response:
        table = _table(token)
        if not table.round.tournament.require_confirmation:
            raise Http404
        _open(table)
        deal = _deal(table, deal_id)
        body = deal_body(request)
        sent = {k: body[k] for k in ["player", "version", "pin"] if k in body}
        version = HolderSerializer(data=sent)
        version.is_valid(raise_exception=True)
        try:
            acting = _holder(request, table, body, answering=True)
            assert acting.player is not None  # the tournament requires confirmation
            confirmations.deal_confirm(
                deal=deal,
                by=request.user,
                player=acting.player.pk,
                version=version.validated_data.get("version"),
                proof=acting.proof,
            )
        except Refusal as error:
            return _answer_refusal(error)
        return _state(deal)


class TableDisputeView(TableLinkAPIView):
    serializer_class = ConfirmationSerializer

    @extend_schema(
        operation_id="table_link_deals_dispute",
        summary="Disagree with a deal of the other side",
        description="Where the tournament requires confirmation: `player`, of the other side, "
        "sends its own version of the deal (the body of a deal entry, with `version`, and "
        "`pin` where the tournament asks for personal proof); the deal goes to the referee "
        "with both.",
        tags=TAGS,
        auth=[],
        parameters=[TOKEN, DEAL_ID],
        request={"application/json": _held(EDIT_DEAL_SCHEMA, pin=PIN)},
        responses={200: ConfirmationSerializer, **ANSWER_ERRORS},
    )
    def post(self, request: Request, token: str, deal_id: int) -> Response:
        table = _table(token)
        if not table.round.tournament.require_confirmation:
            raise Http404
        _open(table)
        deal = _deal(table, deal_id)
        body = deal_body(request)
        body.pop("reason", None)
        sent = {k: body[k] for k in ["player", "version", "pin"] if k in body}
        body.pop("version", None)
        own = HolderSerializer(data=sent)
        own.is_valid(raise_exception=True)
        try:
            acting = _holder(request, table, body, answering=True)
            assert acting.player is not None  # the tournament requires confirmation
            confirmations.deal_dispute(
                deal=deal,
                payload=body,
                by=request.user,
                player=acting.player.pk,
                version=own.validated_data.get("version"),
                proof=acting.proof,
            )
        except Refusal as error:
            return _answer_refusal(error)
        return _state(deal)
