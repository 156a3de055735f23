"""Recompute the player ratings by replaying the tarot deals in play order."""

from typing import Any

from tarot_scores.management.base import ClubCommand
from tarot_scores.ratings import services


class Command(ClubCommand):
    help = (
        "Rebuild the player ratings from the deals (every club and the federation, or only --club)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        deals = services.ratings_rebuild(club=self.club_from(options))
        self.stdout.write(f"{deals} deals rated.")
