"""Seating quality: ``mixing`` against the greedy baseline, on the same fields and seeds.

Run: ``python bench/seating.py [--seed S] [--seconds-per-round T] [--sizes 16x5,20x5]``.

For each field (players x rounds) it prints the repeated meetings over all rounds (a repeat is
a pair sharing a table again) and the time taken by:

- greedy: the baseline, each player in turn to the table where he has met the fewest;
- mixing, round by round: as the tournament service calls it, one ``seat_round`` per round
  with ``total_rounds``, so each round is planned with the ones still to come;
- mixing, all at once: ``seat_all_rounds``, the whole schedule in one search;
- random: a seeded draw, for scale.

16x5 and 20x5 have schedules where nobody meets twice (16 is the affine plane of order 4):
mixing must find them. 13x4 and 26x6 are added because repeats cannot all be avoided there
(13x4: at least 10), which is where the search and the baseline differ. Each search gets
``--seconds-per-round`` (the service gives 3 s); all runs happen in this process, one after
the other.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import Method, SeatingResult, seat_all_rounds, seat_round  # noqa: E402

SIZES = "16x5,20x5,40x6,100x8,200x8,13x4,26x6"

Run = Callable[[list[int], int, int, float], list[SeatingResult[int]]]


def all_at_once(method: Method) -> Run:
    def run(players: list[int], rounds: int, seed: int, budget: float) -> list[SeatingResult[int]]:
        return seat_all_rounds(
            players, rounds=rounds, method=method, seed=seed, time_budget=budget * rounds
        )

    return run


def round_by_round(
    players: list[int], rounds: int, seed: int, budget: float
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
            time_budget=budget,
        )
        history.append(result.tables)
        results.append(result)
    return results


RUNS: list[tuple[str, Run]] = [
    ("greedy", all_at_once(Method.GREEDY)),
    ("mixing, round by round", round_by_round),
    ("mixing, all at once", all_at_once(Method.MIXING)),
    ("random", all_at_once(Method.RANDOM)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seconds-per-round", type=float, default=1.0)
    parser.add_argument("--sizes", default=SIZES, help="players x rounds, comma separated")
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in size.split("x")) for size in args.sizes.split(",")]
    print(f"repeats over all rounds (time); seed {args.seed}, {args.seconds_per_round} s per round")
    header = f"{'field':>7} | " + " | ".join(f"{name:>22}" for name, _run in RUNS)
    print(header + " | mixing/greedy")
    print("-" * len(header) + "-+--------------")
    started = time.monotonic()
    for players, rounds in sizes:
        field = list(range(1, players + 1))
        cells = []
        totals: dict[str, int] = {}
        for name, run in RUNS:
            start = time.perf_counter()
            results = run(field, rounds, args.seed, args.seconds_per_round)
            elapsed = time.perf_counter() - start
            totals[name] = sum(r.repeats for r in results)
            late = "!" if any(r.timed_out for r in results) else " "
            cells.append(f"{totals[name]:>5} ({elapsed:6.2f} s){late}")
        greedy = totals["greedy"]
        best = min(totals["mixing, round by round"], totals["mixing, all at once"])
        ratio = f"{best / greedy:.2f}" if greedy else "-"
        print(
            f"{players:>4}x{rounds:<2} | " + " | ".join(f"{c:>22}" for c in cells) + f" | {ratio}"
        )
    print(f"(! = cut short by the time budget)  total {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
