"""Webhooks over the API, for a club's organisers: a club's webhooks (list, register: the
secret is in that answer only), one webhook (read, change, pause with ``active``, delete), a
test, a new secret, its delivery log, a failed delivery sent again.

Webhooks are an organiser's: anyone else gets 404 for a webhook (as for an unknown id) and 403
for a club's list they may read. A tournament's own webhooks are listed and registered under
the tournament (tournaments.api.webhooks) and managed here like the club's.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.base import (
    READ_ERRORS,
    UNAUTHENTICATED,
    WRITE_ERRORS,
    ClubAPIView,
    refusal,
)
from tarot_scores.api.permissions import club_or_404, require
from tarot_scores.api.problems import refusal_problem
from tarot_scores.clubs import permissions
from tarot_scores.core.errors import Refusal
from tarot_scores.webhooks import selectors, services
from tarot_scores.webhooks.models import CHOSEN_EVENTS, Delivery, Event, Webhook

TAGS = ["webhooks"]
EVENT_NAMES = [str(event) for event in CHOSEN_EVENTS]
# DRF fills in {input}; the events are named so that the caller knows what to send instead.
NOT_AN_EVENT = format_lazy(
    gettext_lazy("“{{input}}” is not an event a webhook can choose: choose among {events}."),
    events=", ".join(EVENT_NAMES),
)


class WebhookSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    club = serializers.IntegerField(read_only=True, source="club_id")
    scope = serializers.ChoiceField(
        choices=Webhook.Scope.choices,
        read_only=True,
        help_text="`club`: every event of the club (its tournaments' too); `tournament`: one "
        "tournament's (registered under the tournament).",
    )
    url = serializers.CharField(
        max_length=500, help_text="An https address of a public server (docs/api.md)."
    )
    events = serializers.ListField(
        child=serializers.ChoiceField(
            choices=EVENT_NAMES, error_messages={"invalid_choice": NOT_AN_EVENT}
        ),
        required=False,
        help_text="The events it is told of; empty or left out: every event (those added "
        "later too). `ping` is not one: a test is sent whatever is chosen.",
    )
    active = serializers.BooleanField(
        required=False, help_text="False: paused (events wait until it is active again)."
    )
    created_at = serializers.DateTimeField(read_only=True)


class WebhookCreatedSerializer(WebhookSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text="The secret deliveries are signed with: in this answer only.",
    )


class SecretSerializer(serializers.Serializer[Any]):
    secret = serializers.CharField(read_only=True, help_text="The new secret: shown this once.")


class DeliverySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(read_only=True)
    event_id = serializers.UUIDField(
        read_only=True,
        help_text="The event's id (the body's `id`): the same for every webhook told of it.",
    )
    delivery_id = serializers.UUIDField(
        read_only=True,
        help_text="This delivery's id, sent as X-Tarot-Delivery at every try: one per webhook "
        "and event.",
    )
    event = serializers.ChoiceField(choices=[str(event) for event in Event], read_only=True)
    status = serializers.ChoiceField(choices=Delivery.Status.choices, read_only=True)
    attempts = serializers.IntegerField(read_only=True)
    last_status_code = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The receiver's last HTTP status, if any."
    )
    last_error = serializers.CharField(read_only=True)
    next_try_at = serializers.DateTimeField(read_only=True, allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)
    delivered_at = serializers.DateTimeField(read_only=True, allow_null=True)
    payload = serializers.JSONField(read_only=True, help_text="The body sent.")


FORBIDDEN_CLUB = refusal("Signed in, but not an organiser of this club.")
WEBHOOK_NOT_FOUND = refusal("No such webhook, or the caller does not organise its club.")
WEBHOOK_ERRORS: dict[int, Any] = {401: UNAUTHENTICATED, 404: WEBHOOK_NOT_FOUND}

CREATED_EXAMPLE = {
    "id": 4,
    "club": 3,
    "scope": "club",
    "url": "https://93.184.216.34/tarot/hook",
    "events": [],
    "active": True,
    "created_at": "2026-11-27T18:02:11.101000Z",
    "secret": "whsec_Zk3T1rCw9n8rWJ8bq3u6mS0Qe2hX4yVZl1dF7cPo5aU",
}


def webhook_or_404(request: Request, pk: int) -> Webhook:
    """The webhook, for an organiser of its club only; 404 for anyone else."""
    webhook = Webhook.objects.select_related("club").filter(pk=pk).first()
    if webhook is None or not permissions.is_organiser(request, webhook.club):
        raise Http404
    return webhook


class ClubWebhookListView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = WebhookSerializer
    paged = True

    @extend_schema(
        operation_id="clubs_webhooks_list",
        summary="A club's webhooks",
        description="The club's webhooks (its tournaments' own included), oldest first, for "
        "the club's organisers. The secrets are never listed.",
        tags=TAGS,
        responses={
            200: WebhookSerializer(many=True),
            401: UNAUTHENTICATED,
            403: FORBIDDEN_CLUB,
            **READ_ERRORS,
        },
    )
    def get(self, request: Request, pk: int) -> Response:
        club = club_or_404(request, pk)
        require(permissions.is_organiser(request, club))
        return self.page_of(list(WebhookSerializer(selectors.webhooks_of(club), many=True).data))

    @extend_schema(
        operation_id="clubs_webhooks_create",
        summary="Register a webhook of the club",
        description="An https address of a public server (refused: http, loopback, private, "
        "link-local... addresses, code `url_not_https`, `url_not_public`, `url_unknown_host`); "
        "the events it is told of (default: every event). The answer carries the secret the "
        "deliveries are signed with, this once.",
        tags=TAGS,
        request=WebhookSerializer,
        responses={201: WebhookCreatedSerializer, **WRITE_ERRORS, 403: FORBIDDEN_CLUB},
        examples=[
            OpenApiExample(
                "new_webhook",
                value={"url": "https://93.184.216.34/tarot/hook"},
                request_only=True,
            ),
            OpenApiExample(
                "created", value=CREATED_EXAMPLE, response_only=True, status_codes=["201"]
            ),
        ],
    )
    def post(self, request: Request, pk: int) -> Response:
        club = club_or_404(request, pk)
        require(permissions.is_organiser(request, club))
        serializer = WebhookSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        webhook = services.webhook_create(
            club=club, url=data["url"], events=data.get("events"), by=request.user
        )
        if data.get("active") is False:
            webhook = services.webhook_update(webhook=webhook, active=False)
        answer = WebhookCreatedSerializer(webhook).data
        return Response({**answer, "secret": webhook.secret}, status=status.HTTP_201_CREATED)


class WebhookDetailView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = WebhookSerializer

    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="One webhook",
        tags=TAGS,
        responses={200: WebhookSerializer, **WEBHOOK_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        return Response(WebhookSerializer(webhook_or_404(request, pk)).data)

    @extend_schema(
        operation_id="webhooks_partial_update",
        summary="Change a webhook",
        description="Any of `url` (checked as at registration), `events`, `active` (false: "
        "paused; true again: the deliveries that waited are sent).",
        tags=TAGS,
        request=WebhookSerializer(partial=True),
        responses={200: WebhookSerializer, **WRITE_ERRORS, **WEBHOOK_ERRORS},
    )
    def patch(self, request: Request, pk: int) -> Response:
        webhook = webhook_or_404(request, pk)
        serializer = WebhookSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        webhook = services.webhook_update(
            webhook=webhook,
            url=data.get("url"),
            events=data.get("events"),
            active=data.get("active"),
        )
        return Response(WebhookSerializer(webhook).data)

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Delete a webhook",
        description="The webhook and its delivery log go; what waited is never sent.",
        tags=TAGS,
        responses={204: None, **WEBHOOK_ERRORS},
    )
    def delete(self, request: Request, pk: int) -> Response:
        services.webhook_delete(webhook=webhook_or_404(request, pk))
        return Response(status=status.HTTP_204_NO_CONTENT)


class WebhookPingView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = DeliverySerializer

    @extend_schema(
        operation_id="webhooks_ping",
        summary="Send a test event",
        description="A `ping` event to this webhook alone (paused or not), by the queue: the "
        "answer is its delivery, waiting; read the log for how it went.",
        tags=TAGS,
        request=None,
        responses={202: DeliverySerializer, **WEBHOOK_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        delivery = services.webhook_ping(webhook=webhook_or_404(request, pk))
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)


class WebhookSecretView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = SecretSerializer

    @extend_schema(
        operation_id="webhooks_secret_rotate",
        summary="A new secret",
        description="The deliveries sent from now on are signed with the new secret, shown in "
        "this answer only; the old one stops at once.",
        tags=TAGS,
        request=None,
        responses={200: SecretSerializer, **WEBHOOK_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        webhook = services.secret_rotate(webhook=webhook_or_404(request, pk))
        return Response({"secret": webhook.secret})


class DeliveryListView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = DeliverySerializer
    paged = True

    @extend_schema(
        operation_id="webhooks_deliveries_list",
        summary="A webhook's delivery log",
        description=f"Its last {selectors.LOG_SIZE} deliveries, the newest first: the event, "
        "its status (`pending`, `sending`, `delivered`, `failed`), the tries, the receiver's "
        "last status and the last error.",
        tags=TAGS,
        responses={200: DeliverySerializer(many=True), **WEBHOOK_ERRORS},
    )
    def get(self, request: Request, pk: int) -> Response:
        webhook = webhook_or_404(request, pk)
        return self.page_of(
            list(DeliverySerializer(selectors.delivery_log(webhook), many=True).data)
        )


class DeliveryResendView(ClubAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = DeliverySerializer

    @extend_schema(
        operation_id="webhooks_deliveries_resend",
        summary="Send a failed delivery again",
        description="A delivery whose tries all failed gets a new series of tries, with the "
        "same event id. Any other answers 409 (code `delivery_not_failed`).",
        tags=TAGS,
        request=None,
        responses={
            202: DeliverySerializer,
            **WEBHOOK_ERRORS,
            409: refusal("The delivery did not fail (delivered, or still being tried)."),
        },
    )
    def post(self, request: Request, pk: int, delivery_id: int) -> Response:
        webhook = webhook_or_404(request, pk)
        try:
            delivery = services.delivery_resend(
                delivery=selectors.delivery_in(webhook, delivery_id)
            )
        except Refusal as refused:
            return refusal_problem(refused, status=status.HTTP_409_CONFLICT)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
