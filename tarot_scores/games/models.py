"""Games (parties), their seats, deals (donnes), score lines and the deals' revisions.

A game is a run of deals at one table, in seat order; a tournament table is a game too,
so nothing here is specific to club evenings. Each deal keeps its input exactly as the
scoring contract takes it (players named by id) plus one score line per player; totals
are sums of score lines. Every change to a deal is kept as a revision."""

from __future__ import annotations

from enum import StrEnum

from django.conf import settings
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.kinds import TAROT, game_kind


class Game(models.Model):
    """A game (partie): the deals played at one table, players in seat order."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        # Une partie: "terminée" (a tournament, "terminé", shares the plain word).
        FINISHED = "finished", pgettext_lazy("game", "finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="games")
    date = models.DateField(_("date"), default=timezone.localdate)
    label = models.CharField(_("label"), max_length=80, blank=True)
    # "fft", "classic", "novatarok", "buraco", or "house" with house_rules set.
    variant = models.CharField(_("rules"), max_length=20, default="fft")
    house_rules = models.ForeignKey(
        HouseRules, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    # The tarot rule set as it stood when the game began: later edits don't rescore it.
    rules = models.JSONField(_("rule set"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    # A game of a set length (a tournament round's table): no deal beyond this many.
    max_deals = models.PositiveSmallIntegerField(_("number of deals"), null=True, blank=True)
    players = models.ManyToManyField(Player, through="Seat", related_name="games")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Where the game's latest change stands in the change feed (core.feed): stamped by
    # ``games.services`` (a game started, finished, reopened, its seats changed).
    feed_xact = models.BigIntegerField(default=0, editable=False)
    feed_seq = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [
            models.Index(fields=["club", "date"]),
            models.Index(fields=["feed_xact", "feed_seq", "id"], name="game_feed"),
            models.Index(fields=["club", "feed_xact", "feed_seq", "id"], name="game_club_feed"),
        ]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.label or f"{self.club} {self.date}"

    @property
    def title(self) -> str:
        """What the pages call the game: its label, else "Game of 2 December 2026", and the
        day's second game of the club "(2)". The place in the day (``day_number``) is
        annotated by ``games.selectors.with_day_number``: a game read without it has no
        title but its label."""
        if self.label:
            return self.label
        number = self.__dict__.get("day_number")
        if number is None:
            # Loud, not silent: a template would print an empty title for an AttributeError.
            raise RuntimeError("Game.title needs games.selectors.with_day_number")
        day = formats.date_format(self.date, "DATE_FORMAT")
        if number <= 1:
            return gettext("Game of %(date)s") % {"date": day}
        return gettext("Game of %(date)s (%(number)s)") % {"date": day, "number": number}

    @property
    def kind(self) -> str:
        """tarot, novatarok or buraco."""
        return game_kind(self.variant)

    def rule_set(self) -> scoring.RuleSet | None:
        if self.kind != TAROT:
            return None
        return scoring.RuleSet.from_mapping(self.rules, based_on=scoring.FFT)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.position + 1}"


class Deal(models.Model):
    """One deal (donne) as entered. ``payload`` is the scoring contract, players by id."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField(_("number"))
    dealer = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    payload = models.JSONField(_("input"))
    version = models.PositiveIntegerField(default=1)
    # Columns statistics filter on, copied from the payload.
    taker = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="deals_taken"
    )
    contract = models.CharField(max_length=20, blank=True)
    won = models.BooleanField(null=True)
    margin = models.IntegerField(null=True)  # points over (or under, negative) the contract
    deleted_at = models.DateTimeField(null=True, blank=True)
    # False while the deal is held out of the counts (``games.services.deal_hold``): a
    # tournament table's deal contested by the other side, until a referee settles it. It
    # stands on its sheet, but counts nowhere: not in the sheet's totals, the club's statistics
    # and ratings, nor as counted in the API. A yes or no, not a date: whether it counts is
    # what every count asks, and the dispute's dates are kept by the tournament's confirmation.
    counted = models.BooleanField(
        _("counted"),
        default=True,
        help_text=_(
            "Off while the deal is held out of the counts: contested at a tournament's table, "
            "until a referee settles it."
        ),
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Made by the phone that entered the deal (a UUID), so that the same request sent again (a
    # lost answer, a queue sent after the network came back) finds this deal instead of storing
    # a second one. Unique across games: a UUID names one deal, whatever game it is sent to.
    # A duplicate tournament's board (étui) this deal was played from; none elsewhere. A game
    # (a table of a round) has one live deal a board.
    board = models.PositiveSmallIntegerField(_("board"), null=True, blank=True)
    client_id = models.UUIDField(_("client id"), null=True, blank=True, editable=False)
    # Where the deal's latest change (entered, corrected, deleted, restored) stands in the
    # change feed (core.feed): stamped by ``games.services`` in the change's transaction.
    feed_xact = models.BigIntegerField(default=0, editable=False)
    feed_seq = models.BigIntegerField(default=0, editable=False)

    class Meta:
        # A number freed by an undo or a deletion is taken again by the next deal: the struck
        # deal keeps it in the history, sorted before the live one.
        ordering = ["game", "number", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=models.Q(deleted_at__isnull=True),
                name="one_live_deal_per_number",
            ),
            models.UniqueConstraint(fields=["client_id"], name="one_deal_per_client_id"),
            models.UniqueConstraint(
                fields=["game", "board"],
                condition=models.Q(board__isnull=False, deleted_at__isnull=True),
                name="one_live_deal_per_board",
            ),
        ]
        indexes = [
            models.Index(fields=["feed_xact", "feed_seq", "id"], name="deal_feed"),
            models.Index(fields=["game", "feed_xact", "feed_seq", "id"], name="deal_game_feed"),
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return f"{self.game} #{self.number}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def counts(self) -> bool:
        """Whether its scores count now: live, and not held out of the counts."""
        return self.counted and not self.is_deleted


def counting(path: str = "") -> models.Q:
    """The deals that count (live, and not held out of the counts: ``Deal.counted``), as a
    condition on the deals themselves or, with ``path``, on rows reaching them
    (``counting("deal")`` for score lines): the one condition every club count reads with."""
    at = f"{path}__" if path else ""
    return models.Q(**{f"{at}deleted_at__isnull": True, f"{at}counted": True})


class Counting(StrEnum):
    """What a hold did to a deal (``games.services.deal_hold``), told to the deal hooks beside
    the revisions' actions: not a revision (the deal itself is the same), a change in whether
    it counts."""

    HELD = "held"  # taken out of every count
    RELEASED = "released"  # counted again


class ScoreLine(models.Model):
    """A player's integer points for one live deal. Totals are sums of these."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="score_lines")
    points = models.IntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="one_line_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.deal}: {self.points}"


class DealRevision(models.Model):
    """Who changed a deal, what it became, and when: nothing entered is ever lost."""

    class Action(models.TextChoices):
        CREATED = "created", _("entered")
        EDITED = "edited", _("corrected")
        DELETED = "deleted", _("deleted")
        RESTORED = "restored", _("restored")

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="revisions")
    version = models.PositiveIntegerField()
    action = models.CharField(max_length=10, choices=Action.choices)
    payload = models.JSONField()
    scores = models.JSONField(default=dict)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    by_label = models.CharField(max_length=80, blank=True)  # e.g. a tournament table's link
    # Why the change was made, where one is required (a tournament table after its round
    # closed: the referee's written reason).
    reason = models.TextField(_("reason"), blank=True, default="")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deal", "version", "id"]

    def __str__(self) -> str:
        return f"{self.deal} v{self.version} {self.action}"

    @property
    def author(self) -> str:
        return str(self.by) if self.by else self.by_label


# What the deal hooks (``games.services.deal_changed``) are told a deal's change was: a
# revision's action, or a hold taken or released (``Counting``).
DealChange = DealRevision.Action | Counting
