"""Hooks: how one concern lets another act without importing it.

A concern that must call code it may not import (docs/architecture.md: imports only go down,
and nothing of the club side imports tournaments) offers a ``Hook``, typed by what it calls: the
games ask "who may act on this game", "what happens after a deal", "which boards does this table
play"... The concern that answers registers its function at start-up, from its AppConfig's
``ready``. The hook calls what was registered in the order it was registered: the ``ready``
that registers several functions on one hook writes their order down in code, and an app listed
earlier in ``INSTALLED_APPS`` registers before one listed later.

Registering the same thing twice keeps its first place and adds nothing, so a ``ready`` run
again (some test runners do) changes no order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class Hook(Generic[T]):
    """What other concerns registered on one extension point, in registration order: usually
    functions of one typed shape (``Hook[AfterDealChange]``), sometimes plain values (the
    filters that keep a tournament's tables off a club's list of games)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._registered: list[T] = []

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._registered)} registered>"

    def register(self, item: T) -> T:
        """Add ``item`` after those registered before it (once). Returns it, so that a function
        may be registered with a decorator."""
        if item not in self._registered:
            self._registered.append(item)
        return item

    def __iter__(self) -> Iterator[T]:
        # A copy: a function that registers another while the hook runs changes the next call.
        return iter(tuple(self._registered))

    def __len__(self) -> int:
        return len(self._registered)

    def __contains__(self, item: object) -> bool:
        return item in self._registered

    def first(self, ask: Callable[[T], R | None]) -> R | None:
        """The first answer that is not None, asking each registered function in order (``ask``
        calls one with the question's arguments); None when none answers. The functions after
        the one that answered are not asked."""
        for item in self:
            answer = ask(item)
            if answer is not None:
                return answer
        return None

    def answers(self, ask: Callable[[T], R | None]) -> list[R]:
        """Every answer that is not None, in registration order."""
        return [answer for answer in (ask(item) for item in self) if answer is not None]

    @contextmanager
    def replaced(self, items: Iterable[T]) -> Iterator[None]:
        """Exactly ``items``, in this order, while the block runs; what was registered before
        comes back after it, whatever happened inside. For tests and benchmarks that leave a
        function out, add one, or time one in its place."""
        saved = self._registered
        self._registered = list(items)
        try:
            yield
        finally:
            self._registered = saved
