"""Webhook reads for the organiser's pages and the API: a club's webhooks, one of them, its
delivery log (the newest first, the last ``LOG_SIZE``)."""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks.models import Delivery, Webhook

LOG_SIZE = 100


def webhooks_of(club: Club) -> QuerySet[Webhook]:
    return Webhook.objects.filter(club=club).order_by("pk")


def webhook_in(club: Club, webhook_id: int) -> Webhook:
    """The club's webhook of that id, or 404."""
    webhook = Webhook.objects.filter(club=club, pk=webhook_id).first()
    if webhook is None:
        raise Http404
    return webhook


def delivery_log(webhook: Webhook) -> list[Delivery]:
    return list(webhook.deliveries.order_by("-created_at", "-pk")[:LOG_SIZE])


def delivery_in(webhook: Webhook, delivery_id: int) -> Delivery:
    delivery = webhook.deliveries.filter(pk=delivery_id).first()
    if delivery is None:
        raise Http404
    return delivery
