"""Seating quality: ``mixing`` against the best value known, and against the greedy baseline.

Run: ``python bench/seating.py [--seed S] [--seconds T] [--sizes 16x5,32x10]``.

For each field (players x rounds) it prints the repeated meetings over all rounds (a repeat is
a pair sharing a table again) and the time taken by:

- mixing, all at once: ``seat_all_rounds`` with ``--seconds`` for the whole schedule;
- mixing, round by round: as the tournament service calls it, one ``seat_round`` per round with
  ``total_rounds`` (each call plans the rounds still to come), ``--seconds`` shared by the rounds;
- greedy: the baseline, each player in turn to the table where he has met the fewest;
- random: a seeded draw, for scale;

then the best value known for the field (``BEST_KNOWN``, with its source) and the ratio of
mixing's best to the greedy's. At most about ``2 x --seconds`` per field; all runs happen in
this process, one after the other.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (  # noqa: E402
    Method,
    SeatingResult,
    plan_tables,
    seat_all_rounds,
    seat_round,
)
from tournaments.seating.rounds import WORK_MOVES  # noqa: E402

SIZES = "16x5,20x5,28x7,32x9,32x10,36x9,40x6,64x21,100x8,200x8,13x4,18x5,26x6"

BEST_KNOWN: dict[tuple[int, int], str] = {
    # Zero repeats, from resolvable designs (tournaments/seating/designs.py builds them all):
    (16, 5): "0",  # the affine plane AG(2,4): every pair meets exactly once
    (20, 5): "0",  # resolvable TD(4,5) (5-4-6 is impossible: 5 rounds is the most)
    (28, 7): "0",  # resolvable TD(4,7)
    (32, 9): "0",  # resolvable TD(4,8) plus each group of 8 at 2 tables
    (32, 10): "0",  # social golfer 8-4-10, first solved by A. Aguado (2004); CSPLib prob010
    (36, 9): "0",  # resolvable TD(4,9)
    (64, 21): "0",  # resolvable TD(4,16) plus AG(2,4) in each group: every pair meets once
    (100, 8): "0",  # resolvable TD(4,25)
    # Zero is the floor and reached here by the search (no construction needed):
    (40, 6): "0",
    (200, 8): "0",
}
"""Fewest repeats known possible. Fields not listed print the counting bound (``floor``): no
schedule has fewer; the true optimum there is not known to us."""

Run = Callable[[list[int], int, int, int], list[SeatingResult[int]]]


def all_at_once(method: Method) -> Run:
    def run(players: list[int], rounds: int, seed: int, budget: int) -> list[SeatingResult[int]]:
        return seat_all_rounds(players, rounds=rounds, method=method, seed=seed, work_budget=budget)

    return run


def round_by_round(
    players: list[int], rounds: int, seed: int, budget: int
) -> list[SeatingResult[int]]:
    history: list[tuple[tuple[int, ...], ...]] = []
    results = []
    for number in range(1, rounds + 1):
        result = seat_round(
            players,
            round_number=number,
            method=Method.MIXING,
            seed=seed,
            history=history,
            total_rounds=rounds,
            work_budget=budget,
        )
        history.append(result.tables)
        results.append(result)
    return results


RUNS: list[tuple[str, Run]] = [
    ("mixing, all at once", all_at_once(Method.MIXING)),
    ("mixing, round by round", round_by_round),
    ("greedy", all_at_once(Method.GREEDY)),
    ("random", all_at_once(Method.RANDOM)),
]


def floor(players: int, rounds: int) -> int:
    """Repeats no schedule avoids: more meetings than pairs, overall or for one player (the
    same count as ``rounds._Field.repeat_floor`` on a fresh field)."""
    sizes = plan_tables(players).sizes
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    short = players * max(0, rounds * (min(sizes) - 1) - (players - 1))
    return max(0, meetings - players * (players - 1) // 2, (short + 1) // 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--moves", type=int, default=WORK_MOVES, help="work budget per seating (swaps evaluated)"
    )
    parser.add_argument("--sizes", default=SIZES, help="players x rounds, comma separated")
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in size.split("x")) for size in args.sizes.split(",")]
    print(f"repeats over all rounds (time); seed {args.seed}, {args.moves} swaps per seating")
    header = (
        f"{'field':>7} | "
        + " | ".join(f"{name:>22}" for name, _run in RUNS)
        + f" | {'best known':>10} | mixing/greedy"
    )
    print(header)
    print("-" * len(header))
    started = time.monotonic()
    for players, rounds in sizes:
        field = list(range(1, players + 1))
        cells = []
        totals: dict[str, int] = {}
        for name, run in RUNS:
            start = time.perf_counter()
            results = run(field, rounds, args.seed, args.moves)
            elapsed = time.perf_counter() - start
            totals[name] = sum(r.repeats for r in results)
            late = "!" if any(r.timed_out for r in results) else " "
            cells.append(f"{totals[name]:>5} ({elapsed:6.2f} s){late}")
        known = BEST_KNOWN.get((players, rounds), f">= {floor(players, rounds)}")
        greedy = totals["greedy"]
        best = min(totals["mixing, round by round"], totals["mixing, all at once"])
        ratio = f"{best / greedy:.2f}" if greedy else "-"
        print(
            f"{players:>4}x{rounds:<2} | "
            + " | ".join(f"{c:>22}" for c in cells)
            + f" | {known:>10} | {ratio}"
        )
    total = time.monotonic() - started
    print(f"(! = stopped by the safety net, not the work budget)  total {total:.0f} s")


if __name__ == "__main__":
    main()
