"""Registering, checking in and withdrawing change a tournament's standings (a row comes,
says who plays, says who left): each is announced from the one place that announces standings
changes, to the tournament's webhooks (``standings.changed``) and in the feed of standings.
And one event heard by two webhooks (the club's, the tournament's) reaches each with its own
delivery id."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery, Event, Webhook
from tests.factories import garde, make_tournament
from tests.queue import database_queue
from tournaments.registration import services as registration
from tournaments.webhooks import tournament_webhook_create

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

PUBLIC = "https://93.184.216.34/hook"
FEED = "/api/v1/tournaments/standings/"


def standings_events(hook: Webhook) -> int:
    return Counter(hook.deliveries.values_list("event", flat=True))["standings.changed"]


def sent_once(hook: Webhook) -> None:
    """The waiting event tried once: a later change is a new event."""
    Delivery.objects.filter(webhook=hook).update(attempts=1)


def feed(club: Club, cursor: str) -> dict[str, Any]:
    answer = APIClient().get(FEED, {"club": str(club.pk), "updated_since": cursor})
    assert answer.status_code == 200, answer.content
    return dict(answer.json())


def test_registrations_check_ins_and_withdrawals_are_announced(
    database_queue: None, club: Club, organiser: User, players: list[Player]
) -> None:
    tournament = make_tournament(club, 4, rounds=2)
    hook = tournament_webhook_create(tournament=tournament, url=PUBLIC, by=organiser)
    cursor = feed(club, "")["cursor"]

    entry = registration.entry_add(tournament=tournament, name="Gaston")
    assert standings_events(hook) == 1
    changed = feed(club, cursor)
    assert [item["tournament"] for item in changed["results"]] == [tournament.pk]
    cursor = changed["cursor"]

    sent_once(hook)
    registration.entry_check_in(entry=entry, checked_in=True)
    assert standings_events(hook) == 2
    changed = feed(club, cursor)
    assert [item["tournament"] for item in changed["results"]] == [tournament.pk]
    cursor = changed["cursor"]

    # Checked in again: nothing changed, nothing said.
    sent_once(hook)
    registration.entry_check_in(entry=entry, checked_in=True)
    assert standings_events(hook) == 2 and feed(club, cursor)["results"] == []

    registration.entry_withdraw(entry=entry)
    assert standings_events(hook) == 3
    assert [item["tournament"] for item in feed(club, cursor)["results"]] == [tournament.pk]


def test_two_webhooks_told_of_one_event_get_two_delivery_ids(
    database_queue: None, club: Club, organiser: User, players: list[Player]
) -> None:
    first = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    second = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    game_services.deal_record(game=game, payload=garde(players[0].pk), by=None)

    one = first.deliveries.get(event=Event.DEAL_RECORDED)
    two = second.deliveries.get(event=Event.DEAL_RECORDED)
    assert one.event_id == two.event_id  # one event ...
    assert one.delivery_id != two.delivery_id  # ... delivered twice, each with its own id
    assert Delivery.objects.get(pk=one.pk).delivery_id == one.delivery_id  # kept at every try
    assert str(one.delivery_id) not in {str(one.event_id), str(two.event_id)}
