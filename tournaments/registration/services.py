"""Registration: creating a tournament, its entries (registrations: who plays) with their
check-in, series and withdrawal, and its teams."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core import feed
from tarot_scores.core.actors import signed_in
from tarot_scores.core.errors import Refusal
from tarot_scores.core.kinds import FIVE_PLAYER_WORDS
from tarot_scores.core.names import name_as_stored, name_refusal
from tarot_scores.core.planner import statistics_refresh
from tarot_scores.core.results import results_changed
from tarot_scores.games.setup import rule_set_for
from tournaments.errors import Code, TournamentError, TournamentRefusal
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_named
from tournaments.models import Entry, Team, Tournament
from tournaments.rules import next_round_number
from tournaments.standings.store import standings_changed


def _named(name: str) -> str:
    """A tournament's, a team's or a newcomer's name as stored, by the site's one rule for names."""
    refusal = name_refusal(name)
    if refusal:
        raise TournamentError.whole(Code.BAD_NAME, refusal)
    return name_as_stored(name)


def five_mode_refusal(*, rules: scoring.RuleSet | None, five_mode: str) -> TournamentRefusal | None:
    """Why a tournament's way of playing tables of five goes against its rules, if it does:
    house rules may fix it (the presets leave it to the tournament)."""
    fixed = rules.five_players if rules is not None else scoring.FivePlayers.EITHER
    if fixed is scoring.FivePlayers.EITHER or fixed.value == five_mode:
        return None
    return TournamentRefusal.on(
        "five_mode",
        Code.FIVE_MODE_FIXED,
        _("These rules play tables of five with: %(mode)s.") % {"mode": FIVE_PLAYER_WORDS[fixed]},
    )


def creation_refusal(
    *,
    format: str,
    team_size: int,
    allow_threes: bool,
    rounds: int | None,
    rules: scoring.RuleSet | None,
    five_mode: str | None,
) -> TournamentRefusal | None:
    """What a new tournament cannot be, field by field, or None: the duplicate format's limits
    (``duplicate_format.creation_refusal``) and, in any other format, tables of five played
    the way its rules fix (tables of 5 never sit in a duplicate session). The creation page,
    the API and ``tournament_create`` ask this one question. ``five_mode`` None: not asked."""
    refusal = duplicate_format.creation_refusal(
        format=format, team_size=team_size, allow_threes=allow_threes, rounds=rounds
    )
    if refusal is None and format_named(format).asks_five_mode and five_mode is not None:
        refusal = five_mode_refusal(rules=rules, five_mode=five_mode)
    return refusal


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
    confirmation_proof: str = Tournament.ConfirmationProof.PHONE,
    duplicate_method: str = Tournament.DuplicateMethod.MATCHPOINTS,
) -> Tournament:
    """A new tournament. A duplicate one (``format="duplicate"``) is individual, at tables of
    4, and tables of five follow its rules: ``Refusal`` by field otherwise
    (``creation_refusal``); its ``deals_per_round`` are the boards a round and
    ``duplicate_method`` compares them."""
    rule_set = rule_set_for(variant=variant, house_rules=house_rules)
    refusal = creation_refusal(
        format=format,
        team_size=team_size,
        allow_threes=allow_threes,
        rounds=rounds,
        rules=rule_set,
        five_mode=five_mode,
    )
    if refusal:
        raise refusal
    rules = rule_set.to_mapping() if rule_set is not None else {}
    if rules:
        rules["five_players"] = scoring.FivePlayers(five_mode).value
    tournament = Tournament.objects.create(
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
        confirmation_proof=confirmation_proof,
        duplicate_method=duplicate_method,
        created_by=signed_in(by),
    )
    tournament_changed(tournament=tournament)
    return tournament


def tournament_changed(*, tournament: Tournament) -> None:
    """What the tournament's answer shows changed (created, running, finished): stamp it for
    the change feed (``core.feed``), in the caller's transaction. The one place tournaments
    are stamped; its standings are stamped apart (``standings.store.standings_changed``)."""
    feed.stamp(tournament)
    Tournament.objects.filter(pk=tournament.pk).update(
        feed_xact=tournament.feed_xact, feed_seq=tournament.feed_seq
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
            raise TournamentError.whole(Code.NAME_OR_PLAYER, _("Choose a player or type a name."))
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
    already = TournamentError.whole(
        Code.ALREADY_REGISTERED, _("%(name)s is already registered.") % {"name": player.label}
    )
    if Entry.objects.filter(tournament=tournament, player=player).exists():
        raise already
    first_round = next_round_number(tournament)
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                tournament=tournament,
                player=player,
                team=team,
                checked_in=checked_in,
                first_round=first_round,
            )
    except IntegrityError:
        raise already from None  # registered by another request at the same moment
    standings_changed(tournament=tournament)  # a new row in the standings (and the feed)
    return entry


# Players registered by one request (ticked and typed together): a real field is far smaller,
# and the bound keeps one request from holding the database for minutes.
MAX_AT_ONCE = 500


@dataclass(frozen=True)
class Registration:
    entries: list[Entry]  # the new entries, in the order asked
    already: list[str]  # the labels of those who were registered before, left as they were


def registration_size_refusal(count: int) -> TournamentError | None:
    """Why ``count`` players cannot be registered at once, or None."""
    if count <= MAX_AT_ONCE:
        return None
    return TournamentError.whole(
        Code.TOO_MANY_AT_ONCE,
        ngettext(
            "At most %(max)d players can be registered at once: %(count)d were asked.",
            "At most %(max)d players can be registered at once: %(count)d were asked.",
            count,
        )
        % {"max": MAX_AT_ONCE, "count": count},
    )


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
        raise refusal
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
                raise TournamentError.whole(Code.BAD_NAME, str(refusal)) from None
            known[entry.player.label.casefold()] = entry.player
        else:
            entry = entry_add(tournament=tournament, player=player, checked_in=checked_in)
        registered.add(entry.player_id)
        entries.append(entry)
    statistics_refresh(Entry, Player, rows=len(entries))  # a festival's list, pasted at once
    return Registration(entries, already)


def _refuse_if_drawn(tournament: Tournament) -> None:
    """A duplicate tournament's players are fixed once its movement is drawn (round 1)."""
    refusal = duplicate_format.seated_refusal(tournament)
    if refusal:
        raise refusal


@transaction.atomic
def entry_check_in(*, entry: Entry, checked_in: bool = True) -> Entry:
    if entry.checked_in != checked_in:
        _refuse_if_drawn(entry.tournament)
    changed = entry.checked_in != checked_in
    entry.checked_in = checked_in
    entry.save(update_fields=["checked_in"])
    if changed:
        standings_changed(tournament=entry.tournament)  # who plays the next round
    return entry


@transaction.atomic
def entry_series_set(*, entry: Entry, series: str) -> Entry:
    """The series the player is ranked in ("" for none); the standings by series follow."""
    entry.series = series
    entry.save(update_fields=["series"])
    standings_changed(tournament=entry.tournament)  # its standings by series
    return entry


@transaction.atomic
def entry_withdraw(*, entry: Entry) -> Entry:
    """The player leaves after the last round seated; they keep the points they scored."""
    if entry.withdrawn_after is not None:
        raise TournamentError.whole(Code.ALREADY_WITHDRAWN, _("This player has already withdrawn."))
    _refuse_if_drawn(entry.tournament)
    entry.withdrawn_after = next_round_number(entry.tournament) - 1
    entry.save(update_fields=["withdrawn_after"])
    standings_changed(tournament=entry.tournament)  # the row says the player withdrew
    return entry


@transaction.atomic
def _team_named(tournament: Tournament, name: str) -> Team | None:
    """The tournament's team of this name, in any case: team names are told apart ignoring case.
    Casefolded here: SQLite's __iexact folds only ASCII ("LES ÉCLAIRS" is "les éclairs")."""
    wanted = name.casefold()
    return next((t for t in tournament.teams.all() if t.name.casefold() == wanted), None)


def team_create(*, tournament: Tournament, name: str, entries: Sequence[Entry]) -> Team:
    """A new team of these entries. ``Refusal`` on ``name`` when another team of the tournament
    has the name (in any case); ``TournamentError`` when the team is not of the event's size."""
    name = _named(name)
    if _team_named(tournament, name) is not None:
        raise TournamentRefusal.on(
            "name", Code.TEAM_NAME_TAKEN, _("A team of this tournament already has this name.")
        )
    if tournament.team_size and len(entries) != tournament.team_size:
        raise TournamentError.whole(
            Code.TEAM_SIZE, _("A team has %(size)s players.") % {"size": tournament.team_size}
        )
    team = Team.objects.create(tournament=tournament, name=name)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(team=team)
    results_changed(club_id=tournament.club_id)
    return team


@transaction.atomic
def team_for_name(*, tournament: Tournament, name: str) -> Team:
    """The tournament's team of this name (any case), created on first use; refused when the
    event is individual or the team already has all its players."""
    name = _named(name)
    if not tournament.team_size:
        raise TournamentError.whole(
            Code.NO_TEAMS, _("This tournament is individual: it has no teams.")
        )
    team = _team_named(tournament, name)
    if team is None:
        return Team.objects.create(tournament=tournament, name=name)
    if team.members.count() >= tournament.team_size:
        raise TournamentError.whole(
            Code.TEAM_FULL,
            _("%(team)s already has its %(size)s players.")
            % {"team": team.name, "size": tournament.team_size},
        )
    return team
