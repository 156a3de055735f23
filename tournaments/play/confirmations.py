"""Confirmation at the table: a tournament that requires it counts a deal only once the other
side has agreed to it.

A deal entered (or corrected) at a table is pending until a player of the other side confirms
it: the attack (the taker and the called partner) confirms what the defence entered, and the
defence (every other player at the table, the one sitting out included) what the attack
entered. The organisers and the tournament's referees may confirm any deal, except at a table
where they play themselves. Instead of confirming, the other side may disagree and enter its
own version of the deal: the deal is disputed, and a referee keeps one of the two versions or
corrects it (through the deal services, so its history records the decision).

Who acts at the table: a signed-in player is his account's player; on a table's link, shared
by the phones of one table, the person names himself among the table's players (the page
remembers it for that phone). The link is the trust, as for entering deals: the name says who
vouched for the deal, for the referee to ask. The link's views hand that player, with what
proves him, to the deal services as an argument (``core.actors.AtTable``), which hand it to the
deal hook: a deal written any other way (a game page, the API, a script) is its account's.

The state lives here, beside the deal (``DealConfirmation``), and is kept in step by
``confirmation_after_deal``, the first step of the tournaments' one deal hook
(``tournaments.play.deal``), which the deal services call inside every deal's transaction:
``tarot_scores`` knows nothing of it. A change made by an organiser or a referee (not seated at
the table) is confirmed at once; any other entry, correction or restore makes the deal pending
again, with no confirmation and no dispute.

A contested deal counts nowhere until it is settled: not on the table's sheet and in the
standings (they read the confirmation), nor in the club's statistics, ratings, change feed and
webhooks, which know nothing of tournaments: disputing a deal holds it out of the club's counts
(``games.services.deal_hold``), and whatever ends the dispute (a referee's decision, either way;
a correction or a restore at the table, which makes it pending again) releases it
(``_counted_as``), each in the transaction that changes the confirmation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_scores.clubs.models import Player
from tarot_scores.core.actors import Actor, AtTable, signed_in
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealRevision, Game, Seat
from tournaments.errors import Code, TournamentRefusal
from tournaments.models import DealConfirmation, Round, Table
from tournaments.play import holder, lifecycle
from tournaments.rounds.services import close_if_complete
from tournaments.rules import can_referee
from tournaments.standings.store import standings_after_table_change

Side = DealConfirmation.Side
Status = DealConfirmation.Status


def side_of(payload: Mapping[str, Any], player_id: int) -> str:
    """The player's side in this deal: the attack is the taker and the called partner."""
    attack = {payload.get("taker"), payload.get("partner")} - {None}
    return Side.ATTACK if player_id in attack else Side.DEFENCE


def other_side(side: str) -> str:
    return Side.DEFENCE if side == Side.ATTACK else Side.ATTACK


def side_label(side: str) -> str:
    """The side in words, as a sentence reads it ("the attack")."""
    return _("the attack") if side == Side.ATTACK else _("the defence")


def _account_player(user: Actor, seated: Sequence[int]) -> int | None:
    """The seated player linked to this account, if there is one."""
    account = signed_in(user)
    if account is None:
        return None
    pk = Player.objects.filter(user=account).values_list("pk", flat=True).first()
    return pk if pk in seated else None


def referee_for(user: Actor, table: Table, seated: Sequence[int]) -> bool:
    """An organiser or referee of the tournament who does not play at this table."""
    account = signed_in(user)
    if account is None or not can_referee(account, table.round.tournament):
        return False
    return _account_player(account, seated) is None


def may_act(user: Actor, deal: Deal, *, settle: bool = False) -> bool:
    """Whether this account has a say on the deal at all (checked before the request's body
    or the deal's state): to settle, an organiser or referee not playing at its table; to
    confirm or disagree, one of them or a player seated there (the rules then say which side
    may do what)."""
    table = Table.objects.select_related("round__tournament").filter(game_id=deal.game_id).first()
    if table is None:
        return False
    seated = list(Seat.objects.filter(game_id=deal.game_id).values_list("player_id", flat=True))
    if referee_for(user, table, seated):
        return True
    return not settle and _account_player(user, seated) is not None


def _refuse(code: Code, message: str) -> TournamentRefusal:
    return TournamentRefusal.whole(code, message)


def _counted_as(deal: Deal, confirmation: DealConfirmation) -> None:
    """The deal held out of the club's counts while it is contested, counted again once it is
    not (``games.services.deal_hold``): nothing to do, and no query, when it already is so (a
    plain entry, correction or confirmation). The deal and its game are locked by the caller."""
    held = confirmation.status == Status.DISPUTED
    if deal.counted != held:
        return
    game_services.deal_hold(game=deal.game, deal=deal, held=held)


# --- the hook ----------------------------------------------------------------------------------


def confirmation_after_deal(
    *,
    table: Table,
    deal: Deal,
    action: DealRevision.Action,
    seated: Sequence[int],
    by: Actor = None,
    at_table: AtTable | None = None,
) -> None:
    """A deal of a tournament table that requires confirmation was entered, corrected or
    restored: confirmed if an organiser or referee did it, else pending (the first step of the
    deal hook, ``tournaments.play.deal``, so that the standings and the round count the deal as
    it now stands). A deletion leaves the state alone (a deleted deal counts for nothing), but
    is refused, undoing it, for a confirmed or contested deal deleted from the table; so is an
    entry by a player not proven where the tournament asks for personal proof
    (``play.lifecycle``).

    Who entered it: ``at_table``'s player when he sits at this table (named on a table's link),
    else the account's own seated player (or nobody); proven by ``at_table``'s proof, else the
    account ("user:<id>"): ``by``, the account the deal services recorded with the revision."""
    if not table.round.tournament.require_confirmation:
        return
    user = signed_in(by)
    confirmation = DealConfirmation.objects.select_for_update().filter(deal=deal).first()
    if action == DealRevision.Action.DELETED:
        # A confirmed or contested deal stands at the table (play.lifecycle).
        refused = lifecycle.deletion_refusal(
            confirmation, by_referee=referee_for(user, table, seated)
        )
        if refused is not None:
            raise refused
        return
    refused = lifecycle.entry_refusal(table, at_table)
    if refused is not None:
        raise refused
    if confirmation is None:
        confirmation = DealConfirmation(deal=deal)
    was_confirmed = confirmation.pk is not None and confirmation.status == Status.CONFIRMED
    confirmation.version = deal.version
    if referee_for(user, table, seated):
        confirmation.status = Status.CONFIRMED
        confirmation.confirmed_by = None
        confirmation.confirmed_by_user = user
        confirmation.confirmed_at = timezone.now()
    else:
        acting = at_table.player_id if at_table is not None else None
        player = acting if acting in seated else _account_player(user, seated)
        confirmation.status = Status.PENDING
        confirmation.entered_by_id = player
        confirmation.entered_side = side_of(deal.payload, player) if player else ""
        proof = at_table.proof if at_table is not None else ""
        confirmation.entered_proof = proof or (f"user:{user.pk}" if user else "")
        confirmation.confirmed_by = confirmation.confirmed_by_user = None
        confirmation.confirmed_at = None
        confirmation.referee_reason = ""
        _clear_dispute(confirmation)
    confirmation.save()
    # A contested deal corrected or restored at the table is pending again: counted again (a
    # referee's correction settles it: confirmed, counted). Counted with its new scores, once:
    # the deal services count nothing of a deal held out of the counts.
    _counted_as(deal, confirmation)
    if (
        action == DealRevision.Action.EDITED
        and not was_confirmed
        and confirmation.status == Status.CONFIRMED
        and table.round.status != Round.Status.CLOSED
    ):
        # A referee's correction settled the last deal the round waited for. (An entry or a
        # restore is the round's own hook's to count.)
        close_if_complete(round_=table.round)


def _referee_reason(reason: str) -> str:
    """The written reason a referee gives for deciding instead of the other side: required, and
    kept with the deal's confirmation (and in its history when he corrects the deal)."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise TournamentRefusal.on(
            "reason",
            Code.REASON_REQUIRED,
            _("Say why you decide instead of the other side: the reason is kept with the deal."),
        )
    if len(reason) > game_services.MAX_REASON:
        raise TournamentRefusal.on(
            "reason",
            Code.REASON_TOO_LONG,
            _("Keep the reason under %(count)s characters.") % {"count": game_services.MAX_REASON},
        )
    return reason


def _clear_dispute(confirmation: DealConfirmation) -> None:
    confirmation.disputed_by = None
    confirmation.disputed_at = None
    confirmation.dispute_payload = None
    confirmation.dispute_scores = None


# --- confirming, disagreeing, settling ---------------------------------------------------------


def _locked(deal: Deal, version: int | None) -> tuple[Deal, Table, list[int], DealConfirmation]:
    """The deal's game, the deal and its confirmation, locked in that order (as the deal
    services lock them); refused unless the deal waits for a confirmation at ``version``."""
    game = Game.objects.select_for_update(of=("self",)).get(pk=deal.game_id)
    current = Deal.objects.select_for_update().get(pk=deal.pk)
    current.game = game
    table = Table.objects.select_related("round__tournament__club").filter(game=game).first()
    if table is None or not table.round.tournament.require_confirmation:
        raise _refuse(Code.NOT_REQUIRED, _("This tournament does not ask for confirmations."))
    if current.is_deleted:
        raise _refuse(Code.DEAL_DELETED, _("This deal is deleted."))
    if version is not None and current.version != version:
        raise game_services.DealConflict(
            _("This deal was corrected meanwhile (now version %(version)s): read it again.")
            % {"version": current.version},
            current=current,
        )
    confirmation = DealConfirmation.objects.select_for_update().filter(deal=current).first()
    if confirmation is None:
        # Entered before the tournament asked for confirmations: it counts as it stands.
        raise _refuse(Code.ALREADY_CONFIRMED, _("This deal is already confirmed."))
    seated = list(game.seats.order_by("position").values_list("player_id", flat=True))
    return current, table, seated, confirmation


def _table_player(
    deal: Deal, confirmation: DealConfirmation, *, by: Actor, player: int | None, seated: list[int]
) -> int:
    """The player of the other side acting now (named on the link, or the account's)."""
    acting = player if player is not None else _account_player(by, seated)
    if acting is None or acting not in seated:
        raise _refuse(
            Code.NOT_AT_TABLE,
            _("Only a player of this table, a referee or an organiser may do this."),
        )
    entered = confirmation.entered_side
    if entered and side_of(deal.payload, acting) == entered:
        raise _refuse(
            Code.SAME_SIDE,
            _("%(side)s entered this deal: a player of %(other)s confirms it.")
            % {"side": side_label(entered).capitalize(), "other": side_label(other_side(entered))},
        )
    return acting


def _check_personal(table: Table, acting: int, *, by: Actor, proof: str = "") -> None:
    """Where the tournament asks for personal proof, the player acting proves who he is: signed
    in to the account linked to him, or on a phone (or an API request) his player card or his
    PIN proved (``play.holder``); refused otherwise."""
    if not holder.personal(table):
        return
    account = signed_in(by)
    proof = proof or (f"user:{account.pk}" if account is not None else "")
    if not holder.proof_of_player(proof, table, acting):
        raise TournamentRefusal.on(
            "pin",
            Code.PROOF_NEEDED,
            _("Prove who you are: type your PIN, open your player card's link, or sign in."),
        )


def _after_change(table: Table, confirmation: DealConfirmation) -> None:
    # Confirmed, a deal now counts; disputed, it still does not: the table's standings follow.
    standings_after_table_change(game_id=table.game_id)
    if confirmation.status == Status.CONFIRMED and table.round.status != Round.Status.CLOSED:
        close_if_complete(round_=table.round)


@transaction.atomic
def deal_confirm(
    *,
    deal: Deal,
    by: Actor,
    player: int | None = None,
    version: int | None = None,
    proof: str = "",
    reason: str = "",
) -> DealConfirmation:
    """Confirm a pending deal: by a player of the other side (``player``, named on the table's
    link, or the account's own player), or by an organiser or referee who does not play at the
    table (who may also confirm a disputed deal: the entered version is kept). Confirming a
    confirmed deal changes nothing. Closes the round if this was the last deal it waited for.

    A deal is never confirmed by the proof that entered it (``proof``: the account, or the
    phone): a phone that entered a deal and then names a player of the other side is refused.
    Where the tournament asks for personal proof, ``proof`` proves the player himself (his
    account, card or PIN: ``play.holder``). An organiser or referee confirming instead of the
    other side gives a written ``reason``, kept with the confirmation."""
    current, table, seated, confirmation = _locked(deal, version)
    if confirmation.status == Status.CONFIRMED:
        return confirmation
    account = signed_in(by)
    if player is None and referee_for(account, table, seated):
        confirmation.referee_reason = _referee_reason(reason)
        confirmation.confirmed_by = None
    else:
        acting = _table_player(current, confirmation, by=by, player=player, seated=seated)
        proof = proof or (f"user:{account.pk}" if account is not None else "")
        if proof and proof == confirmation.entered_proof:
            raise _refuse(
                Code.SAME_PROOF,
                _(
                    "This phone entered the deal: a player of the other side confirms it on "
                    "their own phone, or signed in to their own account."
                ),
            )
        if confirmation.status == Status.DISPUTED:
            raise _refuse(Code.DISPUTED, _("This deal is disputed: a referee decides."))
        _check_personal(table, acting, by=by, proof=proof)
        confirmation.confirmed_by_id = acting
    confirmation.status = Status.CONFIRMED
    confirmation.confirmed_by_user = account
    confirmation.confirmed_at = timezone.now()
    confirmation.save()
    _counted_as(current, confirmation)  # a referee confirming a contested deal releases it
    _after_change(table, confirmation)
    return confirmation


@transaction.atomic
def deal_dispute(
    *,
    deal: Deal,
    payload: Mapping[str, Any],
    by: Actor,
    player: int | None = None,
    version: int | None = None,
    proof: str = "",
) -> DealConfirmation:
    """The other side disagrees with a pending deal and gives its own version (the scoring
    contract, players by id): the deal goes to the referee with both. The version is scored
    as the deal would be (refused like a deal entry otherwise), and nothing of the deal
    changes but that it counts nowhere until settled: held out of the club's statistics and
    ratings too (``_counted_as``), which the change feed and the webhooks tell."""
    current, table, seated, confirmation = _locked(deal, version)
    if confirmation.status != Status.PENDING:
        raise _refuse(
            Code.NOT_PENDING,
            _("This deal is confirmed.")
            if confirmation.status == Status.CONFIRMED
            else _("This deal is already disputed: a referee decides."),
        )
    acting = _table_player(current, confirmation, by=by, player=player, seated=seated)
    _check_personal(table, acting, by=by, proof=proof)
    entered = game_services.as_entered(current.game, payload)
    result, view = game_services.deal_score(
        game=current.game, payload=entered, number=current.number
    )
    confirmation.status = Status.DISPUTED
    confirmation.disputed_by_id = acting
    confirmation.disputed_at = timezone.now()
    confirmation.dispute_payload = dict(entered)
    confirmation.dispute_scores = {str(k): v for k, v in view.scores_by_id(result).items()}
    confirmation.save()
    _counted_as(current, confirmation)  # held out of the club's counts until settled
    _after_change(table, confirmation)
    return confirmation


KEEP_ENTERED, KEEP_OTHER = "entered", "other"


@transaction.atomic
def dispute_settle(*, deal: Deal, keep: str, by: Actor, reason: str = "") -> Deal:
    """A referee (or organiser) not playing at the table settles a disputed deal: keeps the
    version entered (the deal is confirmed as it is) or the other side's (the deal is corrected
    to it through ``deal_update``, so its history records the change, and confirmed), with a
    written ``reason`` kept with the confirmation (and in the correction's history). Either
    way the deal counts again, once, as it now stands: confirmed, it is released
    (``_counted_as``), and a correction of a held deal counts nothing before that."""
    current, table, seated, confirmation = _locked(deal, None)
    if not referee_for(by, table, seated):
        raise _refuse(
            Code.NOT_REFEREE,
            _("Only a referee or an organiser who does not play at this table decides."),
        )
    if confirmation.status != Status.DISPUTED or confirmation.dispute_payload is None:
        raise _refuse(Code.NOT_DISPUTED, _("This deal is not disputed."))
    if keep not in (KEEP_ENTERED, KEEP_OTHER):
        raise _refuse(Code.KEEP_INVALID, _("Keep the version entered or the other side's."))
    reason = _referee_reason(reason)
    if keep == KEEP_ENTERED:
        deal_confirm(deal=current, by=by, reason=reason)
        return current
    corrected = game_services.deal_update(
        deal=current,
        payload=confirmation.dispute_payload,
        version=current.version,
        by=by,
        by_label=_("Referee"),
        reason=reason,
    )
    if corrected.version == current.version:
        # The other side's version is the deal as entered (a dispute that changed nothing):
        # no correction to make, so the referee's decision confirms it as it stands.
        deal_confirm(deal=current, by=by, reason=reason)
        return current
    DealConfirmation.objects.filter(deal=current).update(referee_reason=reason)
    return corrected
