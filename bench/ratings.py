"""Rating quality: how well a season's final ranking finds the players' hidden skills.

Run: ``cd bench && ../.venv/bin/python ratings.py [--quick] [--seeds N]``.

A club of 20 players, each with a hidden skill drawn from a normal law, plays a season. Each
deal: a table of 3 (15 %), 4 (50 %) or 5 (35 %; half of them with a called king, half the FFT
tournament way with the dealer sitting out) drawn from the club; a taker, more skilled players
a little more often (odds x e^0.3 per skill unit); a hand strength, from which the taker bids
(prise about half the time, garde 40 %, garde sans 7 %, garde contre 3 %; skilled players bid a
little higher); a margin (écart) drawn around a mean made of the hand, the contract's risk and
the skill of the attack against the defence (mean skill of each camp), with the noise of the
cards; won when the margin is 0 or more. Scores by the basic FFT formula: unit = (25 + |margin|)
x the contract's coefficient, the taker 2x (3 players), 3x (4), 2x with a partner or 4x alone
(5), each defender -1x, the sitting-out player 0 (handfuls, petit au bout and slams left out:
they add noise, not skill).

At several season lengths (deals played per player) it prints the Spearman rank correlation
between the hidden skills and each method's ranking, averaged over seeds:

- ``rating``: ``tarot_scores.ratings.rating`` as the site runs it (its DEFAULT_RULES), ranked by
  the conservative rating shown to players;
- the same with one choice changed, which is how the site's choices were made: ``win/loss``
  (no weight), ``margin.5/30`` (a milder margin weight: half an update at 0, full from 30),
  ``contract`` (weighted by contract only), ``margin+contr`` (both), ``sum`` (OpenSkill's own
  teams: a camp's skill is the sum of its players'), ``balanced`` (summed, with the attack made
  up to the defence's size by stand-ins of average skill);
- ``points``: the summed points of the club leaderboard;
- ``elo``: a plain Elo against the average of the other camp, win/loss only, fixed K per role
  (taker 24, partner 16, defender 8; 400-point scale, start 1500).

Then the verdicts: the site's rating must rank better than both baselines at every length
printed, and reach a Spearman of 0.8 with fewer deals per player than either. A target missed is
printed as missed. Every method sees the same seasons.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarot_scores.ratings.rating import (  # noqa: E402
    DEFAULT_RULES,
    Camps,
    RatedDeal,
    Rating,
    RatingRules,
    Weighting,
    rate_deal,
)

CLUB = 20
COEFFICIENT = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
# The bid: a hand strength (plus a little skill) over these thresholds.
BIDS = ((2.0, "garde_contre"), (1.3, "garde_sans"), (0.0, "garde"))
# Margin, in card points: mean = BASE + CARDS x hand + SKILL x (attack - defence) - RISK.
BASE, CARDS, SKILL, NOISE = 6.0, 5.0, 4.0, 14.0
RISK = {"prise": 0.0, "garde": 4.0, "garde_sans": 14.0, "garde_contre": 22.0}
LENGTHS = (25, 50, 100, 200, 400)
STEP = 5  # deals per player between two looks at the rankings (for "reaches 0.8")
TARGET = 0.8


@dataclass(frozen=True)
class SimDeal:
    deal: RatedDeal[int]
    scores: dict[int, int]


def simulate_deal(rng: random.Random, skill: Sequence[float]) -> SimDeal:
    size = rng.choices((3, 4, 5), weights=(15, 50, 35))[0]
    table = rng.sample(range(CLUB), size)
    sitting_out = None
    if size == 5 and rng.random() < 0.5:
        sitting_out = table[0]  # the dealer
    active = [p for p in table if p != sitting_out]
    taker = rng.choices(active, weights=[math.exp(0.3 * skill[p]) for p in active])[0]
    partner = None
    if len(active) == 5:
        called = rng.choice(active)  # the called king: in the taker's own hand one time in five
        partner = None if called == taker else called
    attack = (taker,) if partner is None else (taker, partner)
    defence = tuple(p for p in active if p not in attack)
    hand = rng.gauss(0, 1)
    bid = hand + 0.3 * skill[taker]
    contract = next((name for level, name in BIDS if bid >= level), "prise")
    edge = statistics.fmean(skill[p] for p in attack) - statistics.fmean(skill[p] for p in defence)
    mean = BASE + CARDS * hand + SKILL * edge - RISK[contract]
    margin = round(rng.gauss(mean, NOISE))
    margin = max(-56, min(91, margin))
    won = margin >= 0
    unit = (25 + abs(margin)) * COEFFICIENT[contract] * (1 if won else -1)
    scores = dict.fromkeys(table, 0)
    for p in defence:
        scores[p] = -unit
    if len(active) == 3:
        scores[taker] = 2 * unit
    elif len(active) == 4:
        scores[taker] = 3 * unit
    elif partner is None:
        scores[taker] = 4 * unit
    else:
        scores[taker], scores[partner] = 2 * unit, unit
    deal = RatedDeal(attack=attack, defence=defence, won=won, margin=margin, contract=contract)
    return SimDeal(deal, scores)


class Method:
    name = ""

    def play(self, sim: SimDeal) -> None:
        raise NotImplementedError

    def ranking(self) -> list[float]:
        raise NotImplementedError


class OpenSkill(Method):
    def __init__(self, name: str, rules: RatingRules) -> None:
        self.name, self.rules = name, rules
        self.ratings: dict[int, Rating] = {}

    def play(self, sim: SimDeal) -> None:
        self.ratings.update(rate_deal(sim.deal, self.ratings, rules=self.rules))

    def ranking(self) -> list[float]:
        return [self.ratings.get(p, Rating()).shown for p in range(CLUB)]


class Points(Method):
    name = "points"

    def __init__(self) -> None:
        self.total = [0] * CLUB

    def play(self, sim: SimDeal) -> None:
        for p, points in sim.scores.items():
            self.total[p] += points

    def ranking(self) -> list[float]:
        return [float(t) for t in self.total]


class Elo(Method):
    name = "elo"
    K_TAKER, K_PARTNER, K_DEFENDER = 24.0, 16.0, 8.0

    def __init__(self) -> None:
        self.elo = [1500.0] * CLUB

    def play(self, sim: SimDeal) -> None:
        deal = sim.deal
        attack = statistics.fmean(self.elo[p] for p in deal.attack)
        defence = statistics.fmean(self.elo[p] for p in deal.defence)
        new = list(self.elo)
        for camp, other, won in (
            (deal.attack, defence, deal.won),
            (deal.defence, attack, not deal.won),
        ):
            for i, p in enumerate(camp):
                k = (
                    (self.K_TAKER if i == 0 else self.K_PARTNER)
                    if camp is deal.attack
                    else self.K_DEFENDER
                )
                expected = 1 / (1 + 10 ** ((other - self.elo[p]) / 400))
                new[p] = self.elo[p] + k * ((1.0 if won else 0.0) - expected)
        self.elo = new

    def ranking(self) -> list[float]:
        return list(self.elo)


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing the mean of their places."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> float:
    """Spearman's rho: Pearson's correlation of the ranks (so ties are handled)."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    return cov / math.sqrt(va * vb) if va and vb else 0.0


def season(seed: int, methods: list[Method], longest: int) -> dict[str, dict[int, float]]:
    """Play one season of ``longest`` deals per player; Spearman per method every STEP."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(CLUB)]
    seats = 0  # deals played, summed over the players
    looks = list(range(STEP, longest + 1, STEP))
    out: dict[str, dict[int, float]] = {m.name: {} for m in methods}
    while looks:
        sim = simulate_deal(rng, skill)
        for m in methods:
            m.play(sim)
        seats += len(sim.deal.players)
        while looks and seats >= looks[0] * CLUB:
            for m in methods:
                out[m.name][looks[0]] = spearman(skill, m.ranking())
            looks.pop(0)
    return out


def first_reaching(curve: dict[int, float]) -> int | None:
    return next((n for n in sorted(curve) if curve[n] >= TARGET), None)


MEAN, SUM, BALANCED = Camps.MEAN, Camps.SUM, Camps.SUM_BALANCED
VARIANTS: list[tuple[str, RatingRules]] = [
    ("rating", DEFAULT_RULES),
    ("win/loss", RatingRules(weighting=Weighting.NONE)),
    ("margin.5/30", RatingRules(min_weight=0.5, margin_full=30)),
    ("contract", RatingRules(weighting=Weighting.CONTRACT)),
    ("margin+contr", RatingRules(weighting=Weighting.MARGIN_AND_CONTRACT)),
    ("sum", RatingRules(camps=SUM)),
    ("balanced", RatingRules(camps=BALANCED)),
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="8 seeds instead of 40")
    parser.add_argument("--seeds", type=int, default=None, help="how many seasons")
    parser.add_argument("--first-seed", type=int, default=0, help="for a check on fresh seasons")
    args = parser.parse_args(argv)
    seeds = args.seeds or (8 if args.quick else 40)
    factories: list[Callable[[], Method]] = [
        *(lambda n=n, r=r: OpenSkill(n, r) for n, r in VARIANTS),
        Points,
        Elo,
    ]
    names = [f().name for f in factories]
    curves: dict[str, list[dict[int, float]]] = {n: [] for n in names}
    for seed in range(args.first_seed, args.first_seed + seeds):
        result = season(seed, [f() for f in factories], max(LENGTHS))
        for n in names:
            curves[n].append(result[n])
    looks = sorted(curves[names[0]][0])
    mean = {n: {k: statistics.fmean(c[k] for c in curves[n]) for k in looks} for n in names}

    print(
        f"Spearman(hidden skill, final ranking), mean of {seeds} seasons"
        f" (seeds {args.first_seed}..{args.first_seed + seeds - 1}), club of {CLUB}"
    )
    print("'rating' is the site's choice:", DEFAULT_RULES)
    print(f"{'deals/player':>14}" + "".join(f"{n:>13}" for n in names))
    for k in LENGTHS:
        print(f"{k:>14}" + "".join(f"{mean[n][k]:>13.3f}" for n in names))
    reach = {n: first_reaching(mean[n]) for n in names}
    print(
        f"{'reaches 0.8 at':>14}"
        + "".join(f"{str(reach[n] or '>' + str(max(LENGTHS))):>13}" for n in names)
    )

    print("\nPaired difference, rating minus baseline (mean +- standard error over seasons):")
    for base in ("points", "elo"):
        cells = []
        for k in LENGTHS:
            diffs = [r[k] - b[k] for r, b in zip(curves["rating"], curves[base], strict=True)]
            se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
            cells.append(f"{k}: {statistics.fmean(diffs):+.3f}+-{se:.3f}")
        print(f"  vs {base:<6} " + "  ".join(cells))

    print("\nVerdicts:")
    better = all(mean["rating"][k] > max(mean["points"][k], mean["elo"][k]) for k in LENGTHS)
    print(f"  ranks better than points and elo at every length: {'MET' if better else 'MISSED'}")
    mine = reach["rating"]
    others = [reach["points"], reach["elo"]]
    sooner = mine is not None and all(o is None or mine < o for o in others)
    print(
        f"  reaches {TARGET} with fewer deals than either: {'MET' if sooner else 'MISSED'}"
        f" (rating {mine}, points {reach['points']}, elo {reach['elo']}; None = not within"
        f" {max(LENGTHS)})"
    )


if __name__ == "__main__":
    main()
