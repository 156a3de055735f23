"""Duplicate tarot: each deal is dealt once into a board (étui) and played at several tables,
and a score is compared only with the scores made with the same cards (same board, same
direction). Pure, typed Python: the movement (``movement``), the ranking of a session by
matchpoints or by difference from the average (``rank_session``) and the travellers
(``traveller``). The printed papers are in ``tournaments.duplicate.pdf``, the one module here
that needs Django (for the translations). See docs/duplicate.md.
"""

from .movement import (
    DIRECTIONS,
    BoardLabel,
    Direction,
    Meeting,
    Movement,
    MovementError,
    MovementRow,
    Station,
    board_dealer,
    board_labels,
    movement,
    movement_rows,
    movement_strides,
)
from .ranking import (
    BoardScore,
    Method,
    RankedRow,
    ResultsError,
    SeatResult,
    SessionResult,
    compare_seats,
    rank_session,
    rounded,
    shared_ranks,
)
from .traveller import TableDeal, Traveller, TravellerLine, traveller

__all__ = [
    "DIRECTIONS",
    "BoardLabel",
    "BoardScore",
    "Direction",
    "Meeting",
    "Method",
    "Movement",
    "MovementError",
    "MovementRow",
    "RankedRow",
    "ResultsError",
    "SeatResult",
    "SessionResult",
    "Station",
    "TableDeal",
    "Traveller",
    "TravellerLine",
    "board_dealer",
    "board_labels",
    "compare_seats",
    "movement",
    "movement_rows",
    "movement_strides",
    "rank_session",
    "rounded",
    "shared_ranks",
    "traveller",
]
