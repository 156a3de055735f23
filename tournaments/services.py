"""Tournament writes: registration, seating rounds, swaps, and knockout stages.

Every table of a round is a club ``Game`` created with ``services.game_create`` and a fixed
length (the tournament's deals per round), so entering, correcting and scoring its deals is
the club's own machinery. A round is complete when each of its tables has all its deals (all
confirmed, when the tournament requires it: ``tournaments.confirmations``); that is read from
the deals, never stored, so it cannot drift.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.actors import signed_in
from tarot_scores.core.errors import Reason, Refusal
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.names import name_refusal
from tarot_scores.core.results import results_changed
from tarot_scores.games import services as game_services
from tarot_scores.games.kinds import FIVE_PLAYER_WORDS
from tarot_scores.games.models import Deal, DealRevision, Game, Seat
from tarot_scores.games.setup import rule_set_for
from tournaments import duplicate_play, people, seating
from tournaments.models import Cut, DealConfirmation, Entry, Round, Table, Team, Tournament
from tournaments.standings import standings_refresh

logger = logging.getLogger(__name__)

# A round's seating search is budgeted in work (seating.rounds.WORK_MOVES: the same seed seats
# the same tables on any machine); this wall-clock cap is only a safety net, reported if hit.
SEATING_SECONDS = 20.0


class TournamentError(Exception):
    """An organiser's request that cannot be carried out; the message says why."""


def _named(name: str) -> str:
    """A tournament's, a team's or a newcomer's name as stored, by the site's one rule for names."""
    refusal = name_refusal(name)
    if refusal:
        raise TournamentError(refusal)
    return name.strip()


def five_mode_refusal(*, rules: scoring.RuleSet | None, five_mode: str) -> str | None:
    """Why a tournament's way of playing tables of five goes against its rules, if it does:
    house rules may fix it (the presets leave it to the tournament)."""
    fixed = rules.five_players if rules is not None else scoring.FivePlayers.EITHER
    if fixed is scoring.FivePlayers.EITHER or fixed.value == five_mode:
        return None
    return _("These rules play tables of five with: %(mode)s.") % {"mode": FIVE_PLAYER_WORDS[fixed]}


@transaction.atomic
def tournament_create(
    *,
    club: Club,
    name: str,
    by: Any,
    variant: str = "fft",
    house_rules: HouseRules | None = None,
    format: str = Tournament.Format.ROUNDS,
    rounds: int = 3,
    deals_per_round: int = 8,
    seating_method: str = Tournament.Seating.MIXING,
    five_mode: str = Tournament.FiveMode.SITTING_OUT,
    allow_threes: bool = False,
    team_size: int = 0,
    qualifiers_per_table: int = 2,
    round_minutes: int = 75,
    seed: int | None = None,
    date: Any = None,
    require_confirmation: bool = False,
    duplicate_method: str = Tournament.DuplicateMethod.MATCHPOINTS,
) -> Tournament:
    """A new tournament. A duplicate one (``format="duplicate"``) is individual, at tables of
    4: ``Refusal`` by field otherwise (``duplicate_play.creation_refusals``); its
    ``deals_per_round`` are the boards a round and ``duplicate_method`` compares them."""
    refusals = duplicate_play.creation_refusals(
        format=format, team_size=team_size, allow_threes=allow_threes, rounds=rounds
    )
    if refusals:
        raise Refusal(
            {field: [Reason("duplicate_" + field, text)] for field, text in refusals.items()}
        )
    duplicate = format == Tournament.Format.DUPLICATE
    rule_set = rule_set_for(variant=variant, house_rules=house_rules)
    # Tables of 5 never sit in a duplicate session: their mode is not its business.
    refusal = None if duplicate else five_mode_refusal(rules=rule_set, five_mode=five_mode)
    if refusal:
        raise TournamentError(refusal)
    rules = rule_set.to_mapping() if rule_set is not None else {}
    if rules:
        rules["five_players"] = scoring.FivePlayers(five_mode).value
    return Tournament.objects.create(
        club=club,
        name=_named(name),
        variant="house" if house_rules is not None else variant,
        house_rules=house_rules,
        rules=rules,
        format=format,
        rounds=rounds,
        deals_per_round=deals_per_round,
        seating=seating_method,
        five_mode=five_mode,
        allow_threes=allow_threes,
        team_size=team_size,
        qualifiers_per_table=qualifiers_per_table,
        round_minutes=round_minutes,
        seed=seed if seed is not None else int(timezone.now().timestamp()) % 1_000_000,
        date=date or timezone.localdate(),
        require_confirmation=require_confirmation,
        duplicate_method=duplicate_method,
        created_by=signed_in(by),
    )


def _club_player_named(club: Club, name: str) -> Player | None:
    wanted = name.strip().casefold()
    for candidate in club.players.all():
        if wanted in (candidate.name.casefold(), candidate.label.casefold()):
            return candidate
    return None


@transaction.atomic
def entry_add(
    *,
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    team: Team | None = None,
    checked_in: bool = False,
) -> Entry:
    """Register a club player, or someone by name: the club's player of that name if there is
    one (so typing "Chloé" twice never makes two Chloés), else a newcomer becomes one of the
    club's own players. Another club's player is a guest: he plays at this club (listed in
    ``Player.clubs``) but stays his own club's player, and this club gets no say over him or
    his account."""
    _refuse_if_drawn(tournament)
    if player is None:
        if not name.strip():
            raise TournamentError(_("Choose a player or type a name."))
        name = _named(name)
        player = _club_player_named(tournament.club, name)
        if player is None:
            try:
                player = club_services.player_create(club=tournament.club, name=name)
            except Refusal:
                # The same new name registered at the same moment (a double tap on a slow
                # network): the database kept one player; this request registers him, or
                # says he is registered already.
                player = _club_player_named(tournament.club, name)
                if player is None:
                    raise
    elif not player.clubs.filter(pk=tournament.club_id).exists():
        player.clubs.add(tournament.club)
    already = TournamentError(_("%(name)s is already registered.") % {"name": player.label})
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise already
    first_round = next_round_number(tournament)
    results_changed(club_id=tournament.club_id)
    try:
        with transaction.atomic():
            return Entry.objects.create(
                tournament=tournament,
                player=player,
                team=team,
                checked_in=checked_in,
                first_round=first_round,
            )
    except IntegrityError:
        raise already from None  # registered by another request at the same moment


# Players registered by one request (ticked and typed together): a real field is far smaller,
# and the bound keeps one request from holding the database for minutes.
MAX_AT_ONCE = 500


@dataclass(frozen=True)
class Registration:
    entries: list[Entry]  # the new entries, in the order asked
    already: list[str]  # the labels of those who were registered before, left as they were


def registration_size_refusal(count: int) -> str | None:
    if count <= MAX_AT_ONCE:
        return None
    return ngettext(
        "At most %(max)d players can be registered at once: %(count)d were asked.",
        "At most %(max)d players can be registered at once: %(count)d were asked.",
        count,
    ) % {"max": MAX_AT_ONCE, "count": count}


@transaction.atomic
def entries_register(
    *,
    tournament: Tournament,
    players: Sequence[Player] = (),
    names: Sequence[str] = (),
    checked_in: bool = False,
) -> Registration:
    """Register ticked club players and typed names at once, all or nothing: one refusal (a
    name that breaks the rule, too many at once) and no one is registered. A player already
    registered is left as he was and named in ``already``."""
    refusal = registration_size_refusal(len(players) + len(names))
    if refusal:
        raise TournamentError(refusal)
    for name in names:
        _named(name)
    registered = set(tournament.entries.values_list("player_id", flat=True))
    entries: list[Entry] = []
    already: list[str] = []
    # The club's players by name and label, read once (entry_add would read them per name).
    known: dict[str, Player] = {}
    for candidate in tournament.club.players.all():
        known.setdefault(candidate.label.casefold(), candidate)
        known.setdefault(candidate.name.casefold(), candidate)
    asked: list[Player | str] = [*players, *names]
    for item in asked:
        player = item if isinstance(item, Player) else known.get(item.strip().casefold())
        if player is not None and player.pk in registered:
            already.append(player.label)
            continue
        if player is None:
            try:
                entry = entry_add(tournament=tournament, name=str(item), checked_in=checked_in)
            except Refusal as refusal:  # the club's rules for a new player's name
                raise TournamentError(str(refusal)) from None
            known[entry.player.label.casefold()] = entry.player
        else:
            entry = entry_add(tournament=tournament, player=player, checked_in=checked_in)
        registered.add(entry.player_id)
        entries.append(entry)
    return Registration(entries, already)


def _refuse_if_drawn(tournament: Tournament) -> None:
    """A duplicate tournament's players are fixed once its movement is drawn (round 1)."""
    refusal = duplicate_play.seated_refusal(tournament)
    if refusal:
        raise TournamentError(refusal)


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True) -> Entry:
    if entry.checked_in != checked_in:
        _refuse_if_drawn(entry.tournament)
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    results_changed(club_id=entry.tournament.club_id)
    return entry


@transaction.atomic
def entry_series_set(*, entry: Entry, series: str) -> Entry:
    """The series the player is ranked in ("" for none); the standings by series follow."""
    entry.series = series
    entry.save(update_fields=["series"])
    results_changed(club_id=entry.tournament.club_id)
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    """The player leaves after the last round seated; they keep the points they scored."""
    if entry.withdrawn_after is not None:
        raise TournamentError(_("This player has already withdrawn."))
    _refuse_if_drawn(entry.tournament)
    entry.withdrawn_after = next_round_number(entry.tournament) - 1
    entry.save(update_fields=["withdrawn_after"])
    results_changed(club_id=entry.tournament.club_id)
    return entry


@transaction.atomic
def team_create(*, tournament: Tournament, name: str, entries: Sequence[Entry]) -> Team:
    if tournament.team_size and len(entries) != tournament.team_size:
        raise TournamentError(_("A team has %(size)s players.") % {"size": tournament.team_size})
    team = Team.objects.create(tournament=tournament, name=_named(name))
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(team=team)
    results_changed(club_id=tournament.club_id)
    return team


@transaction.atomic
def team_for_name(*, tournament: Tournament, name: str) -> Team:
    """The tournament's team of this name (any case), created on first use; refused when the
    event is individual or the team already has all its players."""
    name = _named(name)
    if not tournament.team_size:
        raise TournamentError(_("This tournament is individual: it has no teams."))
    # Casefolded here: SQLite's __iexact folds only ASCII ("LES ÉCLAIRS" is "les éclairs").
    wanted = name.casefold()
    team = next((t for t in tournament.teams.all() if t.name.casefold() == wanted), None)
    if team is None:
        return Team.objects.create(tournament=tournament, name=name)
    if team.members.count() >= tournament.team_size:
        raise TournamentError(
            _("%(team)s already has its %(size)s players.")
            % {"team": team.name, "size": tournament.team_size}
        )
    return team


def next_round_number(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


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


def _history(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables, players in seat order."""
    seats = (
        Seat.objects.filter(game__tournament_table__round__tournament=tournament)
        .values_list(
            "game__tournament_table__round__number", "game__tournament_table__number", "player_id"
        )
        .order_by(
            "game__tournament_table__round__number", "game__tournament_table__number", "position"
        )
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for round_number, table_number, player_id in seats:
        rounds.setdefault(round_number, {}).setdefault(table_number, []).append(player_id)
    return [list(tables.values()) for _n, tables in sorted(rounds.items())]


def _players_for(tournament: Tournament, number: int) -> list[int]:
    entries = tournament.entries.filter(checked_in=True, first_round__lte=number).filter(
        Q(withdrawn_after__isnull=True) | Q(withdrawn_after__gte=number)
    )
    # A championship's cut leaves its players out of the rounds after it, and a player
    # registered after a cut was never in its field: only the qualified play on
    # (tournaments.cuts).
    entries = entries.filter(Q(cut_after__isnull=True) | Q(cut_after__gte=number))
    last_cut = (
        Cut.objects.filter(tournament=tournament, undone_at__isnull=True, after_round__lt=number)
        .order_by("-after_round")
        .values_list("after_round", flat=True)
        .first()
    )
    if last_cut is not None:
        entries = entries.filter(first_round__lte=last_cut)
    return list(entries.order_by("player_id").values_list("player_id", flat=True))


def next_round_refusal(tournament: Tournament) -> str | None:
    """Why the next round (or knockout stage) cannot be seated now, or None if it can: the
    pages show the button, and ``round_seat_next`` refuses, on this one answer."""
    number = next_round_number(tournament)
    previous = tournament.round_set.filter(number=number - 1).first()
    if previous is not None:
        previous.tournament = tournament
        if not round_complete(previous):
            return _("Round %(n)s is still being played.") % {"n": previous.number}
    if tournament.format != Tournament.Format.KNOCKOUT and number > tournament.rounds:
        return ngettext(
            "The %(n)s round has been played.",
            "All %(n)s rounds have been played.",
            tournament.rounds,
        ) % {"n": tournament.rounds}
    if previous is None:
        return None
    if tournament.format == Tournament.Format.KNOCKOUT and previous.tables.count() == 1:
        return _("The final table has been played.")
    return None


@transaction.atomic
def round_seat_next(*, tournament: Tournament, by: Any, byes: bool = False) -> Round:
    """Seat the next round (or knockout stage) and create its tables. ``byes``: when the
    checked-in count cannot be seated, the fewest players sit the round out instead of the
    round being refused (a round of the rounds format: ``people.byes_draw``)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = next_round_refusal(tournament)
    if refusal is not None:
        raise TournamentError(refusal)
    number = next_round_number(tournament)
    previous = tournament.round_set.filter(number=number - 1).first()
    if previous is not None and previous.status != Round.Status.CLOSED:
        round_close(round_=previous)
    if tournament.format == Tournament.Format.DUPLICATE:
        try:
            seated = duplicate_play.seat_round(
                tournament=tournament,
                number=number,
                by=by,
                apart=people.apart_pairs(tournament),
            )
        except duplicate_play.DuplicateError as error:
            raise TournamentError(str(error)) from None
        return seated.round
    if tournament.format == Tournament.Format.KNOCKOUT and previous is not None:
        from tournaments.selectors import bracket  # a read, kept with the other reads

        players = bracket(tournament=tournament).stages[-1].qualified
    else:
        players = _players_for(tournament, number)
    sitting_out: list[int] = []
    if byes and tournament.format == Tournament.Format.ROUNDS:
        try:
            players, sitting_out = people.byes_draw(
                tournament=tournament, players=players, number=number
            )
        except seating.SeatingError as error:
            raise TournamentError(error.message(engine_language())) from None
    teams = dict(tournament.entries.filter(team__isnull=False).values_list("player_id", "team_id"))
    standings: dict[int, float] = {}
    if tournament.seating == Tournament.Seating.SWISS:
        from tournaments.selectors import standings_for

        standings = {
            row.player.pk: float(row.total) for row in standings_for(tournament=tournament)
        }
    try:
        result = seating.seat_round(
            players,
            round_number=number,
            method=tournament.seating,
            seed=tournament.seed,
            history=_history(tournament),
            standings=standings,
            teams=teams or None,
            apart=people.apart_pairs(tournament),
            allow_threes=tournament.allow_threes,
            time_budget=SEATING_SECONDS,
            total_rounds=tournament.rounds
            if tournament.format == Tournament.Format.ROUNDS
            else None,
        )
    except seating.SeatingError as error:
        raise TournamentError(
            people.seating_refusal(error, tournament, engine_language())
        ) from None
    if result.timed_out:
        # Only the safety net depends on the machine: say that this draw may not replay.
        logger.warning(
            "Seating of round %s of tournament %s stopped by the %s s safety net: the same "
            "seed may seat other tables on another machine.",
            number,
            tournament.pk,
            SEATING_SECONDS,
        )
    round_ = Round.objects.create(tournament=tournament, number=number, repeats=result.repeats)
    by_id = Player.objects.in_bulk(players)
    for index, table_players in enumerate(result.tables, start=1):
        game = game_services.game_create(
            club=tournament.club,
            players=[by_id[p] for p in table_players],
            variant=tournament.variant if tournament.variant != "house" else "fft",
            house_rules=tournament.house_rules,
            by=by,
            date=tournament.date,
            label=table_label(tournament.name, number, index),
            max_deals=tournament.deals_per_round,
            five_players=tournament.five_mode if len(table_players) == 5 else None,
            imposed=True,  # the tournament's mode, checked against its rules when it was set
        )
        Table.objects.create(round=round_, number=index, game=game)
    round_.tournament = tournament
    people.byes_record(round_=round_, player_ids=sitting_out)
    standings_refresh(round_=round_, player_ids=[*players, *sitting_out])
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    results_changed(club_id=tournament.club_id)
    return round_


def table_label(name: str, number: int, table: int) -> str:
    """A table's game label: the tournament's name, the round and the table. A tournament's name
    may be longer than a game's label can hold: the name is cut (with an ellipsis) so that the
    round and table, which tell the games apart, are always whole."""
    limit = Game._meta.get_field("label").max_length or 80

    def label(t: str) -> str:
        return _("%(t)s, round %(r)s, table %(n)s") % {"t": t, "r": number, "n": table}

    full = label(name)
    if len(full) <= limit:
        return full
    keep = max(0, len(name) - (len(full) - limit) - 1)
    return label(name[:keep].rstrip() + "…")[:limit]


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
    tournament: its seats are the movement's)."""
    refusal = duplicate_play.seats_fixed_refusal(round_.tournament)
    if refusal:
        raise TournamentError(refusal)
    _lock(round_)
    if round_.status != Round.Status.SEATED or any(n for _t, n in round_progress(round_)):
        raise TournamentError(_("Players can only be swapped before the round starts."))
    seats = {
        s.player_id: s
        for s in Seat.objects.select_for_update().filter(
            game__tournament_table__round=round_, player__in=[first, second]
        )
    }
    if len(seats) != 2:
        raise TournamentError(_("Both players must be seated in this round."))
    a, b = seats[first.pk], seats[second.pk]
    # Through a free position, so that (game, position) stays unique at every step.
    Seat.objects.filter(pk=a.pk).update(position=1000 + a.position)
    Seat.objects.filter(pk=b.pk).update(game_id=a.game_id, position=a.position)
    Seat.objects.filter(pk=a.pk).update(game_id=b.game_id, position=b.position)
    standings_refresh(round_=round_, player_ids=[first.pk, second.pk])
    results_changed(club_id=round_.tournament.club_id)


@transaction.atomic
def round_start(*, round_: Round) -> Round:
    """Start the round's countdown, once: a round that has started keeps its start time."""
    _lock(round_)
    if round_.status != Round.Status.SEATED:
        raise TournamentError(_("This round has already started."))
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


def round_after_deal(
    *, game: Game, deal: Deal, action: DealRevision.Action, seated: Sequence[int]
) -> None:
    """A deal of a game changed (registered with ``games.services.on_deal_change``, so it runs
    in the deal's transaction whoever wrote it: a table's link, the game page or the API): if
    it completed a tournament table's round, close the round.

    Only a deal entered or restored adds to a table's count. A correction or a deletion cannot
    complete a round, and leaves the round alone: it never waits on the round's lock, so a
    table correcting a deal while an organiser closes the round cannot deadlock with it. (Where
    the tournament requires confirmation, a referee's correction may confirm the deal the round
    waited for: ``confirmations.confirmation_after_deal`` closes the round then; the round was
    not complete before it, so no organiser's closing holds the round's lock meanwhile.)
    """
    if action not in (DealRevision.Action.CREATED, DealRevision.Action.RESTORED):
        return
    if game.max_deals is None:
        return  # a tournament table always has a set length: no query for a club's own game
    table = Table.objects.filter(game_id=game.pk).select_related("round__tournament").first()
    if table is None or table.round.status == Round.Status.CLOSED:
        return
    # Only a deal that completes its own table can complete the round: any other leaves it
    # open without waiting on the round's lock (one indexed count), so the tables of a round
    # do not enter their deals one at a time behind that lock (docs/performance.md).
    entered = Deal.objects.filter(game_id=game.pk, deleted_at__isnull=True).count()
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
        raise TournamentError(_("This round is already closed."))
    if not round_complete(round_):
        if round_.tournament.require_confirmation:
            raise TournamentError(
                _("Some tables have not entered all their deals yet, or not all are confirmed.")
            )
        raise TournamentError(_("Some tables have not entered all their deals yet."))
    Game.objects.filter(tournament_table__round=round_).update(status=Game.Status.FINISHED)
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    tournament = round_.tournament
    if tournament.format != Tournament.Format.KNOCKOUT:
        over = round_.number >= tournament.rounds
    else:  # a knockout ends with its final table
        over = round_.tables.count() == 1
    if over:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
    results_changed(club_id=round_.tournament.club_id)
    return round_


def _refusal(field: str, code: str, message: str) -> Refusal:
    return Refusal.on(field, code, message)


@transaction.atomic
def referee_add(*, tournament: Tournament, user: Any) -> Tournament:
    """Name ``user`` a referee (arbitre) of the tournament. A private club's tournament is read
    by its members only, so there the referee must be a member first. ``Refusal`` on ``user``
    otherwise, or if already named."""
    if tournament.referees.filter(pk=user.pk).exists():
        raise _refusal(
            "user",
            "already_referee",
            _("%(name)s is already a referee of this tournament.") % {"name": user.get_username()},
        )
    club = tournament.club
    if not club.public and not club.memberships.filter(user=user).exists():
        raise _refusal(
            "user",
            "referee_not_member",
            _(
                "%(name)s is not a member of this private club: invite them on the members page "
                "first."
            )
            % {"name": user.get_username()},
        )
    tournament.referees.add(user)
    return tournament


@transaction.atomic
def referee_remove(*, tournament: Tournament, user: Any) -> Tournament:
    tournament.referees.remove(user)
    return tournament
