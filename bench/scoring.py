"""Scoring throughput: the engine against a bare FFT formula on the same random deals.

Run: ``python bench/scoring.py [--deals N] [--seed S]``. Prints deals per second for the engine
(validation against the pack, scoring, the explanation left unbuilt) and for the floor: a
minimal hand-written FFT formula that trusts its input and explains nothing. The target is an
engine within 5x of the floor. Both are checked to agree on every deal first.

Each answer is dropped as soon as it is made, as in the product (score, store, forget):
keeping 100,000 answers alive would mostly measure the garbage collector walking them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarot_scores.scoring import (  # noqa: E402
    FFT,
    Contract,
    HandfulSize,
    Side,
    Slam,
    possible_half_points,
    score,
)

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]
NEEDED = (56, 51, 41, 36)
COEFFICIENT = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
HANDFUL = {"simple": 20, "double": 30, "triple": 40}
SLAM = {
    None: 0,
    "announced_made": 400,
    "unannounced_made": 200,
    "announced_failed": -200,
    "defense": -200,
}


def random_deal(rng: random.Random) -> dict[str, Any]:
    """A valid FFT deal: 3, 4 or 5 players (called king or dealer sitting out)."""
    while True:
        players = NAMES[: rng.choice((3, 4, 5))]
        sitting_out = rng.choice(players) if len(players) == 5 and rng.random() < 0.4 else None
        active = [p for p in players if p != sitting_out]
        taker = rng.choice(active)
        partner = rng.choice(active) if len(active) == 5 else None
        contract = rng.choice(list(Contract))
        oudlers = rng.randint(0, 3)
        slam = rng.choice([None] * 20 + list(Slam))
        petit = rng.choice([None, None, None, Side.ATTACK, Side.DEFENSE])
        possible = possible_half_points(len(active), contract, oudlers, slam, petit)
        if not possible:
            continue
        handfuls = []
        trumps = 0
        for player in active:
            if rng.random() < 0.1:
                size = rng.choice(list(HandfulSize))
                needed = FFT.handful_trumps(len(active), size)
                if trumps + needed <= 22:
                    trumps += needed
                    handfuls.append({"player": player, "size": size.value})
        return {
            "variant": "fft",
            "players": players,
            "sitting_out": sitting_out,
            "taker": taker,
            "partner": partner,
            "contract": contract.value,
            "points": rng.choice(sorted(possible)) / 2,
            "oudlers": oudlers,
            "petit_au_bout": petit.value if petit else None,
            "handfuls": handfuls,
            "slam": slam.value if slam else None,
            "miseres": [],
        }


def floor(deal: dict[str, Any]) -> dict[str, int]:
    """The FFT formula, written by hand, trusting its input."""
    needed = NEEDED[deal["oudlers"]]
    points = deal["points"]
    won = points >= needed
    margin = (int(points + 0.5) if won else int(points)) - needed
    coefficient = COEFFICIENT[deal["contract"]]
    unit = (25 + abs(margin)) * coefficient
    if not won:
        unit = -unit
    petit = deal["petit_au_bout"]
    if petit:
        unit += 10 * coefficient if petit == "attack" else -10 * coefficient
    for handful in deal["handfuls"]:
        unit += HANDFUL[handful["size"]] if won else -HANDFUL[handful["size"]]
    unit += SLAM[deal["slam"]]
    taker, partner, out = deal["taker"], deal["partner"], deal["sitting_out"]
    if partner == taker:
        partner = None
    taker_units = len(deal["players"]) - (1 if out else 0) - 1 - (2 if partner else 0)
    return {
        p: 0 if p == out else taker_units * unit if p == taker else unit if p == partner else -unit
        for p in deal["players"]
    }


def best_of(runs: int, work: Any) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    deals = [random_deal(rng) for _ in range(args.deals)]
    for deal in deals:
        if score(deal).scores != floor(deal):
            raise SystemExit(f"engine and floor disagree on {deal}")

    def run_engine() -> None:
        for deal in deals:
            score(deal)

    def run_floor() -> None:
        for deal in deals:
            floor(deal)

    engine = best_of(args.runs, run_engine)
    bare = best_of(args.runs, run_floor)
    print(f"deals: {args.deals} random valid FFT deals (3, 4 and 5 players), seed {args.seed}")
    print(
        f"engine: {args.deals / engine:>12,.0f} deals/s  ({engine / args.deals * 1e6:.2f} µs/deal)"
    )
    print(f"floor:  {args.deals / bare:>12,.0f} deals/s  ({bare / args.deals * 1e6:.2f} µs/deal)")
    ratio = engine / bare
    verdict = "ok" if ratio <= 5 else "MISSED"
    print(f"ratio engine/floor: {ratio:.2f}x (target: within 5x) -> {verdict}")


if __name__ == "__main__":
    main()
