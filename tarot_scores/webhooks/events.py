"""The deal events, announced from one place: the deal services' ``deal_changed`` hook, inside
the deal's transaction, whoever wrote it (a game page, a table link, the API).

Told: the club's webhooks, and those another app adds for the game (``deal_audience``:
tournaments adds the webhooks of the tournament a table belongs to). The body names the deal
and its game; a receiver reads the rest from the API (``GET /api/v1/deals/<id>/``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.db.models import Q

from tarot_scores.core.actors import Actor, AtTable
from tarot_scores.core.hooks import Hook
from tarot_scores.games.models import Counting, Deal, DealChange, DealRevision, Game
from tarot_scores.webhooks.models import Event
from tarot_scores.webhooks.services import club_hooks, event_announce

DEAL_EVENTS: dict[DealChange, Event] = {
    DealRevision.Action.CREATED: Event.DEAL_RECORDED,
    DealRevision.Action.EDITED: Event.DEAL_CORRECTED,
    DealRevision.Action.DELETED: Event.DEAL_DELETED,
    DealRevision.Action.RESTORED: Event.DEAL_RESTORED,
    # Held out of the counts (contested at a tournament's table) and counted again.
    Counting.HELD: Event.DEAL_HELD,
    Counting.RELEASED: Event.DEAL_RELEASED,
}


class DealAudience(Protocol):
    """Which more webhooks of the game's club are told of its deals (a condition on
    ``Webhook``), or None. Asked without a query where it can be (a club's own game)."""

    def __call__(self, *, game: Game) -> Q | None: ...


deal_audience: Hook[DealAudience] = Hook("webhooks.events.deal_audience")
on_deal_audience = deal_audience.register


def deal_announce(
    *,
    game: Game,
    deal: Deal,
    action: DealChange,
    seated: Sequence[int],
    by: Actor = None,
    at_table: AtTable | None = None,
) -> None:
    """Registered with ``games.services.on_deal_change`` (the site's AppConfig)."""
    event = DEAL_EVENTS.get(action)
    if event is None:
        return
    also = deal_audience.answers(lambda audience: audience(game=game))
    event_announce(
        hooks=club_hooks(game.club_id, *also),
        event=event,
        data={
            "club": game.club_id,
            "game": game.pk,
            "deal": deal.pk,
            "number": deal.number,
        },
    )
