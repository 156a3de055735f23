"""Penalties (pénalités): points a tournament's referee or organiser takes off a player's score,
with a written reason, on one of his deals or on a round (séance).

A penalty lowers the player's points of its round: the round's cell in the standings is his
counted score lines there minus his live penalties there, so the total and the tie-breaks
(best round, last round) read it like any other point. It counts whatever becomes of the deal
it names (a deleted or disputed deal does not take back a penalty for conduct). Removing a
penalty keeps it, marked removed with who, when and why: nothing is lost, and the history
shows both. Each write recomputes the player's stored standing (``standings_refresh``) and
bumps the club's results version, in the same transaction. Who may give and remove them is
``permissions.can_referee``: the views and the API ask it before calling here.

A table's score sheet and a deal's history show them too: ``table_penalties`` is the source
(``games.penalties``) that reads a table's penalties for the game pages, registered at start-up.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_scores.core.actors import signed_in
from tarot_scores.games.models import Deal, Game, Seat
from tarot_scores.games.penalties import PenaltyMark
from tarot_scores.games.seats import deal_seats
from tournaments.errors import Code, TournamentRefusal
from tournaments.models import (
    PENALTY_POINTS_MAX,
    PENALTY_REASON_MAX,
    Entry,
    Penalty,
    Round,
    Substitution,
    Tournament,
)
from tournaments.rules import maybe_table
from tournaments.standings.store import standings_refresh


def _reason_refusal(reason: str, *, required: bool = True) -> TournamentRefusal | None:
    text = reason.strip()
    if required and not text:
        return TournamentRefusal.on("reason", Code.REQUIRED, _("Write the reason for the penalty."))
    if len(text) > PENALTY_REASON_MAX:
        return TournamentRefusal.on(
            "reason", Code.TOO_LONG, _("At most %(n)s characters.") % {"n": PENALTY_REASON_MAX}
        )
    return None


def _points_refusal(points: int) -> TournamentRefusal | None:
    if points < 1 or points > PENALTY_POINTS_MAX:
        return TournamentRefusal.on(
            "points",
            Code.OUT_OF_RANGE,
            _("A penalty is a whole number of points from 1 to %(n)s.") % {"n": PENALTY_POINTS_MAX},
        )
    return None


def _round_and_deal(
    tournament: Tournament,
    entry: Entry,
    round_number: int | None,
    deal_number: int | None,
    deal_id: int | None,
) -> tuple[Round, Deal | None]:
    """The round the penalty lowers and the deal it names, checked: the player sat in that
    round (seated, or replaced there by a substitute), and he played the deal (a replaced
    player the deals before the substitution, the substitute those after)."""
    deal: Deal | None = None
    if deal_id is not None:
        deal = (
            Deal.objects.select_related("game__tournament_table__round")
            .filter(pk=deal_id, game__tournament_table__round__tournament=tournament)
            .first()
        )
        if deal is None:
            raise TournamentRefusal.on(
                "deal", Code.UNKNOWN_DEAL, _("No such deal in this tournament.")
            )
        round_ = deal.game.tournament_table.round
        if round_number is not None and round_.number != round_number:
            raise TournamentRefusal.on(
                "deal",
                Code.OTHER_ROUND,
                _("This deal was not played in round %(n)s.") % {"n": round_number},
            )
    else:
        if round_number is None:
            raise TournamentRefusal.on("round", Code.REQUIRED, _("Choose the round."))
        found = Round.objects.filter(tournament=tournament, number=round_number).first()
        if found is None:
            raise TournamentRefusal.on(
                "round", Code.UNKNOWN_ROUND, _("No such round in this tournament.")
            )
        round_ = found
    # His table in the round: where he is seated now, or where a substitute took his seat
    # over (he keeps the deals played before).
    games = set(
        Seat.objects.filter(
            game__tournament_table__round=round_, player_id=entry.player_id
        ).values_list("game_id", flat=True)
    ) | set(
        Substitution.objects.filter(round=round_, replaced=entry).values_list(
            "table__game_id", flat=True
        )
    )
    if not games:
        raise TournamentRefusal.on(
            "entry",
            Code.NOT_SEATED,
            _("%(name)s was not seated in round %(n)s.")
            % {"name": entry.player.label, "n": round_.number},
        )
    if deal is None and deal_number is not None:
        deal = (
            Deal.objects.select_related("game")
            .filter(game_id__in=games, number=deal_number)
            # The live deal of that number before one struck off that had it first.
            .order_by(F("deleted_at").asc(nulls_first=True), "-pk")
            .first()
        )
        if deal is None:
            raise TournamentRefusal.on(
                "deal",
                Code.UNKNOWN_DEAL,
                _("No deal %(d)s at %(name)s's table in round %(n)s.")
                % {"d": deal_number, "name": entry.player.label, "n": round_.number},
            )
    # The players of the deal as it was played: a substitute's seat before he sat in is the
    # replaced player's.
    if deal is not None and (
        deal.game_id not in games or entry.player_id not in {p.pk for p in deal_seats(deal).players}
    ):
        raise TournamentRefusal.on(
            "deal",
            Code.OTHER_TABLE,
            _("%(name)s did not play this deal.") % {"name": entry.player.label},
        )
    round_.tournament = tournament
    return round_, deal


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    entry: Entry,
    points: int,
    reason: str,
    by: Any,
    round_number: int | None = None,
    deal_number: int | None = None,
    deal_id: int | None = None,
) -> Penalty:
    """Take ``points`` off the player's score in a round, on one of his deals there (its
    number at his table, or its id) or on the round itself. ``Refusal`` per field
    (``entry``, ``round``, ``deal``, ``points``, ``reason``) otherwise; nothing is stored."""
    if entry.tournament_id != tournament.pk:
        raise TournamentRefusal.on(
            "entry", Code.UNKNOWN_ENTRY, _("This player is not registered here.")
        )
    refusals: dict[str, list[Any]] = {}
    for refusal in (_points_refusal(points), _reason_refusal(reason)):
        if refusal is not None:
            refusals.update(refusal.reasons)
    if refusals:
        raise TournamentRefusal(refusals)
    round_, deal = _round_and_deal(tournament, entry, round_number, deal_number, deal_id)
    penalty = Penalty.objects.create(
        tournament=tournament,
        entry=entry,
        round=round_,
        deal=deal,
        points=points,
        reason=reason.strip(),
        given_by=signed_in(by),
    )
    standings_refresh(round_=round_, player_ids=[entry.player_id])
    return penalty


@transaction.atomic
def penalty_remove(*, penalty: Penalty, by: Any, reason: str = "") -> Penalty:
    """Take a penalty back: it stays in the history, marked removed (by whom, when, why), and
    counts no more. ``Refusal`` if it was removed already."""
    locked = (
        Penalty.objects.select_for_update()
        .select_related("round__tournament", "entry")
        .get(pk=penalty.pk)
    )
    if locked.removed_at is not None:
        raise TournamentRefusal.whole(Code.ALREADY_REMOVED, _("This penalty was removed already."))
    refusal = _reason_refusal(reason, required=False)
    if refusal is not None:
        raise refusal
    locked.removed_at = timezone.now()
    locked.removed_by = signed_in(by)
    locked.removal_reason = reason.strip()
    locked.save(update_fields=["removed_at", "removed_by", "removal_reason"])
    standings_refresh(round_=locked.round, player_ids=[locked.entry.player_id])
    return locked


def _mark(penalty: Penalty) -> PenaltyMark:
    return PenaltyMark(
        key=penalty.pk,
        player_id=penalty.entry.player_id,
        points=penalty.points,
        reason=penalty.reason,
        deal_id=penalty.deal_id,
        deal_number=penalty.deal.number if penalty.deal else None,
        given_by=penalty.given_by.get_username() if penalty.given_by else "",
        given_at=penalty.given_at,
        removed_by=penalty.removed_by.get_username() if penalty.removed_by else "",
        removed_at=penalty.removed_at,
        removal_reason=penalty.removal_reason,
    )


def table_penalties(*, game: Game, deal_id: int | None = None) -> list[PenaltyMark] | None:
    """A tournament table's penalties, removed ones included, in the order given: those of its
    players in its round, or those on one of its deals (one query). None for a club's own game
    (no query: a table always has a set number of deals)."""
    if not maybe_table(game):
        return None
    rows = Penalty.objects.select_related("entry", "deal", "given_by", "removed_by")
    if deal_id is not None:
        rows = rows.filter(deal_id=deal_id, deal__game_id=game.pk)
    else:
        # The round this game is a table of, and the players seated at it (not the round's
        # other tables) or replaced there by a substitute (his penalties stay on the sheet).
        seated = Seat.objects.filter(game_id=game.pk).values("player_id")
        replaced = Substitution.objects.filter(table__game_id=game.pk).values("replaced_id")
        rows = rows.filter(
            Q(entry__player_id__in=seated) | Q(entry_id__in=replaced),
            round__tables__game_id=game.pk,
        )
    return [_mark(p) for p in rows.order_by("given_at", "pk")]
