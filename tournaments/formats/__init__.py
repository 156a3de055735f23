"""Formats: what differs between a tournament in rounds, a knockout and a duplicate session.

``format_for(tournament)`` answers the tournament's ``Format`` (``base.py``: who plays round N,
how they sit, is it over, what a table plays, and which pages and rules it has): the only place
that tells the formats apart. ``duplicate.py`` also holds the duplicate session's own rules (its
limits, the movement, the boards a table plays)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.formats.base import Format, SeatedTable, TablePlan
from tournaments.formats.duplicate import DuplicateFormat
from tournaments.formats.rounds import KnockoutFormat, RoundsFormat
from tournaments.models import Tournament

FORMATS: dict[str, Format] = {
    Tournament.Format.ROUNDS: RoundsFormat(),
    Tournament.Format.KNOCKOUT: KnockoutFormat(),
    Tournament.Format.DUPLICATE: DuplicateFormat(),
}


def format_named(value: str) -> Format:
    """The format of this name (``Tournament.Format``'s values)."""
    return FORMATS[value]


def format_for(tournament: Tournament) -> Format:
    """The tournament's format."""
    return FORMATS[tournament.format]


def round_name(tournament: Tournament, number: int) -> str:
    """ "Round 2", or "Stage 2" in a knockout."""
    if format_for(tournament).has_bracket:
        return _("Stage %(n)s") % {"n": number}
    return _("Round %(n)s") % {"n": number}


__all__ = ["Format", "SeatedTable", "TablePlan", "format_for", "format_named", "round_name"]
