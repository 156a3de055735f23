"""Rounds left complete but open, for the tests of the organiser's close (page and API).

A round now closes in the transaction of the deal that completes it, whoever enters it. Rounds
completed before that (or by hand in the database) stay open until an organiser closes them;
this is how the tests build one."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tarot_scores.games import services as game_services
from tournaments.rounds.services import round_after_deal


@contextmanager
def deals_leave_rounds_open() -> Iterator[None]:
    """Deals entered inside this block do not close their round."""
    hooks = game_services._after_deal_change
    saved = list(hooks)
    hooks[:] = [hook for hook in hooks if hook is not round_after_deal]
    try:
        yield
    finally:
        hooks[:] = saved
