"""The traveller (feuille ambulante) of a board: what every table made of the same deal, side
by side, with each seat's matchpoints, as it is pinned up or handed round after the session.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from .movement import DIRECTIONS, Direction, board_dealer
from .ranking import BoardScore, ResultsError, compare_seats


@dataclass(frozen=True)
class TableDeal:
    """A board as one table played it: the contract (the scoring contract's code, ``garde``),
    the taker's direction, the attack's card points, and each direction's player and score.
    ``contract`` and ``taker`` are None when every player passed."""

    board: int
    table: int
    contract: str | None
    taker: Direction | None
    points: Decimal | None  # the attack's card points (halves allowed), as parse_points reads them
    players: Mapping[Direction, int]
    scores: Mapping[Direction, int]


@dataclass(frozen=True)
class TravellerLine:
    table: int
    contract: str | None
    taker: Direction | None
    points: Decimal | None
    players: tuple[int, int, int, int]  # North, East, South, West
    scores: tuple[int, int, int, int]
    matchpoints: tuple[int, int, int, int]
    maximum: int  # the matchpoints a seat could have: 2 x (tables - 1)


@dataclass(frozen=True)
class Traveller:
    board: int
    dealer: Direction
    lines: tuple[TravellerLine, ...]  # by table


def traveller(board: int, deals: Iterable[TableDeal]) -> Traveller:
    """Board ``board``'s traveller from the tables' deals (deals of other boards are ignored).
    Refused (``ResultsError``) when a table's deal lacks a direction or a table appears twice."""
    mine = sorted((d for d in deals if d.board == board), key=lambda d: d.table)
    scores: list[BoardScore] = []
    for deal in mine:
        if set(deal.scores) != set(DIRECTIONS) or set(deal.players) != set(DIRECTIONS):
            raise ResultsError(f"Board {board}, table {deal.table}: a direction is missing.")
        scores += [
            BoardScore(
                board=board,
                table=deal.table,
                direction=d,
                player=deal.players[d],
                score=deal.scores[d],
            )
            for d in DIRECTIONS
        ]
    compared = {(r.entry.table, r.entry.direction): r for r in compare_seats(scores)}
    lines = []
    for deal in mine:
        n, e, s, w = (deal.players[d] for d in DIRECTIONS)
        sn, se, ss, sw = (deal.scores[d] for d in DIRECTIONS)
        mn, me, ms, mw = (compared[(deal.table, d)].matchpoints for d in DIRECTIONS)
        lines.append(
            TravellerLine(
                table=deal.table,
                contract=deal.contract,
                taker=deal.taker,
                points=deal.points,
                players=(n, e, s, w),
                scores=(sn, se, ss, sw),
                matchpoints=(mn, me, ms, mw),
                maximum=2 * (len(mine) - 1),
            )
        )
    return Traveller(board=board, dealer=board_dealer(board), lines=tuple(lines))
