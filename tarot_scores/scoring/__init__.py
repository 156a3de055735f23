"""The scoring engine: the club's rules as pure, typed Python (no Django here, ever).

``score(payload)`` takes the scoring contract of docs/scoring.md (a JSON object: a tarot deal, a
Novatarok round or a buraco hand), refuses anything a real pack or the rules rule out, and
answers each player's integer score with an explanation of every term.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .buraco import parse_and_score_buraco
from .errors import ErrorCollector, ScoringError
from .messages import Msg
from .novatarok import (
    GAME_TARGET,
    novatarok_game_over,
    novatarok_winners,
    parse_and_score_novatarok,
)
from .result import Result, Term
from .rules import (
    CLASSIC,
    FFT,
    PRESETS,
    Beneficiary,
    Contract,
    FivePlayers,
    HandfulSize,
    MarginRounding,
    MisereKind,
    RuleSet,
    Side,
    Slam,
)
from .tarot import NEEDED, TarotDeal, parse_tarot, possible_half_points, score_tarot

OTHER_GAMES = ("novatarok", "buraco")
VARIANTS = (*PRESETS, *OTHER_GAMES)

__all__ = [
    "CLASSIC",
    "FFT",
    "GAME_TARGET",
    "NEEDED",
    "PRESETS",
    "VARIANTS",
    "Beneficiary",
    "Contract",
    "FivePlayers",
    "HandfulSize",
    "MarginRounding",
    "MisereKind",
    "Msg",
    "Result",
    "RuleSet",
    "ScoringError",
    "Side",
    "Slam",
    "TarotDeal",
    "Term",
    "novatarok_game_over",
    "novatarok_winners",
    "parse_tarot",
    "possible_half_points",
    "score",
    "score_tarot",
]


def score(payload: Any, *, rules: RuleSet | None = None) -> Result:
    """Score one deal of the scoring contract.

    ``rules`` is a club's own rule set for a tarot deal; without it the ``variant`` names a
    preset. Raises ``ScoringError`` (a message per field) for anything that cannot be scored.
    """
    if payload.__class__ is not dict and not isinstance(payload, Mapping):
        raise ScoringError({"non_field_errors": [Msg("not_an_object")]})
    variant = payload.get("variant")
    if variant == "novatarok":
        return parse_and_score_novatarok(payload)
    if variant == "buraco":
        return parse_and_score_buraco(payload)
    if rules is None:
        rules = PRESETS.get(variant) if isinstance(variant, str) else None
        if rules is None:
            errors = ErrorCollector()
            choices = ", ".join(VARIANTS)
            if variant is None:
                errors.add("variant", Msg("variant_required", choices=choices))
            else:
                errors.add("variant", Msg("variant_unknown", name=variant, choices=choices))
            raise ScoringError(errors.errors)
    return score_tarot(parse_tarot(payload, rules), rules)
