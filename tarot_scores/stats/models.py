"""Season statistics: a few running totals per club, season, game kind, table size and player."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.kinds import TAROT
from tarot_scores.games.models import Game


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


# --- playerpage ---


class PlayerFigures(models.Model):
    """A player's tarot figures at a club, every season together: what his page shows under
    "Statistics", as running totals (``stats.figures`` says what a deal adds).

    Kept up to date by the deal services in the deal's transaction (``stats_apply``) and
    rebuilt with the season statistics (``manage.py rebuild_stats``), so the page reads one
    row whatever the deals he played. Averages are a sum over a count."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    points = models.BigIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    taker_deals = models.PositiveIntegerField(default=0)
    taker_points = models.BigIntegerField(default=0)
    defender_deals = models.PositiveIntegerField(default=0)
    defender_points = models.BigIntegerField(default=0)
    partner_deals = models.PositiveIntegerField(default=0)
    partner_won = models.PositiveIntegerField(default=0)
    partner_points = models.BigIntegerField(default=0)
    petit_made = models.PositiveIntegerField(default=0)
    petit_lost = models.PositiveIntegerField(default=0)
    handfuls_simple = models.PositiveIntegerField(default=0)
    handfuls_double = models.PositiveIntegerField(default=0)
    handfuls_triple = models.PositiveIntegerField(default=0)
    slams_made = models.PositiveIntegerField(default=0)
    slams_failed = models.PositiveIntegerField(default=0)
    slams_against = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_figures_row"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.club_id}"


class PlayerContract(models.Model):
    """The deals a player took at a club with one contract: how many, won, and his score."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    contract = models.CharField(max_length=20)
    taken = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    points = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player", "contract"], name="one_contract_row"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.contract} @ {self.club_id}"


class PlayerPairing(models.Model):
    """A player's deals at a club beside another player: in the same attack (together) or in
    the other camp (against), with the player's score in them. One row per pair and club,
    each way: the partners and head-to-head read the player's rows only."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    together_deals = models.PositiveIntegerField(default=0)
    together_points = models.BigIntegerField(default=0)
    against_deals = models.PositiveIntegerField(default=0)
    against_points = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player", "other"], name="one_pairing_row"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} and {self.other_id} @ {self.club_id}"


class PlayerGameTotal(models.Model):
    """A player's total and score lines in one game (any game kind), live deals only: the
    page's list of his latest games and his score curve read these rows, newest first with
    a limit, by the ``(club, player, played_on, game)`` index."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    played_on = models.DateField()  # the game's date, to sort without joining the games
    kind = models.CharField(max_length=12, default=TAROT)
    total = models.BigIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)  # his score lines in the game's live deals

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_game_total"),
        ]
        indexes = [
            models.Index(fields=["club", "player", "played_on", "game"], name="game_total_latest"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}"
