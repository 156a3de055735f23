"""Season statistics: a few running totals per club, season, game kind, table size and player."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games.kinds import TAROT


class PlayerSeason(models.Model):
    """Running statistics per club, season, game kind, table size and player.

    Kept up to date by the deal services in the same transaction, and rebuildable from score
    lines (``manage.py rebuild_stats``), so the leaderboard reads a few rows per player
    whatever the number of deals ever played.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, default=TAROT)
    table_size = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.BigIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    taken = models.PositiveIntegerField(default=0)
    taken_won = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "season", "kind", "table_size", "player"],
                name="one_stats_row",
            ),
            models.CheckConstraint(
                condition=Q(taken_won__lte=models.F("taken")), name="won_le_taken"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.season} {self.kind}/{self.table_size}"
