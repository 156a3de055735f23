"""A player's card: the personal proof handed to him at check-in, never left on the table.

Where a tournament asks for personal proof, each entry has a card (printed eight a page from
the registration page): the player's name, his PIN, and the QR code of his personal link
(``/tournaments/card/<token>/``). The token is signed with the site's key over the entry and
its card's number (``Entry.card_number``), so it cannot be guessed or forged; the organisers
issue a new card (``card_renew``: a new number and a new PIN) when one is lost, and the old card
stops working at once.

Opening the personal link proves that phone (its session) as the player for this tournament
(``card_prove``): on his table's link the phone is his, as a signed-in account would be, and he
confirms without typing his PIN. What proves him is then ``entry:<id>``, distinct from a
phone's proof and from an account's, so a deal is never confirmed by the proof that entered it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core import signing
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tournaments.models import Entry, Tournament, new_pin

SALT = "tournaments.card"


def _signer() -> signing.Signer:
    return signing.Signer(salt=SALT)


def card_token(entry: Entry) -> str:
    """The token of the entry's current card: its personal link's last part."""
    return _signer().sign(f"{entry.pk}.{entry.card_number}")


def card_entry(token: str) -> Entry | None:
    """The entry whose current card this token is; None for a forged, mangled or voided
    token (a card replaced since)."""
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        return None
    pk, _dot, number = value.partition(".")
    if not (pk.isascii() and pk.isdigit() and number.isascii() and number.isdigit()):
        return None
    return (
        Entry.objects.select_related("tournament__club", "player")
        .filter(pk=int(pk), card_number=int(number))
        .first()
    )


def proof_of(entry: Entry) -> str:
    """What a phone proven by the entry's card proves (``DealConfirmation.entered_proof``)."""
    return f"entry:{entry.pk}"


def _session_key(tournament_id: int) -> str:
    return f"tournament-card:{tournament_id}"


def _replaced_key(tournament_id: int) -> str:
    return f"tournament-card-replaced:{tournament_id}"


def phone_place(session: Any) -> str:
    """This phone: a digest of its session (kept whoever it names)."""
    if session.session_key is None:
        session.save()
    key = str(session.session_key)
    return "phone:" + hashlib.sha256(key.encode()).hexdigest()[:40]


def card_prove(session: Any, entry: Entry) -> bool:
    """This phone (``session``) is the entry's player for its tournament, as long as the card
    stands. True when the card (or the PIN) already proved another phone: both phones say so
    (``Entry.card_elsewhere_at``), so that a card opened on someone else's phone is noticed."""
    session[_session_key(entry.tournament_id)] = {"entry": entry.pk, "card": entry.card_number}
    session.pop(_replaced_key(entry.tournament_id), None)
    place = phone_place(session)
    if not entry.card_phone:
        Entry.objects.filter(pk=entry.pk, card_phone="").update(card_phone=place)
        entry.card_phone = place
        return False
    if entry.card_phone == place:
        return entry.card_elsewhere_at is not None
    entry.card_elsewhere_at = timezone.now()
    Entry.objects.filter(pk=entry.pk).update(card_elsewhere_at=entry.card_elsewhere_at)
    return True


def proven_entry(session: Any, tournament: Tournament) -> Entry | None:
    """The entry this phone was proven as by its card in this tournament, while that card is
    still the entry's (a replaced card proves nothing, and is forgotten)."""
    kept = session.get(_session_key(tournament.pk))
    if not isinstance(kept, dict):
        return None
    pk, number = kept.get("entry"), kept.get("card")
    if not isinstance(pk, int) or not isinstance(number, int):
        return None
    entry = (
        Entry.objects.select_related("player")
        .filter(tournament=tournament, pk=pk, card_number=number)
        .first()
    )
    if entry is None:
        session.pop(_session_key(tournament.pk), None)
        session[_replaced_key(tournament.pk)] = True
    return entry


def card_replaced(session: Any, tournament: Tournament) -> bool:
    """Whether the card that proved this phone in this tournament was found replaced since (so
    the phone can tell its holder why it asks who he is again); said once, then forgotten."""
    return bool(session.pop(_replaced_key(tournament.pk), False))


@transaction.atomic
def card_renew(*, entry: Entry) -> Entry:
    """A new card for the entry (the old one was lost, or seen): a new number, so the old
    card's link proves nothing any more, on any phone, and a new PIN."""
    Entry.objects.filter(pk=entry.pk).update(
        card_number=F("card_number") + 1, pin=new_pin(), card_phone="", card_elsewhere_at=None
    )
    entry.refresh_from_db(fields=["card_number", "pin", "card_phone", "card_elsewhere_at"])
    return entry
