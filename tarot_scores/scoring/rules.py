"""Rule sets: every parameter a club may change, and the named presets (``fft``, ``classic``).

A rule set is a frozen value. Presets are instances of it; a club's house rules are stored by
the game layer as the mapping of ``RuleSet.to_mapping`` and read back with
``RuleSet.from_mapping``, which refuses values that make no sense (with a message per field).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum, StrEnum
from typing import Any

from .errors import ErrorCollector
from .messages import Msg


class Contract(StrEnum):
    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


class Side(StrEnum):
    ATTACK = "attack"
    DEFENSE = "defense"


class HandfulSize(StrEnum):
    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"


class Slam(StrEnum):
    ANNOUNCED_MADE = "announced_made"
    UNANNOUNCED_MADE = "unannounced_made"
    ANNOUNCED_FAILED = "announced_failed"
    DEFENSE = "defense"


class MisereKind(StrEnum):
    HEAD = "head"
    TRUMP = "trump"


class Beneficiary(StrEnum):
    """Who receives a handful's points."""

    WINNER = "winner"  # the side that won the deal (FFT)
    DECLARER = "declarer"  # the side of the player who showed it (seed 002's program)


class MarginRounding(StrEnum):
    EXACT = "exact"
    FIVE = "5"
    TEN = "10"


class FivePlayers(StrEnum):
    """How a table of five plays."""

    CALLED_KING = "called_king"  # the taker calls a king: taker and partner against three
    SITTING_OUT = "sitting_out"  # the dealer sits the deal out; four play 4-player rules
    EITHER = "either"


HandfulTrumps = tuple[int, int, int]

FFT_HANDFUL_TRUMPS: dict[int, HandfulTrumps] = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything that decides a tarot deal's score. Values are points, unless named otherwise."""

    name: str
    base: int = 25
    coefficient_prise: int = 1
    coefficient_garde: int = 2
    coefficient_garde_sans: int = 4
    coefficient_garde_contre: int = 6
    handful_simple: int = 20
    handful_double: int = 30
    handful_triple: int = 40
    handful_beneficiary: Beneficiary = Beneficiary.WINNER
    # Trumps a handful shows, for 3, 4 and 5 active players: (simple, double, triple).
    handful_trumps_3: HandfulTrumps = FFT_HANDFUL_TRUMPS[3]
    handful_trumps_4: HandfulTrumps = FFT_HANDFUL_TRUMPS[4]
    handful_trumps_5: HandfulTrumps = FFT_HANDFUL_TRUMPS[5]
    petit_au_bout: int = 10
    petit_au_bout_multiplied: bool = True
    slam_announced_made: int = 400
    slam_unannounced_made: int = 200
    slam_announced_failed: int = 200  # taken from the attack
    slam_defense: int = 200  # given to each defender
    miseres_allowed: bool = False
    misere: int = 10
    margin_rounding: MarginRounding = MarginRounding.EXACT
    five_players: FivePlayers = FivePlayers.EITHER

    def coefficient(self, contract: Contract) -> int:
        if contract is Contract.GARDE:
            return self.coefficient_garde
        if contract is Contract.PRISE:
            return self.coefficient_prise
        if contract is Contract.GARDE_SANS:
            return self.coefficient_garde_sans
        return self.coefficient_garde_contre

    def handful_value(self, size: HandfulSize) -> int:
        if size is HandfulSize.SIMPLE:
            return self.handful_simple
        if size is HandfulSize.DOUBLE:
            return self.handful_double
        return self.handful_triple

    def handful_trumps_for(self, active_players: int) -> HandfulTrumps:
        """Trumps shown by a (simple, double, triple) handful at this many active players."""
        if active_players == 4:
            return self.handful_trumps_4
        if active_players == 5:
            return self.handful_trumps_5
        return self.handful_trumps_3

    def handful_trumps(self, active_players: int, size: HandfulSize) -> int:
        return self.handful_trumps_for(active_players)[_SIZE_INDEX[size]]

    def slam_points(self, slam: Slam | None) -> int:
        """What the slam adds to each defender's debt (negative: to each defender's gain)."""
        if slam is None:
            return 0
        if slam is Slam.ANNOUNCED_MADE:
            return self.slam_announced_made
        if slam is Slam.UNANNOUNCED_MADE:
            return self.slam_unannounced_made
        if slam is Slam.ANNOUNCED_FAILED:
            return -self.slam_announced_failed
        return -self.slam_defense

    def round_margin(self, margin: int) -> int:
        """Round a margin (>= 0) to the club's step, halves upwards."""
        if self.margin_rounding is MarginRounding.EXACT:
            return margin
        step = 5 if self.margin_rounding is MarginRounding.FIVE else 10
        return (margin + step // 2) // step * step

    def to_mapping(self) -> dict[str, Any]:
        """A JSON-ready mapping; ``from_mapping`` reads it back."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, based_on: RuleSet | None = None) -> RuleSet:
        """Read a club's rule set; missing keys come from ``based_on`` (FFT by default).

        Raises ``ScoringError`` with a message per field for anything out of range.
        """
        start = based_on or FFT
        errors = ErrorCollector()
        changes: dict[str, Any] = {}
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                errors.add(key, Msg("unknown_field"))
                continue
            current = getattr(start, key)
            parsed = _parse_rule_value(key, value, current, errors)
            if parsed is not None:
                changes[key] = parsed
        errors.raise_if_any()
        rules = replace(start, **changes)
        _check_handful_trumps(rules, errors)
        errors.raise_if_any()
        return rules


_SIZE_INDEX = {HandfulSize.SIMPLE: 0, HandfulSize.DOUBLE: 1, HandfulSize.TRIPLE: 2}
_HAND_SIZE = {3: 24, 4: 18, 5: 15}
_MAX_RULE_POINTS = 10_000


def _parse_rule_value(key: str, value: Any, current: Any, errors: ErrorCollector) -> Any:
    if key == "name":
        if not isinstance(value, str) or not value.strip() or len(value) > 80:
            errors.add(key, Msg("rule_name"))
            return None
        return value.strip()
    if isinstance(current, bool):
        if not isinstance(value, bool):
            errors.add(key, Msg("rule_bool"))
            return None
        return value
    if isinstance(current, Enum):
        try:
            return type(current)(value)
        except ValueError:
            choices = ", ".join(str(m.value) for m in type(current))
            errors.add(key, Msg("choice", choices=choices))
            return None
    if isinstance(current, tuple):
        if (
            not isinstance(value, list | tuple)
            or len(value) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            errors.add(key, Msg("rule_trumps_shape"))
            return None
        return tuple(value)
    if not isinstance(value, int) or isinstance(value, bool):
        errors.add(key, Msg("rule_integer"))
        return None
    if not 0 <= value <= _MAX_RULE_POINTS:
        errors.add(key, Msg("rule_range", low=0, high=_MAX_RULE_POINTS))
        return None
    if key.startswith("coefficient_") and value < 1:
        errors.add(key, Msg("rule_range", low=1, high=_MAX_RULE_POINTS))
        return None
    return value


def _check_handful_trumps(rules: RuleSet, errors: ErrorCollector) -> None:
    for players, hand in _HAND_SIZE.items():
        key = f"handful_trumps_{players}"
        simple, double, triple = getattr(rules, key)
        if not (1 <= simple < double < triple <= min(hand, 22)):
            errors.add(key, Msg("rule_trumps_order", high=min(hand, 22)))


FFT = RuleSet(name="fft")

# Seed 002's program: handfuls and misères count for the side that declared them; a misère is
# worth 10; at three players a simple handful shows 12 trumps.
CLASSIC = RuleSet(
    name="classic",
    handful_beneficiary=Beneficiary.DECLARER,
    handful_trumps_3=(12, 15, 18),
    miseres_allowed=True,
    misere=10,
)

PRESETS: dict[str, RuleSet] = {FFT.name: FFT, CLASSIC.name: CLASSIC}
