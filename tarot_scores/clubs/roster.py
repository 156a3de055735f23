"""A list of players pasted in one go: one player a line, the name alone or CSV columns
``name, nickname, licence`` (comma, semicolon or tab between them, as a spreadsheet copies them).

Pure reading: each line becomes a player to add, or a problem that names its line (no name, too
many columns, a field too long, a control character, the same label as an earlier line). Whether
a label is already one of the club's players is the service's question
(``clubs.services.players_paste_check``), which reads the club once. Nothing here touches the
database.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tarot_scores.core.names import name_refusal

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

    @property
    def ok(self) -> bool:
        return bool(self.players) and not self.problems and not self.too_long


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
        folded = player.label.casefold()
        if folded in seen:
            roster.problems.append(
                LineProblem(
                    number,
                    line,
                    _("Same name as line %(line)d: add a nickname to tell them apart.")
                    % {"line": seen[folded]},
                )
            )
            continue
        seen[folded] = number
        roster.players.append(player)
    return roster
