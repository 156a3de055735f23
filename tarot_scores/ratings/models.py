"""The stored ratings: each player's current rating per scope (a club, or the federation),
the log of his rating after each rated deal, and the deals the ratings do not include yet."""

from __future__ import annotations

import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games.models import Deal, Game


class PlayerRating(models.Model):
    """A player's current rating in one scope: a club, or the federation (``club`` null: every
    club's deals together).

    Kept in step by the deal services (``ratings.services.ratings_after_deal``) and rebuildable
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
    (``ratings.jobs.ratings_catch_up``). A deal's save only adds these rows (no row every
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


class RatingsJobWaiting(models.Model):
    """A club's ratings job is waiting in the queue: one row per club at most (the unique
    key), so a burst of deals asks for one job, not one each. A deal's save adds the row if
    none is there and asks for the job only then (``ratings.waiting``); the job deletes it as
    it starts, so a deal saved while it runs asks for the next one."""

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="+")
    asked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"ratings job waiting @ {self.club_id}"
