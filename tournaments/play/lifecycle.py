"""A tournament table's deal, from entered to settled: its states, each transition, who may take
it and with what proof, and what counts. The page, htmx, the table link's API, the referee desk
and the organiser's pages and API all go through the functions named here.

Where the tournament requires confirmation (``Tournament.require_confirmation``):

========== =================================================================================
state      what it is (``DealConfirmation.status``; the deal's own ``deleted_at``, ``counted``)
========== =================================================================================
entered    pending: entered, corrected or restored at the table; waits for the other side;
           counts in the standings for nobody yet (the sheet shows it, marked *to confirm*)
confirmed  a player of the other side agreed, or a referee/organiser entered or confirmed it
contested  disputed: the other side gave its own version; counts **nowhere** until a
           referee settles it: not in the sheet's totals, the table page, the standings, nor
           on the club's side (held: ``Deal.counted`` false, ``games.services.deal_hold``):
           its season statistics and players' figures, the ratings, the change feed
           (``counted`` false) and the webhooks (``deal.held``, then ``deal.released``)
settled    confirmed by a referee's decision on a contested deal, with his written reason
deleted    struck off (the history keeps it): counts nowhere
========== =================================================================================

A *correction* is not a state: it is a new version of the deal, entered again (pending) when
made at the table, confirmed at once when made by a referee or an organiser.

The transitions (``TRANSITIONS``; the permission matrix, tests/tournaments/play/
test_lifecycle_matrix.py, walks each by name for every actor and path):

- **enter** / **correct** / **restore** (``games.services``, then ``confirmation_after_deal``):
  a player of the table, on its link or signed in; with personal proof, proven
  (``play.holder``); a referee or organiser not playing at the table (confirmed at once).
- **confirm** (``confirmations.deal_confirm``): a player of the *other* side, never with the
  proof that entered the deal; with personal proof, proven himself; or a referee/organiser not
  playing at the table, with a written reason.
- **contest** (``confirmations.deal_dispute``): a player of the other side, proven as to
  confirm, while the deal is pending.
- **settle** (``confirmations.dispute_settle``): a referee/organiser not playing at the table,
  with a written reason. Whatever ends a dispute (settling it either way, a referee's confirm,
  a correction or a restore at the table) counts the deal again, once, as it then stands.
- **delete** (``games.services.deal_delete``, checked by ``deletion_refusal`` in the deal's
  transaction): from the table only while the deal is pending (the Undo of the phone that just
  saved it); a confirmed or contested deal stands, and only a referee or organiser deletes it
  (after its round closed, with a reason, as any change then).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.utils.translation import gettext as _

from tarot_scores.core.actors import AtTable
from tarot_scores.games.models import Deal
from tournaments.errors import Code, TournamentRefusal
from tournaments.models import DealConfirmation, Table
from tournaments.play import holder

Status = DealConfirmation.Status


class State(StrEnum):
    ENTERED = "entered"
    CONFIRMED = "confirmed"
    CONTESTED = "contested"
    SETTLED = "settled"
    DELETED = "deleted"


class Actor(StrEnum):
    """Who may take a transition (the matrix's rows)."""

    SAME_SIDE = "same_side"  # a player of the side that entered the deal (any of its phones)
    OTHER_SIDE = "other_side"  # a player of the other side, proven as the tournament asks
    REFEREE = "referee"  # a referee or organiser not playing at the table


@dataclass(frozen=True)
class Transition:
    name: str
    before: tuple[State, ...]
    after: State
    who: tuple[Actor, ...]
    proof: str  # in words, for the docs and the matrix


TRANSITIONS: tuple[Transition, ...] = (
    Transition(
        "confirm",
        (State.ENTERED,),
        State.CONFIRMED,
        (Actor.OTHER_SIDE, Actor.REFEREE),
        "not the proof that entered it; personal proof: his PIN, card or account; a referee "
        "writes a reason",
    ),
    Transition(
        "contest",
        (State.ENTERED,),
        State.CONTESTED,
        (Actor.OTHER_SIDE,),
        "personal proof: his PIN, card or account",
    ),
    Transition("settle", (State.CONTESTED,), State.SETTLED, (Actor.REFEREE,), "a written reason"),
    Transition(
        "correct",
        # A contested deal corrected at the table (its side takes the other's version, say) is
        # entered again, pending, and counts again once confirmed (released from its hold).
        (State.ENTERED, State.CONFIRMED, State.CONTESTED),
        State.ENTERED,
        (Actor.SAME_SIDE, Actor.OTHER_SIDE),
        "personal proof: his PIN, card or account; the other side confirms again",
    ),
    Transition(
        "delete",
        (State.ENTERED,),
        State.DELETED,
        (Actor.SAME_SIDE, Actor.OTHER_SIDE, Actor.REFEREE),
        "a confirmed or contested deal is deleted by a referee or organiser only",
    ),
)


def state_of(deal: Deal, confirmation: DealConfirmation | None) -> State:
    """Where the deal stands in its life (a deal no confirmation was asked for is confirmed)."""
    if deal.is_deleted:
        return State.DELETED
    if confirmation is None or confirmation.status == Status.CONFIRMED:
        if confirmation is not None and confirmation.referee_reason and confirmation.disputed_at:
            return State.SETTLED
        return State.CONFIRMED
    return State.CONTESTED if confirmation.status == Status.DISPUTED else State.ENTERED


def counts(confirmation: DealConfirmation | None) -> bool:
    """Whether a live deal counts in the standings: confirmed (or no confirmation asked)."""
    return confirmation is None or confirmation.status == Status.CONFIRMED


def deletion_refusal(
    confirmation: DealConfirmation | None, *, by_referee: bool
) -> TournamentRefusal | None:
    """A deal is deleted from the table only while it waits for the other side: confirmed, it
    stands (changing it is a correction the other side confirms again); contested, a referee
    decides."""
    if by_referee or confirmation is None or confirmation.status == Status.PENDING:
        return None
    return TournamentRefusal.whole(
        Code.CONFIRMED_STANDS,
        _("The other side confirmed this deal: correct it (they confirm again), or call a referee.")
        if confirmation.status == Status.CONFIRMED
        else _("This deal is disputed: a referee decides."),
    )


def undoable(confirmation: DealConfirmation | None) -> bool:
    """Whether the phone that just saved the deal is still offered its Undo."""
    return deletion_refusal(confirmation, by_referee=False) is None


def entry_refusal(table: Table, at_table: AtTable | None) -> TournamentRefusal | None:
    """With personal proof, a player of the table enters, corrects or restores a deal only
    proven himself (his PIN, card or account: ``play.holder``), whatever the path."""
    if at_table is None or at_table.player_id is None or not holder.personal(table):
        return None
    if holder.proof_of_player(at_table.proof, table, at_table.player_id):
        return None
    return TournamentRefusal.on(
        "pin",
        Code.PROOF_NEEDED,
        _("Prove who you are: type your PIN, open your player card's link, or sign in."),
    )
