"""What the engine answers: each player's score and the terms that explain it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from .messages import Msg


@dataclass(frozen=True, slots=True)
class Term:
    """One line of the explanation: what it is, the points it is worth, and the words."""

    kind: str
    value: int | None
    text: Msg


class Result(NamedTuple):
    """Scores (integers) and, built only when asked for, the terms that explain them.

    A NamedTuple rather than a frozen dataclass: one is built for every deal scored.
    """

    scores: dict[str, int]
    won: bool | None
    margin: int | None
    explain: Callable[[], tuple[Term, ...]]
    unit: int | None = None
    needed: int | None = None

    @property
    def terms(self) -> tuple[Term, ...]:
        return self.explain()

    def breakdown(self, lang: str = "fr") -> list[dict[str, Any]]:
        return [{"term": t.kind, "value": t.value, "text": t.text.render(lang)} for t in self.terms]

    def to_json(self, lang: str = "fr") -> dict[str, Any]:
        """The answer of the scoring contract (see docs/scoring.md)."""
        return {
            "scores": dict(self.scores),
            "won": self.won,
            "margin": self.margin,
            "breakdown": self.breakdown(lang),
        }
