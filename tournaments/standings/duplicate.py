"""Duplicate tournament reads: the scores of each board as the tables played them
(``BoardScore`` rows), the session's ranking by the tournament's comparison (matchpoints or
difference from the board's average) with the penalties taken off, each board's traveller and
the movement with the players' names.

Each read is a fixed number of queries, whatever the number of deals: the score lines of the
counted deals (live, and confirmed where the tournament requires it, as the rounds standings
count them) joined to their board, table and seat. The comparison itself is the pure
``tournaments.duplicate`` package's. See docs/duplicate.md and docs/tournaments.md.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import Deal, ScoreLine, Seat
from tournaments.duplicate import (
    DIRECTIONS,
    BoardScore,
    Direction,
    Method,
    Movement,
    MovementError,
    MovementRow,
    SessionResult,
    TableDeal,
    Traveller,
    compare_seats,
    movement,
    movement_rows,
    rank_session,
    rounded,
    shared_ranks,
    traveller,
)
from tournaments.models import Entry, Penalty, Table, Tournament
from tournaments.rules import counted, method_of

_PLAYER_FIELDS = ["id", "name", "nickname"]


def _player(pid: int, name: str, nickname: str) -> Player:
    return Player.from_db("default", _PLAYER_FIELDS, (pid, name, nickname))


# --- the board scores --------------------------------------------------------------------------


def _positions(tournament: Tournament) -> dict[tuple[int, int], int]:
    """(game id, player id) -> seat position (0 North ... 3 West) at the tournament's tables
    (one query)."""
    seats = Seat.objects.filter(game__tournament_table__round__tournament=tournament)
    return {(g, p): pos for g, p, pos in seats.values_list("game_id", "player_id", "position")}


def board_scores(*, tournament: Tournament, board: int | None = None) -> list[BoardScore]:
    """Each player's score on each board (or on ``board``), at the direction he held at his
    table, from the counted deals (two queries). ``BoardScore.player`` is the player's id.
    A score line at a seat beyond West (a table not seated by the movement) is left out."""
    lines = ScoreLine.objects.filter(
        counted(tournament, "deal__"),
        deal__game__tournament_table__round__tournament=tournament,
        deal__board__isnull=False,
    )
    if board is not None:
        lines = lines.filter(deal__board=board)
    positions = _positions(tournament)
    out: list[BoardScore] = []
    for board_number, table, game_id, player_id, points in lines.values_list(
        "deal__board",
        "deal__game__tournament_table__number",
        "deal__game_id",
        "player_id",
        "points",
    ).order_by("deal__board", "deal__game__tournament_table__number", "player_id"):
        position = positions.get((game_id, player_id))
        if position is None or position >= len(DIRECTIONS):
            continue
        out.append(
            BoardScore(
                board=board_number or 0,  # never 0: the deals without a board are left out
                table=table,
                direction=DIRECTIONS[position],
                player=player_id,
                score=points,
            )
        )
    return out


# --- the ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class DuplicateRow(SessionResult):
    """A player's line of a duplicate ranking. ``penalties`` are taken off ``matchpoints``
    (matchpoints method) or off ``total`` (average method), already: see docs/duplicate.md."""

    rank: int
    player: Player
    method: Method
    matchpoints: int  # less the penalties
    maximum: int
    total: Fraction  # exact, less the penalties
    tops: int
    boards: int
    penalties: int = 0
    team: str = ""
    # A duplicate tournament has no cuts; the standings page reads these of any row.
    eliminated_after: int | None = None
    counted_from: int = 1

    @property
    def shown(self) -> str:
        """The result as one text: "66.67 %" or "+12" (what the CSV's result column holds)."""
        if self.method is Method.AVERAGE:
            return f"{self.shown_total:+d}" if self.shown_total else "0"
        shown = self.shown_percentage
        return "" if shown is None else f"{shown} %"


Cell = int | Decimal | str


def duplicate_columns(
    *, average: bool, penalties: bool
) -> tuple[list[str], Callable[[DuplicateRow], list[Cell]]]:
    """The ranking's columns as the CSV and the PDF print them: the headings (rank and player
    first) and what a row puts under the others. Matchpoints: boards, matchpoints (less the
    penalties), maximum, percentage, tops; average: boards, total, tops; then the penalties
    when someone has one."""
    if average:
        head = [_("Rank"), _("Player"), _("Boards"), _("Total"), _("Tops")]
    else:
        head = [_("Rank"), _("Player"), _("Boards"), _("Matchpoints"), _("Maximum"), "%"]
        head.append(_("Tops"))
    if penalties:
        head.append(_("Penalties"))

    def cells(row: DuplicateRow) -> list[Cell]:
        out: list[Cell] = [row.boards]
        if average:
            out += [row.shown_total, row.tops]
        else:
            shown = row.shown_percentage
            out += [row.matchpoints, row.maximum, "" if shown is None else shown, row.tops]
        if penalties:
            out.append(-row.penalties if row.penalties else "")
        return out

    return head, cells


def _penalty_points(tournament: Tournament) -> dict[int, int]:
    """player id -> the points his live penalties take off (one query)."""
    rows = (
        Penalty.objects.filter(tournament=tournament, removed_at__isnull=True)
        .values_list("entry__player_id", "points")
        .order_by()
    )
    taken: dict[int, int] = defaultdict(int)
    for pid, points in rows:
        taken[pid] += points
    return dict(taken)


def _ranked(rows: list[DuplicateRow]) -> list[DuplicateRow]:
    """Best first by the result, then the tops; equal on both share a rank (by name)."""
    return shared_ranks(rows, lambda row: row.player.label.casefold())


def duplicate_standings(
    *, tournament: Tournament, series: str = "", scores: Sequence[BoardScore] | None = None
) -> list[DuplicateRow]:
    """The session's ranking by the tournament's comparison, every player who has a counted
    board; penalties taken off (matchpoints, or points of the total). With a ``series``, only
    that series' players, ranked 1..n among themselves: the boards are still compared over the
    whole field (the same cards, whoever held them). Four queries."""
    method = method_of(tournament)
    if scores is None:
        scores = board_scores(tournament=tournament)
    session = rank_session(scores, method)
    entries = Entry.objects.filter(tournament=tournament, player_id__in=[r.player for r in session])
    if series:
        entries = entries.filter(series=series)
    people = {
        pid: (_player(pid, name, nickname), team or "")
        for pid, name, nickname, team in entries.values_list(
            "player_id", "player__name", "player__nickname", "team__name"
        )
    }
    taken = _penalty_points(tournament)
    rows: list[DuplicateRow] = []
    for row in session:
        if row.player not in people:
            continue  # not of the series asked (or no longer registered)
        player, team = people[row.player]
        penalty = taken.get(row.player, 0)
        matchpoints, total = row.matchpoints, row.total
        if method is Method.AVERAGE:
            total -= penalty
        else:
            matchpoints -= penalty
        rows.append(
            DuplicateRow(
                0,
                player,
                method,
                matchpoints,
                row.maximum,
                total,
                row.tops,
                row.boards,
                penalty,
                team,
            )
        )
    return _ranked(rows)


def duplicate_count(*, tournament: Tournament, series: str = "") -> int:
    """How many players the duplicate ranking (of that series) lists: those with a counted
    board (one query)."""
    lines = ScoreLine.objects.filter(
        counted(tournament, "deal__"),
        deal__game__tournament_table__round__tournament=tournament,
        deal__board__isnull=False,
    )
    if series:
        players = Entry.objects.filter(tournament=tournament, series=series).values("player_id")
        lines = lines.filter(player_id__in=players)
    return lines.values("player_id").distinct().count()


# --- the movement ------------------------------------------------------------------------------


def tables_of(tournament: Tournament) -> int:
    """The movement's table count: round 1's tables once seated, else the checked-in players
    by four (one query)."""
    seated = Table.objects.filter(round__tournament=tournament, round__number=1).count()
    if seated:
        return seated
    return Entry.objects.filter(tournament=tournament, checked_in=True).count() // 4


def movement_of(tournament: Tournament, tables: int | None = None) -> Movement:
    """The tournament's movement; ``MovementError`` when it cannot be made (too few players,
    more rounds than tables)."""
    tables = tables_of(tournament) if tables is None else tables
    if tables < 2:
        raise MovementError("A duplicate session needs at least two tables.")
    return movement(tables, tournament.rounds, tournament.deals_per_round)


def movement_names(*, tournament: Tournament) -> dict[int, Player]:
    """Movement number -> the player drawn to it (empty before round 1 is seated; one query)."""
    rows = Entry.objects.filter(tournament=tournament, movement_number__isnull=False).values_list(
        "movement_number", "player_id", "player__name", "player__nickname"
    )
    return {
        number: _player(pid, name, nickname)
        for number, pid, name, nickname in rows
        if number is not None
    }


@dataclass(frozen=True)
class MovementLine:
    """A table in a round, as the movement page shows it: the players by name where the
    draw is made (None: the number only)."""

    row: MovementRow
    players: tuple[tuple[int, Player | None], ...]  # North, East, South, West


def movement_lines(
    plan: Movement, names: dict[int, Player]
) -> list[tuple[int, list[MovementLine]]]:
    """The movement sheet's rows, round by round, with the players' names."""
    by_round: dict[int, list[MovementLine]] = defaultdict(list)
    for row in movement_rows(plan):
        numbers = (row.north, row.east, row.south, row.west)
        by_round[row.round].append(
            MovementLine(row, tuple((number, names.get(number)) for number in numbers))
        )
    return sorted(by_round.items())


# --- travellers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TravellerSeat:
    direction: Direction
    player: Player | None
    score: int
    matchpoints: int
    difference: Fraction

    @property
    def shown_difference(self) -> int:
        return int(rounded(self.difference))


@dataclass(frozen=True)
class TravellerTable:
    """One table's result on a board."""

    table: int
    contract: str | None
    taker: Direction | None
    bouts: int | None
    points: Decimal | None
    seats: tuple[TravellerSeat, ...]  # North, East, South, West
    maximum: int


@dataclass(frozen=True)
class BoardTraveller:
    board: int
    dealer: Direction
    tables: tuple[TravellerTable, ...]
    pure: Traveller  # the pure package's, for its PDF


def _points(value: object) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        return Decimal(str(value))
    except ArithmeticError:
        return None


def travellers(*, tournament: Tournament, board: int | None = None) -> list[BoardTraveller]:
    """Each board's traveller (or ``board``'s): every table's counted deal on it with the four
    seats' scores, matchpoints and differences from the average (four queries). A board that
    no table has played yet has no traveller."""
    deals = Deal.objects.filter(
        counted(tournament),
        game__tournament_table__round__tournament=tournament,
        board__isnull=False,
    )
    if board is not None:
        deals = deals.filter(board=board)
    found = list(
        deals.values_list(
            "pk",
            "board",
            "game_id",
            "game__tournament_table__number",
            "contract",
            "taker_id",
            "payload",
        ).order_by("board", "game__tournament_table__number")
    )
    lines = ScoreLine.objects.filter(deal__in=deals.values("pk")).values_list(
        "deal_id", "player_id", "points"
    )
    scores: dict[int, dict[int, int]] = defaultdict(dict)
    for deal_id, pid, line_points in lines:
        scores[deal_id][pid] = line_points
    positions = _positions(tournament)
    people = {
        pid: _player(pid, name, nickname)
        for pid, name, nickname in Player.objects.filter(
            seats__game__tournament_table__round__tournament=tournament
        )
        .distinct()
        .values_list("pk", "name", "nickname")
    }
    table_deals: list[TableDeal] = []
    extra: dict[tuple[int, int], tuple[int | None, Direction | None]] = {}
    for deal_id, board_number, game_id, table, contract, taker_id, payload in found:
        number = board_number or 0  # never 0: the deals without a board are left out
        players: dict[Direction, int] = {}
        points: dict[Direction, int] = {}
        for pid, score in scores[deal_id].items():
            position = positions.get((game_id, pid))
            if position is not None and position < len(DIRECTIONS):
                players[DIRECTIONS[position]] = pid
                points[DIRECTIONS[position]] = score
        if len(players) != len(DIRECTIONS):
            continue  # not a table of four seated by the movement
        taker = next((d for d, p in players.items() if p == taker_id), None)
        table_deals.append(
            TableDeal(
                board=number,
                table=table,
                contract=contract or None,
                taker=taker,
                points=_points(payload.get("points")) if contract else None,
                players=players,
                scores=points,
            )
        )
        bouts = payload.get("oudlers") if contract else None
        extra[(number, table)] = (bouts if isinstance(bouts, int) else None, taker)
    out: list[BoardTraveller] = []
    for number in sorted({d.board for d in table_deals}):
        mine = [d for d in table_deals if d.board == number]
        sheet = traveller(number, mine)
        compared = {
            (r.entry.table, r.entry.direction): r
            for r in compare_seats(
                BoardScore(number, d.table, direction, d.players[direction], d.scores[direction])
                for d in mine
                for direction in DIRECTIONS
            )
        }
        tables = tuple(
            TravellerTable(
                table=line.table,
                contract=line.contract,
                taker=line.taker,
                bouts=extra[(number, line.table)][0],
                points=line.points,
                seats=tuple(
                    TravellerSeat(
                        direction=direction,
                        player=people.get(line.players[i]),
                        score=line.scores[i],
                        matchpoints=line.matchpoints[i],
                        difference=compared[(line.table, direction)].difference,
                    )
                    for i, direction in enumerate(DIRECTIONS)
                ),
                maximum=line.maximum,
            )
            for line in sheet.lines
        )
        out.append(BoardTraveller(number, sheet.dealer, tables, sheet))
    return out
