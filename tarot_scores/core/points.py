"""Card points as a person types them: "41", "40,5" or "40.5", from 0 to 91.

The one reading of typed points, for the calculator page, the deal entry page and the club API
(a deal's ``points`` sent as a string). Anything else is refused the same way everywhere: no
sign ("+40"), no exponent ("1e1"), no "NaN", and only the digits 0 to 9 ("١٢" is refused: a
phone's keyboard in another script must not slip in a number nobody at the table read).
Points sent as a JSON number are the engine's to judge.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from tarot_scores.core.errors import Code, Refusal

ALL_POINTS = Decimal(91)
POINTS = "points"
# ASCII digits, then a decimal comma or point and digits. ``[0-9]``, not ``\d``: \d takes every
# script's digits.
_TYPED = re.compile(r"[0-9]+(?:[.,][0-9]+)?")


def parse_points(raw: str) -> Decimal:
    """The card points typed in ``raw``; ``Refusal`` on ``points`` for anything else."""
    typed = raw.strip().replace(" ", "")
    if not _TYPED.fullmatch(typed):
        raise Refusal.on(
            POINTS, Code.POINTS_INVALID, _("Enter a number of points, for example 41 or 40.5.")
        )
    value = Decimal(typed.replace(",", "."))
    if not 0 <= value <= ALL_POINTS:
        raise Refusal.on(POINTS, Code.POINTS_RANGE, _("Points range from 0 to 91."))
    return value


def as_json_number(value: Decimal) -> int | float:
    """41 stays an integer, 40.5 a float: the scoring contract's numbers."""
    return int(value) if value == value.to_integral_value() else float(value)


def typed_points(value: Any) -> Any:
    """A deal's ``points`` as the engine takes them: a string is read by ``parse_points``; a
    number (or anything else) is left for the engine to judge."""
    if isinstance(value, str):
        return as_json_number(parse_points(value))
    return value
