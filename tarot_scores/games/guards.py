"""What another app may say about a game: who may act on it, and which changes to its deals
need a written reason.

The club's rules (``clubs.permissions``) decide for a club's own games. A game that another
app runs (a tournament's table) follows that app's rules instead: it registers a guard at
start-up (from its AppConfig's ``ready``), so that the games never import it. A guard answers
None for the games it does not run. Who may act is asked by ``clubs.permissions``, where the
guards' hook lives (the clubs sit below the games); it is offered here beside the other.
"""

from __future__ import annotations

from typing import Protocol

from tarot_scores.clubs.permissions import Act, GameGuard, game_guards, guarded
from tarot_scores.core.hooks import Hook
from tarot_scores.games.models import Game

__all__ = [
    "Act",
    "GameGuard",
    "ReasonNeeded",
    "game_guards",
    "guarded",
    "on_game_access",
    "on_reason_needed",
    "reason_needed",
    "reasons_needed",
]


class ReasonNeeded(Protocol):
    """Does a change to this game's deals need a written reason (kept in the history)?"""

    def __call__(self, *, game: Game) -> bool: ...


reasons_needed: Hook[ReasonNeeded] = Hook("games.guards.reasons_needed")

# Have a guard consulted before the club's own rules for every game.
on_game_access = game_guards.register
# Have a function say which games' changes need a written reason.
on_reason_needed = reasons_needed.register


def reason_needed(*, game: Game) -> bool:
    return any(needs(game=game) for needs in reasons_needed)
