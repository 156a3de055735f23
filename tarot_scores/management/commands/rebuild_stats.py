"""Recompute the leaderboard statistics from the score lines."""

from typing import Any

from tarot_scores.management.base import ClubCommand
from tarot_scores.stats import services


class Command(ClubCommand):
    help = "Rebuild the per-season statistics from the score lines (all clubs, or --club)."

    def handle(self, *args: Any, **options: Any) -> None:
        rows = services.stats_rebuild(club=self.club_from(options))
        self.stdout.write(f"{rows} statistics rows written.")
