"""The tournament's refusals."""

from __future__ import annotations


class TournamentError(Exception):
    """An organiser's request that cannot be carried out; the message says why."""
