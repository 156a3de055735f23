"""Names people type (a club, a player and his nickname, a rule set, a tournament, a team): one
rule for all of them, checked by the forms and serializers (beside the field) and again by the
services that store them.

A name never holds a control character: a tab or a line break would break the score sheet's
columns and the CSV exports, a NUL cannot be stored, and the invisible format characters
(right-to-left override, zero-width space...) make two different names look the same. The joiners
that some scripts and emoji need (U+200C, U+200D) are kept.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tarot_scores.core.errors import Refusal

CODE = "name_control_character"
_JOINERS = {"\u200c", "\u200d"}


def has_control_character(value: str) -> bool:
    return any(
        unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co"} and ch not in _JOINERS for ch in value
    )


def control_character_message() -> str:
    return _("A name cannot contain control characters (tab, line break or invisible characters).")


def name_refusal(value: str) -> str | None:
    """Why this name cannot be stored, or None."""
    return control_character_message() if has_control_character(value) else None


def validate_name(value: str) -> None:
    """The rule as a Django validator, for form and serializer fields. A NUL is left to their
    own validator (Django's and DRF's text fields refuse it), so that it is said once."""
    if "\x00" not in str(value) and has_control_character(str(value)):
        raise ValidationError(control_character_message(), code=CODE)


def check_name(value: str, *, field: str = "name") -> str:
    """The name as stored (stripped); ``Refusal`` on ``field`` if it breaks the rule."""
    if has_control_character(value):
        raise Refusal.on(field, CODE, control_character_message())
    return value.strip()
