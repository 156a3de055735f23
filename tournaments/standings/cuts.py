"""Championships in sessions (séances) with cuts: after a closed round, only the best players
go on to the next; the others stay in the standings, ranked below, "eliminated after round k".

A cut is asked as a number of players (``keep``) or as a share of the field in percent
(``share``, 1 to 99, rounded up: 50 % of 25 players is 13). The field is the players still in
(not cut before) who have not withdrawn, ranked as the standings rank them now: their total of
the current stage, then the better best round, then the better last round. The line falls after
the places asked; players tied with the last of them on all three go through too (the cut then
keeps more than asked, and says so). A cut that would keep everyone is refused.

``carry``: the qualified keep their points, or restart from zero (their totals count the rounds
after the cut only). A cut is made by the tournament's organisers and referees, once the round
is closed and before the next one is seated; it is undone (kept in the history, marked undone)
on the same condition. Making or undoing one bumps the club's results version in its
transaction. The standings read the cuts in ``selectors.standings_for``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_scores.core.actors import signed_in
from tarot_scores.core.planner import statistics_refresh
from tournaments.errors import Code, CutRefused, TournamentRefusal
from tournaments.formats import format_for
from tournaments.models import Cut, Entry, Round, Tournament
from tournaments.ranking import StandingRow
from tournaments.rules import can_referee
from tournaments.standings.selectors import standings_for
from tournaments.standings.store import standings_changed

MAX_SHARE = 99


def _state(code: Code, message: str) -> CutRefused:
    return CutRefused.whole(code, message)


def keep_for_share(field: int, share: int) -> int:
    """The places a share (in percent) of the field gives, rounded up."""
    return -(-field * share // 100)


def places_kept(ranks: list[int], asked: int) -> int:
    """How many of the ranked field go through when ``asked`` places are asked: the first
    ``asked``, and every player who shares the rank of the last of them (a full tie)."""
    if asked <= 0:
        return 0
    if asked >= len(ranks):
        return len(ranks)
    line = ranks[asked - 1]
    return sum(1 for rank in ranks if rank <= line)


@dataclass(frozen=True)
class CutPreview:
    """The field ranked for a cut, with the line drawn after ``keep`` players."""

    after_round: int
    field: list[StandingRow]  # the players still in, best first
    asked: int  # the places asked: the count, or the share's
    keep: int  # the places kept: ``asked`` and the players tied with the last of them
    carry: bool
    asked_count: int | None = None
    asked_share: int | None = None

    @property
    def qualified(self) -> list[StandingRow]:
        return self.field[: self.keep]

    @property
    def eliminated(self) -> list[StandingRow]:
        return self.field[self.keep :]

    @property
    def tied(self) -> int:
        """The players above the places asked because they tie at the line."""
        return self.keep - self.asked


def cut_of(tournament: Tournament, after_round: int) -> Cut | None:
    """The live cut made after this round, if any."""
    return (
        Cut.objects.filter(tournament=tournament, after_round=after_round, undone_at__isnull=True)
        .select_related("confirmed_by")
        .first()
    )


def cut_state_refusal(tournament: Tournament, after_round: int) -> CutRefused | None:
    """Why no cut can be made after this round now, or None (three queries at most)."""
    if not format_for(tournament).has_cuts:
        return _state(Code.NOT_ROUNDS, _("Only a tournament in rounds has cuts."))
    numbers = dict(
        Round.objects.filter(
            tournament=tournament, number__in=[after_round, after_round + 1]
        ).values_list("number", "status")
    )
    if after_round not in numbers:
        return _state(
            Code.UNKNOWN_ROUND, _("No round %(n)s in this tournament.") % {"n": after_round}
        )
    if after_round >= tournament.rounds:
        return _state(
            Code.LAST_ROUND,
            _("Round %(n)s is the last: no round follows it.") % {"n": after_round},
        )
    if numbers[after_round] != Round.Status.CLOSED:
        return _state(
            Code.ROUND_OPEN,
            _("Round %(n)s is not closed yet: cut once its results are final.")
            % {"n": after_round},
        )
    if after_round + 1 in numbers:
        return _state(
            Code.NEXT_SEATED,
            _("Round %(n)s is seated already: the players of the cut are playing.")
            % {"n": after_round + 1},
        )
    if cut_of(tournament, after_round) is not None:
        return _state(
            Code.ALREADY_CUT,
            _("Players were cut after round %(n)s already: undo that cut first.")
            % {"n": after_round},
        )
    return None


def _asked(keep: int | None, share: int | None) -> None:
    """The request itself: a count or a share, in range."""
    if keep is None and share is None:
        raise TournamentRefusal.on(
            "keep",
            Code.REQUIRED,
            _("Give the number of players who go through, or a share of the field."),
        )
    if keep is not None and share is not None:
        raise TournamentRefusal.on(
            "share", Code.BOTH, _("Give a number of players or a share of the field, not both.")
        )
    if keep is not None and keep < 1:
        raise TournamentRefusal.on("keep", Code.TOO_FEW, _("At least one player goes through."))
    if share is not None and not 1 <= share <= MAX_SHARE:
        raise TournamentRefusal.on(
            "share",
            Code.OUT_OF_RANGE,
            _("A share is a whole percentage from 1 to %(max)s.") % {"max": MAX_SHARE},
        )


def _field(tournament: Tournament) -> list[StandingRow]:
    """The players still in who have not withdrawn, as the standings rank them (three queries)."""
    withdrawn = set(
        Entry.objects.filter(tournament=tournament, withdrawn_after__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    return [
        row
        for row in standings_for(tournament=tournament)
        if row.eliminated_after is None and row.player.pk not in withdrawn
    ]


def cut_preview(
    *,
    tournament: Tournament,
    after_round: int,
    keep: int | None = None,
    share: int | None = None,
    carry: bool = True,
) -> CutPreview:
    """The field ranked with the line drawn: who goes through and who does not. ``CutRefused``
    if no cut can be made after this round now; ``Refusal`` on ``keep`` or ``share`` for a
    request out of range (a share from 1 to 99 %, at least one player, fewer than the field)."""
    refusal = cut_state_refusal(tournament, after_round)
    if refusal is not None:
        raise refusal
    _asked(keep, share)
    field = _field(tournament)
    size = len(field)
    asked = keep if keep is not None else keep_for_share(size, share or 0)
    name = "keep" if keep is not None else "share"
    if asked >= size:
        raise TournamentRefusal.on(
            name,
            Code.WHOLE_FIELD,
            _("Only %(n)s players are still in: fewer than that go through.") % {"n": size},
        )
    kept = places_kept([row.rank for row in field], asked)
    if kept >= size:
        raise TournamentRefusal.on(
            name,
            Code.ALL_TIED,
            _("The players at the line are all tied: everyone would go through."),
        )
    return CutPreview(after_round, field, asked, kept, carry, keep, share)


@transaction.atomic
def cut_confirm(
    *,
    tournament: Tournament,
    after_round: int,
    by: Any,
    keep: int | None = None,
    share: int | None = None,
    carry: bool = True,
) -> Cut:
    """Make the cut the preview shows: the players below the line are marked eliminated after
    this round (with every registered player not in the field: a withdrawn or never seated one
    does not go through either) and are no longer seated. Organisers and referees only
    (``PermissionDenied`` otherwise); refused as ``cut_preview`` refuses."""
    if not can_referee(by, tournament):
        raise PermissionDenied
    # The tournament's row is locked, as seating a round locks it: a cut and the next round's
    # seating never run side by side.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
    preview = cut_preview(
        tournament=tournament, after_round=after_round, keep=keep, share=share, carry=carry
    )
    cut = Cut.objects.create(
        tournament=tournament,
        after_round=after_round,
        field_size=len(preview.field),
        asked_count=keep,
        asked_share=share,
        keep=preview.keep,
        carry=carry,
        confirmed_by=signed_in(by),
        confirmed_at=timezone.now(),
    )
    qualified = [row.player.pk for row in preview.qualified]
    # A substitute's own entry is never in the field (ranked apart): not cut either.
    cut_players = (
        Entry.objects.filter(
            tournament=tournament, cut_after__isnull=True, substitute_for__isnull=True
        )
        .exclude(player_id__in=qualified)
        .update(cut_after=after_round)
    )
    statistics_refresh(Entry, rows=cut_players)
    standings_changed(tournament=tournament)
    return cut


def cut_undo_refusal(tournament: Tournament, after_round: int) -> CutRefused | None:
    """Why the cut after this round cannot be undone now, or None."""
    if cut_of(tournament, after_round) is None:
        return _state(Code.NO_CUT, _("No players were cut after round %(n)s.") % {"n": after_round})
    if Round.objects.filter(tournament=tournament, number=after_round + 1).exists():
        return _state(
            Code.NEXT_SEATED,
            _("Round %(n)s is seated already: the cut can no longer be undone.")
            % {"n": after_round + 1},
        )
    return None


@transaction.atomic
def cut_undo(*, tournament: Tournament, after_round: int, by: Any) -> Cut:
    """Take back the cut made after this round, while the next round is not seated: its players
    are in again. The cut stays in the history, marked undone (by whom, when)."""
    if not can_referee(by, tournament):
        raise PermissionDenied
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
    refusal = cut_undo_refusal(tournament, after_round)
    if refusal is not None:
        raise refusal
    cut = Cut.objects.get(tournament=tournament, after_round=after_round, undone_at__isnull=True)
    back = Entry.objects.filter(tournament=tournament, cut_after=after_round).update(cut_after=None)
    statistics_refresh(Entry, rows=back)
    cut.undone_at = timezone.now()
    cut.undone_by = signed_in(by)
    cut.save(update_fields=["undone_at", "undone_by"])
    standings_changed(tournament=tournament)
    return cut


def cuts_history(*, tournament: Tournament) -> list[Cut]:
    """Every cut made, the undone ones included, in round order (one query)."""
    return list(
        Cut.objects.filter(tournament=tournament).select_related("confirmed_by", "undone_by")
    )
