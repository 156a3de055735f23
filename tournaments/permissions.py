"""Who may act on a tournament beyond reading it.

The club's organisers run their tournaments; a tournament's referees (arbitres) are accounts
the organisers name for that one event. Organisers and referees alike may settle what the
tables entered: finish, reopen or correct a table after its round closed, confirm a deal for a
table, and decide a disagreement. Only organisers change the tournament itself (settings,
registration, seating). The pages and the API ask these same questions.
"""

from __future__ import annotations

from typing import Any

from tarot_scores.clubs import permissions
from tournaments.models import Tournament


def is_referee(who: Any, tournament: Tournament) -> bool:
    """Named a referee of this tournament (whatever the account's role in the club)."""
    user = permissions.access_of(who).user
    if user is None or not user.is_authenticated:
        return False
    return tournament.referees.filter(pk=user.pk).exists()


def can_referee(who: Any, tournament: Tournament) -> bool:
    """Settle the tables' results: the club's organisers and the tournament's referees."""
    return permissions.is_organiser(who, tournament.club) or is_referee(who, tournament)
