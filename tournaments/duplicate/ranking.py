"""Ranking a duplicate tarot session: each score on a board is compared only with the scores
of the players who held the same direction on that board, since they had the same cards.

Two methods (``Method``):

- **matchpoints** (``MATCHPOINTS``): on a board, a seat played ``n`` times gives each of its
  players 2 points for every other player of that seat he outscored and 1 for every tie, out of
  ``2(n-1)``. A player's session result is his matchpoints as a percentage of the maximum he
  could have had; a board whose seat was played once (nothing to compare) counts for nothing.
- **difference from the average** (``AVERAGE``): on a board, each score minus the average of
  that seat's scores on it; the session total is the sum. The differences are kept exact
  (fractions: an average of 3 scores is in thirds) and only the total is rounded, once, to the
  nearest point, halves away from zero (``shown_total``). Rounding each board instead would
  let the rounding errors add up and the differences of a seat no longer sum to zero.

Either way the ranking is by the result (the percentage or the exact total), then by the number
of tops (boards where the player beat everyone else at his seat); players equal on both share
the rank. Pure: it takes ``BoardScore`` rows (board, table, direction, player, score) as the
tables entered them and returns ranked rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from .movement import Direction


class Method(StrEnum):
    MATCHPOINTS = "matchpoints"
    AVERAGE = "average"


class ResultsError(ValueError):
    """Results that cannot be ranked: a seat of a table entered twice for one board, or a
    player with two scores on one board."""


@dataclass(frozen=True)
class BoardScore:
    """A player's score on a board, at the seat he held at a table."""

    board: int
    table: int
    direction: Direction
    player: int
    score: int


@dataclass(frozen=True)
class SeatResult:
    """A score set against the others of its seat on its board."""

    entry: BoardScore
    matchpoints: int  # 2 per score beaten, 1 per tie
    maximum: int  # 2 x (n - 1)
    difference: Fraction  # score minus the seat's average on the board

    @property
    def top(self) -> bool:
        return self.maximum > 0 and self.matchpoints == self.maximum


class SessionResult:
    """A player's session result from his ``matchpoints`` out of ``maximum`` and his exact
    ``total`` of differences, by ``method``, with his ``tops`` and ``rank``: shared by the pure
    rows and the site's rows."""

    rank: int
    method: Method
    matchpoints: int
    maximum: int
    total: Fraction
    tops: int

    @property
    def percentage(self) -> Fraction | None:
        """Matchpoints as a share of the maximum, 0 to 100; None before any comparison."""
        if not self.maximum:
            return None
        return Fraction(100 * self.matchpoints, self.maximum)

    @property
    def result(self) -> Fraction:
        """What ranks the player: his percentage (50 when nothing compared) or his total."""
        if self.method is Method.AVERAGE:
            return self.total
        percentage = self.percentage
        return Fraction(50) if percentage is None else percentage

    @property
    def shown_percentage(self) -> Decimal | None:
        """The percentage as printed: two decimals, halves away from zero."""
        percentage = self.percentage
        return None if percentage is None else rounded(percentage, 2)

    @property
    def shown_total(self) -> int:
        """The total as printed: the exact total rounded once to a whole point."""
        return int(rounded(self.total))


@dataclass(frozen=True)
class RankedRow(SessionResult):
    rank: int
    player: int
    method: Method
    matchpoints: int
    maximum: int
    total: Fraction  # the exact sum of differences from the average
    tops: int
    boards: int


def rounded(value: Fraction, places: int = 0) -> Decimal:
    """``value`` to ``places`` decimals, halves away from zero (as people round)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _check(scores: Sequence[BoardScore]) -> None:
    seats: set[tuple[int, int, Direction]] = set()
    played: set[tuple[int, int]] = set()
    for entry in scores:
        seat = (entry.board, entry.table, entry.direction)
        if seat in seats:
            raise ResultsError(
                f"Board {entry.board}, table {entry.table}: {entry.direction.name} has two scores."
            )
        if (entry.board, entry.player) in played:
            raise ResultsError(f"Player {entry.player} has two scores on board {entry.board}.")
        seats.add(seat)
        played.add((entry.board, entry.player))


def compare_seats(scores: Iterable[BoardScore]) -> tuple[SeatResult, ...]:
    """Each score against the others of the same direction on the same board, in the order
    given. Refused (``ResultsError``) if a seat or a player has two scores on a board."""
    entries = tuple(scores)
    _check(entries)
    by_seat: dict[tuple[int, Direction], list[int]] = defaultdict(list)
    for entry in entries:
        by_seat[(entry.board, entry.direction)].append(entry.score)
    results: list[SeatResult] = []
    for entry in entries:
        others = by_seat[(entry.board, entry.direction)]
        beaten = sum(1 for s in others if s < entry.score)
        tied = sum(1 for s in others if s == entry.score) - 1  # not himself
        results.append(
            SeatResult(
                entry=entry,
                matchpoints=2 * beaten + tied,
                maximum=2 * (len(others) - 1),
                difference=entry.score - Fraction(sum(others), len(others)),
            )
        )
    return tuple(results)


def rank_session(scores: Iterable[BoardScore], method: Method) -> tuple[RankedRow, ...]:
    """The session's ranking by ``method``: best first; equal result and tops share a rank
    (listed by player number)."""
    matchpoints: dict[int, int] = defaultdict(int)
    maximum: dict[int, int] = defaultdict(int)
    total: dict[int, Fraction] = defaultdict(Fraction)
    tops: dict[int, int] = defaultdict(int)
    boards: dict[int, int] = defaultdict(int)
    for result in compare_seats(scores):
        player = result.entry.player
        matchpoints[player] += result.matchpoints
        maximum[player] += result.maximum
        total[player] += result.difference
        tops[player] += result.top
        boards[player] += 1
    rows = [
        RankedRow(
            rank=0,
            player=player,
            method=method,
            matchpoints=matchpoints[player],
            maximum=maximum[player],
            total=total[player],
            tops=tops[player],
            boards=boards[player],
        )
        for player in boards
    ]
    return tuple(shared_ranks(rows, lambda row: row.player))


Ranked = TypeVar("Ranked", bound=SessionResult)


def shared_ranks(rows: Iterable[Ranked], listed: Callable[[Ranked], Any]) -> list[Ranked]:
    """``rows`` best first by the result, then the tops, each with its rank: rows equal on
    both share a rank (1, 2, 2, 4) and are listed by ``listed`` (dataclass rows)."""
    ordered = sorted(rows, key=lambda row: (-row.result, -row.tops, listed(row)))
    ranked: list[Ranked] = []
    for index, row in enumerate(ordered):
        previous = ranked[-1] if ranked else None
        same = previous is not None and (previous.result, previous.tops) == (row.result, row.tops)
        rank = previous.rank if same and previous is not None else index + 1
        ranked.append(replace(row, rank=rank))  # type: ignore[type-var]
    return ranked
