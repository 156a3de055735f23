"""Tournament writes: registration, seating rounds, swaps, and knockout stages.

Every table of a round is a club ``Game`` created with ``services.game_create`` and a fixed
length (the tournament's deals per round), so entering, correcting and scoring its deals is
the club's own machinery. A round is complete when each of its tables has all its deals (all
confirmed, when the tournament requires it: ``tournaments.play.confirmations``); that is read from
the deals, never stored, so it cannot drift.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores.clubs.models import Player
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.planner import statistics_refresh
from tarot_scores.core.results import results_changed
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealRevision, Game, Seat
from tournaments import rules as tournament_rules
from tournaments import seating
from tournaments.errors import Code, TournamentError
from tournaments.formats import TablePlan, format_for
from tournaments.formats import duplicate as duplicate_format
from tournaments.models import (
    DealConfirmation,
    Entry,
    ReplacedTableLink,
    Round,
    Standing,
    Table,
    Tournament,
    new_token,
)
from tournaments.people import services as people
from tournaments.registration.services import tournament_changed
from tournaments.rounds.tables import table_label
from tournaments.rules import next_round_number
from tournaments.standings.store import (
    standings_after_table_change,
    standings_changed,
    standings_refresh,
)
from tournaments.webhooks import round_closed_announce, tournament_finished_announce


def round_progress(round_: Round) -> list[tuple[Table, int]]:
    """Each table of the round with the number of its deals entered (deleted ones left out)."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("game")
        .annotate(entered=Count("game__deals", filter=Q(game__deals__deleted_at__isnull=True)))
        .order_by("number")
    )
    return [(t, t.entered) for t in tables]


def round_complete(round_: Round) -> bool:
    """Every table has all its deals; and, when the tournament requires confirmation, every
    live deal is confirmed (a deal entered before it was required counts as it stands)."""
    goal = round_.tournament.deals_per_round
    if not all(entered >= goal for _table, entered in round_progress(round_)):
        return False
    if not round_.tournament.require_confirmation:
        return True
    waiting = DealConfirmation.objects.filter(
        deal__game__tournament_table__round=round_, deal__deleted_at__isnull=True
    ).exclude(status=DealConfirmation.Status.CONFIRMED)
    return not waiting.exists()


def next_round_refusal(tournament: Tournament) -> TournamentError | None:
    """Why the next round (or knockout stage) cannot be seated now, or None if it can: the
    pages show the button, and ``round_seat_next`` refuses, on this one answer."""
    number = next_round_number(tournament)
    previous = tournament.round_set.filter(number=number - 1).first()
    if previous is not None:
        previous.tournament = tournament
        if previous.status != Round.Status.CLOSED and not round_complete(previous):
            return TournamentError.whole(
                Code.ROUND_PLAYING,
                _("Round %(n)s is still being played.") % {"n": previous.number},
            )
    if previous is None:
        return None
    return format_for(tournament).over_refusal(tournament, previous)


@transaction.atomic
def round_seat_next(*, tournament: Tournament, by: Any, byes: bool = False) -> Round:
    """Seat the next round (or knockout stage) and create its tables. ``byes``: when the
    checked-in count cannot be seated, the fewest players sit the round out instead of the
    round being refused (a round of the rounds format: ``people.byes_draw``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = next_round_refusal(tournament)
    if refusal is not None:
        raise refusal
    number = next_round_number(tournament)
    previous = tournament.round_set.filter(number=number - 1).first()
    if previous is not None and previous.status != Round.Status.CLOSED:
        round_close(round_=previous)
    fmt = format_for(tournament)
    players = fmt.players_for(tournament, number)
    sitting_out: list[int] = []
    if byes and fmt.seats_byes:
        try:
            players, sitting_out = people.byes_draw(
                tournament=tournament, players=players, number=number
            )
        except seating.SeatingError as error:
            raise TournamentError.whole(Code.UNSEATABLE, error.message(engine_language())) from None
    try:
        plan = fmt.seat(tournament, number, players)
    except seating.SeatingError as error:
        raise people.seating_refusal(error, tournament, engine_language()) from None
    return _round_create(
        tournament=tournament, number=number, plan=plan, sitting_out=sitting_out, by=by
    )


def _round_create(
    *, tournament: Tournament, number: int, plan: TablePlan, sitting_out: list[int], by: Any
) -> Round:
    """The round as its format seated it: one club game a table (a fixed length: the deals per
    round; a table of five plays the tournament's mode), the byes, the standings' rows."""
    round_ = Round.objects.create(tournament=tournament, number=number, repeats=plan.repeats)
    players = plan.players
    by_id = Player.objects.in_bulk(players)
    for table in plan.tables:
        game = game_services.game_create(
            club=tournament.club,
            players=[by_id[p] for p in table.players],
            variant=tournament.variant if tournament.variant != "house" else "fft",
            house_rules=tournament.house_rules,
            by=by,
            date=tournament.date,
            label=table_label(tournament.name, number, table.number),
            max_deals=tournament.deals_per_round,
            five_players=tournament.five_mode if len(table.players) == 5 else None,
            imposed=True,  # the tournament's mode, checked against its rules when it was set
        )
        Table.objects.create(round=round_, number=table.number, game=game)
    round_.tournament = tournament
    people.byes_record(round_=round_, player_ids=sitting_out)
    standings_refresh(round_=round_, player_ids=[*players, *sitting_out])
    # The round's rows, and the entries and players its standings and tables join, as the
    # planner must see them from the first read (the projectors open at this moment).
    statistics_refresh(
        Standing, Entry, Player, Table, Game, Seat, rows=len(players) + len(sitting_out)
    )
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        tournament_changed(tournament=tournament)
    return round_


def _lock(round_: Round) -> None:
    """Lock the round's row for the caller's transaction and take its status as it is now: two
    organisers pressing the same button at once act one after the other, and the second is
    refused."""
    round_.status = (
        Round.objects.select_for_update().values_list("status", flat=True).get(pk=round_.pk)
    )


@transaction.atomic
def round_swap(*, round_: Round, first: Player, second: Player) -> None:
    """Swap two players' seats before the round's first deal is entered (not in a duplicate
    tournament: its seats are the movement's). ``Refusal`` on ``second`` for the same player
    twice."""
    same = tournament_rules.different_players_refusal(first.pk, second.pk)
    if same:
        raise same
    refusal = duplicate_format.seats_fixed_refusal(round_.tournament)
    if refusal:
        raise refusal
    _lock(round_)
    if round_.status != Round.Status.SEATED or any(n for _t, n in round_progress(round_)):
        raise TournamentError.whole(
            Code.SWAP_STARTED, _("Players can only be swapped before the round starts.")
        )
    seats = {
        s.player_id: s
        for s in Seat.objects.select_for_update().filter(
            game__tournament_table__round=round_, player__in=[first, second]
        )
    }
    if len(seats) != 2:
        raise TournamentError.whole(
            Code.SWAP_NOT_SEATED, _("Both players must be seated in this round.")
        )
    a, b = seats[first.pk], seats[second.pk]
    # Through a free position, so that (game, position) stays unique at every step.
    Seat.objects.filter(pk=a.pk).update(position=1000 + a.position)
    Seat.objects.filter(pk=b.pk).update(game_id=a.game_id, position=a.position)
    Seat.objects.filter(pk=a.pk).update(game_id=b.game_id, position=b.position)
    game_services.games_changed(game_ids=[a.game_id, b.game_id])
    standings_refresh(round_=round_, player_ids=[first.pk, second.pk])


@transaction.atomic
def round_start(*, round_: Round) -> Round:
    """Start the round's countdown, once: a round that has started keeps its start time."""
    _lock(round_)
    if round_.status != Round.Status.SEATED:
        raise TournamentError.whole(Code.ALREADY_STARTED, _("This round has already started."))
    round_.status = Round.Status.PLAYING
    round_.started_at = timezone.now()
    round_.save(update_fields=["status", "started_at"])
    results_changed(club_id=round_.tournament.club_id)
    return round_


@transaction.atomic
def close_if_complete(*, round_: Round) -> bool:
    """Close the round as soon as every table has all its deals; True if it closed now.

    The links then stop taking deals and corrections, and organisers correct what is left
    through the game pages (history kept).
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED or not round_complete(round_):
        return False
    round_close(round_=round_)
    return True


def round_after_deal(*, table: Table, action: DealRevision.Action) -> None:
    """A deal of this table changed (the deal hook's last step, ``tournaments.play.deal``, so
    it runs in the deal's transaction whoever wrote it: a table's link, the game page or the
    API): if it completed the table's round, close the round.

    Only a deal entered or restored adds to a table's count. A correction or a deletion cannot
    complete a round, and leaves the round alone: it never waits on the round's lock, so a
    table correcting a deal while an organiser closes the round cannot deadlock with it. (Where
    the tournament requires confirmation, a referee's correction may confirm the deal the round
    waited for: ``confirmations.confirmation_after_deal`` closes the round then; the round was
    not complete before it, so no organiser's closing holds the round's lock meanwhile.)
    """
    if action not in (DealRevision.Action.CREATED, DealRevision.Action.RESTORED):
        return
    if table.round.status == Round.Status.CLOSED:
        return
    # Only a deal that completes its own table can complete the round: any other leaves it
    # open without waiting on the round's lock (one indexed count), so the tables of a round
    # do not enter their deals one at a time behind that lock (docs/performance.md).
    entered = Deal.objects.filter(game_id=table.game_id, deleted_at__isnull=True).count()
    if entered < table.round.tournament.deals_per_round:
        return
    # The round is locked before counting: two tables entering their last deals at once take
    # turns, and the second sees the first's deal.
    close_if_complete(round_=table.round)


@transaction.atomic
def round_close(*, round_: Round) -> Round:
    """Close a complete round: its tables take no more deals (organisers may reopen a game)."""
    _lock(round_)
    if round_.status == Round.Status.CLOSED:
        raise TournamentError.whole(Code.ALREADY_CLOSED, _("This round is already closed."))
    if not round_complete(round_):
        if round_.tournament.require_confirmation:
            raise TournamentError.whole(
                Code.TABLES_UNFINISHED,
                _("Some tables have not entered all their deals yet, or not all are confirmed."),
            )
        raise TournamentError.whole(
            Code.TABLES_UNFINISHED, _("Some tables have not entered all their deals yet.")
        )
    return _close(round_)


@transaction.atomic
def round_close_now(*, round_: Round, by: Any) -> Round:
    """Close a round that is being played before every table has finished (time is up): the
    organiser's "Close the round now" (docs/tournaments.md, "Closing a round early").

    What happens to the unfinished tables: a deal waiting for the other side's confirmation is
    confirmed as entered, by ``by`` (kept with the confirmation, as a referee's would be); a
    deal not entered scores nothing (a table that entered 3 of its 4 deals counts those 3, a
    table that entered none scores 0 for the round). A disputed deal is not decided here: the
    round is refused until a referee settles it. A round not started yet is refused too (start
    it, or swap players: nothing was played)."""
    _lock(round_)
    if round_.status == Round.Status.CLOSED:
        raise TournamentError.whole(Code.ALREADY_CLOSED, _("This round is already closed."))
    if round_.status == Round.Status.SEATED:
        raise TournamentError.whole(
            Code.NOT_STARTED, _("This round has not started: start it before closing it.")
        )
    live = DealConfirmation.objects.filter(
        deal__game__tournament_table__round=round_, deal__deleted_at__isnull=True
    )
    disputed = live.filter(status=DealConfirmation.Status.DISPUTED).count()
    if disputed:
        raise TournamentError.whole(
            Code.DEALS_DISPUTED,
            ngettext(
                "%(n)s deal is disputed: a referee settles it before the round closes.",
                "%(n)s deals are disputed: a referee settles them before the round closes.",
                disputed,
            )
            % {"n": disputed},
        )
    pending = live.filter(status=DealConfirmation.Status.PENDING)
    games = set(pending.values_list("deal__game_id", flat=True))
    pending.update(
        status=DealConfirmation.Status.CONFIRMED,
        confirmed_by=None,
        confirmed_by_user=by if getattr(by, "is_authenticated", False) else None,
        confirmed_at=timezone.now(),
        # Kept with the confirmation as a referee's reason is, in the organiser's language.
        referee_reason=_("Confirmed as entered: the round was closed before the other side did."),
    )
    # Confirmed, those deals now count: their tables' standings follow.
    for game_id in sorted(games):
        standings_after_table_change(game_id=game_id)
    return _close(round_)


def _close(round_: Round) -> Round:
    """The round's tables take no more deals; the tournament is over after its last round."""
    tables = list(Game.objects.filter(tournament_table__round=round_).values_list("pk", flat=True))
    Game.objects.filter(pk__in=tables).update(status=Game.Status.FINISHED)
    game_services.games_changed(game_ids=tables)
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    tournament = round_.tournament
    round_closed_announce(round_)
    if format_for(tournament).over_refusal(tournament, round_) is not None:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        tournament_finished_announce(tournament)
        tournament_changed(tournament=tournament)
    # The standings say which rounds are closed (a cut, the bracket's qualifiers follow).
    standings_changed(tournament=tournament, round_closed=True)
    return round_


@transaction.atomic
def table_link_renew(*, table: Table) -> Table:
    """A new private link for the table: the old one stops at once (a phone lost, a link
    shared too widely, a referee removed who had it). Phones on the table name their holder
    again on the new link. The old link is kept as replaced: opened again (a phone, the QR code
    of the old score sheet), it says so and what to do, and opens nothing."""
    # The token as it stands under the table's lock: two renewals at once replace it in turn.
    table.token = Table.objects.select_for_update().values_list("token", flat=True).get(pk=table.pk)
    ReplacedTableLink.objects.create(token=table.token, table=table)
    table.token = new_token()
    table.save(update_fields=["token"])
    return table
