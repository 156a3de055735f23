"""The words a person reads for a tournament's things: a duplicate table's directions and the
movement in a sentence, shared by the pages, the table link and the printed sheets."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.duplicate.movement import Direction


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
