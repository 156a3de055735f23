"""The reader's language as the scoring engine and the seating code take it."""

from __future__ import annotations

from typing import Literal

from django.utils.translation import get_language


def engine_language() -> Literal["fr", "en"]:
    """English when the request asked for it, French (the clubs' language) otherwise."""
    return "en" if (get_language() or "fr").startswith("en") else "fr"
