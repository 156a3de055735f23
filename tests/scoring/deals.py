"""Payload builders shared by the scoring tests: a valid deal, then only what a case changes."""

from __future__ import annotations

from typing import Any

from tarot_scores.scoring import RuleSet, ScoringError, score

FOUR = ["Aurélie", "Bruno", "Chloé", "Denis"]
THREE = FOUR[:3]
FIVE = [*FOUR, "Émile"]


def tarot(**changes: Any) -> dict[str, Any]:
    """A valid FFT deal at four (Chloé takes a garde, 49 points, 2 bouts), with ``changes``."""
    deal: dict[str, Any] = {
        "variant": "fft",
        "players": list(FOUR),
        "sitting_out": None,
        "taker": "Chloé",
        "partner": None,
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
        "petit_au_bout": None,
        "handfuls": [],
        "slam": None,
        "miseres": [],
    }
    deal.update(changes)
    return deal


def scores(payload: dict[str, Any], rules: RuleSet | None = None) -> dict[str, int]:
    return score(payload, rules=rules).scores


def refusal(payload: Any, rules: RuleSet | None = None) -> ScoringError:
    """The ScoringError the engine raises for ``payload`` (fails the test if it scores it)."""
    try:
        result = score(payload, rules=rules)
    except ScoringError as error:
        return error
    raise AssertionError(f"scored instead of refused: {result.scores}")
