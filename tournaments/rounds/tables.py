"""A round's tables: the club games a round's seating creates, and their labels."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tarot_scores.games.models import Game


def table_label(name: str, number: int, table: int) -> str:
    """A table's game label: the tournament's name, the round and the table. A tournament's name
    may be longer than a game's label can hold: the name is cut (with an ellipsis) so that the
    round and table, which tell the games apart, are always whole."""
    limit = Game._meta.get_field("label").max_length or 80

    def label(t: str) -> str:
        return _("%(t)s, round %(r)s, table %(n)s") % {"t": t, "r": number, "n": table}

    full = label(name)
    if len(full) <= limit:
        return full
    keep = max(0, len(name) - (len(full) - limit) - 1)
    return label(name[:keep].rstrip() + "…")[:limit]
