"""Names people type (a club, a player and his nickname, a rule set, a tournament, a team): one
rule for all of them, checked by the forms and serializers (beside the field) and again by the
services that store them, and one way to tell when two names look the same.

A name is stored as people read it: in NFC (an "é" typed as e + accent and the "é" of another
keyboard are one name), its spaces (a no-break space pasted from a word processor, several in a
row) one plain space, no space at either end.

A name never holds a control character: a tab or a line break (U+2028 and U+2029 too) would
break the score sheet's columns and the CSV exports, a NUL cannot be stored, and the invisible
characters (right-to-left override, zero-width space, the Hangul filler U+3164, the blank
Braille pattern U+2800...) make two different names look the same, or a name look empty. The
joiners (U+200C, U+200D) are kept only where a script needs them: inside a word of a script
that joins its letters (Arabic, the Indic scripts...), and the zero-width joiner between two
emoji of one emoji sequence. A variation selector is kept after an emoji or a letter it styles.

Two names look the same when their confusable skeletons match (Unicode TR39, computed by ICU's
spoof checker, the maintained implementation, after NFKC and case folding): "Аnna" with a
Cyrillic А and "Anna", "ａｎｎａ" and "anna". ``look_alike_key`` is what the database keeps
unique among a club's players (their labels) and among clubs (their names).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

import icu
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from tarot_scores.core.errors import Code, Refusal

_ZWNJ, _ZWJ = "\u200c", "\u200d"
# Scripts whose words need a joiner to be written right (TR31's "joining" scripts and the
# Brahmic ones, where a joiner chooses between a conjunct and a visible virama).
_JOINING_SCRIPTS = frozenset(
    {
        "Arab", "Syrc", "Nkoo", "Mong", "Mand", "Mani", "Phlp", "Adlm", "Rohg", "Sogd",
        "Deva", "Beng", "Guru", "Gujr", "Orya", "Taml", "Telu", "Knda", "Mlym", "Sinh",
    }
)  # fmt: skip
_SPACES = re.compile(r"\s+")


@cache
def _invisible() -> icu.UnicodeSet:
    # Ignorable code points (zero-width and format characters, the Hangul fillers, the
    # variation selectors), unassigned ones and the blank Braille pattern, which draws nothing.
    invisible = icu.UnicodeSet("[[:Default_Ignorable_Code_Point:][:Cn:][\u2800]]")
    invisible.freeze()
    return invisible


@cache
def _spoof_checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def _script(ch: str) -> str:
    return str(icu.Script.getScript(ch).getShortName())


def _emoji(ch: str) -> bool:
    return bool(icu.Char.hasBinaryProperty(ch, icu.UProperty.EXTENDED_PICTOGRAPHIC))


def _letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in {"L", "M"}


def _joiner_in_place(value: str, at: int) -> bool:
    """Whether the joiner at ``value[at]`` stands where a script needs it."""
    before, after = value[at - 1 : at], value[at + 1 : at + 2]
    if not before or not after:
        return False
    if value[at] == _ZWJ and _emoji(after):
        # An emoji sequence: emoji, its skin tone or presentation selector, ZWJ, emoji.
        return _emoji(before) or before in "\ufe0f" or 0x1F3FB <= ord(before) <= 0x1F3FF
    if not (_letter(before) and _letter(after)):
        return False
    scripts = {_script(before), _script(after)} - {"Zinh"}  # a mark takes its letter's script
    return len(scripts) == 1 and scripts <= _JOINING_SCRIPTS


def _selector_in_place(value: str, at: int) -> bool:
    before = value[at - 1 : at]
    return bool(before) and (_emoji(before) or _letter(before) or before in "0123456789#*")


def _forbidden(value: str, at: int) -> bool:
    ch = value[at]
    if unicodedata.category(ch) in {"Cc", "Cs", "Co", "Zl", "Zp"}:
        return True
    if ch in (_ZWNJ, _ZWJ):
        return not _joiner_in_place(value, at)
    if 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF:
        return not _selector_in_place(value, at)
    return unicodedata.category(ch) == "Cf" or _invisible().contains(ch)


def name_as_stored(value: str) -> str:
    """The name as the site keeps it: NFC, every run of spaces one plain space, stripped."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", str(value))).strip()


def has_control_character(value: str) -> bool:
    value = unicodedata.normalize("NFC", str(value))
    return any(_forbidden(value, at) for at in range(len(value)))


def _visible(value: str) -> bool:
    return any(
        not ch.isspace() and unicodedata.category(ch)[0] not in {"M", "C"}
        for ch in value
        if not _invisible().contains(ch)
    )


def control_character_message() -> str:
    return _("A name cannot contain control characters (tab, line break or invisible characters).")


def invisible_message() -> str:
    return _("A name needs at least one visible letter, digit or sign.")


def name_refusal(value: str) -> str | None:
    """Why this name cannot be stored, or None. An empty name is the field's own business
    (required or not): only a name of blanks alone is refused here."""
    if has_control_character(value):
        return control_character_message()
    if name_as_stored(value) and not _visible(value):
        return invisible_message()
    return None


def validate_name(value: str) -> None:
    """The rule as a Django validator, for form and serializer fields. A NUL is left to their
    own validator (Django's and DRF's text fields refuse it), so that it is said once."""
    value = str(value)
    if "\x00" in value:
        return
    refusal = name_refusal(value)
    if refusal is not None:
        code = (
            Code.NAME_CONTROL_CHARACTER
            if refusal == control_character_message()
            else Code.NAME_INVISIBLE
        )
        raise ValidationError(refusal, code=code)


def check_name(value: str, *, field: str = "name") -> str:
    """The name as stored (``name_as_stored``); ``Refusal`` on ``field`` if it breaks the
    rule."""
    if has_control_character(value):
        raise Refusal.on(field, Code.NAME_CONTROL_CHARACTER, control_character_message())
    if name_refusal(value) is not None:
        raise Refusal.on(field, Code.NAME_INVISIBLE, invisible_message())
    return name_as_stored(value)


def look_alike_key(value: str) -> str:
    """What two names that look the same share: the TR39 skeleton of the name in NFKC, case
    folded and its spaces made one (empty for an empty name)."""
    folded = _SPACES.sub(" ", unicodedata.normalize("NFKC", str(value)).casefold()).strip()
    if not folded:
        return ""
    return str(_spoof_checker().getSkeleton(0, folded))


def look_alike(first: str, second: str) -> bool:
    return look_alike_key(first) == look_alike_key(second)
