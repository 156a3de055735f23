"""Clubs, their members (accounts with a role), their players, the invitations an organiser
sends (to join the club, or to play as one of its players) and their house rules.

A player belongs to one club, his own (``Player.club``): only that club's organisers may propose
to link an account to him. ``Player.clubs`` lists where he plays (his own club, and the clubs
whose tournaments registered him as a guest): a guest entry gives the host club no right over
him, his account or his own club's games."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tarot_scores import scoring
from tarot_scores.core.kinds import TAROT, VARIANT_LABELS
from tarot_scores.core.names import look_alike_key


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True)
    # ``look_alike_key(name)``, kept by ``save()``: no two clubs of the site have names that
    # look the same ("Audit Alpha", "Аudit Alpha" with a Cyrillic А), whatever two requests do.
    name_key = models.CharField(max_length=400, blank=True, default="", editable=False)
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
    # The games besides tarot the club plays (novatarok, buraco): only these are offered for a
    # new game. A new club plays tarot alone until an organiser adds one.
    other_games = models.JSONField(_("other games played"), default=list, blank=True)
    # Bumped in the same transaction by every write that changes a results page (a deal, a
    # tournament round, a registration): those pages (leaderboard, tournament standings and
    # projector) are cached under it, so no worker ever serves a stale one.
    stats_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(
                fields=["name_key"],
                condition=~models.Q(name_key=""),
                name="club_names_look_different",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = look_alike_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    def offers(self, kind: str) -> bool:
        """Whether a new game of this kind (tarot, novatarok, buraco) may be started here."""
        return kind == TAROT or kind in self.other_games

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


def label_key(name: str, nickname: str) -> str:
    """A player's label (nickname, or name) folded the way the site compares labels: two
    labels that look the same share it (``look_alike_key``: case folded, confusable letters
    of other scripts and invisible characters folded; accents kept: Chloé and Chloe are two
    people). What the database keeps unique among a club's own players."""
    return look_alike_key(nickname.strip() or name.strip())


class Player(models.Model):
    name = models.CharField(_("name"), max_length=60)
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    # ``label_key(name, nickname)``, kept by ``save()`` (and by any ``update()`` of the names):
    # the unique constraint below closes the race of one name registered twice at once.
    label_key = models.CharField(max_length=400, blank=True, default="", editable=False)
    licence = models.CharField(_("FFT licence number"), max_length=20, blank=True)
    # The player's own club: the one that created him (null only if that club was deleted).
    # Linking an account to him is for its organisers alone, and for the account's holder.
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="own_players",
        verbose_name=_("own club"),
    )
    # Where he plays: his own club and the clubs whose tournaments registered him as a guest.
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
        constraints = [
            models.UniqueConstraint(
                fields=["club", "label_key"],
                condition=~models.Q(label_key=""),
                name="player_label_unique_in_club",
            )
        ]

    def __str__(self) -> str:
        return self.label

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.label_key = label_key(self.name, self.nickname)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"name", "nickname"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "label_key"}
        super().save(*args, **kwargs)

    @property
    def label(self) -> str:
        return self.nickname or self.name

    @property
    def name_aside(self) -> str:
        """The name, to print beside the label when it says more: empty when the label is the
        name already (no nickname, or a nickname that is the name), never "Aurélie (Aurélie)"."""
        if not self.nickname or self.nickname.strip().casefold() == self.name.strip().casefold():
            return ""
        return self.name


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """An organiser's proposal that an account holder accepts while signed in: to become a
    member of the club with ``role``, to play as ``player`` (one of the club's own players), or
    both. It goes by e-mail to the holder (``email``); ``user`` is the account it is for, or
    None for someone without an account yet, who makes one when accepting. Nothing changes
    until the holder accepts."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
    )
    email = models.EmailField(_("e-mail address"), blank=True)
    # Empty for an invitation to play as a player only (someone already a member).
    role = models.CharField(
        _("role"), max_length=16, choices=Membership.Role.choices, blank=True, default=""
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.club}: {self.user or self.email} ({self.status})"

    @property
    def expires_at(self) -> Any:
        """An invitation not answered within ``INVITATION_DAYS`` (14 by default) expires: a
        link forgotten in a mailbox does not let someone in months later."""
        return self.created_at + timedelta(days=settings.INVITATION_DAYS)

    @property
    def is_expired(self) -> bool:
        return self.status == self.Status.PENDING and timezone.now() >= self.expires_at

    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING and not self.is_expired


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

    def rule_set(self) -> scoring.RuleSet:
        """The rule set (``scoring.RuleSet``): the preset with this club's changes."""
        base = scoring.PRESETS[self.based_on]
        return scoring.RuleSet.from_mapping({**self.parameters, "name": self.name}, based_on=base)
