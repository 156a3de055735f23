"""The club domain: clubs and their members, players, house rules, games (parties) and deals.

A game is a run of deals at one table, in seat order; a tournament table is a game too, so
nothing here is specific to club evenings. Each deal keeps its input exactly as the scoring
contract takes it (players named by id) plus one score line per player; totals are sums of
score lines. Every change to a deal is kept as a revision.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarot_scores import scoring


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    public = models.BooleanField(
        _("public results"),
        default=True,
        help_text=_("Anyone may read the club's games and leaderboard."),
    )
    season_start_month = models.PositiveSmallIntegerField(
        _("season starts in month"),
        default=9,
        help_text=_("1 to 12; a season runs for twelve months from the first of this month."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    # Bumped in the same transaction by every write that changes a results page (a deal, a
    # tournament round, a registration): those pages (leaderboard, tournament standings and
    # projector) are cached under it, so no worker ever serves a stale one.
    stats_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def season_of(self, day: Any) -> int:
        """The year a season starts in: with September seasons, 2026-03-01 is in 2025."""
        return int(day.year if day.month >= self.season_start_month else day.year - 1)


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_role_per_club")]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"


class Player(models.Model):
    name = models.CharField(_("name"), max_length=60)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    licence = models.CharField(_("FFT licence number"), max_length=20, blank=True)
    clubs = models.ManyToManyField(Club, related_name="players", verbose_name=_("clubs"))
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        verbose_name=_("account"),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        return self.nickname or self.name


# How players name the rules a game or tournament is played by.
VARIANT_LABELS = {
    "fft": _("FFT (official rules)"),
    "classic": _("Classic rules"),
    "novatarok": _("Novatarok"),
    "buraco": _("Buraco"),
}


def variant_label(variant: str, house_name: str | None = None) -> str:
    """The words for a variant; a club's house rules go by their own name."""
    if variant == "house" or house_name:
        return house_name or str(_("house rules"))
    return str(VARIANT_LABELS.get(variant, variant))


class HouseRules(models.Model):
    """A club's own rule set: a preset with some parameters changed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="house_rules")
    name = models.CharField(_("name"), max_length=80)
    based_on = models.CharField(
        _("based on"),
        max_length=20,
        default="fft",
        choices=[(name, VARIANT_LABELS[name]) for name in scoring.PRESETS],
    )
    parameters = models.JSONField(_("parameters"), default=dict, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="house_rules_name_per_club")
        ]
        verbose_name = _("house rules")
        verbose_name_plural = _("house rules")

    def __str__(self) -> str:
        return self.name

    def rules(self) -> scoring.RuleSet:
        base = scoring.PRESETS[self.based_on]
        return scoring.RuleSet.from_mapping({**self.parameters, "name": self.name}, based_on=base)


class Game(models.Model):
    """A game (partie): the deals played at one table, players in seat order."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        FINISHED = "finished", _("finished")

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

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return self.label or f"{self.club} {self.date}"

    @property
    def kind(self) -> str:
        """tarot, novatarok or buraco."""
        return self.variant if self.variant in scoring.OTHER_GAMES else "tarot"

    def rule_set(self) -> scoring.RuleSet | None:
        if self.kind != "tarot":
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
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_deal_per_number")
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return f"{self.game} #{self.number}"

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None


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
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["deal", "version", "id"]

    def __str__(self) -> str:
        return f"{self.deal} v{self.version} {self.action}"

    @property
    def author(self) -> str:
        return str(self.by) if self.by else self.by_label


class PlayerSeason(models.Model):
    """Running statistics per club, season, game kind, table size and player.

    Kept up to date by the deal services in the same transaction, and rebuildable from score
    lines (``manage.py rebuild_stats``), so the leaderboard reads a few rows per player
    whatever the number of deals ever played.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    season = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, default="tarot")
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
