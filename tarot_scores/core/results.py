"""The version every results page (leaderboard, standings, projector) is cached under."""

from __future__ import annotations

from django.db.models import F

from tarot_scores.clubs.models import Club


def results_changed(*, club_id: int) -> None:
    """Something the club's results pages show has changed (a deal, a round, a registration):
    bump the version they are cached under, in the caller's transaction."""
    Club.objects.filter(pk=club_id).update(stats_version=F("stats_version") + 1)
