"""The people of a tournament beyond registration: players kept apart, byes and substitutes.

- Players kept apart (``ApartPair``): two entries who must never share a table (family, a player
  and the referee). The seating keeps them apart as it keeps teammates apart
  (``seating.seat_round(apart=...)``); what it cannot avoid is seated anyway and reported on
  the round page (``round_clashes``).
- Byes (``Bye``): when the checked-in count cannot be seated, the organiser may seat the round
  with the fewest players sitting out (``seating.fewest_byes``), chosen by
  ``seating.byes.who_sits_out``; each scores ``BYE_POINTS`` in that round's cell.
- Substitutes (``Substitution``): a substitute takes over a player's seat at a table of a seated
  or playing round; the deals entered before keep the replaced player's score lines, the later
  ones are the substitute's, whose own entry (``Entry.substitute_for``) is ranked apart.

Writes are keyword-only services in one transaction each, raising ``Refusal`` with a reason per
field; reads are the selectors below. docs/tournaments.md says the rules.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Player
from tarot_scores.core.actors import signed_in
from tarot_scores.core.errors import Reason
from tarot_scores.core.names import look_alike, name_refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Seat
from tournaments import seating
from tournaments.errors import Code, TournamentError, TournamentRefusal
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for
from tournaments.models import (
    APART_REASON_MAX,
    ApartPair,
    Bye,
    Entry,
    Round,
    Substitution,
    Table,
    Tournament,
)
from tournaments.rules import different_players_refusal
from tournaments.seating.byes import who_sits_out
from tournaments.standings.selectors import standings_for
from tournaments.standings.store import standings_refresh

BYE_POINTS = 0
"""What a bye scores for the round: a round's scores sum to zero at every table, so 0 is the
field's average for that round (docs/tournaments.md, "Byes")."""


# --- players kept apart ---------------------------------------------------------------------


@transaction.atomic
def apart_pair_add(
    *,
    tournament: Tournament,
    first: Entry | None,
    second: Entry | None,
    reason: str,
    by: Any = None,
) -> ApartPair:
    """Keep two entries of the tournament apart from now on (the rounds already seated stay as
    they are). ``Refusal`` with a reason on ``first``, ``second`` or ``reason``."""
    reasons: dict[str, list[Reason]] = defaultdict(list)
    if first is None:
        reasons["first"].append(Reason(Code.REQUIRED, _("Choose a player.")))
    if second is None:
        reasons["second"].append(Reason(Code.REQUIRED, _("Choose a player.")))
    text = reason.strip()
    if not text:
        reasons["reason"].append(
            Reason(Code.REQUIRED, _("Say why they must not share a table (family, referee...)."))
        )
    elif len(text) > APART_REASON_MAX:
        reasons["reason"].append(
            Reason(Code.TOO_LONG, _("At most %(n)s characters.") % {"n": APART_REASON_MAX})
        )
    for field, entry in (("first", first), ("second", second)):
        if entry is not None and entry.tournament_id != tournament.pk:
            reasons[field].append(
                Reason(Code.UNKNOWN_ENTRY, _("No such entry in this tournament."))
            )
    same = different_players_refusal(first and first.pk, second and second.pk)
    if same:
        reasons["second"] += same.reasons["second"]
    if reasons:
        raise TournamentRefusal(reasons)
    assert first is not None and second is not None
    low, high = sorted((first, second), key=lambda e: e.pk)
    already = TournamentRefusal.on(
        "second",
        Code.ALREADY_APART,
        _("%(a)s and %(b)s are already kept apart.")
        % {"a": low.player.label, "b": high.player.label},
    )
    if ApartPair.objects.filter(tournament=tournament, first=low, second=high).exists():
        raise already
    try:
        with transaction.atomic():
            return ApartPair.objects.create(
                tournament=tournament, first=low, second=high, reason=text, created_by=signed_in(by)
            )
    except IntegrityError:
        # Two organisers kept the same pair apart at the same moment: the other's is stored.
        raise already from None


@transaction.atomic
def apart_pair_remove(*, pair: ApartPair) -> None:
    """They may share a table again from the next round seated."""
    pair.delete()


# --- byes ------------------------------------------------------------------------------------


def byes_draw(
    *, tournament: Tournament, players: list[int], number: int
) -> tuple[list[int], list[int]]:
    """Round ``number``'s players (ids) split into those seated and those who sit out: the
    fewest that leave a count the tables seat, by the rule of ``who_sits_out`` (fewest byes so
    far, then the lowest total the standings show, then the draw). Three queries when someone
    sits out; raises ``seating.SeatingError`` when no table can be made at all."""
    count = seating.fewest_byes(len(players), allow_threes=tournament.allow_threes)
    if not count:
        return players, []
    so_far = dict(
        Bye.objects.filter(round__tournament=tournament)
        .values_list("entry__player_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    # The totals the standings show: after a cut that did not carry the scores over, the
    # current stage's, not every round's.
    totals = {row.player.pk: row.total for row in standings_for(tournament=tournament)}
    out = who_sits_out(
        players,
        count,
        byes_so_far=so_far,
        totals={p: float(t) for p, t in totals.items()},
        seed=tournament.seed,
        round_number=number,
    )
    return [p for p in players if p not in out], sorted(out)


def byes_record(*, round_: Round, player_ids: Collection[int]) -> list[Bye]:
    """The byes of a round just seated, each scoring ``BYE_POINTS`` (in the caller's
    transaction; the caller refreshes the standings)."""
    entries = Entry.objects.filter(tournament_id=round_.tournament_id, player_id__in=player_ids)
    return Bye.objects.bulk_create(
        [Bye(round=round_, entry=entry, points=BYE_POINTS) for entry in entries]
    )


# --- substitutes -----------------------------------------------------------------------------


def _substitute_player(tournament: Tournament, player: Player | None, name: str) -> Player:
    if player is not None:
        return player
    if not name.strip():
        raise TournamentRefusal.on(
            "substitute", Code.REQUIRED, _("Choose a club player or type the substitute's name.")
        )
    refusal = name_refusal(name)
    if refusal:
        raise TournamentRefusal.on("substitute", Code.BAD_NAME, refusal)
    for candidate in tournament.club.players.all():
        if look_alike(name, candidate.name) or look_alike(name, candidate.label):
            return candidate
    return club_services.player_create(club=tournament.club, name=name)


@transaction.atomic
def substitute_seat(
    *,
    round_: Round,
    replaced: Entry,
    player: Player | None = None,
    name: str = "",
    returns: bool = False,
    by: Any = None,
) -> Substitution:
    """A substitute (a club player, or a new name) takes over ``replaced``'s seat in this
    seated or playing round, for the table's deals from now on. The deals already entered
    keep the replaced player's score lines; the substitute gets his own entry
    (``substitute_for``), ranked apart, seated in this round only. The replaced player withdrew
    after the previous round, unless he ``returns`` (seated again from the next round).

    ``Refusal`` on ``replaced`` (not seated here, the round closed), on ``substitute`` (no one
    given, already seated in this round, already registered in the tournament)."""
    round_ = Round.objects.select_for_update().select_related("tournament__club").get(pk=round_.pk)
    tournament = round_.tournament
    refusal = duplicate_format.seats_fixed_refusal(tournament)
    if refusal:
        raise TournamentRefusal.on("replaced", Code.DUPLICATE_SEATS, str(refusal))
    if round_.status == Round.Status.CLOSED:
        raise TournamentRefusal.on(
            "replaced", Code.ROUND_CLOSED, _("This round is closed: no substitute can sit in now.")
        )
    seat = (
        Seat.objects.select_for_update()
        .filter(game__tournament_table__round=round_, player_id=replaced.player_id)
        .first()
    )
    if seat is None or replaced.tournament_id != tournament.pk:
        raise TournamentRefusal.on(
            "replaced",
            Code.NOT_SEATED,
            _("%(name)s is not seated in this round.") % {"name": replaced.player.label},
        )
    player = _substitute_player(tournament, player, name)
    if Seat.objects.filter(game__tournament_table__round=round_, player=player).exists():
        raise TournamentRefusal.on(
            "substitute",
            Code.ALREADY_SEATED,
            _("%(name)s is already seated in this round.") % {"name": player.label},
        )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise TournamentRefusal.on(
            "substitute",
            Code.ALREADY_REGISTERED,
            _(
                "%(name)s is registered in this tournament: a substitute's scores are kept "
                "apart, so he must not be."
            )
            % {"name": player.label},
        )
    if not player.clubs.filter(pk=tournament.club_id).exists():
        player.clubs.add(tournament.club)  # a guest, as at registration
    number = round_.number
    # Not checked in: the seating never seats him (only this substitution does), and the
    # head counts of the tournament's players leave him out.
    substitute = Entry.objects.create(
        tournament=tournament,
        player=player,
        checked_in=False,
        first_round=number,
        withdrawn_after=number,
        substitute_for=replaced,
    )
    table = Table.objects.get(game_id=seat.game_id)
    deals_before = table.game.deals.filter(deleted_at__isnull=True).count()
    Seat.objects.filter(pk=seat.pk).update(player=player)
    game_services.games_changed(game_ids=[seat.game_id])
    if not returns and (replaced.withdrawn_after is None or replaced.withdrawn_after >= number):
        replaced.withdrawn_after = number - 1
        replaced.save(update_fields=["withdrawn_after"])
    done = Substitution.objects.create(
        round=round_,
        table=table,
        replaced=replaced,
        substitute=substitute,
        deals_before=deals_before,
        returns=returns,
        by=signed_in(by),
    )
    standings_refresh(round_=round_, player_ids=[replaced.player_id, player.pk])
    return done


def seating_refusal(
    error: seating.SeatingError, tournament: Tournament, lang: str
) -> TournamentError:
    """Why a round cannot be seated, and, when a count that cannot make tables could be seated
    with byes, how."""
    message = error.message("en" if lang == "en" else "fr")
    if isinstance(error, seating.ImpossibleTablePlan) and format_for(tournament).seats_byes:
        try:
            byes = seating.fewest_byes(error.players, allow_threes=tournament.allow_threes)
        except seating.SeatingError:
            return TournamentError.whole(Code.UNSEATABLE, message)
        message += " " + ngettext(
            "Or seat the round with %(n)s player sitting out (a bye), from the registration page.",
            "Or seat the round with %(n)s players sitting out (a bye), from the registration page.",
            byes,
        ) % {"n": byes}
    return TournamentError.whole(Code.UNSEATABLE, message)
