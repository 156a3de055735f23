"""French is the clubs' language: every string has a French translation, and the compiled
catalogue the site loads says what the source catalogue says."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

from django.conf import settings
from django.utils import translation

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


_GETTEXT = {
    "_": 1,
    "gettext": 1,
    "gettext_lazy": 1,
    "gettext_noop": 1,
    "ngettext": 1,
    "ngettext_lazy": 1,
    "pgettext": 2,
    "pgettext_lazy": 2,
    "npgettext": 2,
    "npgettext_lazy": 2,
}
# What templatize makes of a template's {% translate %} and {% blocktranslate %}.
_TEMPLATE_CALL = re.compile(r"\b(n?p?gettext)\(((?:u'(?:[^'\\]|\\.)*'(?:, )?)+)")
_LITERAL = re.compile(r"u'((?:[^'\\]|\\.)*)'")


def _asked_in_python(path: Path) -> set[tuple[str, str]]:
    asked: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in _GETTEXT:
            continue
        texts = [
            a.value
            for a in node.args[: _GETTEXT[name]]
            if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        if len(texts) == _GETTEXT[name]:
            asked.add(("", texts[0]) if len(texts) == 1 else (texts[0], texts[1]))
    return asked


def _asked_in_template(path: Path) -> set[tuple[str, str]]:
    from django.utils.translation.template import templatize

    asked: set[tuple[str, str]] = set()
    for name, args in _TEMPLATE_CALL.findall(templatize(path.read_text(encoding="utf-8"))):
        texts = [str(ast.literal_eval("'" + t + "'")) for t in _LITERAL.findall(args)]
        asked.add(
            (texts[0], texts[1]) if name.startswith(("pgettext", "npgettext")) else ("", texts[0])
        )
    return asked


def test_every_string_the_site_asks_for_is_in_the_catalogue() -> None:
    """A string marked for translation in the code or a template but missing from the French
    catalogue shows in English on a French page (the catalogue is written by hand)."""
    base = Path(settings.BASE_DIR)
    asked: dict[tuple[str, str], str] = {}
    for folder in ("tarot_scores", "tournaments"):
        for path in (base / folder).rglob("*.py"):
            if "migrations" not in path.parts:
                asked.update(dict.fromkeys(_asked_in_python(path), str(path.relative_to(base))))
    for path in (base / "templates").rglob("*.html"):
        asked.update(dict.fromkeys(_asked_in_template(path), str(path.relative_to(base))))
    known = {(str(e.get("msgctxt", "")), str(e["msgid"])) for e in _entries()}
    assert len(asked) > 300

    def translated(key: tuple[str, str]) -> bool:
        # Ours, or one of Django's or a library's (DRF's "Invalid token." is in its catalogue).
        context, msgid = key
        with translation.override("fr"):
            said = translation.pgettext(context, msgid) if context else translation.gettext(msgid)
        return key in known or said != msgid

    missing = sorted(f"{where}: {key}" for key, where in asked.items() if not translated(key))
    assert missing == []
