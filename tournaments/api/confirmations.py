"""Confirmation at the table in the API: the state of each deal of a tournament that requires
it, and confirming, disagreeing and settling (``tournaments.play.confirmations`` holds the rules).

Who may call: reading follows the club's visibility. Confirming is for a signed-in player of
the other side (his account's player sits at the table), or an organiser or referee of the
tournament who does not play at that table; disagreeing is for a player of the other side;
settling is for an organiser or referee. A table's link (its token) has no API: the phones
confirm on the link's page. A tournament that does not require confirmation has none of these
endpoints (404).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.calculator import read_deal
from tarot_scores.api.games import DISPUTE_DEAL_SCHEMA
from tarot_scores.api.problems import refusal_problem, scoring_problem
from tarot_scores.api.serializers import has_nul, player_reference_errors
from tarot_scores.core.errors import Refusal
from tarot_scores.games.models import Deal
from tarot_scores.games.services import DealConflict, GameClosed
from tarot_scores.scoring import ScoringError
from tarot_scores.scoring.messages import Msg
from tournaments.api.base import (
    MAX_ID,
    READ_ERRORS,
    WRITE_ERRORS,
    TournamentAPIView,
    refusal,
    tournament_or_404,
)
from tournaments.models import DealConfirmation, Tournament
from tournaments.play import confirmations
from tournaments.rules import can_referee

TAGS = ["tournaments"]
Status = DealConfirmation.Status

# What each refusal of the rules answers: who may not (403), or not now (409).
FORBIDDEN = {"not_at_table", "same_side", "not_referee"}


def _refused(error: Refusal) -> Response:
    codes = {code for items in error.codes().values() for code in items}
    answer: int
    if codes & FORBIDDEN:
        answer = status.HTTP_403_FORBIDDEN
    elif codes & {"keep_invalid", "reason_required", "reason_too_long"}:
        answer = status.HTTP_400_BAD_REQUEST
    else:
        answer = status.HTTP_409_CONFLICT
    return refusal_problem(error, status=answer)


def _asking(request: Request, pk: int) -> Tournament:
    """The tournament, if it requires confirmation and the caller may read it: its club's
    readers, and its referees (named from another club, they read it even if it is private)."""
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is None or not can_referee(request, tournament):
        tournament = tournament_or_404(request, pk)
    if not tournament.require_confirmation:
        raise Http404
    return tournament


def _deal_or_404(tournament: Tournament, deal_id: int) -> Deal:
    deal = (
        Deal.objects.select_related("game")
        .filter(pk=deal_id, game__tournament_table__round__tournament=tournament)
        .first()
        if 1 <= deal_id <= MAX_ID
        else None
    )
    if deal is None:
        raise Http404
    return deal


def _may_act(request: Request, deal: Deal, *, settle: bool = False) -> None:
    """Who has no say on this deal is refused before his body or the deal's state is read."""
    if not confirmations.may_act(request.user, deal, settle=settle):
        raise PermissionDenied(
            _("Only a referee or an organiser who does not play at this table decides.")
            if settle
            else _("Only a player of this table, a referee or an organiser may do this.")
        )


def confirmation_json(confirmation: DealConfirmation) -> dict[str, Any]:
    """One deal's state (its deal, game, table and round selected with it)."""
    deal = confirmation.deal
    table = deal.game.tournament_table
    disputed = confirmation.dispute_payload is not None
    stamp = serializers.DateTimeField().to_representation
    return {
        "deal": deal.pk,
        "game": deal.game_id,
        "round": table.round.number,
        "table": table.number,
        "number": deal.number,
        "version": confirmation.version,
        "status": confirmation.status,
        "entered_by": confirmation.entered_by_id,
        "entered_side": confirmation.entered_side or None,
        "confirmed_by": confirmation.confirmed_by_id,
        "confirmed_by_referee": confirmation.status == Status.CONFIRMED
        and confirmation.confirmed_by_id is None,
        "confirmed_at": stamp(confirmation.confirmed_at) if confirmation.confirmed_at else None,
        "disputed_by": confirmation.disputed_by_id,
        "disputed_at": stamp(confirmation.disputed_at) if confirmation.disputed_at else None,
        "dispute": {"deal": confirmation.dispute_payload, "scores": confirmation.dispute_scores}
        if disputed
        else None,
        "referee_reason": confirmation.referee_reason,
    }


def _state_of(deal: Deal) -> Response:
    confirmation = DealConfirmation.objects.select_related(
        "deal__game__tournament_table__round"
    ).get(deal=deal)
    return Response(confirmation_json(confirmation))


class DisputeSerializer(serializers.Serializer[Any]):
    deal = serializers.DictField(help_text="The other side's version.")
    scores = serializers.DictField(child=serializers.IntegerField(), help_text="Player id: points.")


@extend_schema_field({"oneOf": [{"type": "string", "enum": list(Status.values)}]})
class ConfirmationStatusField(serializers.CharField):
    """pending, confirmed, disputed (inline: an enum component named after ``status`` would
    clash with the other statuses of the API)."""


class ConfirmationSerializer(serializers.Serializer[Any]):
    deal = serializers.IntegerField(help_text="The deal's id (`/api/v1/deals/{id}/`).")
    game = serializers.IntegerField(help_text="The table's game.")
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The deal's number at its table.")
    version = serializers.IntegerField(help_text="The deal's version this state is about.")
    status = ConfirmationStatusField(
        help_text="`pending`: waits for the other side; `confirmed`: counts; `disputed`: the "
        "other side gave its own version, a referee decides.",
    )
    entered_by = serializers.IntegerField(
        allow_null=True, help_text="The player who entered this version; null if none of the table."
    )
    entered_side = serializers.ChoiceField(
        choices=DealConfirmation.Side.choices,
        allow_null=True,
        help_text="That player's side in the deal: the other side confirms.",
    )
    confirmed_by = serializers.IntegerField(
        allow_null=True, help_text="The player of the other side who confirmed."
    )
    confirmed_by_referee = serializers.BooleanField(
        help_text="Confirmed by an organiser or referee (or entered by one)."
    )
    confirmed_at = serializers.DateTimeField(allow_null=True)
    disputed_by = serializers.IntegerField(allow_null=True)
    disputed_at = serializers.DateTimeField(allow_null=True)
    dispute = DisputeSerializer(
        allow_null=True, help_text="The other side's version and its scores; null if none."
    )
    referee_reason = serializers.CharField(
        help_text="Why an organiser or referee confirmed or settled it instead of the other "
        "side; empty otherwise."
    )


STATUS_QUERY = OpenApiParameter(
    "status", str, enum=list(Status.values), description="Only the deals in this state."
)
NOT_ASKED = refusal(
    "No such tournament or deal, a private club's for an outsider, or the tournament does not "
    "require confirmation."
)
CONFIRMATION_ERRORS: dict[int, Any] = {
    **WRITE_ERRORS,
    403: refusal(
        "Not a player of the other side at this table, nor an organiser or referee not "
        "playing there (the side that entered the deal does not confirm it)."
    ),
    404: NOT_ASKED,
    409: refusal(
        "Not now: the deal is disputed, already settled, deleted, or was corrected since `version`."
    ),
}
EXAMPLE_STATE = {
    "deal": 481,
    "game": 77,
    "round": 2,
    "table": 3,
    "number": 5,
    "version": 1,
    "status": "disputed",
    "entered_by": 14,
    "entered_side": "attack",
    "confirmed_by": None,
    "confirmed_by_referee": False,
    "confirmed_at": None,
    "referee_reason": "",
    "disputed_by": 15,
    "disputed_at": "2026-11-25T19:41:07Z",
    "dispute": {
        "deal": {"taker": 14, "contract": "garde", "points": 40, "oudlers": 2},
        "scores": {"12": 72, "13": 72, "14": -216, "15": 72},
    },
}


class ConfirmationListView(TournamentAPIView):
    serializer_class = ConfirmationSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_confirmations_list",
        summary="Deals and their confirmation",
        description="Tournaments that require confirmation only (404 otherwise). Every deal "
        "entered at its tables (deleted ones left out), by round, table and number, with its "
        "state: pending, confirmed or disputed (with the other side's version). Standings "
        "count the confirmed ones.",
        tags=TAGS,
        parameters=[STATUS_QUERY],
        responses={200: ConfirmationSerializer(many=True), **READ_ERRORS, 404: NOT_ASKED},
        examples=[OpenApiExample("disputed", value=[EXAMPLE_STATE], response_only=True)],
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = _asking(request, pk)
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in Status.values:
            return Response(
                {"status": [_("Choose one of: %(s)s.") % {"s": ", ".join(Status.values)}]},
                status=status.HTTP_400_BAD_REQUEST,
            )
        found = (
            DealConfirmation.objects.filter(
                deal__game__tournament_table__round__tournament=tournament,
                deal__deleted_at__isnull=True,
            )
            .select_related("deal__game__tournament_table__round")
            .order_by(
                "deal__game__tournament_table__round__number",
                "deal__game__tournament_table__number",
                "deal__number",
            )
        )
        if wanted is not None:
            found = found.filter(status=wanted)
        return self.page_of([confirmation_json(c) for c in found])


class ConfirmBodySerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text="The deal's version the caller read: 409 if it was corrected since.",
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="Required from an organiser or referee confirming instead of the other side: "
        "why, kept with the deal's confirmation (`referee_reason`).",
    )


class DealConfirmView(TournamentAPIView):
    serializer_class = ConfirmationSerializer

    @extend_schema(
        operation_id="tournament_deals_confirm",
        summary="Confirm a deal",
        description="A signed-in player of the other side (his account's player sits at the "
        "table), or an organiser or referee who does not play at that table (who may also "
        "confirm a disputed deal: the version entered stands). Confirming a confirmed deal "
        "changes nothing. The round closes itself once all its deals are confirmed.",
        tags=TAGS,
        request=ConfirmBodySerializer,
        responses={200: ConfirmationSerializer, **CONFIRMATION_ERRORS},
    )
    def post(self, request: Request, pk: int, deal_id: int) -> Response:
        tournament = _asking(request, pk)
        deal = _deal_or_404(tournament, deal_id)
        _may_act(request, deal)
        body = ConfirmBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            confirmations.deal_confirm(
                deal=deal,
                by=request.user,
                version=body.validated_data.get("version"),
                reason=body.validated_data.get("reason", ""),
            )
        except Refusal as error:  # DealConflict too
            return _refused(error)
        return _state_of(deal)


class DealDisputeView(TournamentAPIView):
    serializer_class = ConfirmationSerializer

    @extend_schema(
        operation_id="tournament_deals_dispute",
        summary="Disagree with a deal",
        description="A signed-in player of the other side gives his side's version of a "
        "pending deal: the body is the deal as `PATCH /api/v1/deals/{id}/` takes it (the "
        "scoring contract without `variant` and `players`, players by id), with the optional "
        "`version` read. The version is scored like an entry (400 per field otherwise); the "
        "deal itself does not change, and is disputed until a referee settles it.",
        tags=TAGS,
        request={"application/json": DISPUTE_DEAL_SCHEMA},
        responses={200: ConfirmationSerializer, 400: refusal("A message per field of the deal.")}
        | {k: v for k, v in CONFIRMATION_ERRORS.items() if k != 400},
        examples=[
            OpenApiExample(
                "lost_garde",
                value={"version": 1, "taker": 14, "contract": "garde", "points": 40, "oudlers": 2},
                request_only=True,
            )
        ],
    )
    def post(self, request: Request, pk: int, deal_id: int) -> Response:
        tournament = _asking(request, pk)
        deal = _deal_or_404(tournament, deal_id)
        _may_act(request, deal)
        try:
            body = read_deal(request)
            if not isinstance(body, dict):
                raise ScoringError({"non_field_errors": [Msg("not_an_object")]})
            if has_nul(body):
                raise ParseError(_("The body contains text that is not valid Unicode."))
            body = dict(body)
            version = ConfirmBodySerializer(data={k: body.pop(k) for k in ["version"] if k in body})
            version.is_valid(raise_exception=True)
            player_reference_errors(body)
            confirmations.deal_dispute(
                deal=deal,
                payload=body,
                by=request.user,
                version=version.validated_data.get("version"),
            )
        except ScoringError as error:
            return scoring_problem(error)
        except (DealConflict, GameClosed) as error:
            return refusal_problem(error, status=status.HTTP_409_CONFLICT)
        except Refusal as error:
            if set(error.reasons) - {"non_field_errors"}:  # card points typed as text
                return refusal_problem(error)
            return _refused(error)
        return _state_of(deal)


class SettleBodySerializer(serializers.Serializer[Any]):
    keep = serializers.ChoiceField(
        choices=[confirmations.KEEP_ENTERED, confirmations.KEEP_OTHER],
        help_text="`entered`: the deal stands as entered; `other`: it is corrected to the other "
        "side's version (its history records the correction).",
    )
    reason = serializers.CharField(
        max_length=500,
        help_text="Why the referee decides so: kept with the deal's confirmation "
        "(`referee_reason`) and, for `other`, in the correction's history.",
    )


class DealSettleView(TournamentAPIView):
    serializer_class = ConfirmationSerializer

    @extend_schema(
        operation_id="tournament_deals_settle",
        summary="Settle a disputed deal",
        description="An organiser or referee who does not play at that table keeps one of the "
        "two versions; the deal is confirmed. To decide something else, correct the deal "
        "(`PATCH /api/v1/deals/{id}/` as an organiser): a referee's correction is confirmed.",
        tags=TAGS,
        request=SettleBodySerializer,
        responses={200: ConfirmationSerializer, **CONFIRMATION_ERRORS},
    )
    def post(self, request: Request, pk: int, deal_id: int) -> Response:
        tournament = _asking(request, pk)
        deal = _deal_or_404(tournament, deal_id)
        _may_act(request, deal, settle=True)
        body = SettleBodySerializer(data=request.data)
        body.is_valid(raise_exception=True)
        try:
            confirmations.dispute_settle(
                deal=deal,
                keep=body.validated_data["keep"],
                by=request.user,
                reason=body.validated_data["reason"],
            )
        except Refusal as error:
            return _refused(error)
        return _state_of(deal)


# The same three decisions under the list they change (`.../confirmations/{deal_id}/...`, the
# paths docs/api.md names), each its own operation in the schema.


def _alias(operation_id: str, summary: str, path: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            operation_id=operation_id,
            summary=summary,
            description=f"The same as `POST /api/v1/tournaments/{{id}}/deals/{{deal_id}}/{path}/`.",
        )
    )


@_alias("tournament_confirmations_confirm", "Confirm a deal (under its confirmation)", "confirm")
class ConfirmationConfirmView(DealConfirmView):
    """``DealConfirmView`` (its body, answers and errors) under the confirmation's path."""


@_alias(
    "tournament_confirmations_dispute", "Disagree with a deal (under its confirmation)", "dispute"
)
class ConfirmationDisputeView(DealDisputeView):
    """``DealDisputeView`` under the confirmation's path."""


@_alias(
    "tournament_confirmations_settle", "Settle a disputed deal (under its confirmation)", "settle"
)
class ConfirmationSettleView(DealSettleView):
    """``DealSettleView`` under the confirmation's path."""
