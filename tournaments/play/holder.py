"""Who holds a phone at a tournament table, and what proves him: the one home of the rule, for
the table's page (``views.table_entry``) and the table link's API (``api.table_link``) alike.

Where a tournament requires confirmation, every change made from a table's link is made by a
player of the table, its *holder*, with a *proof* kept with the deal
(``DealConfirmation.entered_proof``), so that the proof that entered a deal never confirms it:

- an account signed in (``user:<id>``) is its own player when he sits at the table; a player
  whose account is linked is named by that account alone (a phone or the API cannot speak for
  him);
- with **personal proof** (``Tournament.confirmation_proof``), a holder proves who he is with
  his player card's link (``entry:<id>``, ``play.cards``) or his PIN: typed once on a phone, it
  proves that phone as his as the card does; sent with each request of the link's API, it proves
  that request. Nobody is named without it;
- with **phone proof** (the default), the phone names its holder and proves only itself: a
  digest of its session (``phone:<digest>``). It tells the referee who vouched for a deal and
  keeps one phone from confirming what it entered; it does not prove the person (a second
  browser is a second phone). The link's API is no phone: it enters and corrects as the link
  (``api:<table>``), and confirms or disagrees only with the acting player's PIN or account.

Wrong PINs are counted where they were typed (``play.pins``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tarot_scores.clubs.models import Player
from tarot_scores.core.actors import Actor, AtTable, signed_in
from tournaments.errors import Code, TournamentRefusal
from tournaments.models import Entry, Table, Tournament
from tournaments.play import cards, pins


@dataclass(frozen=True)
class Holder:
    """Who acts on this phone (None: nobody named yet, or no confirmation asked), whether that
    is proven (an account, a card or a PIN), what proves it, and where its PINs are typed."""

    player: Player | None
    proven: bool
    proof: str
    place: str
    # Since when the player's card (or PIN) proves another phone too (said on both phones).
    elsewhere: datetime.datetime | None = None

    def at_table(self) -> AtTable:
        """As the deal services hand it to the deal hook."""
        return AtTable(self.player.pk if self.player is not None else None, self.proof)


def personal(table: Table) -> bool:
    return table.round.tournament.confirmation_proof == Tournament.ConfirmationProof.PERSONAL


def _session_key(table: Table) -> str:
    return f"table-player:{table.token}"


phone_place = cards.phone_place


def api_place(table: Table) -> str:
    return f"api:{table.pk}"


def _refuse(code: Code, message: str, field: str = "player") -> TournamentRefusal:
    return TournamentRefusal.on(field, code, message)


def _unknown() -> TournamentRefusal:
    return _refuse(Code.HOLDER_UNKNOWN, _("Choose your name among the players of this table."))


def _linked(player: Player) -> TournamentRefusal:
    return _refuse(
        Code.HOLDER_LINKED,
        _("%(name)s has an account: sign in to it to act for %(name)s.") % {"name": player.label},
    )


def _own(account: Any, players: list[Player]) -> Player | None:
    if account is None:
        return None
    return next((p for p in players if p.user_id == account.pk), None)


def _entry(table: Table, player: Player) -> Entry | None:
    return Entry.objects.filter(tournament_id=table.round.tournament_id, player=player).first()


def _pin_proof(table: Table, player: Player, pin: str | None, place: str) -> Entry:
    """The player's PIN typed at ``place``: his entry when right; refused (and counted at the
    phone and the table) otherwise."""
    entry = _entry(table, player)
    try:
        pins.pin_check(entry, pin, at=pins.typed_at(table, place))
    except pins.PinMissed as missed:
        raise pins.pin_missed(missed) from None
    assert entry is not None  # pin_check refuses a player with no entry
    return entry


# --- on the table's page ---------------------------------------------------------------------


def page_holder(request: Any, table: Table, players: list[Player]) -> Holder:
    """Who acts on this phone: a signed-in player of the table, the player whose card or PIN
    proved this phone in this tournament, else (phone proof only) the player it named."""
    account = signed_in(request.user)
    place = phone_place(request.session)
    own = _own(account, players)
    if own is not None:
        return Holder(own, True, f"user:{account.pk}", place)
    proof_of_account = f"user:{account.pk}" if account is not None else ""
    carded = cards.proven_entry(request.session, table.round.tournament)
    if carded is not None:
        own = next((p for p in players if p.pk == carded.player_id), None)
        if own is not None:
            return Holder(
                own, True, cards.proof_of(carded), place, elsewhere=carded.card_elsewhere_at
            )
    if personal(table):
        return Holder(None, False, proof_of_account or place, place)
    chosen = request.session.get(_session_key(table))
    # A player whose account is linked acts through it alone: a phone cannot speak for him.
    named = next((p for p in players if p.pk == chosen and p.user_id is None), None)
    return Holder(named, False, proof_of_account or place, place)


def page_name(
    request: Any, table: Table, players: list[Player], chosen: str, pin: str | None
) -> Player:
    """This phone names who holds it (``chosen``, a player's id as posted): a player of the
    table, not one whose account is linked (unless it is the account signed in), and, with
    personal proof, proven by his PIN (which then proves this phone as his card would).
    ``TournamentRefusal`` otherwise (``PinLocked`` too), and nothing is kept."""
    player = next((p for p in players if str(p.pk) == chosen), None)
    if player is None:
        raise _unknown()
    account = signed_in(request.user)
    if player.user_id is not None and (account is None or player.user_id != account.pk):
        raise _linked(player)
    if personal(table) and player.user_id is None:
        entry = _pin_proof(table, player, pin, phone_place(request.session))
        cards.card_prove(request.session, entry)
    request.session[_session_key(table)] = player.pk
    return player


def asks_pin(table: Table, holder: Holder) -> bool:
    """Whether this phone is shown a PIN box to name its holder: personal proof, and no
    account signed in speaks for him (a phone proven by a card or a PIN may be handed to
    another player, who types his own). Never where it would be refused: the page asks
    ``pin_locked_until`` first."""
    return personal(table) and not holder.proof.startswith("user:")


def pin_locked_until(table: Table, holder: Holder) -> Any:
    """Until when this phone (or its table) may type no PIN; None when it may."""
    return pins.locked_until(pins.typed_at(table, holder.place))


# --- through the table link's API ------------------------------------------------------------


def api_holder(
    user: Actor,
    table: Table,
    players: list[Player],
    named: Any,
    pin: str | None,
    *,
    answering: bool = False,
) -> Holder:
    """Who acts through the link's API: ``named`` (the body's ``player``), one of the table's
    players. A player whose account is linked only with that account's token; with personal
    proof, or to confirm or disagree (``answering``: the API is no phone), proven by the
    account or his ``pin``. ``TournamentRefusal`` otherwise (``PinLocked`` too)."""
    place = api_place(table)
    if not isinstance(named, int) or isinstance(named, bool):
        raise _unknown()
    player = next((p for p in players if p.pk == named), None)
    if player is None:
        raise _unknown()
    account = signed_in(user)
    if account is not None and player.user_id == account.pk:
        return Holder(player, True, f"user:{account.pk}", place)
    if player.user_id is not None:
        raise _linked(player)
    if personal(table) or answering:
        entry = _pin_proof(table, player, pin, place)
        return Holder(player, True, cards.proof_of(entry), place)
    return Holder(player, False, f"user:{account.pk}" if account is not None else place, place)


def proof_of_player(proof: str, table: Table, player_id: int) -> bool:
    """Whether ``proof`` proves this player himself (his linked account, or his card or PIN):
    what personal proof asks of whoever enters, confirms or disagrees."""
    kind, _colon, pk = proof.partition(":")
    if not pk.isdigit():
        return False
    if kind == "user":
        return Player.objects.filter(pk=player_id, user_id=int(pk)).exists()
    if kind == "entry":
        return Entry.objects.filter(
            pk=int(pk), player_id=player_id, tournament_id=table.round.tournament_id
        ).exists()
    return False
