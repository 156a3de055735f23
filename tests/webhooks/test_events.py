"""Each event is announced once, from its one place, to the webhooks that listen: a deal
entered, corrected, deleted, restored (the deal hook); a round closed and a tournament
finished (closing the round); the standings changed (at most one waiting event per tournament
and webhook, however many refreshes a deal's transaction makes)."""

from collections import Counter
from typing import Any

import pytest
from django.contrib.auth.models import User
from django_tasks_db.models import DBTaskResult

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import DealRevision
from tarot_scores.webhooks import services
from tarot_scores.webhooks.events import deal_announce
from tarot_scores.webhooks.models import Delivery, Event, Webhook
from tests.factories import UserFactory, garde, make_club, make_tournament, play
from tests.queue import database_queue
from tournaments.models import TournamentWebhook
from tournaments.rounds import services as round_services
from tournaments.webhooks import standings_changed_announce, tournament_webhook_create

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

# Registered, never sent to: no test here runs the queue towards it.
PUBLIC = "https://93.184.216.34/hook"


def _events(hook: Webhook) -> Counter[str]:
    return Counter(hook.deliveries.values_list("event", flat=True))


def test_each_deal_change_is_announced_once(
    database_queue: None, club: Club, organiser: User, players: list[Player]
) -> None:
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    deal = game_services.deal_record(game=game, payload=garde(players[0].pk), by=None).deal
    assert _events(hook) == {"deal.recorded": 1}
    deal = game_services.deal_update(
        deal=deal, payload=garde(players[1].pk), version=deal.version, by=None
    )
    deal = game_services.deal_delete(deal=deal, version=deal.version, by=None)
    game_services.deal_restore(deal=deal, by=None)
    assert _events(hook) == {
        "deal.recorded": 1,
        "deal.corrected": 1,
        "deal.deleted": 1,
        "deal.restored": 1,
    }
    # One job per delivery, all waiting for the worker.
    corrected = hook.deliveries.get(event=Event.DEAL_CORRECTED)
    assert corrected.payload["data"]["deal"] == deal.pk
    assert corrected.payload["type"] == "deal.corrected"


def test_only_the_chosen_events_and_only_the_clubs_own_webhooks(
    database_queue: None, club: Club, organiser: User, players: list[Player]
) -> None:
    other_organiser = UserFactory.create(username="ophelie")
    other = make_club("Autre club", other_organiser, UserFactory.create(username="m2"))
    theirs = services.webhook_create(club=other, url=PUBLIC, by=other_organiser)
    corrections = services.webhook_create(
        club=club, url=PUBLIC, by=organiser, events=["deal.corrected"]
    )
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    game_services.deal_record(game=game, payload=garde(players[0].pk), by=None)
    assert not theirs.deliveries.exists()
    assert not corrections.deliveries.exists()


def test_a_tournament_announces_its_rounds_standings_and_end(
    database_queue: None, club: Club, organiser: User
) -> None:
    tournament = make_tournament(club, 8, rounds=2, deals_per_round=2)
    other = make_tournament(club, 8, name="Autre tournoi", rounds=1)
    club_hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    own = tournament_webhook_create(tournament=tournament, url=PUBLIC, by=organiser)
    elsewhere = tournament_webhook_create(tournament=other, url=PUBLIC, by=organiser)
    assert TournamentWebhook.objects.get(webhook=own).tournament == tournament
    assert own.scope == Webhook.Scope.TOURNAMENT

    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    # Seating a round gives its players their rows: the standings changed, once.
    assert _events(own) == {"standings.changed": 1}
    # Two tables, two deals each: four deals, the round closes with the last one.
    play(round_)
    deals = 2 * 2
    for hook in (own, club_hook):
        events = _events(hook)
        assert events["deal.recorded"] == deals
        assert events["round.closed"] == 1
        assert "tournament.finished" not in events
        # Never sent yet: the one waiting event stands for every change since.
        assert events["standings.changed"] == 1
    assert not elsewhere.deliveries.exists()
    closed = own.deliveries.get(event=Event.ROUND_CLOSED)
    assert closed.payload["data"] == {"club": club.pk, "tournament": tournament.pk, "round": 1}

    second = round_services.round_seat_next(tournament=tournament, by=None)
    play(second)
    events = _events(own)
    assert events["round.closed"] == 2
    assert events["tournament.finished"] == 1
    assert events["standings.changed"] == 1
    assert not elsewhere.deliveries.exists()


def test_standings_changed_once_per_transaction_then_again_after_a_send(
    database_queue: None, club: Club, organiser: User
) -> None:
    tournament = make_tournament(club, 8, rounds=2, deals_per_round=2)
    own = tournament_webhook_create(tournament=tournament, url=PUBLIC, by=organiser)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    waiting = own.deliveries.get(event=Event.STANDINGS_CHANGED)
    # Its first try made (here: a failure), it no longer stands for later changes.
    Delivery.objects.filter(pk=waiting.pk).update(attempts=1)
    play(round_, deals=1)
    assert _events(own)["standings.changed"] == 2


def test_a_paused_webhook_and_a_deleted_one_are_told_nothing(
    database_queue: None, club: Club, organiser: User, players: list[Player]
) -> None:
    paused = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    services.webhook_update(webhook=paused, active=False)
    gone = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    services.webhook_delete(webhook=gone)
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    game_services.deal_record(game=game, payload=garde(players[0].pk), by=None)
    assert not Delivery.objects.exists()
    # Nothing was asked of the queue for them either.
    assert not DBTaskResult.objects.filter(task_path__contains="webhooks").exists()


def test_a_club_without_webhooks_pays_one_query_a_deal(
    club: Club, players: list[Player], django_assert_num_queries: Any
) -> None:
    game = game_services.game_create(club=club, players=players[:4], variant="fft", by=None)
    deal = game_services.deal_record(game=game, payload=garde(players[0].pk), by=None).deal
    with django_assert_num_queries(1):
        deal_announce(game=game, deal=deal, action=DealRevision.Action.EDITED, seated=[])
    tournament = make_tournament(club, 8)
    with django_assert_num_queries(1):
        standings_changed_announce(tournament)
