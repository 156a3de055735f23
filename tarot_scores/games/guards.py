"""What another app may say about a game: who may act on it, and which changes to its deals
need a written reason.

The club's rules (``clubs.permissions``) decide for a club's own games. A game that another
app runs (a tournament's table) follows that app's rules instead: it registers a guard at
start-up (from its AppConfig's ``ready``), so that the games never import it. A guard answers
None for the games it does not run.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol

from tarot_scores.core.hooks import Hook
from tarot_scores.games.models import Game


class Act(StrEnum):
    """What a reader wants to do to a game."""

    ENTER = "enter"  # enter its next deal
    CORRECT = "correct"  # correct, delete or restore one of its deals
    MANAGE = "manage"  # finish it, or reopen it


class GameGuard(Protocol):
    """May ``reader`` (a ``clubs.permissions.Access``) do ``act`` to ``game``? True or False
    for a game this guard runs, None for any other."""

    def __call__(self, *, reader: Any, game: Game, act: Act) -> bool | None: ...


class ReasonNeeded(Protocol):
    """Does a change to this game's deals need a written reason (kept in the history)?"""

    def __call__(self, *, game: Game) -> bool: ...


game_guards: Hook[GameGuard] = Hook("games.guards.game_guards")
reasons_needed: Hook[ReasonNeeded] = Hook("games.guards.reasons_needed")

# Have a guard consulted before the club's own rules for every game.
on_game_access = game_guards.register
# Have a function say which games' changes need a written reason.
on_reason_needed = reasons_needed.register


def guarded(*, reader: Any, game: Game, act: Act) -> bool | None:
    """The first guard's answer for this game, or None when no guard runs it."""
    return game_guards.first(lambda guard: guard(reader=reader, game=game, act=act))


def reason_needed(*, game: Game) -> bool:
    return any(needs(game=game) for needs in reasons_needed)
