"""French is the clubs' language: every string has a French translation, and the compiled
catalogue the site loads says what the source catalogue says."""

from __future__ import annotations

import ast
import gettext
from pathlib import Path

from django.conf import settings

CATALOGUE = Path(settings.BASE_DIR) / "tarot_scores" / "locale" / "fr" / "LC_MESSAGES"


def _entries() -> list[dict[str, object]]:
    """The .po file's entries: flags, context, msgid, plural and translations."""
    entries: list[dict[str, object]] = []
    entry: dict[str, object] = {}
    key: str | None = None
    for line in (CATALOGUE / "django.po").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if entry:
                entries.append(entry)
            entry, key = {}, None
        elif line.startswith("#,"):
            entry["flags"] = {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"') and key is not None:
            entry[key] = str(entry[key]) + ast.literal_eval(line)
        else:
            key, _space, value = line.partition(" ")
            entry[key] = ast.literal_eval(value)
    if entry:
        entries.append(entry)
    return [e for e in entries if e.get("msgid")]


def test_every_string_is_translated_into_french() -> None:
    entries = _entries()
    assert len(entries) > 300
    untranslated = [
        e["msgid"]
        for e in entries
        if not all(v for k, v in e.items() if k.startswith("msgstr"))
        or "fuzzy" in e.get("flags", set())  # type: ignore[operator]
    ]
    assert untranslated == []


def test_the_compiled_catalogue_matches_the_source() -> None:
    with (CATALOGUE / "django.mo").open("rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for entry in _entries():
        msgid = str(entry["msgid"])
        context = entry.get("msgctxt")
        if "msgid_plural" in entry:
            got = (
                catalogue.npgettext(str(context), msgid, str(entry["msgid_plural"]), 1)
                if context
                else catalogue.ngettext(msgid, str(entry["msgid_plural"]), 1)
            )
            assert got == entry["msgstr[0]"], msgid
        else:
            got = catalogue.pgettext(str(context), msgid) if context else catalogue.gettext(msgid)
            assert got == entry["msgstr"], msgid
