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
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Player
from tarot_scores.core.actors import signed_in
from tarot_scores.core.errors import Reason, Refusal
from tarot_scores.core.names import name_refusal
from tarot_scores.core.results import results_changed
from tarot_scores.games.models import Deal, Seat
from tournaments import duplicate_play, seating
from tournaments.models import (
    ApartPair,
    Bye,
    Entry,
    Round,
    Substitution,
    Table,
    Tournament,
)
from tournaments.seating.byes import who_sits_out
from tournaments.selectors import standings_for
from tournaments.standings import standings_refresh

MAX_REASON = 200
BYE_POINTS = 0
"""What a bye scores for the round: a round's scores sum to zero at every table, so 0 is the
field's average for that round (docs/tournaments.md, "Byes")."""


# --- players kept apart ---------------------------------------------------------------------


def apart_pairs(tournament: Tournament) -> set[frozenset[int]]:
    """The pairs of players (player ids) who must never share a table: the organiser's pairs
    (teammates are kept apart through their team). One query."""
    rows = ApartPair.objects.filter(tournament=tournament).values_list(
        "first__player_id", "second__player_id"
    )
    return {frozenset(pair) for pair in rows}


def apart_pairs_listed(*, tournament: Tournament) -> list[ApartPair]:
    """The pairs with their players and reasons, in the order they were added (one query)."""
    return list(
        ApartPair.objects.filter(tournament=tournament).select_related(
            "first__player", "second__player", "created_by"
        )
    )


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
        reasons["first"].append(Reason("required", _("Choose a player.")))
    if second is None:
        reasons["second"].append(Reason("required", _("Choose a player.")))
    text = reason.strip()
    if not text:
        reasons["reason"].append(
            Reason("required", _("Say why they must not share a table (family, referee...)."))
        )
    elif len(text) > MAX_REASON:
        reasons["reason"].append(
            Reason("too_long", _("At most %(n)s characters.") % {"n": MAX_REASON})
        )
    for field, entry in (("first", first), ("second", second)):
        if entry is not None and entry.tournament_id != tournament.pk:
            reasons[field].append(Reason("unknown_entry", _("No such entry in this tournament.")))
    if first is not None and second is not None and first.pk == second.pk:
        reasons["second"].append(Reason("same_player", _("Choose two different players.")))
    if reasons:
        raise Refusal(reasons)
    assert first is not None and second is not None
    low, high = sorted((first, second), key=lambda e: e.pk)
    already = Refusal.on(
        "second",
        "already_apart",
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


@dataclass(frozen=True)
class Clash:
    """Two players kept apart (teammates, or a pair) seated at one table of a round."""

    table: int
    players: tuple[str, str]
    reason: str  # the pair's reason, or the team's name


def round_clashes(*, round_: Round) -> list[Clash]:
    """The pairs kept apart who share a table in this round as it is seated now (after swaps
    and substitutions too): three queries."""
    seats = Seat.objects.filter(game__tournament_table__round=round_).values_list(
        "game__tournament_table__number", "player_id", "player__name", "player__nickname"
    )
    tables: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    for number, pid, name, nickname in seats:
        tables[number].append(pid)
        names[pid] = nickname or name
    by_team: dict[str, list[int]] = defaultdict(list)
    for pid, team in Entry.objects.filter(
        tournament_id=round_.tournament_id, team__isnull=False, player_id__in=list(names)
    ).values_list("player_id", "team__name"):
        by_team[team].append(pid)
    pairs: dict[frozenset[int], str] = {}
    for team, members in by_team.items():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                pairs[frozenset({a, b})] = _("team %(name)s") % {"name": team}
    for a, b, reason in ApartPair.objects.filter(tournament_id=round_.tournament_id).values_list(
        "first__player_id", "second__player_id", "reason"
    ):
        pairs.setdefault(frozenset({a, b}), reason)
    clashes: list[Clash] = []
    for number, players in sorted(tables.items()):
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                why = pairs.get(frozenset({a, b}))
                if why is not None:
                    clashes.append(Clash(number, (names[a], names[b]), why))
    return clashes


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


def round_byes(*, round_: Round) -> list[Bye]:
    """Who sat this round out, by name (one query)."""
    return sorted(
        Bye.objects.filter(round=round_).select_related("entry__player"),
        key=lambda bye: bye.entry.player.label.casefold(),
    )


def bye_points(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, dict[int, int]]:
    """player id -> round number -> the points of his bye there (one query)."""
    rows = Bye.objects.filter(round__tournament=tournament)
    if player_ids is not None:
        rows = rows.filter(entry__player_id__in=player_ids)
    points: dict[int, dict[int, int]] = defaultdict(dict)
    for pid, number, value in rows.values_list("entry__player_id", "round__number", "points"):
        points[pid][number] = value
    return points


def replaced_rounds(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, set[int]]:
    """player id -> the rounds where a substitute took over his seat: he keeps that round's
    cell (the deals before) though he is no longer seated there (one query)."""
    rows = Substitution.objects.filter(round__tournament=tournament)
    if player_ids is not None:
        rows = rows.filter(replaced__player_id__in=player_ids)
    out: dict[int, set[int]] = defaultdict(set)
    for pid, number in rows.values_list("replaced__player_id", "round__number"):
        out[pid].add(number)
    return out


def present_in_round(round_: Round, player_ids: Collection[int]) -> tuple[dict[int, int], set[int]]:
    """Of these players, those who count in this round without a seat there: bye points by
    player, and the players a substitute replaced (two queries)."""
    byes = dict(
        Bye.objects.filter(round=round_, entry__player_id__in=player_ids).values_list(
            "entry__player_id", "points"
        )
    )
    replaced = set(
        Substitution.objects.filter(round=round_, replaced__player_id__in=player_ids).values_list(
            "replaced__player_id", flat=True
        )
    )
    return byes, replaced


# --- substitutes -----------------------------------------------------------------------------


def _substitute_player(tournament: Tournament, player: Player | None, name: str) -> Player:
    if player is not None:
        return player
    if not name.strip():
        raise Refusal.on(
            "substitute", "required", _("Choose a club player or type the substitute's name.")
        )
    refusal = name_refusal(name)
    if refusal:
        raise Refusal.on("substitute", "bad_name", refusal)
    wanted = name.strip().casefold()
    for candidate in tournament.club.players.all():
        if wanted in (candidate.name.casefold(), candidate.label.casefold()):
            return candidate
    return club_services.player_create(club=tournament.club, name=name.strip())


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
    refusal = duplicate_play.seats_fixed_refusal(tournament)
    if refusal:
        raise Refusal.on("replaced", "duplicate_seats", refusal)
    if round_.status == Round.Status.CLOSED:
        raise Refusal.on(
            "replaced", "round_closed", _("This round is closed: no substitute can sit in now.")
        )
    seat = (
        Seat.objects.select_for_update()
        .filter(game__tournament_table__round=round_, player_id=replaced.player_id)
        .first()
    )
    if seat is None or replaced.tournament_id != tournament.pk:
        raise Refusal.on(
            "replaced",
            "not_seated",
            _("%(name)s is not seated in this round.") % {"name": replaced.player.label},
        )
    player = _substitute_player(tournament, player, name)
    if Seat.objects.filter(game__tournament_table__round=round_, player=player).exists():
        raise Refusal.on(
            "substitute",
            "already_seated",
            _("%(name)s is already seated in this round.") % {"name": player.label},
        )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise Refusal.on(
            "substitute",
            "already_registered",
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
    results_changed(club_id=tournament.club_id)
    return done


def round_substitutions(*, round_: Round) -> list[Substitution]:
    """The round's substitutions, in the order they were made (one query)."""
    return list(
        Substitution.objects.filter(round=round_).select_related(
            "table", "replaced__player", "substitute__player", "by"
        )
    )


def substitute_labels(*, tournament: Tournament) -> dict[int, str]:
    """substitute's player id -> the name of the player he replaced (one query)."""
    return {
        pid: nickname or name
        for pid, name, nickname in Entry.objects.filter(
            tournament=tournament, substitute_for__isnull=False
        ).values_list(
            "player_id", "substitute_for__player__name", "substitute_for__player__nickname"
        )
    }


def seating_refusal(error: seating.SeatingError, tournament: Tournament, lang: str) -> str:
    """Why a round cannot be seated, and, when a count that cannot make tables could be seated
    with byes, how."""
    message = error.message("en" if lang == "en" else "fr")
    if isinstance(error, seating.ImpossibleTablePlan) and (
        tournament.format == Tournament.Format.ROUNDS
    ):
        try:
            byes = seating.fewest_byes(error.players, allow_threes=tournament.allow_threes)
        except seating.SeatingError:
            return message
        message += " " + ngettext(
            "Or seat the round with %(n)s player sitting out (a bye), from the registration page.",
            "Or seat the round with %(n)s players sitting out (a bye), from the registration page.",
            byes,
        ) % {"n": byes}
    return message


def seats_when_played(deal: Deal, now: list[Player]) -> list[Player] | None:
    """The players of a tournament table's seats when ``deal`` was played (registered with
    ``games.seats.on_deal_seats``): a substitute who took a seat over after the deal gives it
    back to the player he replaced, so correcting that deal scores its own players (the
    replaced player's scores stay his, apart from the substitute's). None where no seat of the
    game changed after the deal (one query, none for a club's own game)."""
    if deal.game.max_deals is None:
        return None  # a tournament table always has a set length: no query for a club game
    later = (
        Substitution.objects.filter(table__game_id=deal.game_id, at__gte=deal.created_at)
        .select_related("replaced__player", "substitute__player")
        .order_by("-at", "-pk")
    )
    then = list(now)
    changed = False
    for substitution in later:  # the latest first: undone one after the other
        for place, player in enumerate(then):
            if player.pk == substitution.substitute.player_id:
                then[place] = substitution.replaced.player
                changed = True
    return then if changed else None
