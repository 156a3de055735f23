"""Running a duplicate tournament: what it refuses at creation, seating its rounds by the
movement, and which boards (étuis) each table enters.

The movement itself is the pure ``tournaments.duplicate`` package (docs/duplicate.md); the draw
of the players' movement numbers is ``tournaments.seating.duplicate``. Here they meet the
models: round 1 draws a number for each player checked in (``Entry.movement_number``) and every
round seats each table's players at North, East, South and West (seat positions 0 to 3) as the
movement's station says; a table's game takes its ``deals_per_round`` boards, each deal naming
its board (``Deal.board``), and ``games.services`` asks ``deal_boards`` which boards a game may
enter.

Nobody joins or leaves a duplicate session once its numbers are drawn: the movement needs every
number at every round. Registering, checking in or out and withdrawing are refused then
(``seated_refusal``).
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass

from django.db.models import Count
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores.clubs.models import Player
from tarot_scores.core.errors import Reason
from tarot_scores.games.models import Game
from tournaments.duplicate import DIRECTIONS, Direction, Movement, board_dealer, movement
from tournaments.errors import Code, TournamentError, TournamentRefusal
from tournaments.formats.base import SeatedTable, TablePlan
from tournaments.formats.rounds import RoundsFormat
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.rules import entries_playing, maybe_table
from tournaments.seating.duplicate import draw_movement_numbers
from tournaments.words import direction_name

MIN_TABLES = 2


# --- creation ---------------------------------------------------------------------------------


def creation_refusal(
    *, format: str, team_size: int, allow_threes: bool, rounds: int | None = None
) -> TournamentRefusal | None:
    """What a duplicate tournament cannot be, field by field (empty for another format, or when
    nothing is wrong). Tables of 5 do not arise (the count must be a multiple of 4), so their
    mode is not looked at; whether there are too many rounds for the tables is known only when
    the first round is seated (``rounds``: at least 2, when given)."""
    if format != Tournament.Format.DUPLICATE:
        return None
    reasons: dict[str, list[Reason]] = {}
    if team_size:
        reasons["team_size"] = _reason(
            Code.DUPLICATE_TEAM_SIZE,
            _("A duplicate tournament is individual: each player is compared at his direction."),
        )
    if allow_threes:
        reasons["allow_threes"] = _reason(
            Code.DUPLICATE_ALLOW_THREES,
            _("A duplicate tournament plays tables of 4 only: the boards hold four hands."),
        )
    # A round plays each board at one table: comparing needs a second round.
    if rounds is not None and rounds < 2:
        reasons["rounds"] = _reason(
            Code.DUPLICATE_ROUNDS,
            _(
                "A duplicate tournament needs at least 2 rounds: a board is compared only once "
                "another table has played it, in a later round."
            ),
        )
    return TournamentRefusal(reasons) if reasons else None


def _reason(code: Code, message: str) -> list[Reason]:
    return [Reason(code, message)]


# --- seating ----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def session_movement(tables: int, rounds: int, boards_per_round: int) -> Movement:
    """The movement, made once per shape (a large even table count searches its strides)."""
    return movement(tables, rounds, boards_per_round)


def seating_refusal(tournament: Tournament, players: int) -> TournamentError | None:
    """Why round 1 of a duplicate tournament cannot be seated with this many players."""
    if players % 4 or players < 4 * MIN_TABLES:
        return _unseatable(
            ngettext(
                "A duplicate session needs a multiple of 4 players, at least 8 (2 tables): "
                "%(count)d is checked in.",
                "A duplicate session needs a multiple of 4 players, at least 8 (2 tables): "
                "%(count)d are checked in.",
                players,
            )
            % {"count": players}
        )
    tables = players // 4
    if tournament.rounds > tables:
        return _unseatable(
            ngettext(
                "A duplicate session of %(tables)d tables has at most %(tables)d rounds (a table "
                "would play a board again): this tournament has %(rounds)d. Check in more "
                "players or play fewer rounds.",
                "A duplicate session of %(tables)d tables has at most %(tables)d rounds (a table "
                "would play a board again): this tournament has %(rounds)d. Check in more "
                "players or play fewer rounds.",
                tables,
            )
            % {"tables": tables, "rounds": tournament.rounds}
        )
    return None


def _unseatable(message: str) -> TournamentError:
    return TournamentError.whole(Code.UNSEATABLE, message)


def seated_refusal(tournament: Tournament) -> TournamentError | None:
    """Why a duplicate tournament's players can no longer change (None before its first round,
    and for any other format)."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    if not tournament.round_set.exists():
        return None
    return TournamentError.whole(
        Code.DUPLICATE_DRAWN,
        _(
            "The movement of this duplicate tournament is drawn: nobody can join, leave or change "
            "presence until it is over."
        ),
    )


def seats_fixed_refusal(tournament: Tournament) -> TournamentError | None:
    """Why a duplicate tournament's seats cannot be swapped or taken over by a substitute
    (None for any other format): each seat is the movement's, and a player's boards are
    compared at his direction over the whole session."""
    if tournament.format != Tournament.Format.DUPLICATE:
        return None
    return TournamentError.whole(
        Code.DUPLICATE_SEATS,
        _(
            "In a duplicate tournament every seat is the movement's: players cannot be swapped or "
            "replaced by a substitute."
        ),
    )


def team_pairs(tournament: Tournament) -> set[frozenset[int]]:
    """Team-mates, two by two: they never share a table."""
    teams: dict[int, list[int]] = {}
    for player_id, team_id in tournament.entries.filter(team__isnull=False).values_list(
        "player_id", "team_id"
    ):
        teams.setdefault(team_id, []).append(player_id)
    return {
        frozenset((a, b)) for members in teams.values() for a in members for b in members if a < b
    }


# --- boards at a table ------------------------------------------------------------------------


def _duplicate_table(game: Game) -> Table | None:
    if not maybe_table(game):
        return None  # a tournament table always has a set length: no query for a club game
    table = (
        Table.objects.filter(game_id=game.pk)
        .select_related("round__tournament")
        .annotate(round_tables=Count("round__tables", distinct=True))
        .first()
    )
    if table is None or table.round.tournament.format != Tournament.Format.DUPLICATE:
        return None
    return table


def table_station_boards(table: Table, tables: int) -> tuple[int, ...]:
    tournament = table.round.tournament
    plan = session_movement(tables, tournament.rounds, tournament.deals_per_round)
    return plan.station(table.round.number, table.number).boards


def deal_boards(*, game: Game) -> Collection[int] | None:
    """The boards a duplicate table plays in its round (``games.services`` asks, under the
    game's lock); None for any other game."""
    table = _duplicate_table(game)
    if table is None:
        return None
    return table_station_boards(table, table.round_tables)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class BoardState:
    board: int
    dealer: Direction
    dealer_label: str  # the direction and the player there: "North (Alice)"
    entered: bool


def table_boards(table: Table, seated: list[Player], entered: Collection[int]) -> list[BoardState]:
    """The boards this table plays this round, in order, each with its dealer (the seat at the
    board's direction; ``seated`` in seat order, North first) and whether it is ``entered``
    (the live deals' boards, which the caller has read)."""
    tables = Table.objects.filter(round_id=table.round_id).count()
    boards = table_station_boards(table, tables)
    out = []
    for board in boards:
        dealer = board_dealer(board)
        seat = DIRECTIONS.index(dealer)
        name = seated[seat].label if seat < len(seated) else ""
        label = _("%(direction)s (%(name)s)") % {
            "direction": direction_name(dealer),
            "name": name,
        }
        out.append(BoardState(board, dealer, label, board in entered))
    return out


class DuplicateFormat:
    """A duplicate session: round 1 draws each checked-in player's movement number, and every
    round seats the numbers where the movement sends them; a table plays its station's boards.
    It is over after its set number of rounds."""

    has_bracket = False
    compares_boards = True
    has_cuts = False
    seats_byes = False
    asks_five_mode = False  # the count is a multiple of 4: tables of 5 never sit

    def players_for(self, tournament: Tournament, number: int) -> list[int]:
        """Round 1: the players checked in (in the registration's order: the draw reads it);
        later rounds: the players holding a movement number."""
        if number == 1:
            return [e.player_id for e in entries_playing(tournament, 1)]
        return list(
            tournament.entries.filter(movement_number__isnull=False).values_list(
                "player_id", flat=True
            )
        )

    def seat(self, tournament: Tournament, number: int, players: list[int]) -> TablePlan:
        """Round 1 draws the movement numbers (pairs kept apart and team-mates at different
        tables where a draw can) and stores them; later rounds read them."""
        if number == 1:
            refusal = seating_refusal(tournament, len(players))
            if refusal:
                raise refusal
            plan = session_movement(
                len(players) // 4, tournament.rounds, tournament.deals_per_round
            )
            draw = draw_movement_numbers(
                players,
                plan,
                seed=tournament.seed,
                apart={*people_selectors.apart_pairs(tournament), *team_pairs(tournament)},
            )
            entries = list(tournament.entries.filter(player_id__in=players))
            for entry in entries:
                entry.movement_number = draw.numbers[entry.player_id]
            Entry.objects.bulk_update(entries, ["movement_number"])
            player_of = {n: p for p, n in draw.numbers.items()}
        else:
            plan = session_movement(
                len(players) // 4, tournament.rounds, tournament.deals_per_round
            )
            player_of = {
                drawn: player
                for drawn, player in tournament.entries.filter(
                    movement_number__isnull=False
                ).values_list("movement_number", "player_id")
                if drawn is not None
            }
        return TablePlan(
            tables=tuple(
                SeatedTable(station.table, tuple(player_of[n] for n in station.players))
                for station in plan.round_stations(number)
            ),
            repeats=sum(1 for m in plan.repeated_meetings() if m.round == number),
        )

    def over_refusal(self, tournament: Tournament, last: Round) -> TournamentError | None:
        return RoundsFormat().over_refusal(tournament, last)

    def table_boards(self, table: Table, tables: int) -> tuple[int, ...] | None:
        return table_station_boards(table, tables)
