"""Deliveries through the real queue: a deal's event written with the deal, sent by the
engine's worker code after the commit to a real HTTP receiver on 127.0.0.1, signed; retried
with backoff (the next try's time is the job's "run after"), then failed, then sent again on
demand; never sent twice once delivered; sent again, same event id, after a lost worker."""

import datetime
import hashlib
import hmac
import json

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from pytest_django import Settings

from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.core.jobs import enqueue
from tarot_scores.games import services as game_services
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery, Event, Webhook
from tests.factories import garde
from tests.queue import database_queue, run_waiting_jobs
from tests.webhooks.receiver import Receiver, receiver

pytestmark = pytest.mark.django_db

__all__ = ["database_queue", "receiver"]  # fixtures


def _sends(*, due_now: bool = False) -> list[str]:
    """Run the waiting jobs as a worker would; what the deliveries' runs answered (the
    ratings' jobs a deal asks for run too, their answers left out). ``due_now``: the clock
    moved on to the retries' time (the jobs' and the deliveries' next try)."""
    if due_now:
        now = timezone.now()
        Delivery.objects.filter(next_try_at__isnull=False).update(next_try_at=now)
        DBTaskResult.objects.filter(status=TaskResultStatus.READY).update(run_after=now)
    return [r for r in run_waiting_jobs() if isinstance(r, str)]


def _hook(club: Club, organiser: User, url: str) -> Webhook:
    return services.webhook_create(club=club, url=url, by=organiser)


def _deal(club: Club, players: list[Player]) -> int:
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    recorded = game_services.deal_record(game=game, payload=garde(players[0].pk), by=None, number=1)
    return recorded.deal.pk


def _verify(secret: str, headers: dict[str, str], body: bytes) -> bool:
    """What a receiver does (docs/api.md), written again here from the documentation."""
    signed = headers["X-Tarot-Timestamp"].encode() + b"." + body
    expected = "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Tarot-Signature"])


def test_a_deal_is_delivered_signed_after_the_commit(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    deal_id = _deal(club, players)

    delivery = Delivery.objects.get(webhook=hook)
    assert delivery.event == Event.DEAL_RECORDED
    assert delivery.status == Delivery.Status.PENDING
    assert receiver.requests == []  # written with the deal; sent by the worker only

    assert _sends() == ["delivered"]
    [got] = receiver.requests
    assert got.path == "/hook"
    assert got.headers["X-Tarot-Event"] == "deal.recorded"
    assert got.headers["X-Tarot-Delivery"] == str(delivery.delivery_id)
    assert got.headers["Content-Type"] == "application/json"
    assert _verify(hook.secret, got.headers, got.body)
    assert not _verify("whsec_another", got.headers, got.body)
    stamp = int(got.headers["X-Tarot-Timestamp"])
    assert abs(stamp - timezone.now().timestamp()) < 60
    body = json.loads(got.body)
    assert body["id"] == str(delivery.event_id)
    assert body["type"] == "deal.recorded"
    assert body["data"] == {
        "club": club.pk,
        "game": body["data"]["game"],
        "deal": deal_id,
        "number": 1,
    }

    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert (delivery.attempts, delivery.last_status_code, delivery.last_error) == (1, 200, "")
    assert delivery.delivered_at is not None


def test_nothing_is_written_or_sent_for_a_deal_rolled_back(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    _hook(club, organiser, receiver.url)
    with pytest.raises(RuntimeError), transaction.atomic():
        _deal(club, players)
        raise RuntimeError("the request failed after the save")
    assert not Delivery.objects.exists()
    assert not DBTaskResult.objects.exists()
    assert _sends() == []
    assert receiver.requests == []


def test_a_refused_delivery_is_tried_again_later_with_the_same_event_id(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    receiver.answers = [500, 503]
    _deal(club, players)
    before = timezone.now()

    assert _sends() == ["pending"]
    delivery = Delivery.objects.get(webhook=hook)
    assert (delivery.attempts, delivery.last_status_code) == (1, 500)
    assert "500" in delivery.last_error
    # The next try is the job's own time: BACKOFF seconds after the first failure.
    waiting = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert waiting.run_after == delivery.next_try_at
    wait = services.BACKOFF
    assert before + datetime.timedelta(seconds=wait) <= waiting.run_after
    assert waiting.run_after < before + datetime.timedelta(seconds=wait + 20)

    # Not due yet: a worker leaves it.
    assert _sends() == []
    assert len(receiver.requests) == 1

    # Due: sent again; refused again, the wait doubles.
    before = timezone.now()
    assert _sends(due_now=True) == ["pending"]
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status_code) == (2, 503)
    assert delivery.next_try_at is not None
    assert delivery.next_try_at >= before + datetime.timedelta(seconds=2 * wait)

    assert _sends(due_now=True) == ["delivered"]
    ids = {got.headers["X-Tarot-Delivery"] for got in receiver.requests}
    assert ids == {str(delivery.delivery_id)}
    assert len(receiver.requests) == 3
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.DELIVERED, 3)


def test_after_its_last_try_a_delivery_fails_and_can_be_sent_again(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    receiver.answers = [500] * services.ATTEMPTS
    _deal(club, players)
    for _ in range(services.ATTEMPTS):
        _sends(due_now=True)
    delivery = Delivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts) == (Delivery.Status.FAILED, services.ATTEMPTS)
    assert not DBTaskResult.objects.filter(status=TaskResultStatus.READY).exists()
    assert len(receiver.requests) == services.ATTEMPTS

    services.delivery_resend(delivery=delivery)
    assert _sends() == ["delivered"]
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.DELIVERED
    assert receiver.requests[-1].headers["X-Tarot-Delivery"] == str(delivery.delivery_id)


def test_a_delivered_event_is_never_sent_again(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    _deal(club, players)
    _sends()
    delivery = Delivery.objects.get(webhook=hook)
    # A second job for the same delivery (a retry enqueued twice, a requeued run): nothing.
    enqueue(services.delivery_send, delivery.pk)
    assert _sends() == ["skipped"]
    assert len(receiver.requests) == 1
    with pytest.raises(Refusal):
        services.delivery_resend(delivery=delivery)


def test_a_delivery_lost_with_its_worker_is_sent_again_with_the_same_id(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    _deal(club, players)
    delivery = Delivery.objects.get(webhook=hook)
    # A worker took it and died in the middle of the send: the row says "sending".
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.SENDING, claimed_at=timezone.now()
    )
    # Another run at once (a second job) does not send it while the first may still be busy:
    # it looks again once the claim is a minute old.
    assert _sends() == ["busy"]
    again = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    claimed_at = Delivery.objects.get(pk=delivery.pk).claimed_at
    assert claimed_at is not None
    assert again.run_after == claimed_at + services.STALE_CLAIM
    # A minute later the first run has not come back: that run takes it and sends it.
    Delivery.objects.filter(pk=delivery.pk).update(
        claimed_at=timezone.now() - services.STALE_CLAIM - datetime.timedelta(seconds=1)
    )
    DBTaskResult.objects.filter(pk=again.pk).update(run_after=timezone.now())
    assert _sends() == ["delivered"]
    [got] = receiver.requests
    assert got.headers["X-Tarot-Delivery"] == str(delivery.delivery_id)


def test_an_address_refused_at_send_time_fails_the_try_with_its_reason(
    database_queue: None,
    receiver: Receiver,
    settings: Settings,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    _deal(club, players)
    # The address is checked again at each send: 127.0.0.1 is no longer allowed.
    settings.WEBHOOKS_TEST_HOSTS = []
    settings.LANGUAGE_CODE = "en"
    assert _sends() == ["pending"]
    assert receiver.requests == []
    delivery = Delivery.objects.get(webhook=hook)
    assert delivery.last_status_code is None
    assert delivery.last_error  # why, in the log


def test_a_redirect_is_not_followed(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
) -> None:
    hook = _hook(club, organiser, receiver.url)
    receiver.answers = [302]
    services.webhook_ping(webhook=hook)
    assert _sends() == ["pending"]
    assert len(receiver.requests) == 1
    delivery = Delivery.objects.get(webhook=hook)
    assert delivery.last_status_code == 302


def test_a_paused_webhook_is_told_nothing_but_a_test_goes(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    services.webhook_update(webhook=hook, active=False)
    _deal(club, players)
    assert not Delivery.objects.exists()
    services.webhook_ping(webhook=hook)
    assert _sends() == ["delivered"]
    [got] = receiver.requests
    assert got.headers["X-Tarot-Event"] == "ping"
    assert _verify(hook.secret, got.headers, got.body)


def test_deliveries_waiting_when_paused_go_when_resumed(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
    players: list[Player],
) -> None:
    hook = _hook(club, organiser, receiver.url)
    _deal(club, players)
    services.webhook_update(webhook=hook, active=False)
    assert _sends() == ["skipped"]
    assert receiver.requests == []
    services.webhook_update(webhook=hook, active=True)
    assert _sends() == ["delivered"]
    assert len(receiver.requests) == 1


def test_a_new_secret_signs_the_next_deliveries(
    database_queue: None, receiver: Receiver, club: Club, organiser: User
) -> None:
    hook = _hook(club, organiser, receiver.url)
    old = hook.secret
    services.secret_rotate(webhook=hook)
    assert hook.secret != old
    services.webhook_ping(webhook=hook)
    _sends()
    [got] = receiver.requests
    assert _verify(hook.secret, got.headers, got.body)
    assert not _verify(old, got.headers, got.body)


def test_a_retry_run_before_its_time_waits_for_it_again(
    database_queue: None,
    receiver: Receiver,
    club: Club,
    organiser: User,
) -> None:
    hook = _hook(club, organiser, receiver.url)
    receiver.answers = [500]
    services.webhook_ping(webhook=hook)
    assert _sends() == ["pending"]
    delivery = Delivery.objects.get(webhook=hook)
    # A worker whose clock is ahead takes the retry early: it is put back for its own time.
    DBTaskResult.objects.filter(status=TaskResultStatus.READY).update(run_after=timezone.now())
    assert _sends() == ["early"]
    assert len(receiver.requests) == 1
    waiting = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert waiting.run_after == delivery.next_try_at
    assert _sends(due_now=True) == ["delivered"]


def test_the_log_keeps_a_month_of_finished_deliveries(
    database_queue: None, receiver: Receiver, club: Club, organiser: User
) -> None:
    hook = _hook(club, organiser, receiver.url)
    old = timezone.now() - services.KEPT - datetime.timedelta(days=1)
    for status in (Delivery.Status.DELIVERED, Delivery.Status.FAILED, Delivery.Status.PENDING):
        Delivery.objects.create(
            webhook=hook, event=Event.PING, payload={}, status=status, created_at=old
        )
    services.webhook_ping(webhook=hook)
    assert "delivered" in _sends()
    # The old finished ones are gone; a waiting one is never pruned.
    left = sorted(hook.deliveries.values_list("created_at", flat=True))
    assert len(left) == 2 and left[0] == old
