"""Seating quality and cost: the fair ``mixing`` against today's search, measured in one run.

Run: ``python bench/seating.py [--seed S] [--sizes 12x3,13x3a12,28x9] [--baseline COMMIT]``.

For each field (``players x rounds``, ``a`` and a count: that many pairs kept apart, drawn among
those one seating keeps apart) it prints, for each way of seating, the largest number of meetings
of any pair (``most``), the pairs that meet that often, the repeats (meetings past a pair's
first, over all rounds) and the CPU time (``time.process_time``):

- fair, all at once: ``seat_all_rounds`` with ``mixing``;
- fair, round by round: as the tournament service calls it, one ``seat_round`` per round with
  ``total_rounds`` (CPU: the slowest single call, the organiser's wait);
- today's search: ``mixing`` as it was at ``--baseline`` (``BASELINE``, the commit before the
  fair objective), loaded from git into this process and run all at once;
- greedy: the baseline method of the package, for scale;

then the counting floor (``fairness.schedule_floor``: no schedule does better) and the CPU
ratio of the fair search to today's. All runs happen in this process, one after the other.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.tournaments.seating.pairs import pairs_kept_apart  # noqa: E402
from tournaments.seating import Method, plan_tables, seat_all_rounds, seat_round  # noqa: E402
from tournaments.seating.fairness import Meetings, meetings_of, schedule_floor  # noqa: E402

SIZES = "12x3,13x3a12,8x3,16x5,17x5,20x6,21x10,28x9,30x10,32x10,40x13,52x17,100x8,299x10"
BASELINE = "3992a66"
"""Today's search: the commit before the fair objective (repeats counted alone, 1,000,000
swaps, constructions for 16, 20, 28 over 7 rounds, 32...)."""

Tables = list[list[int]]
Run = Callable[[list[int], int, int, list[tuple[int, int]]], tuple[list[Tables], float]]


def load_baseline(commit: str) -> ModuleType | None:
    """``tournaments.seating`` as it was at ``commit``, imported as a package of its own; None
    when git or the commit is not there."""
    try:
        names = subprocess.run(
            ["git", "ls-tree", "--name-only", commit, "tournaments/seating/"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    folder = Path(tempfile.mkdtemp()) / "baseline_seating"
    folder.mkdir()
    for name in names:
        source = subprocess.run(
            ["git", "show", f"{commit}:{name}"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        (folder / Path(name).name).write_bytes(source)
    spec = importlib.util.spec_from_file_location(
        "baseline_seating", folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_seating"] = module
    spec.loader.exec_module(module)
    return module


def all_at_once(seat: Callable[..., Any], method: str) -> Run:
    def run(
        players: list[int], rounds: int, seed: int, apart: list[tuple[int, int]]
    ) -> tuple[list[Tables], float]:
        start = time.process_time()
        results = seat(players, rounds=rounds, method=method, seed=seed, apart=apart)
        return [list(map(list, r.tables)) for r in results], time.process_time() - start

    return run


def round_by_round(
    players: list[int], rounds: int, seed: int, apart: list[tuple[int, int]]
) -> tuple[list[Tables], float]:
    history: list[Tables] = []
    slowest = 0.0
    for number in range(1, rounds + 1):
        start = time.process_time()
        result = seat_round(
            players,
            round_number=number,
            method=Method.MIXING,
            seed=seed,
            history=history,
            total_rounds=rounds,
            apart=apart,
        )
        slowest = max(slowest, time.process_time() - start)
        history.append([list(t) for t in result.tables])
    return history, slowest


def cell(meetings: Meetings, seconds: float | None = None) -> str:
    text = f"{meetings.most} x{meetings.at_most:<4} r{meetings.repeats:<4}"
    return text + (f" {seconds:6.2f}s" if seconds is not None else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--sizes", default=SIZES, help="players x rounds [a pairs apart], commas")
    parser.add_argument("--baseline", default=BASELINE, help="commit of today's search")
    args = parser.parse_args()
    baseline = load_baseline(args.baseline)
    runs: list[tuple[str, Run]] = [
        ("fair, all at once", all_at_once(seat_all_rounds, "mixing")),
        ("fair, round by round", round_by_round),
    ]
    if baseline is not None:
        runs.append(("today's search", all_at_once(baseline.seat_all_rounds, "mixing")))
    else:
        print(f"(today's search at {args.baseline} not found: git or the commit is missing)")
    runs.append(("greedy", all_at_once(seat_all_rounds, "greedy")))
    print("most meetings of a pair x pairs that often, r repeats, CPU seconds; seed", args.seed)
    header = (
        f"{'field':>9} | "
        + " | ".join(f"{name:>24}" for name, _run in runs)
        + f" | {'floor':>15} | fair/today CPU"
    )
    print(header)
    print("-" * len(header))
    for size in args.sizes.split(","):
        shape, _, apart_count = size.partition("a")
        players, rounds = (int(x) for x in shape.split("x"))
        apart = pairs_kept_apart(players, int(apart_count or 0), random.Random(args.seed))
        field = list(range(players))
        cells = []
        seconds: dict[str, float] = {}
        for name, run in runs:
            plan, spent = run(field, rounds, args.seed, apart)
            seconds[name] = spent
            cells.append(cell(meetings_of(plan), spent))
        floor = schedule_floor(players, [plan_tables(players).sizes] * rounds)
        today = seconds.get("today's search")
        ratio = f"{seconds['fair, all at once'] / today:.2f}" if today else "-"
        print(
            f"{size:>9} | "
            + " | ".join(f"{c:>24}" for c in cells)
            + f" | {cell(floor):>15} | {ratio}",
            flush=True,
        )


if __name__ == "__main__":
    main()
