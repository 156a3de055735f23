"""Rounds left complete but open, for the tests of the organiser's close (page and API).

A round now closes in the transaction of the deal that completes it, whoever enters it. Rounds
completed before that (or by hand in the database) stay open until an organiser closes them;
this is how the tests build one."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager

from tarot_scores.games import services as game_services
from tournaments.play.deal import table_deal_changed


@contextmanager
def deals_leave_rounds_open() -> Iterator[None]:
    """Deals entered inside this block do not close their round (the deal hook's last step
    left out)."""
    hooks = game_services.deal_changed
    open_rounds = functools.partial(table_deal_changed, close_round=False)
    with hooks.replaced([open_rounds if h is table_deal_changed else h for h in hooks]):
        yield
