"""The movement of a duplicate tarot session: which boards (étuis) each table plays each round,
and which player sits at each direction.

In duplicate tarot every deal is dealt once, kept in its board, and played at several tables;
a player's score on a board is then compared with the scores of the players who held the same
direction on it. So a movement must make sure that no table and no player sees a board twice,
and it should keep players from meeting again.

The movement (4-player tables, ``T`` tables, ``4T`` players numbered 1 to ``4T``):

- round 1: table ``t`` (1-based) seats players ``4t-3`` North, ``4t-2`` East, ``4t-1`` South
  and ``4t`` West, and plays board group ``t`` (boards ``(t-1)k+1`` to ``tk`` for ``k``
  boards per round);
- each player keeps his direction for the whole session;
- each round the boards go one table down (table 1's boards to table ``T``), North stays, and
  East, South and West go up by their stride: 1, 2 and 3 tables, wrapping round.

Relative to the boards, the four directions move by 1, 2, 3 and 4 tables a round, and relative
to one another by 1, 2 or 3: when ``T`` shares no factor with 6 (1, 5, 7, 11, 13, 17...)
nobody plays a board twice and nobody meets anybody twice, for as many rounds as there are
tables. For other table counts the strides are searched (``movement_strides``): no player ever
plays a board twice (always possible), then as few repeated meetings as possible; some
remain when the table count is even or a multiple of 3 and the session is long enough (with 2
tables, 2 rounds: everyone meets again). ``Movement.repeated_meetings`` counts them.

A table never plays a board twice as long as there are no more rounds than tables.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from math import gcd


class Direction(StrEnum):
    """A seat of a duplicate table, kept by its player for the session."""

    NORTH = "N"
    EAST = "E"
    SOUTH = "S"
    WEST = "W"


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)
BOARD_STRIDE = -1  # the boards go one table down each round
_CLASSIC = (0, 1, 2, 3)  # North, East, South, West: how many tables up each round
_SEARCH_LIMIT = 40  # beyond this many tables only strides below _SMALL_STRIDES are tried
_SMALL_STRIDES = 12


class MovementError(ValueError):
    """A movement that cannot be made (no table, more rounds than tables...)."""


def board_dealer(board: int) -> Direction:
    """Who deals a board: North deals board 1, East board 2, South 3, West 4, North 5..."""
    return DIRECTIONS[(board - 1) % len(DIRECTIONS)]


@dataclass(frozen=True)
class Station:
    """One table in one round: the boards it plays and who sits where."""

    round: int  # 1-based
    table: int  # 1-based
    boards: tuple[int, ...]
    players: tuple[int, int, int, int]  # North, East, South, West

    def player_at(self, direction: Direction) -> int:
        return self.players[DIRECTIONS.index(direction)]

    def direction_of(self, player: int) -> Direction | None:
        if player not in self.players:
            return None
        return DIRECTIONS[self.players.index(player)]


@dataclass(frozen=True)
class Meeting:
    """Two players who share a table again in ``round`` (they first met in ``first``)."""

    players: tuple[int, int]
    first: int
    round: int


@dataclass(frozen=True)
class Movement:
    tables: int
    rounds: int
    boards_per_round: int
    strides: tuple[int, int, int, int]  # tables up each round: North, East, South, West
    stations: tuple[Station, ...]  # round by round, table by table

    @property
    def players(self) -> int:
        return 4 * self.tables

    @property
    def boards(self) -> int:
        return self.tables * self.boards_per_round

    def station(self, round_number: int, table: int) -> Station:
        return self.stations[(round_number - 1) * self.tables + (table - 1)]

    def round_stations(self, round_number: int) -> tuple[Station, ...]:
        start = (round_number - 1) * self.tables
        return self.stations[start : start + self.tables]

    def repeated_meetings(self) -> tuple[Meeting, ...]:
        """Every time two players share a table after they already did, from the stations
        themselves (not from the strides), round by round."""
        first: dict[tuple[int, int], int] = {}
        again: list[Meeting] = []
        for station in self.stations:
            for pair in itertools.combinations(sorted(station.players), 2):
                if pair in first:
                    again.append(Meeting(players=pair, first=first[pair], round=station.round))
                else:
                    first[pair] = station.round
        return tuple(again)

    def board_replays(self) -> tuple[tuple[int, int], ...]:
        """(player, board) for each board a player would see twice: none in a sound movement."""
        seen: Counter[tuple[int, int]] = Counter()
        for station in self.stations:
            for player in station.players:
                for board in station.boards:
                    seen[(player, board)] += 1
        return tuple(sorted(key for key, count in seen.items() if count > 1))


def _clashes(delta: int, tables: int, rounds: int) -> int:
    """Pairs of rounds in which two movers ``delta`` tables a round apart are together again
    (each such pair of rounds is a repeat for every table)."""
    return sum(rounds - k for k in range(1, rounds) if (delta * k) % tables == 0)


def movement_strides(tables: int, rounds: int) -> tuple[int, int, int, int]:
    """How many tables North, East, South and West move up each round (North: 0).

    The classic 0, 1, 2, 3 when it gives no repeat. Otherwise, among every choice of strides
    for East, South and West (below 12 beyond 40 tables, to stay quick): none where a player
    sees a board twice, then the fewest repeated meetings, then the strides nearest the
    classic ones. Deterministic."""
    if tables <= 1:
        return (0, 0, 0, 0)
    if gcd(tables, 6) == 1:
        return _CLASSIC
    replay = [_clashes((s - BOARD_STRIDE) % tables, tables, rounds) for s in range(tables)]
    meet = [_clashes(d, tables, rounds) for d in range(tables)]
    classic = [s % tables for s in _CLASSIC]
    if not any(replay[s] for s in classic) and not any(
        meet[(a - b) % tables] for a, b in itertools.combinations(classic, 2)
    ):
        return _CLASSIC  # a short session: the classic strides repeat nothing yet
    best: tuple[tuple[int, int], tuple[int, int, int, int]] | None = None
    candidates = range(tables if tables <= _SEARCH_LIMIT else _SMALL_STRIDES)
    for east, south, west in itertools.product(candidates, repeat=3):
        strides = (0, east, south, west)
        if any(replay[s] for s in strides):
            continue
        meetings = sum(meet[(a - b) % tables] for a, b in itertools.combinations(strides, 2))
        distance = sum(abs(s - c) for s, c in zip(strides, _CLASSIC, strict=True))
        key = (meetings, distance)
        if best is None or key < best[0]:
            best = (key, strides)
    assert best is not None  # all strides 0 never replays a board
    return best[1]


def movement(tables: int, rounds: int, boards_per_round: int) -> Movement:
    """The session's movement: ``tables`` tables of 4, ``rounds`` rounds of
    ``boards_per_round`` boards. Refused (``MovementError``) without a table, round or board,
    or with more rounds than tables (a table would play a board again)."""
    if tables < 1 or rounds < 1 or boards_per_round < 1:
        raise MovementError("A movement needs at least one table, one round and one board.")
    if rounds > tables:
        raise MovementError(
            f"{rounds} rounds need at least {rounds} tables: with {tables}, "
            "a table would play a board again."
        )
    strides = movement_strides(tables, rounds)
    stations: list[Station] = []
    for r in range(rounds):
        seats: list[list[int]] = [[0, 0, 0, 0] for _ in range(tables)]
        for start in range(tables):
            for d, stride in enumerate(strides):
                seats[(start + stride * r) % tables][d] = 4 * start + d + 1
        for t in range(tables):
            group = (t - BOARD_STRIDE * r) % tables  # the group that started at this table
            first = group * boards_per_round + 1
            north, east, south, west = seats[t]
            stations.append(
                Station(
                    round=r + 1,
                    table=t + 1,
                    boards=tuple(range(first, first + boards_per_round)),
                    players=(north, east, south, west),
                )
            )
    return Movement(
        tables=tables,
        rounds=rounds,
        boards_per_round=boards_per_round,
        strides=strides,
        stations=tuple(stations),
    )


# --- for printing ------------------------------------------------------------------------------


def boards_text(boards: tuple[int, ...]) -> str:
    """A run of boards as printed: "7", "7-9" (boards of a round are consecutive)."""
    if len(boards) == 1:
        return str(boards[0])
    return f"{boards[0]}-{boards[-1]}"


@dataclass(frozen=True)
class MovementRow:
    """One line of the movement sheet: a table in a round."""

    round: int
    table: int
    boards: str
    north: int
    east: int
    south: int
    west: int
    boards_from: int | None  # the table these boards come from (None in round 1)


def movement_rows(plan: Movement) -> tuple[MovementRow, ...]:
    """The movement sheet's lines, round by round, table by table."""
    rows = []
    for station in plan.stations:
        came_from = None
        if station.round > 1:
            came_from = (station.table - 1 - BOARD_STRIDE) % plan.tables + 1
        north, east, south, west = station.players
        rows.append(
            MovementRow(
                round=station.round,
                table=station.table,
                boards=boards_text(station.boards),
                north=north,
                east=east,
                south=south,
                west=west,
                boards_from=came_from,
            )
        )
    return tuple(rows)


@dataclass(frozen=True)
class BoardLabel:
    """What is written on a board (étui): its number, its dealer, the table it starts at."""

    board: int
    dealer: Direction
    first_table: int


def board_labels(plan: Movement) -> tuple[BoardLabel, ...]:
    return tuple(
        BoardLabel(board=board, dealer=board_dealer(board), first_table=station.table)
        for station in plan.round_stations(1)
        for board in station.boards
    )
