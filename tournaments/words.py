"""The words a person reads for a tournament's things: a duplicate table's directions, the
movement and the seating's fairness in a sentence, shared by the pages, the table link and the
printed sheets."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.duplicate.movement import Direction
from tournaments.seating.fairness import Quality


def direction_name(direction: Direction) -> str:
    names = {
        Direction.NORTH: _("North"),
        Direction.EAST: _("East"),
        Direction.SOUTH: _("South"),
        Direction.WEST: _("West"),
    }
    return names[direction]


def movement_rule(strides: Sequence[int]) -> str:
    """The movement in a sentence, as the page and the movement sheet print it: "Each player
    keeps his direction. Each round the boards go one table down; North stays, East moves 1
    table up, South 2 tables up, West 3 tables up." (``strides``: North, East, South, West)."""
    if not any(strides):
        return _(
            "Each player keeps his direction and his table. Each round the boards go one table "
            "down."
        )
    moves = []
    for direction, stride in zip(Direction, strides, strict=True):
        if stride:
            move = ngettext("moves %(n)s table up", "moves %(n)s tables up", stride) % {"n": stride}
        else:
            move = _("stays")
        moves.append(f"{direction_name(direction)} {move}")
    return _(
        "Each player keeps his direction. Each round the boards go one table down; %(moves)s."
    ) % {"moves": ", ".join(moves)}


def _times(count: int) -> str:
    """How many times a pair meets, in words: "twice", "three times"..."""
    words = {2: _("twice"), 3: _("three times"), 4: _("four times"), 5: _("five times")}
    return words.get(count) or _("%(n)s times") % {"n": count}


def seating_quality(quality: Quality) -> str:
    """The fairness of the rounds seated so far in a sentence, as the round page and the
    seating list print it: "No pair meets twice.", or "4 pairs meet twice, none three times;
    no schedule of these rounds can do better than 3." (``seating.fairness``)."""
    meetings, floor = quality.meetings, quality.floor
    if meetings.most <= 1:
        return _("No pair meets twice.")
    said = ngettext(
        "%(n)s pair meets %(times)s, none %(more)s",
        "%(n)s pairs meet %(times)s, none %(more)s",
        meetings.at_most,
    ) % {
        "n": meetings.at_most,
        "times": _times(meetings.most),
        "more": _times(meetings.most + 1),
    }
    if quality.best_possible:
        bound = _("no schedule of these rounds can do better.")
    elif floor.most == meetings.most:
        bound = _("no schedule of these rounds can do better than %(n)s.") % {"n": floor.at_most}
    elif floor.most >= 2:
        bound = ngettext(
            "no schedule of these rounds can do better than %(n)s pair meeting %(times)s.",
            "no schedule of these rounds can do better than %(n)s pairs meeting %(times)s.",
            floor.at_most,
        ) % {"n": floor.at_most, "times": _times(floor.most)}
    else:
        bound = _("no count proves that a schedule of these rounds must repeat a meeting.")
    return _("%(meetings)s; %(bound)s") % {"meetings": said, "bound": bound}
