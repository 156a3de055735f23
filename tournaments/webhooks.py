"""A tournament's webhooks: registering one (``tournament_webhook_create``), and what a
tournament tells them, each event from the one place it happens: a round
closed and the tournament finished (``rounds.services.round_close``), the standings changed
(``standings.store.standings_refresh``, at most one waiting event per tournament and webhook:
``webhooks.services.event_announce``). The deal events come from the club side's deal hook,
which asks ``deal_audience`` here for a table's tournament's webhooks.

Told: the club's webhooks (the whole club) and the tournament's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Q, QuerySet

from tarot_scores.core.actors import Actor
from tarot_scores.games.models import Game
from tarot_scores.webhooks.models import Event, Webhook
from tarot_scores.webhooks.services import club_hooks, event_announce, webhook_create
from tournaments.models import Round, Tournament, TournamentWebhook
from tournaments.rules import maybe_table


@transaction.atomic
def tournament_webhook_create(
    *, tournament: Tournament, url: str, by: Actor, events: Sequence[str] | None = None
) -> Webhook:
    """A webhook of the tournament's club told of this tournament's events only."""
    webhook = webhook_create(
        club=tournament.club, url=url, by=by, events=events, scope=Webhook.Scope.TOURNAMENT
    )
    TournamentWebhook.objects.create(webhook=webhook, tournament=tournament)
    return webhook


def tournament_webhooks(tournament: Tournament) -> QuerySet[Webhook]:
    """The webhooks registered for this tournament alone (paused ones too)."""
    return Webhook.objects.filter(tournament_link__tournament=tournament).order_by("pk")


def tournament_hooks(tournament: Tournament) -> QuerySet[Webhook]:
    return club_hooks(tournament.club_id, Q(tournament_link__tournament_id=tournament.pk))


def deal_audience(*, game: Game) -> Q | None:
    """A tournament table's deals are told to its tournament's webhooks too (no query for a
    club's own game)."""
    if not maybe_table(game):
        return None
    return Q(tournament_link__tournament__round_set__tables__game_id=game.pk)


def _data(tournament: Tournament) -> dict[str, int]:
    return {"club": tournament.club_id, "tournament": tournament.pk}


def round_closed_announce(round_: Round) -> None:
    tournament = round_.tournament
    event_announce(
        hooks=tournament_hooks(tournament),
        event=Event.ROUND_CLOSED,
        data={**_data(tournament), "round": round_.number},
    )


def tournament_finished_announce(tournament: Tournament) -> None:
    event_announce(
        hooks=tournament_hooks(tournament), event=Event.TOURNAMENT_FINISHED, data=_data(tournament)
    )


def standings_changed_announce(tournament: Tournament) -> None:
    event_announce(
        hooks=tournament_hooks(tournament),
        event=Event.STANDINGS_CHANGED,
        data=_data(tournament),
        subject=f"tournament:{tournament.pk}",
    )
