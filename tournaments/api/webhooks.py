"""A tournament's own webhooks over the API, for its club's organisers: list and register
(the secret is in that answer only). Each is then managed under ``/api/v1/webhooks/<id>/``
like a club's (tarot_scores.api.webhooks)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.webhooks import WebhookCreatedSerializer, WebhookSerializer
from tournaments.api.base import (
    READ_ERRORS,
    WRITE_ERRORS,
    TournamentAPIView,
    refusal,
    require_organiser,
    tournament_or_404,
)
from tournaments.webhooks import tournament_webhook_create, tournament_webhooks

FORBIDDEN = refusal("Signed in, but not an organiser of the tournament's club.")
UNAUTHENTICATED = refusal("No valid token or session: sign in (`Authorization: Token ...`).")


class TournamentWebhookListView(TournamentAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = WebhookSerializer
    paged = True

    @extend_schema(
        operation_id="tournaments_webhooks_list",
        summary="A tournament's own webhooks",
        description="The webhooks told of this tournament alone (the club's webhooks hear of "
        "it too, and are listed under the club), oldest first, for the club's organisers.",
        tags=["webhooks"],
        responses={
            200: WebhookSerializer(many=True),
            401: UNAUTHENTICATED,
            403: FORBIDDEN,
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        return self.page_of(
            list(WebhookSerializer(tournament_webhooks(tournament), many=True).data)
        )

    @extend_schema(
        operation_id="tournaments_webhooks_create",
        summary="Register a webhook of the tournament",
        description="As for a club's webhook (the same address rules and events), told of "
        "this tournament's events only. The answer carries the secret, this once.",
        tags=["webhooks"],
        request=WebhookSerializer,
        responses={201: WebhookCreatedSerializer, **WRITE_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        require_organiser(request, tournament.club)
        serializer = WebhookSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        webhook = tournament_webhook_create(
            tournament=tournament, url=data["url"], events=data.get("events"), by=request.user
        )
        answer = {**WebhookCreatedSerializer(webhook).data, "secret": webhook.secret}
        return Response(answer, status=status.HTTP_201_CREATED)
