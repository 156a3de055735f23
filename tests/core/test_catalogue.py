"""The French catalogue is complete: ``make messages`` (Django's makemessages, run here on a
copy of the sources) would add no entry, leave none obsolete, and every entry is translated and
not fuzzy. Entries are compared as sets (context, id, plural), not as file bytes or order: the
file's order and its source comments change with every merge and are not what a reader sees."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = Path("tarot_scores/locale/fr/LC_MESSAGES/django.po")
SOURCES = ["manage.py", "tarot_scores", "tournaments", "templates"]


@dataclass
class Entry:
    context: str | None = None
    id: str = ""
    plural: str | None = None
    strings: list[str] = field(default_factory=list)
    fuzzy: bool = False
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str, str | None]:
        return (self.context, self.id, self.plural)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header, msgid "", left out)."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int] | None = None
    started = False

    def close() -> None:
        nonlocal current, started
        if started and current.id:
            entries.append(current)
        current, started = Entry(), False

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            close()
            continue
        if line.startswith("#,"):
            current.fuzzy = current.fuzzy or "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if line.startswith('"'):
            text = ast.literal_eval(line)
        else:
            text = ast.literal_eval(rest) if rest.startswith('"') else ""
            if keyword == "msgctxt" or (keyword == "msgid" and started and current.id):
                close()
            started = True
            current.obsolete = current.obsolete or obsolete
            if keyword == "msgctxt":
                current.context, target = "", ("context", 0)
            elif keyword == "msgid":
                target = ("id", 0)
            elif keyword == "msgid_plural":
                current.plural, target = "", ("plural", 0)
            elif keyword.startswith("msgstr"):
                index = int(keyword[7:-1]) if "[" in keyword else 0
                current.strings.append("")
                target = ("str", index)
        if target is None:
            continue
        name, index = target
        if name == "context":
            current.context = (current.context or "") + text
        elif name == "id":
            current.id += text
        elif name == "plural":
            current.plural = (current.plural or "") + text
        else:
            current.strings[-1] += text
    close()
    return entries


def test_the_reader_reads_what_it_is_given(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "header"\n\n'
        '#, fuzzy\nmsgid "a"\nmsgstr "b"\n\n'
        'msgctxt "handful"\nmsgid "none"\nmsgstr ""\n"aucune"\n\n'
        'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "un"\nmsgstr[1] ""\n\n'
        '#~ msgid "gone"\n#~ msgstr "parti"\n',
        encoding="utf-8",
    )
    entries = {e.key: e for e in read_po(po)}
    assert entries[(None, "a", None)].fuzzy
    assert entries[("handful", "none", None)].strings == ["aucune"]
    assert entries[(None, "one", "many")].strings == ["un", ""]
    assert entries[(None, "gone", None)].obsolete


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="GNU gettext is not installed")
def test_makemessages_would_leave_the_french_catalogue_unchanged(tmp_path: Path) -> None:
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, tmp_path / name)
    # The same command as ``make messages``, on the copy: the committed file stays as it is.
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--ignore=tests/*"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        # The site's own settings (the copy has no tests/), debug as `make messages` asks.
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tarot_scores.settings", "DJANGO_DEBUG": "1"},
    )
    committed = read_po(ROOT / PO)
    made = read_po(tmp_path / PO)

    live = {e.key for e in committed if not e.obsolete}
    extracted = {e.key for e in made if not e.obsolete}
    assert sorted(extracted - live, key=str) == [], "in the sources, missing from django.po"
    assert sorted(e.key for e in made if e.obsolete and e.key in live) == [], (
        "in django.po, no longer in the sources"
    )
    assert [e.key for e in committed if e.obsolete] == [], "obsolete entries left in django.po"
    assert [e.key for e in committed if e.fuzzy] == [], "fuzzy entries in django.po"
    assert [e.key for e in committed if not all(e.strings)] == [], "untranslated entries"
    # One apostrophe in French: the straight one, as typed on every keyboard.
    assert [e.key for e in committed if any("\u2019" in t for t in e.strings)] == []
    keys = [e.key for e in committed]
    assert len(keys) == len(set(keys)), "an entry twice in django.po"
