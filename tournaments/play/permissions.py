"""Who may act on a tournament beyond reading it.

The club's organisers run their tournaments; a tournament's referees (arbitres) are accounts
the organisers name for that one event. Organisers and referees alike may settle what the
tables entered: finish, reopen or correct a table after its round closed, confirm a deal for a
table, and decide a disagreement. Only organisers change the tournament itself (settings,
registration, seating, referees). The pages and the API ask these same questions.

A table is a club game: ``table_access`` is the guard (``games.guards``) that decides for it,
registered at start-up. While its round is open, the members seated there (and the table's
link) enter and correct its deals; finishing and reopening it, and any change once its round
has closed, are for the organisers and referees, and such a change needs a written reason
(``table_needs_reason``).
"""

from __future__ import annotations

from typing import Any

from tarot_scores.clubs import permissions
from tarot_scores.games.guards import Act
from tarot_scores.games.models import Game
from tournaments.models import Round, Table
from tournaments.rules import can_referee, maybe_table


def table_of(who: Any, game: Game) -> Table | None:
    """The tournament table this game is, read once per request (None: a club's own game)."""
    if not maybe_table(game):
        return None  # a tournament table always has a set length: no query for a club game
    reader = permissions.access_of(who)
    key = ("table", game.pk)
    if key not in reader.memo:
        reader.memo[key] = (
            Table.objects.select_related("round__tournament__club").filter(game_id=game.pk).first()
        )
    table: Table | None = reader.memo[key]
    return table


def table_access(*, reader: Any, game: Game, act: Act) -> bool | None:
    """The guard of tournament tables (None for any other game)."""
    table = table_of(reader, game)
    if table is None:
        return None
    tournament = table.round.tournament
    if can_referee(reader, tournament):
        return True
    if act == Act.MANAGE or table.round.status == Round.Status.CLOSED:
        return False
    return permissions.is_member(reader, tournament.club) and permissions.sits_in(reader, game)


def table_needs_reason(*, game: Game) -> bool:
    """A change to a table's deals after its round closed needs a written reason."""
    if not maybe_table(game):
        return False
    return Round.objects.filter(tables__game_id=game.pk, status=Round.Status.CLOSED).exists()
