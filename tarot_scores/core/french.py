"""French typography once a name or a number is put into a translated sentence: elision ("de
Éloïse" is written "d'Éloïse", "que Anaïs" "qu'Anaïs") and the non-breaking space French puts
before ; : ! ? ("chutée de 11 ; petit au bout"). A translation is good French as written; what
it cannot know is the name that will follow its "de", so the sentence is set right once filled.
English text passes through unchanged: the helpers act only while French is the language."""

from __future__ import annotations

import re

from django.utils.translation import get_language

NBSP = "\u00a0"

# "de" or "que" as a word, then a word that starts with a vowel or a capital H (a name:
# d'Hélène); a lower-case h is left alone, since the catalogue's own words are right as
# written and French does not elide before an aspirated h (de haut, de huit). A Y is a
# consonant in most names (de Yannick).
_VOWELS = "AEIOUHÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜaeiouàâäæéèêëîïôöœùûü"
_ELIDABLE = re.compile(rf"(?<![\w'’])([Dd]|[Qq]u)e (?=[{_VOWELS}])")
# A space (or none) before ; : ! ? that end a clause: the mark is then followed by a space or
# ends the text, so "12:30" or an address keeps its colon as it is.
_HIGH_MARK = re.compile(r"(?<=\S)[ \u00a0\u202f]?([;:!?])(?=\s|$)")


def in_french() -> bool:
    return (get_language() or "fr").startswith("fr")


def elided(text: str) -> str:
    """``text`` with "de"/"que" elided before the vowel that starts the next word, in French."""
    if not in_french():
        return text
    return _ELIDABLE.sub(lambda m: m.group(1) + "'", text)


def spaced(text: str) -> str:
    """``text`` with a non-breaking space before each ; : ! ? that ends a clause, in French."""
    if not in_french():
        return text
    return _HIGH_MARK.sub(NBSP + r"\1", text)


def french(text: str) -> str:
    """Both: what a sentence filled with names and numbers needs before it is shown."""
    return spaced(elided(text))
