"""Refusals: a deal the engine will not score, with a message per field."""

from __future__ import annotations

from .messages import Msg


class ScoringError(ValueError):
    """The input is not a deal that can be scored. ``errors`` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[Msg]]) -> None:
        self.errors = errors
        super().__init__(self.messages("en"))

    def messages(self, lang: str = "fr") -> dict[str, list[str]]:
        return {field: [m.render(lang) for m in msgs] for field, msgs in self.errors.items()}


class ErrorCollector:
    """Gathers every refusal before raising, so a player sees all of them at once."""

    __slots__ = ("errors",)

    def __init__(self) -> None:
        self.errors: dict[str, list[Msg]] = {}

    def add(self, field: str, message: Msg) -> None:
        self.errors.setdefault(field, []).append(message)

    def has(self, *fields: str) -> bool:
        return any(f in self.errors for f in fields)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ScoringError(self.errors)
