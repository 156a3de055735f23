"""Season statistics: a few running totals per club, season, game kind, table size and player."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.kinds import TAROT
from tarot_scores.games.models import Deal, Game


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


class PlayerRating(models.Model):
    """A player's current rating in one scope: a club, or the federation (``club`` null: every
    club's deals together).

    Kept in step by the deal services (``stats.services.ratings_after_deal``) and rebuildable
    (``manage.py rebuild_ratings``), so a ranking reads one row per player without replaying
    deals.
    """

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    deals = models.PositiveIntegerField(default=0)
    # The place in play order of the player's last rated deal in this scope: a new deal played
    # after it by everyone at the table is rated on top of these rows, with nothing to replay.
    last_played_on = models.DateField()
    last_game = models.PositiveIntegerField()
    last_number = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player"],
                condition=Q(club__isnull=False),
                name="one_club_rating",
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(club__isnull=True), name="one_federation_rating"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.club_id or 'federation'}"


class RatingStep(models.Model):
    """A player's rating just after one rated deal, in one scope (``club`` null: federation).

    The log serves two reads: a season's ranking (each player's step after his last deal of
    the season), and a recomputation after a correction (the ratings as they stood before the
    changed deal). ``played_on``, ``game`` and ``number`` copy the deal's place in play
    order, so both reads sort and compare without joining the games.
    """

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # No database constraint on the game and the deal: checking one locks the row it names
    # (FOR KEY SHARE), and a replay of the federation writes steps for other clubs' games while
    # their own deal transactions hold those rows, waiting for the replay: a deadlock. The log
    # is derived data; Django still deletes a game's or a deal's steps with it.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    season = models.PositiveSmallIntegerField()
    played_on = models.DateField()
    number = models.PositiveIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    deals = models.PositiveIntegerField()  # the player's rated deals in this scope so far

    class Meta:
        indexes = [
            models.Index(fields=["club", "played_on", "game", "number"], name="rating_step_order"),
            models.Index(fields=["club", "season", "player"], name="rating_step_season"),
            models.Index(fields=["player", "club"], name="rating_step_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.deal_id}"


class RatingsBehind(models.Model):
    """A deal that the ratings of one scope (a club, or the federation: ``club`` null) do not
    include yet: entered, corrected, deleted or restored, waiting for the ratings' job
    (``stats.services.ratings_catch_up``). A deal's save only adds these rows (no row every
    table shares is locked); the job rates a new deal on top of the ratings, or replays the
    scope once from the earliest place it finds, then deletes the rows it read. While any is
    left the scope's rating pages say the ratings are being updated, since the oldest."""

    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # No database constraint on the deal: the job reads and deletes these rows while deal
    # transactions hold the deal rows (see RatingStep).
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="+", db_constraint=False)
    played_on = models.DateField()
    game_id_at = models.PositiveIntegerField()  # the game's id: the place in play order
    number = models.PositiveIntegerField()
    # A deal just entered (it may be rated on top of the ratings); else a change to replay.
    new = models.BooleanField()
    since = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            models.Index(fields=["club", "played_on", "game_id_at", "number"], name="behind_order"),
        ]

    def __str__(self) -> str:
        return f"{self.deal_id} @ {self.club_id or 'federation'}"

    @property
    def place(self) -> tuple[datetime.date, int, int]:
        return (self.played_on, self.game_id_at, self.number)


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
