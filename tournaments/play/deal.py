"""The tournaments' one deal hook: what follows a deal written at a tournament table.

``table_deal_changed`` is registered with ``games.services.on_deal_change`` (``apps.py``), so it
runs inside the transaction of every deal entered, corrected, deleted or restored, whoever wrote
it (a table's link, the game page, the API). It reads the table once (its round and tournament
with it, and how many substitutions it had) and runs three steps in this order:

1. confirmation (``play.confirmations.confirmation_after_deal``): where the tournament requires
   it, the deal becomes pending, or confirmed when a referee or an organiser wrote it; who at
   the table wrote it is the ``at_table`` the deal service was given (a table's link names the
   phone's holder), else the account's own player;
2. standings (``standings.store.standings_after_deal``): the table's players' points in this
   round, counting the deal as step 1 left it;
3. the round (``rounds.services.round_after_deal``): the deal that completes the last table
   closes the round, its standings already in step.

A club's own game costs nothing: no query (``rules.maybe_table``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Count

from tarot_scores.core.actors import Actor, AtTable
from tarot_scores.games.models import Counting, Deal, DealChange, Game
from tournaments.models import Table
from tournaments.play import confirmations
from tournaments.rounds import services as round_services
from tournaments.rules import maybe_table
from tournaments.standings import store


def table_deal_changed(
    *,
    game: Game,
    deal: Deal,
    action: DealChange,
    seated: Sequence[int],
    by: Actor = None,
    at_table: AtTable | None = None,
    close_round: bool = True,
) -> None:
    """A deal of ``game`` changed: if the game is a tournament table, confirmation, standings,
    then the round (``close_round`` False: the round is left open, for tests that close it by
    hand)."""
    if not maybe_table(game) or isinstance(action, Counting):
        # A hold is the tournament's own doing (``play.confirmations``, a deal contested and
        # settled), which keeps the table's confirmation and standings in step itself.
        return
    table = (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament")
        .annotate(replaced=Count("substitutions"))
        .first()
    )
    if table is None:
        return
    confirmations.confirmation_after_deal(
        table=table, deal=deal, action=action, seated=seated, by=by, at_table=at_table
    )
    store.standings_after_deal(table=table, seated=seated)
    if close_round:
        round_services.round_after_deal(table=table, action=action)
