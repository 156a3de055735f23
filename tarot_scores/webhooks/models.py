"""A club's webhooks and their delivery log.

A ``Webhook`` is an organiser's HTTPS address and the secret its deliveries are signed with. It
listens to the whole club (``scope`` club: every event of the club, its tournaments' too) or to
one tournament (``scope`` tournament: the club side does not know tournaments, so the
tournament it listens to is a row of ``tournaments.TournamentWebhook``). A ``Delivery`` is one
event for one webhook: written in the transaction of what happened, sent by a job after the
commit, retried with backoff, kept for the organiser to read.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarot_scores.clubs.models import Club


class Event(models.TextChoices):
    """What a webhook is told of. The value is the event's name in the body and in the
    ``X-Tarot-Event`` header."""

    DEAL_RECORDED = "deal.recorded", _("Deal recorded")
    DEAL_CORRECTED = "deal.corrected", _("Deal corrected")
    DEAL_DELETED = "deal.deleted", _("Deal deleted")
    DEAL_RESTORED = "deal.restored", _("Deal restored")
    # A deal contested at a tournament's table counts nowhere until a referee settles it.
    DEAL_HELD = "deal.held", _("Deal held out of the counts")
    DEAL_RELEASED = "deal.released", _("Deal counted again")
    ROUND_CLOSED = "round.closed", _("Round closed")
    STANDINGS_CHANGED = "standings.changed", _("Standings changed")
    TOURNAMENT_FINISHED = "tournament.finished", _("Tournament finished")
    # Sent on demand only (the organiser's "send a test"), whatever the events chosen.
    PING = "ping", _("Test")


# The events an organiser may choose (a ping is always allowed).
CHOSEN_EVENTS = [event for event in Event if event != Event.PING]


class Webhook(models.Model):
    class Scope(models.TextChoices):
        CLUB = "club", _("Whole club")
        TOURNAMENT = "tournament", _("One tournament")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="webhooks")
    scope = models.CharField(max_length=12, choices=Scope.choices, default=Scope.CLUB)
    # Checked by the services (addresses.url_target), not by a form field of the model.
    url = models.CharField(max_length=500)
    # Kept as such: the site signs every delivery with it (a hash could not sign).
    secret = models.CharField(max_length=100)
    # The events it is told of; empty: every event, those added later too.
    events = models.JSONField(default=list, blank=True)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["club", "active"], name="webhook_club_active")]

    def __str__(self) -> str:
        return self.url

    def wants(self, event: str) -> bool:
        return event == Event.PING or not self.events or event in self.events


class Delivery(models.Model):
    """One event for one webhook. ``event_id`` is the event's id (the body's ``id``, the same
    for every webhook told of it); ``delivery_id`` is sent as ``X-Tarot-Delivery``: every
    attempt sends the same one, so the receiver can tell a retry from a new event."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        SENDING = "sending", _("Sending")
        DELIVERED = "delivered", _("Delivered")
        FAILED = "failed", _("Failed")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(default=uuid.uuid4)
    event = models.CharField(max_length=40, choices=Event.choices)
    # What a pending event may stand for a later one of (the standings of one tournament):
    # announced again before it left, it is not written twice.
    subject = models.CharField(max_length=60, blank=True, default="")
    payload = models.JSONField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    next_try_at = models.DateTimeField(null=True, blank=True)
    # When a job took it to send (status sending); a claim older than a minute is a lost worker.
    claimed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["webhook", "event_id"], name="one_delivery_per_event")
        ]
        indexes = [
            models.Index(fields=["webhook", "-created_at"], name="delivery_log"),
            models.Index(fields=["webhook", "subject", "status"], name="delivery_pending_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.event_id} ({self.status})"

    @property
    def delivery_id(self) -> uuid.UUID:
        """This delivery's own id (``X-Tarot-Delivery``): the same at every try, different for
        each webhook told of one event (a club's and its tournament's), so a receiver that
        drops the ids it has seen drops only retries."""
        return uuid.uuid5(self.event_id, f"webhook:{self.webhook_id}")
