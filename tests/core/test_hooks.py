"""The one hook registry (``core.hooks.Hook``): what is registered is called in registration
order, once each; ``first`` stops at the first answer; ``replaced`` always gives the registered
functions back. The typing lines are checked by mypy (``make typecheck``): a function of the
wrong shape is refused at registration, and the answers keep their type."""

from __future__ import annotations

from typing import Protocol, assert_type

import pytest

from tarot_scores.core import sections
from tarot_scores.core.hooks import Hook
from tarot_scores.games import guards, penalties, seats, selectors, services


class Ask(Protocol):
    def __call__(self, *, number: int) -> str | None: ...


def test_registered_functions_are_called_in_registration_order() -> None:
    hook: Hook[Ask] = Hook("test")
    called: list[str] = []

    def make(name: str) -> Ask:
        def ask(*, number: int) -> str | None:
            called.append(name)
            return None

        return ask

    second, first, third = make("second"), make("first"), make("third")
    hook.register(first)
    hook.register(second)
    hook.register(third)
    hook.register(first)  # again: keeps its first place, is not called twice
    for ask in hook:
        ask(number=1)
    assert called == ["first", "second", "third"]
    assert len(hook) == 3 and second in hook


def test_first_answer_wins_and_those_after_it_are_not_asked() -> None:
    hook: Hook[Ask] = Hook("test")
    asked: list[str] = []

    @hook.register
    def silent(*, number: int) -> str | None:
        asked.append("silent")
        return None

    @hook.register
    def even(*, number: int) -> str | None:
        asked.append("even")
        return "even" if number % 2 == 0 else None

    @hook.register
    def anything(*, number: int) -> str | None:
        asked.append("anything")
        return "any"

    assert hook.first(lambda ask: ask(number=2)) == "even"
    assert asked == ["silent", "even"]
    assert hook.first(lambda ask: ask(number=3)) == "any"
    assert hook.answers(lambda ask: ask(number=2)) == ["even", "any"]


def test_nothing_registered_answers_none_and_an_empty_answer_still_counts() -> None:
    hook: Hook[Ask] = Hook("test")
    assert hook.first(lambda ask: ask(number=1)) is None
    assert hook.answers(lambda ask: ask(number=1)) == []
    hook.register(lambda *, number: "")
    assert hook.first(lambda ask: ask(number=1)) == ""  # only None means "not mine"


def test_a_function_registered_while_the_hook_runs_waits_for_the_next_call() -> None:
    hook: Hook[Ask] = Hook("test")
    called: list[str] = []

    def late(*, number: int) -> str | None:
        called.append("late")
        return None

    def early(*, number: int) -> str | None:
        called.append("early")
        hook.register(late)
        return None

    hook.register(early)
    for ask in hook:
        ask(number=1)
    assert called == ["early"]
    for ask in hook:
        ask(number=1)
    assert called == ["early", "early", "late"]


def test_replaced_gives_the_registered_functions_back_even_after_an_error() -> None:
    hook: Hook[Ask] = Hook("test")
    kept = hook.register(lambda *, number: "kept")
    with pytest.raises(RuntimeError), hook.replaced([lambda *, number: "instead"]):
        assert hook.first(lambda ask: ask(number=1)) == "instead"
        raise RuntimeError
    assert list(hook) == [kept]


def test_the_answers_keep_their_type() -> None:
    hook: Hook[Ask] = Hook("test")

    def wrong_shape(number: int) -> int:  # positional, and answers an int
        return number

    hook.register(wrong_shape)  # type: ignore[arg-type]
    assert_type(hook.first(lambda ask: ask(number=1)), str | None)
    assert_type(hook.answers(lambda ask: ask(number=1)), list[str])


def test_the_site_uses_the_one_registry_for_every_extension_point() -> None:
    points = [
        sections.home_sections,
        sections.club_sections,
        guards.game_guards,
        guards.reasons_needed,
        services.deal_changed,
        services.deal_boards,
        selectors.grouped_elsewhere,
        penalties.penalty_sources,
        seats.seats_then,
    ]
    assert all(isinstance(point, Hook) for point in points)
    # The public names another app registers with are the hooks' own ``register``.
    assert sections.on_home_page == sections.home_sections.register
    assert services.on_deal_change == services.deal_changed.register
    assert guards.on_game_access == guards.game_guards.register
