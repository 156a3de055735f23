"""Tournaments: registration, rounds (séances) of tables, and knockout stages.

Each table of a round is a ``Game`` of the club domain, so deal entry, corrections, history,
score sheets and statistics are the club's own. A table has a private link (a random token)
through which whoever sits there enters that table's deals without an account.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.games.models import Deal, Game
from tarot_scores.webhooks.models import Webhook


def new_token() -> str:
    return secrets.token_urlsafe(18)


PIN_DIGITS = 4


def new_pin() -> str:
    """A player's personal PIN for a tournament: four random digits."""
    return f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"


# What a tournament's settings may be, the same on the page and in the API.
MAX_ROUNDS = 20
MAX_DEALS_PER_ROUND = 40
MIN_ROUND_MINUTES, MAX_ROUND_MINUTES = 5, 600
MAX_SEED = 2**31 - 1
# The longest reasons typed, the same in the forms, the API and the services: a penalty's (given
# or removed) and why two players are kept apart.
PENALTY_REASON_MAX = 500
PENALTY_POINTS_MAX = 10_000
APART_REASON_MAX = 200


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUNDS = "rounds", _("rounds (total of all rounds)")
        KNOCKOUT = "knockout", _("knockout (best of each table go through)")
        DUPLICATE = "duplicate", _("duplicate (the same boards at every table, compared)")

    class DuplicateMethod(models.TextChoices):
        """How a duplicate tournament compares the scores made on a board at one direction
        (tournaments.duplicate.ranking, docs/duplicate.md)."""

        MATCHPOINTS = "matchpoints", _("matchpoints (2 for each player beaten, 1 for a tie)")
        AVERAGE = "average", _("difference from the board's average")

    class Seating(models.TextChoices):
        RANDOM = "random", _("random")
        MIXING = "mixing", _("mixing (fewest repeated meetings)")
        SWISS = "swiss", _("swiss (similar standing together)")
        FIXED = "fixed", _("fixed movement")

    class FiveMode(models.TextChoices):
        SITTING_OUT = "sitting_out", _("tables of 5: the dealer sits out (FFT)")
        CALLED_KING = "called_king", _("tables of 5: called king")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"), default=timezone.localdate)
    variant = models.CharField(_("rules"), max_length=20, default="fft")
    house_rules = models.ForeignKey(
        HouseRules, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    rules = models.JSONField(_("rule set"), default=dict, blank=True)
    format = models.CharField(
        _("format"), max_length=10, choices=Format.choices, default=Format.ROUNDS
    )
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    deals_per_round = models.PositiveSmallIntegerField(_("deals per round"), default=8)
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), default=75)
    seating = models.CharField(
        _("seating"), max_length=10, choices=Seating.choices, default=Seating.MIXING
    )
    five_mode = models.CharField(
        _("tables of 5"), max_length=12, choices=FiveMode.choices, default=FiveMode.SITTING_OUT
    )
    allow_threes = models.BooleanField(_("tables of 3 allowed"), default=False)
    team_size = models.PositiveSmallIntegerField(
        _("team size"), default=0, help_text=_("0 for an individual event, 2 or 4 for teams.")
    )
    # Duplicate: the comparison of the scores on a board; the boards a round are
    # ``deals_per_round`` and the movement has ``rounds`` rounds.
    duplicate_method = models.CharField(
        _("comparison (duplicate)"),
        max_length=12,
        choices=DuplicateMethod.choices,
        default=DuplicateMethod.MATCHPOINTS,
    )
    qualifiers_per_table = models.PositiveSmallIntegerField(
        _("qualifiers per table (knockout)"), default=2
    )
    seed = models.PositiveIntegerField(_("draw seed"), default=0)
    # Deals entered at a table count once a player of the other side (or an organiser or
    # referee) confirms them (tournaments.play.confirmations); set when the tournament is created.
    require_confirmation = models.BooleanField(
        _("deals confirmed by the other side"), default=False
    )

    class ConfirmationProof(models.TextChoices):
        """What proves who confirms a deal at a table (tournaments.play.confirmations)."""

        PHONE = "phone", _("any phone at the table")
        PERSONAL = "personal", _("personal proof (PIN or own account)")

    # With "personal", a player confirming or disputing on a table's link types his entry's
    # PIN (``Entry.pin``), unless he is signed in to the account linked to him.
    confirmation_proof = models.CharField(
        _("proof of who confirms"),
        max_length=10,
        choices=ConfirmationProof.choices,
        default=ConfirmationProof.PHONE,
    )
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.REGISTRATION
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Referees (arbitres): accounts the organisers name for this tournament. With the club's
    # organisers, they alone finish, reopen and correct a table after its round has closed,
    # confirm deals for a table and settle disagreements (tournaments.play.permissions).
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="refereed_tournaments",
        verbose_name=_("referees"),
    )
    # Where the tournament's latest change (created, running, finished) stands in the change
    # feed (core.feed): stamped by ``registration.services.tournament_changed``.
    feed_xact = models.BigIntegerField(default=0, editable=False)
    feed_seq = models.BigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["feed_xact", "feed_seq", "id"], name="tournament_feed")]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_per_event")
        ]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered in a tournament; check-in on the day, late arrival, withdrawal; the
    series he is ranked in."""

    class Series(models.TextChoices):
        """The federation's series a player is ranked in (blank: none). The standings can be read
        one series at a time, its players ranked among themselves."""

        OPEN = "open", pgettext_lazy("series", "Open")
        S1 = "s1", _("1st series")
        S2 = "s2", _("2nd series")
        S3 = "s3", _("3rd series")
        PROMOTION = "promotion", pgettext_lazy("series", "Promotion")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="members"
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    # Seated from this round on (a late arrival) and until the round before withdrawal.
    first_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrew after round"), null=True, blank=True
    )
    registered_at = models.DateTimeField(default=timezone.now)
    series = models.CharField(
        _("series"), max_length=10, choices=Series.choices, blank=True, default=""
    )
    # Duplicate: the player's number in the movement (1 to 4 x tables), drawn when the first
    # round is seated; the movement then says his table and direction in every round.
    movement_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # A championship's cut (``Cut``) left the player out after this round: he is seated no more
    # and ranked below the players still in (``tournaments.standings.cuts``).
    cut_after = models.PositiveSmallIntegerField(_("eliminated after round"), null=True, blank=True)
    # The player's personal PIN: printed on his player card (``tournaments.play.cards``) and
    # shown to the organisers; a tournament asking for personal proof wants it to confirm a deal.
    pin = models.CharField(_("PIN"), max_length=8, default=new_pin)
    # The number of the player's current card: its personal link is signed over it, so a new
    # card (the organisers issue one for a lost card) voids the old card's link.
    card_number = models.PositiveIntegerField(default=1)
    # Wrong PINs typed for this entry since ``pin_missed_from`` (the first of the window), and
    # the PIN refused until ``pin_locked_until`` once there were too many
    # (``tournaments.play.pins``: counted by one UPDATE, never read then written).
    pin_misses = models.PositiveSmallIntegerField(default=0)
    pin_missed_from = models.DateTimeField(null=True, blank=True)
    pin_locked_until = models.DateTimeField(_("PIN locked until"), null=True, blank=True)
    # A substitute: took over this entry's seat at a table (``Substitution``); ranked apart,
    # never in the main ranking, and seated in no other round.
    substitute_for = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="substitutes",
        verbose_name=_("substitute for"),
    )

    class Meta:
        ordering = ["player__name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.player} @ {self.tournament}"


class Round(models.Model):
    """A round (séance), or a knockout stage: the tables seated together."""

    class Status(models.TextChoices):
        SEATED = "seated", _("seated: swaps allowed")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.SEATED)
    repeats = models.PositiveIntegerField(default=0)  # meetings the seating could not avoid
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"

    def ends_at(self, round_minutes: int) -> datetime.datetime | None:
        """When a started round's time is up: the end of its countdown."""
        if self.started_at is None:
            return None
        return self.started_at + datetime.timedelta(minutes=round_minutes)


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    token = models.CharField(max_length=40, unique=True, default=new_token)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"


class ReplacedTableLink(models.Model):
    """A table's private link the organisers replaced (``rounds.services.table_link_renew``):
    kept so that a phone, or the QR code printed on the old score sheet, is told the link was
    replaced and what to do, instead of "not found". It opens nothing."""

    token = models.CharField(max_length=40, unique=True)
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="replaced_links")
    replaced_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.table} (replaced)"


class DealConfirmation(models.Model):
    """Whether a tournament table's deal is agreed, when the tournament requires confirmation.

    Kept in step by the deal hook (``tournaments.play.confirmations.confirmation_after_deal``): a
    deal entered or corrected at the table is pending until a player of the other side (or an
    organiser or referee) confirms it; the other side may disagree with its own version of the
    deal, which a referee then settles. ``entered_side`` is the side (attack or defence) of the
    player who entered this version, as the deal reads; blank when nobody at the table did.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("to confirm")
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")

    class Side(models.TextChoices):
        ATTACK = "attack", _("attack")
        DEFENCE = "defence", _("defence")

    deal = models.OneToOneField(Deal, on_delete=models.CASCADE, related_name="confirmation")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField(default=1)  # the deal's version this state is about
    entered_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_side = models.CharField(max_length=8, choices=Side.choices, blank=True)
    # What proved who entered it: the account ("user:<id>") or the phone (a digest of its
    # session). The same proof never confirms the deal (play.confirmations.deal_confirm).
    entered_proof = models.CharField(max_length=80, blank=True, default="")
    confirmed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # A disagreement: the other side's version of the deal (the scoring contract, players by
    # id, as a deal stores it) and its scores (player id -> points), for the referee.
    disputed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    disputed_at = models.DateTimeField(null=True, blank=True)
    dispute_payload = models.JSONField(null=True, blank=True)
    dispute_scores = models.JSONField(null=True, blank=True)
    # A referee (or organiser) decided instead of the other side (confirmed a pending deal, or
    # settled a dispute): why, in his words. Cleared when the deal is entered or corrected again.
    referee_reason = models.TextField(_("referee's reason"), blank=True, default="")

    def __str__(self) -> str:
        return f"{self.deal_id}: {self.status}"


class Standing(models.Model):
    """A seated player's standing, kept in step with the deals (``tournaments.standings.store``) so
    that reading the standings costs the same whatever the number of deals: the points of each
    round seated, their total and the tie-breaks the ranking reads (the best round, the last
    round played). A row exists once the player has been seated; ``manage.py
    rebuild_standings`` recomputes every row from the score lines."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="standing")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    # Round number (as text: a JSON key) -> points counted there, for each round seated.
    rounds = models.JSONField(default=dict)
    total = models.IntegerField(default=0)
    # The points the live penalties took off (already out of the rounds' cells and the total):
    # shown beside the total, so a reader sees why a round is lower than its table's sheet.
    penalties = models.PositiveIntegerField(default=0)
    best_round = models.IntegerField(default=0)
    last_round = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_standing_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.tournament_id}: {self.total}"


class StandingsChange(models.Model):
    """A change to a tournament's standings (a deal at one of its tables, a confirmation, a
    penalty, a round seated or closed, a cut), at its place in the change feed (core.feed):
    written by ``standings.store.standings_changed`` in the change's transaction. Rows are only
    added, never updated, so tables writing at once never wait on each other for them; the
    feed of standings reads each tournament's latest one, and a round's closing deletes the
    ones before it."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="standings_changes"
    )
    feed_xact = models.BigIntegerField()
    feed_seq = models.BigIntegerField()

    class Meta:
        indexes = [
            models.Index(
                fields=["tournament", "feed_xact", "feed_seq"], name="standings_change_feed"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} @ {self.feed_xact}.{self.feed_seq}"


class Penalty(models.Model):
    """Points a referee or organiser takes off a player's score, with a written reason, on a
    deal or on a round (séance). It lowers that round's points of the player (so the total and
    the tie-breaks read it), whatever becomes of the deal. Removing a penalty keeps it: it is
    marked removed, by whom, when and why, and counts no more (``tournaments.play.penalties``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="penalties")
    # The deal it is about (one of the player's table in that round), or none: the round's.
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.CASCADE, related_name="penalties"
    )
    points = models.PositiveIntegerField(_("points"))
    reason = models.TextField(_("reason"), max_length=PENALTY_REASON_MAX)
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    given_at = models.DateTimeField(default=timezone.now)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    removed_at = models.DateTimeField(null=True, blank=True)
    removal_reason = models.TextField(
        _("reason for removing"), max_length=PENALTY_REASON_MAX, blank=True
    )

    class Meta:
        ordering = ["round__number", "given_at", "pk"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")

    def __str__(self) -> str:
        return f"-{self.points} {self.entry_id} R{self.round_id}"

    @property
    def live(self) -> bool:
        return self.removed_at is None


# --- cuts ---


class Cut(models.Model):
    """A championship's cut: after a closed round (séance), only the best ``keep`` players go on
    to the next (``tournaments.standings.cuts``). It was asked as a count (``asked_count``) or as a
    share
    of the field in percent (``asked_share``); ``keep`` is what it came to, ties at the line
    included. ``carry``: the qualified keep their points, or restart from zero. Undoing it
    (allowed while the next round is not seated) keeps the row, marked undone, as history."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="cuts")
    after_round = models.PositiveSmallIntegerField(_("after round"))
    field_size = models.PositiveIntegerField(_("players in the field"))
    asked_count = models.PositiveIntegerField(_("players asked"), null=True, blank=True)
    asked_share = models.PositiveSmallIntegerField(_("share asked (%)"), null=True, blank=True)
    keep = models.PositiveIntegerField(_("players going through"))
    carry = models.BooleanField(_("scores carried over"), default=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(default=timezone.now)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "after_round", "confirmed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "after_round"],
                condition=models.Q(undone_at__isnull=True),
                name="one_live_cut_per_round",
            )
        ]
        verbose_name = _("cut")
        verbose_name_plural = _("cuts")

    def __str__(self) -> str:
        return f"{self.tournament_id} R{self.after_round}: {self.keep}"

    @property
    def live(self) -> bool:
        return self.undone_at is None


# --- people ---


class ApartPair(models.Model):
    """Two entries who must never share a table (family, a player and the referee), kept apart
    by every seating method as teammates are. Stored with the lower entry id first, so that a
    pair is one row whichever order it was given in."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="apart_pairs")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=APART_REASON_MAX)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "first", "second"], name="one_apart_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="apart_pair_ordered"
            ),
        ]
        verbose_name = _("players kept apart")
        verbose_name_plural = _("players kept apart")

    def __str__(self) -> str:
        return f"{self.first_id} / {self.second_id}"


class Bye(models.Model):
    """A round a checked-in player sat out because the head count could not be seated
    (``tournaments.people``): it scores ``points`` in that round's cell of his standing."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="byes")
    points = models.IntegerField(_("points"), default=0)

    class Meta:
        ordering = ["round", "entry__player__name"]
        constraints = [models.UniqueConstraint(fields=["round", "entry"], name="one_bye_per_round")]

    def __str__(self) -> str:
        return f"bye {self.entry_id} R{self.round_id}"


class Substitution(models.Model):
    """A substitute took over a player's seat at a table of a round: the deals entered before
    (``deals_before``) keep the replaced player's score lines, the later ones are the
    substitute's. ``returns``: the replaced player is seated again from the next round; else he
    withdrew after the round before this one."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="substitutions")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="substitutions")
    replaced = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    substitute = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    deals_before = models.PositiveSmallIntegerField(default=0)
    returns = models.BooleanField(_("comes back next round"), default=False)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.substitute_id} for {self.replaced_id} @ {self.table_id}"


class TournamentWebhook(models.Model):
    """The tournament a webhook of ``scope`` tournament listens to (the club side's
    ``Webhook`` cannot name a tournament). Deleting the tournament deletes the link; the
    webhook then hears nothing more."""

    webhook = models.OneToOneField(
        Webhook, on_delete=models.CASCADE, related_name="tournament_link"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="webhook_links"
    )

    def __str__(self) -> str:
        return f"{self.tournament}: {self.webhook}"
