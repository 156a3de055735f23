"""Rules every room of a tournament shares, and no writes: which deals the results count, the
number the next round takes, who plays a round, who may referee (what differs by format is
``tournaments.formats``' to say).
The model, the services, the selectors and the pages ask these, never a copy of them."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tarot_scores.clubs import permissions
from tarot_scores.games.models import Game
from tournaments.duplicate import Method
from tournaments.errors import Code, TournamentRefusal
from tournaments.models import Cut, DealConfirmation, Entry, Tournament

Confirmation = DealConfirmation.Status


def counted(tournament: Tournament, prefix: str = "") -> Q:
    """The live deals the results count: all of them, or, when the tournament requires
    confirmation, the confirmed ones (and those entered before it was required). ``prefix``
    is the path from the queried model to the deal (``"deal__"`` from a score line)."""
    live = Q(**{f"{prefix}deleted_at__isnull": True})
    if not tournament.require_confirmation:
        return live
    return live & (
        Q(**{f"{prefix}confirmation__isnull": True})
        | Q(**{f"{prefix}confirmation__status": Confirmation.CONFIRMED})
    )


def method_of(tournament: Tournament) -> Method:
    return Method(tournament.duplicate_method)


def is_referee(who: Any, tournament: Tournament) -> bool:
    """Named a referee of this tournament (whatever the account's role in the club)."""
    reader = permissions.access_of(who)
    user = reader.user
    if user is None or not user.is_authenticated:
        return False
    key = ("referee", tournament.pk)
    if key not in reader.memo:
        reader.memo[key] = tournament.referees.filter(pk=user.pk).exists()
    return bool(reader.memo[key])


def can_referee(who: Any, tournament: Tournament) -> bool:
    """Settle the tables' results: the club's organisers and the tournament's referees."""
    return permissions.is_organiser(who, tournament.club) or is_referee(who, tournament)


def maybe_table(game: Game) -> bool:
    """Whether this game can be a tournament table, asked without a query: a table always has
    a set length (the deals per round), a club's own game has none. Every hook of the
    tournaments asks this first, so a club's game costs them nothing."""
    return game.max_deals is not None


def next_round_number(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def last_cut_before(tournament: Tournament, number: int) -> int | None:
    """The round after which the latest cut (not undone) before round ``number`` was made."""
    return (
        Cut.objects.filter(tournament=tournament, undone_at__isnull=True, after_round__lt=number)
        .order_by("-after_round")
        .values_list("after_round", flat=True)
        .first()
    )


def entries_playing(tournament: Tournament, number: int) -> QuerySet[Entry]:
    """Who plays round ``number``: the one rule the seating, the duplicate draw and the
    registration page's table plan read. Checked in, registered for a round up to it, not
    withdrawn and not cut before it. A championship's cut leaves its players out of the rounds
    after it, and a player registered after a cut was never in its field: only the qualified
    play on (``tournaments.standings.cuts``)."""
    entries = tournament.entries.filter(checked_in=True, first_round__lte=number).filter(
        Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=number),
        Q(cut_after__isnull=True) | Q(cut_after__gte=number),
    )
    last_cut = last_cut_before(tournament, number)
    if last_cut is not None:
        entries = entries.filter(first_round__lte=last_cut)
    return entries


def players_for(tournament: Tournament, number: int) -> list[int]:
    """The players of round ``number`` (see ``entries_playing``), by id."""
    playing = entries_playing(tournament, number).order_by("player_id")
    return list(playing.values_list("player_id", flat=True))


def different_players_refusal(first: object, second: object) -> TournamentRefusal | None:
    """Two players chosen where they must be two (a swap of seats, a pair kept apart): refused
    on ``second`` when they are the same one. ``None`` (not chosen yet) is never refused."""
    if first is not None and first == second:
        return TournamentRefusal.on("second", Code.SAME_PLAYER, _("Choose two different players."))
    return None
