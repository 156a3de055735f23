"""Webhook writes: register, pause and resume, rotate the secret, delete; announce an event;
send a delivery (the job), send a test, send a failed delivery again.

An event is announced inside the transaction of what happened (``event_announce``): one
``Delivery`` row per webhook that listens, and its job, written in that transaction (the
database queue) or sent once it commits (core.jobs.enqueue). Nothing is sent before the
commit, and nothing is lost if the process dies after it.

The job (``delivery_send``) sends a delivery once per run. It takes the row first (status
``sending``, one UPDATE that only one run can win), so a delivered row is never sent again and
two runs never send one delivery at once; a run lost with its worker (or stopped by an error
after taking the row) leaves the row "sending", and the next run (the job given back to the
queue, its retry, or a run that found it busy) takes it again once the claim is a minute old
(``STALE_CLAIM``) and sends the same event id. A receiver's refusal (not 2xx, no answer, an
address now refused) is written in the row and tried again later: ``BACKOFF`` seconds, then
twice that..., ``ATTEMPTS`` tries in all, then the row is ``failed`` for the organiser to send
again. A delivered or failed row is kept ``KEPT`` (30 days), then pruned at the webhook's next
send.
"""

from __future__ import annotations

import datetime
import logging
import secrets
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_scores.clubs.models import Club
from tarot_scores.core.actors import Actor, signed_in
from tarot_scores.core.errors import Code, Refusal
from tarot_scores.core.jobs import enqueue, job
from tarot_scores.core.queues import Queue
from tarot_scores.webhooks.addresses import AddressRefused, url_target
from tarot_scores.webhooks.models import CHOSEN_EVENTS, Delivery, Event, Webhook
from tarot_scores.webhooks.sending import post_signed

logger = logging.getLogger("tarot_scores.webhooks")

# Tries of one delivery, and the wait after the first failure (doubled after each).
ATTEMPTS = 6
BACKOFF = 30
# A delivery "sending" for this long was lost with its worker: another run may take it.
STALE_CLAIM = datetime.timedelta(seconds=60)
# How long a delivered or failed delivery stays in the log (pruned at the webhook's next send).
KEPT = datetime.timedelta(days=30)
# How many webhooks a club may have (its tournaments' included).
MAX_WEBHOOKS = 20


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def _check_url(url: str) -> str:
    try:
        url_target(url)
    except AddressRefused as refused:
        raise Refusal.on("url", refused.code, refused.message) from None
    return url.strip()


def _check_events(events: Sequence[str] | None) -> list[str]:
    if not events:
        return []
    known = {str(event) for event in CHOSEN_EVENTS}
    unknown = [event for event in events if event not in known]
    if unknown:
        raise Refusal.on(
            "events",
            Code.EVENT_UNKNOWN,
            _("Choose among: %(events)s.") % {"events": ", ".join(sorted(known))},
        )
    # In the order of the list, each once; all of them is "every event".
    chosen = [str(event) for event in CHOSEN_EVENTS if event in events]
    return [] if len(chosen) == len(known) else chosen


@transaction.atomic
def webhook_create(
    *,
    club: Club,
    url: str,
    by: Actor,
    events: Sequence[str] | None = None,
    scope: str = Webhook.Scope.CLUB,
) -> Webhook:
    """A new webhook of the club, active, with a secret the site makes (shown once by the
    caller). ``Refusal`` on ``url`` (not https, unknown, private...) or ``events``."""
    url = _check_url(url)
    chosen = _check_events(events)
    locked = Club.objects.select_for_update().get(pk=club.pk)
    if Webhook.objects.filter(club=locked).count() >= MAX_WEBHOOKS:
        raise Refusal.on(
            "url",
            Code.WEBHOOKS_TOO_MANY,
            _("A club has at most %(most)s webhooks: delete one first.") % {"most": MAX_WEBHOOKS},
        )
    return Webhook.objects.create(
        club=club,
        scope=scope,
        url=url,
        secret=new_secret(),
        events=chosen,
        created_by=signed_in(by),
    )


@transaction.atomic
def webhook_update(
    *,
    webhook: Webhook,
    url: str | None = None,
    events: Sequence[str] | None = None,
    active: bool | None = None,
) -> Webhook:
    """Change the address, the events or pause/resume. Resumed, its waiting deliveries go."""
    locked = Webhook.objects.select_for_update().get(pk=webhook.pk)
    if url is not None:
        locked.url = _check_url(url)
    if events is not None:
        locked.events = _check_events(events)
    resumed = active is True and not locked.active
    if active is not None:
        locked.active = active
    locked.save(update_fields=["url", "events", "active"])
    if resumed:
        for delivery_id in locked.deliveries.filter(status=Delivery.Status.PENDING).values_list(
            "pk", flat=True
        ):
            enqueue(delivery_send, delivery_id)
    return locked


@transaction.atomic
def secret_rotate(*, webhook: Webhook) -> Webhook:
    """A new secret: deliveries from now on are signed with it (shown once by the caller)."""
    webhook.secret = new_secret()
    Webhook.objects.filter(pk=webhook.pk).update(secret=webhook.secret)
    return webhook


def webhook_delete(*, webhook: Webhook) -> None:
    """The webhook and its log go; its waiting deliveries are never sent."""
    webhook.delete()


# -- Events ------------------------------------------------------------------------------------


def event_body(event: str, event_id: uuid.UUID, data: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(event_id),
        "type": str(event),
        "created_at": timezone.now().isoformat().replace("+00:00", "Z"),
        "data": data,
    }


def event_announce(
    *, hooks: Iterable[Webhook], event: Event, data: dict[str, Any], subject: str = ""
) -> list[Delivery]:
    """Tell every webhook of ``hooks`` that listens to ``event``, in the caller's transaction:
    one delivery each (one event id for all), sent by the queue after the commit.

    ``subject`` (``"tournament:12"``): a delivery of this event and subject still waiting for
    its first try stands for this one too, and nothing more is written (the standings changed
    ten times in one deal's transaction: one event). The waiting row is locked until the
    caller commits, so a job cannot send it before the change it announces is visible. A club
    without webhooks costs one query (no savepoint)."""
    listening = [hook for hook in hooks if hook.active and hook.wants(event)]
    if not listening:
        return []
    event_id = uuid.uuid4()
    body = event_body(event, event_id, data)
    written: list[Delivery] = []
    with transaction.atomic():
        for hook in listening:
            if subject:
                waiting = (
                    Delivery.objects.select_for_update(skip_locked=True)
                    .filter(
                        webhook=hook,
                        subject=subject,
                        event=event,
                        status=Delivery.Status.PENDING,
                        attempts=0,
                    )
                    .values_list("pk", flat=True)
                    .first()
                )
                if waiting is not None:
                    continue
            delivery = Delivery.objects.create(
                webhook=hook, event_id=event_id, event=event, subject=subject, payload=body
            )
            enqueue(delivery_send, delivery.pk)
            written.append(delivery)
    return written


def club_hooks(club_id: int, *also: Q) -> QuerySet[Webhook]:
    """The active webhooks told of a club's events: those of the whole club, and those the
    ``also`` conditions add (a tournament's, from tournaments)."""
    wanted = Q(scope=Webhook.Scope.CLUB)
    for condition in also:
        wanted |= condition
    return Webhook.objects.filter(club_id=club_id, active=True).filter(wanted)


@transaction.atomic
def webhook_ping(*, webhook: Webhook) -> Delivery:
    """A test event for this webhook alone (paused or not: the organiser asked)."""
    event_id = uuid.uuid4()
    delivery = Delivery.objects.create(
        webhook=webhook,
        event_id=event_id,
        event=Event.PING,
        payload=event_body(Event.PING, event_id, {"club": webhook.club_id, "webhook": webhook.pk}),
    )
    enqueue(delivery_send, delivery.pk)
    return delivery


@transaction.atomic
def delivery_resend(*, delivery: Delivery) -> Delivery:
    """A failed delivery tried again: ``ATTEMPTS`` more tries, the same event id. ``Refusal``
    for a delivery that did not fail (delivered, or still being tried)."""
    locked = Delivery.objects.select_for_update().get(pk=delivery.pk)
    if locked.status != Delivery.Status.FAILED:
        raise Refusal.on(
            "non_field_errors",
            Code.DELIVERY_NOT_FAILED,
            _("Only a failed delivery can be sent again."),
        )
    locked.status = Delivery.Status.PENDING
    locked.attempts = 0
    locked.next_try_at = None
    locked.save(update_fields=["status", "attempts", "next_try_at"])
    enqueue(delivery_send, locked.pk)
    return locked


# -- The job -----------------------------------------------------------------------------------


def _claim(delivery_id: int, now: datetime.datetime) -> tuple[str, datetime.datetime | None]:
    """Take the delivery to send it (one run wins): ``taken``. Or not now, and when to look
    again: ``early``, a run before the delivery's next try (a clock ahead of another);
    ``busy``, another run took it less than ``STALE_CLAIM`` ago (if that run dies, this one
    sends it then). ``skipped``: nothing to send (delivered, failed, gone, paused)."""
    row = (
        Delivery.objects.filter(pk=delivery_id)
        .filter(Q(event=Event.PING) | Q(webhook__active=True))
        .filter(status__in=[Delivery.Status.PENDING, Delivery.Status.SENDING])
        .values("status", "next_try_at", "claimed_at")
        .first()
    )
    if row is None:
        return "skipped", None
    claimed = row["claimed_at"]
    if row["status"] == Delivery.Status.SENDING and claimed and claimed >= now - STALE_CLAIM:
        return "busy", claimed + STALE_CLAIM
    if row["next_try_at"] is not None and row["next_try_at"] > now:
        return "early", row["next_try_at"]
    due = Q(next_try_at__isnull=True) | Q(next_try_at__lte=now)
    takeable = Q(status=Delivery.Status.PENDING) | Q(
        status=Delivery.Status.SENDING, claimed_at__lt=now - STALE_CLAIM
    )
    # The UPDATE names the row by id (a join in an UPDATE is not portable); the conditions
    # are checked again in it, so that of two runs only one takes the row.
    taken = (
        Delivery.objects.filter(pk=delivery_id)
        .filter(due, takeable)
        .update(status=Delivery.Status.SENDING, claimed_at=now)
    )
    return ("taken", None) if taken == 1 else ("skipped", None)


def _send_later(delivery_id: int, when: datetime.datetime) -> None:
    # The immediate backend (tests, a quick look) runs nothing later: the delivery waits, its
    # next try written, for an organiser's "send again" or a real queue.
    if delivery_send.get_backend().supports_defer:
        again: Any = delivery_send.using(run_after=when)
        enqueue(again, delivery_id)


def _log_outcome(
    delivery_id: int, webhook_id: int, attempts: int, error: str, changes: dict[str, Any]
) -> None:
    """The log says what the organiser's page says: delivered, or failed and when it is tried
    again, or failed for good."""
    status = changes["status"]
    if status == Delivery.Status.DELIVERED:
        logger.info("Webhook %s: delivery %s delivered", webhook_id, delivery_id)
    elif status == Delivery.Status.FAILED:
        logger.warning(
            "Webhook %s: delivery %s failed (attempt %d of %d, given up): %s",
            webhook_id,
            delivery_id,
            attempts,
            ATTEMPTS,
            error,
        )
    else:
        logger.warning(
            "Webhook %s: delivery %s failed (attempt %d of %d), tried again at %s: %s",
            webhook_id,
            delivery_id,
            attempts,
            ATTEMPTS,
            changes["next_try_at"].isoformat(timespec="seconds"),
            error,
        )


@job(queue=Queue.WEBHOOKS, attempts=3, backoff=30)
def delivery_send(delivery_id: int) -> str:
    """Send one delivery once (see the module's docstring); returns its status after."""
    now = timezone.now()
    claim, again_at = _claim(delivery_id, now)
    if again_at is not None:
        _send_later(delivery_id, again_at)
    if claim != "taken":
        return claim
    delivery = Delivery.objects.select_related("webhook").get(pk=delivery_id)
    webhook = delivery.webhook
    outcome = post_signed(
        url=webhook.url,
        secret=webhook.secret,
        event=delivery.event,
        delivery_id=str(delivery.delivery_id),
        payload=delivery.payload,
        timestamp=int(now.timestamp()),
    )
    attempts = delivery.attempts + 1
    with transaction.atomic():
        changes: dict[str, Any] = {
            "attempts": attempts,
            "last_status_code": outcome.status,
            "last_error": outcome.error[:300],
            "claimed_at": None,
        }
        if outcome.delivered:
            changes |= {"status": Delivery.Status.DELIVERED, "delivered_at": timezone.now()}
            changes["next_try_at"] = None
        elif attempts >= ATTEMPTS:
            changes |= {"status": Delivery.Status.FAILED, "next_try_at": None}
        else:
            later = timezone.now() + datetime.timedelta(seconds=BACKOFF * 2 ** (attempts - 1))
            changes |= {"status": Delivery.Status.PENDING, "next_try_at": later}
            _send_later(delivery_id, later)
        Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.SENDING).update(**changes)
        _log_outcome(delivery_id, webhook.pk, attempts, outcome.error, changes)
        Delivery.objects.filter(
            webhook_id=webhook.pk,
            created_at__lt=now - KEPT,
            status__in=[Delivery.Status.DELIVERED, Delivery.Status.FAILED],
        ).delete()
    return str(changes["status"])
