"""Seating for tarot tournaments: table plans, who sits with whom each round, and in which seat.

Pure, typed Python (no Django): the tournament services load players, past rounds and
standings, call ``seat_round`` and store what it answers.

- ``plan_tables(n)``: how many tables of 4, and of 5 or 3, seat ``n`` players (never 2 or 6),
  explained in French or English by ``TablePlan.describe(lang)``.
- ``seat_round(players, round_number=..., method=..., seed=..., history=...)``: one round, as
  tables of players in seat order, with the repeated meetings and team clashes it could not
  avoid; ``seat_all_rounds`` seats several rounds at once.
- ``describe_movement(plan, lang)``: the ``fixed`` method's movement, to print.
"""

from .movement import describe_movement
from .plan import (
    ImpossibleTablePlan,
    Lang,
    SeatingError,
    TablePlan,
    fewest_byes,
    plan_tables,
)
from .rounds import (
    Method,
    PairClash,
    SeatingResult,
    TeamClash,
    seat_all_rounds,
    seat_round,
)

__all__ = [
    "ImpossibleTablePlan",
    "Lang",
    "Method",
    "PairClash",
    "SeatingError",
    "SeatingResult",
    "TablePlan",
    "TeamClash",
    "describe_movement",
    "fewest_byes",
    "plan_tables",
    "seat_all_rounds",
    "seat_round",
]
