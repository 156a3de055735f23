"""A list of players pasted in one go: one player a line, the name alone or CSV columns
``name, nickname, licence`` (comma, semicolon or tab between them, as a spreadsheet copies them).

Pure reading: each line becomes a player to add, or a problem that names its line (no name, too
many columns, a field too long, a control character, the same label as an earlier line). A line
whose name or label reads like an earlier line's once accents, case and punctuation are set
aside ("Zoe Lefevre" after "Zoé Lefèvre, Zozo") is added all the same, since two people may
share a name, but the preview notes it ("looks like line 1"), so that a person typed twice is
seen before the list is added. Whether
a label is already one of the club's players is the service's question
(``clubs.services.players_paste_check``), which reads the club once. Nothing here touches the
database.
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from django.utils.translation import gettext as _

from tarot_scores.core.names import name_refusal

T = TypeVar("T")
NAME_MAX = 60  # Player.name and Player.nickname
LICENCE_MAX = 20  # Player.licence
LINES_MAX = 300
# A first line naming the columns is skipped, in either language.
_HEADERS = {
    ("name",),
    ("name", "nickname"),
    ("name", "nickname", "licence"),
    ("name", "nickname", "license"),
    ("nom",),
    ("nom", "surnom"),
    ("nom", "surnom", "licence"),
}


@dataclass(frozen=True)
class PastedPlayer:
    line: int
    name: str
    nickname: str = ""
    licence: str = ""

    @property
    def label(self) -> str:
        return self.nickname or self.name


@dataclass(frozen=True)
class LineProblem:
    line: int
    text: str
    message: str


@dataclass
class Roster:
    """What a paste would add (``players``) and why some lines cannot be (``problems``)."""

    players: list[PastedPlayer] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    too_long: bool = False
    # Line -> a note that the line looks like an earlier one or a player of the club: said in
    # the preview, not a refusal.
    notes: dict[int, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return bool(self.players) and not self.problems and not self.too_long

    @property
    def rows(self) -> list[tuple[PastedPlayer, str]]:
        """Each player to add with the note on his line ("" for none)."""
        return [(player, self.notes.get(player.line, "")) for player in self.players]


def folded(text: str) -> str:
    """A name as a reader glancing at a list compares it: accents, case, punctuation and runs
    of spaces set aside ("Zoé  Lefèvre" and "zoe lefevre" fold alike)."""
    bare = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )
    return " ".join("".join(ch if ch.isalnum() else " " for ch in bare.casefold()).split())


class Lookalikes(Generic[T]):
    """People (lines, players) by their folded label and name, to find the first one a new
    name looks like: the same label (accents, case aside), or the same name where one of the
    two has no nickname to tell them apart ("Zoé Lefèvre" and "Zoé Lefèvre, Zozo"; two
    "Bruno" each with his own nickname are two people)."""

    def __init__(self) -> None:
        self._labels: dict[str, T] = {}
        self._names: dict[str, list[tuple[bool, T]]] = {}

    def add(self, name: str, nickname: str, who: T) -> None:
        self._labels.setdefault(folded(nickname or name), who)
        self._names.setdefault(folded(name), []).append((bool(nickname), who))

    def like(self, name: str, nickname: str) -> T | None:
        found = self._labels.get(folded(nickname or name))
        if found is not None:
            return found
        for nicknamed, who in self._names.get(folded(name), []):
            if not (nicknamed and nickname):
                return who
        return None


def looks_like_line(earlier: PastedPlayer) -> str:
    return _("Looks like line %(line)d (%(name)s): the same person twice?") % {
        "line": earlier.line,
        "name": written(earlier.name, earlier.nickname),
    }


def looks_like_player(name: str, nickname: str) -> str:
    return _("Looks like %(name)s, already a player of the club: the same person?") % {
        "name": written(name, nickname)
    }


def written(name: str, nickname: str) -> str:
    """A player as a line of the list writes him: "Zoé Lefèvre, Zozo"."""
    return f"{name}, {nickname}" if nickname else name


def _columns(line: str) -> list[str]:
    for separator in ("\t", ";", ","):
        if separator in line:
            return next(csv.reader([line], delimiter=separator, skipinitialspace=True))
    return [line]


def _problem(values: list[str]) -> str | None:
    if len(values) > 3:
        return _("Too many columns: name, nickname and licence at most.")
    name = values[0] if values else ""
    if not name:
        return _("The name is missing.")
    for value in values[:2]:
        if refusal := name_refusal(value):
            return refusal
        if len(value) > NAME_MAX:
            return _("A name or nickname has at most %(max)d characters.") % {"max": NAME_MAX}
    if len(values) == 3 and len(values[2]) > LICENCE_MAX:
        return _("A licence number has at most %(max)d characters.") % {"max": LICENCE_MAX}
    return None


def roster_read(text: str) -> Roster:
    """Read a pasted list (see the module's docstring); blank lines are skipped."""
    roster = Roster()
    lines = str(text or "").splitlines()
    numbered = [(n, line.strip()) for n, line in enumerate(lines, start=1) if line.strip()]
    if len(numbered) > LINES_MAX:
        roster.too_long = True
        return roster
    seen: dict[str, int] = {}
    alike: Lookalikes[PastedPlayer] = Lookalikes()
    for index, (number, line) in enumerate(numbered):
        # Runs of spaces (and tabs left inside a quoted column) become one space.
        values = [" ".join(part.split()) for part in _columns(line)]
        while len(values) > 1 and not values[-1]:
            values.pop()  # "Aurélie,," : empty trailing columns say nothing
        if index == 0 and tuple(v.casefold() for v in values) in _HEADERS:
            continue
        message = _problem(values)
        if message is not None:
            roster.problems.append(LineProblem(number, line, message))
            continue
        player = PastedPlayer(number, *values)
        label_key = player.label.casefold()
        if label_key in seen:
            roster.problems.append(
                LineProblem(
                    number,
                    line,
                    _("Same name as line %(line)d: add a nickname to tell them apart.")
                    % {"line": seen[label_key]},
                )
            )
            continue
        seen[label_key] = number
        earlier = alike.like(player.name, player.nickname)
        if earlier is not None:
            roster.notes[number] = looks_like_line(earlier)
        alike.add(player.name, player.nickname, player)
        roster.players.append(player)
    return roster
