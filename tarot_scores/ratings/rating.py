"""Player ratings: each deal (donne) rated as the attack against the defence with OpenSkill.

The attack is the taker (preneur) and, at five with a called king, the called partner; the
defence is every other active player. The player sitting out (the mort) is not rated: he is not
in the deal given here at all. A rating is a belief about a player's skill, ``mu`` (the mean)
and ``sigma`` (how unsure it still is); the rating shown to people is the conservative one,
``mu - 3 sigma`` (:func:`conservative`), so a newcomer starts low and climbs as his deals make
the site sure of him, read on a scale of its own (:func:`cote`: 1000 for a newcomer, never below
0).

The model is OpenSkill's Plackett-Luce (Weng and Lin 2011) with its defaults for ``mu = 25``.
Two choices are ours, both measured by ``bench/ratings.py`` and explained with the figures in
docs/ratings.md:

- a camp's skill is the mean of its players' (:attr:`Camps.MEAN`). OpenSkill on its own sums a
  team's skills, which makes a taker alone against three a huge outsider and each defender as
  answerable for the result as the taker. Here OpenSkill rates the two camps one against one,
  each camp as a single player whose skill is the mean of its players', and the camp's change
  is shared out among them as the Gaussian mean it is: a lone taker takes his camp's whole
  change, each of three defenders a third of his;
- the margin (écart au contrat) weights the update, within bounds: a deal made or lost by a
  wide margin says more about the players than one decided by a point (:func:`deal_weight`:
  from a fifth of an update at a margin of 0 to a full update at 60 points or more).

Pure and deterministic: no Django, no randomness, and no input is ever changed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

from tarot_scores.scoring import Contract

# A player as the caller names him: the site passes Player ids, the bench and tests numbers or
# names. Anything hashable will do; one deal and its ratings use the same kind.
P = TypeVar("P", bound=Hashable)

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
# OpenSkill's defaults for a mu of 25: beta is the spread of one deal's performance around the
# skill, tau the uncertainty added before each deal so that a rating keeps following the player.
BETA = DEFAULT_MU / 6
TAU = DEFAULT_MU / 300
CONSERVATIVE_Z = 3.0
# OpenSkill's kappa: the floor of the factor that shrinks sigma.
KAPPA = 0.0001
# A stand-in's uncertainty: small enough that it takes (practically) no share of the update.
STAND_IN_SIGMA = 1e-3

# The contracts a deal may be rated for: the engine's own (one home: scoring.Contract).
CONTRACTS = tuple(contract.value for contract in Contract)


@dataclass(frozen=True)
class Rating:
    """One player's skill as the site believes it: mean ``mu``, uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> float:
        """The conservative rating (:func:`conservative`), on the model's own scale."""
        return conservative(self.mu, self.sigma)

    @property
    def cote(self) -> int:
        """The rating as people read it (:func:`cote`)."""
        return cote(self.mu, self.sigma)


NEW_PLAYER = Rating()


class Camps(Enum):
    """What OpenSkill is told a camp's skill is."""

    SUM = "sum"  # OpenSkill's own: the sum of the players' skills
    SUM_BALANCED = "sum_balanced"  # the same, the attack made up to the defence's size
    MEAN = "mean"  # the mean of the camp's players' skills


class Weighting(Enum):
    """What weights a deal's update (:func:`deal_weight`); 1 is a full OpenSkill update."""

    NONE = "none"
    MARGIN = "margin"
    CONTRACT = "contract"
    MARGIN_AND_CONTRACT = "margin_and_contract"


# A deal made with no point to spare (or failed by one) counts a fifth of an update; one made or
# failed by MARGIN_FULL points or more counts in full, with a straight line in between.
MIN_WEIGHT = 0.2
MARGIN_FULL = 60
CONTRACT_WEIGHT: dict[str, float] = {
    Contract.PRISE: 0.7,
    Contract.GARDE: 0.8,
    Contract.GARDE_SANS: 0.9,
    Contract.GARDE_CONTRE: 1.0,
}


@dataclass(frozen=True)
class RatingRules:
    """How deals are rated (see the module's docstring); the defaults are the site's, the others
    are there so that ``bench/ratings.py`` can show what they would give."""

    camps: Camps = Camps.MEAN
    weighting: Weighting = Weighting.MARGIN
    tau: float = TAU
    min_weight: float = MIN_WEIGHT
    margin_full: int = MARGIN_FULL


DEFAULT_RULES = RatingRules()


@dataclass(frozen=True)
class RatedDeal(Generic[P]):
    """One deal as the rating needs it: who attacked, who defended, and how it went.

    ``attack`` is the taker, then the called partner if there is one; ``defence`` the other
    active players. ``margin`` is the écart au contrat as the deal stores it (negative when the
    contract fell; only its size counts) and ``contract`` one of :data:`CONTRACTS`.
    """

    attack: tuple[P, ...]
    defence: tuple[P, ...]
    won: bool
    margin: int = 0
    contract: str = "prise"

    def __post_init__(self) -> None:
        if not 1 <= len(self.attack) <= 2:
            raise ValueError("the attack is the taker and at most one partner")
        if not 1 <= len(self.defence) <= 4:
            raise ValueError("the defence is one to four players")
        everyone = self.attack + self.defence
        if len(set(everyone)) != len(everyone):
            raise ValueError("a player is in the deal twice")
        if self.contract not in CONTRACTS:
            raise ValueError(f"unknown contract {self.contract!r}")

    @property
    def players(self) -> tuple[P, ...]:
        return self.attack + self.defence


@functools.cache
def _model(tau: float) -> PlackettLuce:
    # One model per tau: OpenSkill reads a tau of 0 given to rate() as "the model's own".
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=BETA, tau=tau)


def conservative(mu: float, sigma: float, z: float = CONSERVATIVE_Z) -> float:
    """The rating shown: ``mu - z sigma``, a skill the player is almost surely above."""
    return mu - z * sigma


# The scale members read (docs/ratings.md, "The rating shown"): a newcomer's cautious rating (0
# on the model's scale) is 1000, each point of it 40, and nothing shows below 0.
COTE_START = 1000
COTE_PER_POINT = 40


def cote(mu: float, sigma: float) -> int:
    """The rating shown on the pages, the PDFs and the API: ``1000 + 40 (mu - 3 sigma)``,
    rounded, never below 0. A newcomer shows 1000; a regular of average play about 1800 once
    the site is sure of him (mu 25, sigma about 1.5); the strongest 2000 and more."""
    return max(0, round(COTE_START + COTE_PER_POINT * conservative(mu, sigma)))


def deal_weight(deal: RatedDeal[P], rules: RatingRules = DEFAULT_RULES) -> float:
    """How much ``deal`` counts, in ``[rules.min_weight, 1]`` (``m`` below).

    Margin: ``m + (1 - m) * min(|margin|, F) / F`` with ``F = rules.margin_full``.
    Contract: :data:`CONTRACT_WEIGHT`. Both: their product, floored at ``m``.
    """
    low = rules.min_weight
    by_margin = low + (1 - low) * min(abs(deal.margin), rules.margin_full) / rules.margin_full
    by_contract = CONTRACT_WEIGHT[deal.contract]
    if rules.weighting is Weighting.MARGIN:
        return by_margin
    if rules.weighting is Weighting.CONTRACT:
        return by_contract
    if rules.weighting is Weighting.MARGIN_AND_CONTRACT:
        return max(low, by_margin * by_contract)
    return 1.0


def rate_deal(
    deal: RatedDeal[P],
    ratings: Mapping[P, Rating],
    *,
    rules: RatingRules = DEFAULT_RULES,
) -> dict[P, Rating]:
    """The new ratings of the deal's players after ``deal``; a player missing from ``ratings``
    starts at :data:`NEW_PLAYER`. Nobody else's rating changes, so only these are returned.

    The update is OpenSkill's, made partial by :func:`deal_weight`: with weight ``w``,
    ``mu' = mu + w (mu_openskill - mu)`` and ``sigma'^2 = sigma^2 + w (sigma_openskill^2 -
    sigma^2)``.
    """
    before = {player: ratings.get(player, NEW_PLAYER) for player in deal.players}
    if rules.camps is Camps.MEAN:
        updated = _rate_camp_means(deal, before, rules.tau)
    else:
        updated = _rate_summed_teams(deal, before, rules)
    weight = deal_weight(deal, rules)
    return {
        player: Rating(
            mu=old.mu + weight * (updated[player].mu - old.mu),
            sigma=math.sqrt(old.sigma**2 + weight * (updated[player].sigma ** 2 - old.sigma**2)),
        )
        for player, old in before.items()
    }


def _rate_summed_teams(
    deal: RatedDeal[P], before: Mapping[P, Rating], rules: RatingRules
) -> dict[P, Rating]:
    """OpenSkill's own team update: a camp's skill is the sum of its players'."""
    model = _model(rules.tau)
    attack = [model.rating(before[p].mu, before[p].sigma) for p in deal.attack]
    defence = [model.rating(before[p].mu, before[p].sigma) for p in deal.defence]
    if rules.camps is Camps.SUM_BALANCED:
        attack += [
            model.rating(DEFAULT_MU, STAND_IN_SIGMA) for _ in range(len(defence) - len(attack))
        ]
    new_attack, new_defence = model.rate([attack, defence], ranks=[0, 1] if deal.won else [1, 0])
    return {
        player: Rating(new.mu, new.sigma)
        for players, news in ((deal.attack, new_attack), (deal.defence, new_defence))
        for player, new in zip(players, news, strict=False)
    }


def _rate_camp_means(deal: RatedDeal[P], before: Mapping[P, Rating], tau: float) -> dict[P, Rating]:
    """Each camp as one opponent whose skill is the mean of its players', rated by OpenSkill
    one against one; the camp's change is then shared out as for any Gaussian mean.

    With ``n`` players of variances ``v_j`` (``V = sum v_j``), the camp's skill has mean
    ``mean(mu_j)`` and variance ``V / n^2``. When OpenSkill moves the camp's mean by ``d`` and
    its variance from ``V / n^2`` to ``W``, player ``j`` moves by ``g_j d`` with ``g_j = n v_j /
    V`` and his variance becomes ``v_j - g_j^2 (V / n^2 - W)``. With equal sigmas every player
    of a camp moves as his camp does: a defender of three moves a third as much as a lone taker.
    """
    # tau is added to each player here, before the camps are formed (OpenSkill adds none).
    drifted = {p: Rating(r.mu, math.sqrt(r.sigma**2 + tau**2)) for p, r in before.items()}
    camps = []
    for players in (deal.attack, deal.defence):
        total = sum(drifted[p].sigma ** 2 for p in players)
        mean = sum(drifted[p].mu for p in players) / len(players)
        camps.append((players, total, Rating(mean, math.sqrt(total) / len(players))))
    attack, defence = camps[0][2], camps[1][2]
    if deal.won:
        new_attack, new_defence = one_against_one(attack, defence)
    else:
        new_defence, new_attack = one_against_one(defence, attack)
    after: dict[P, Rating] = {}
    for (players, total, camp), new in zip(camps, (new_attack, new_defence), strict=True):
        for p in players:
            share = len(players) * drifted[p].sigma ** 2 / total
            variance = drifted[p].sigma ** 2 - share**2 * (camp.sigma**2 - new.sigma**2)
            after[p] = Rating(drifted[p].mu + share * (new.mu - camp.mu), math.sqrt(variance))
    return after


def one_against_one(winner: Rating, loser: Rating) -> tuple[Rating, Rating]:
    """OpenSkill's Plackett-Luce update of two opponents, one player each, after ``winner``
    beat ``loser``: ``PlackettLuce(mu=25, sigma=25/3, beta=25/6, tau=0).rate([[winner],
    [loser]], ranks=[0, 1])``, written out for this one case with the same operations in the
    same order, so the very same floats (tests/stats/test_rating.py compares them on random
    ratings). OpenSkill's general code checks its arguments, copies the teams and builds
    objects for each deal: most of a replay's time (profiled with bench/replay.py)."""
    beta_squared = BETA**2
    # OpenSkill adds its tau (0 here) to each player first.
    w_sigma = math.sqrt(winner.sigma * winner.sigma + 0.0)
    l_sigma = math.sqrt(loser.sigma * loser.sigma + 0.0)
    w_mu, l_mu = 0.0 + winner.mu * 1.0, 0.0 + loser.mu * 1.0  # the team's sum of one
    w_var, l_var = 0.0 + (w_sigma * 1.0) ** 2, 0.0 + (l_sigma * 1.0) ** 2
    c = math.sqrt(0.0 + (w_var + beta_squared) + (l_var + beta_squared))
    w_exp, l_exp = math.exp(w_mu / c), math.exp(l_mu / c)
    sum_first = w_exp
    sum_first += l_exp
    # The winner: compared with the first rank only (its own).
    p = w_exp / sum_first
    w_delta = 0.0 + p * (1 - p) / 1
    w_omega = 0.0 + (1 - p) / 1
    # The loser: compared with the first rank and with its own.
    p = l_exp / sum_first
    l_delta = 0.0 + p * (1 - p) / 1
    l_omega = 0.0 - p / 1
    p = l_exp / l_exp
    l_delta += p * (1 - p) / 1
    l_omega += (1 - p) / 1
    out = []
    for mu, sigma, var, omega, delta in (
        (w_mu, w_sigma, w_var, w_omega, w_delta),
        (l_mu, l_sigma, l_var, l_omega, l_delta),
    ):
        omega *= var / c
        delta *= var / c**2
        delta *= math.sqrt(var) / c  # OpenSkill's default gamma
        ratio = sigma**2 / var
        if omega >= 0:
            mu += ratio * omega * 1.0
            sigma *= math.sqrt(max(1 - ratio * delta * 1.0, KAPPA))
        else:
            mu += ratio * omega / 1.0
            sigma *= math.sqrt(max(1 - ratio * delta / 1.0, KAPPA))
        out.append(Rating(mu, sigma))
    return out[0], out[1]


def rate_deals(
    deals: Iterable[RatedDeal[P]],
    *,
    start: Mapping[P, Rating] | None = None,
    rules: RatingRules = DEFAULT_RULES,
) -> dict[P, Rating]:
    """Every player's rating after ``deals``, in the order given (the rebuild): from ``start``,
    or from scratch."""
    ratings: dict[P, Rating] = dict(start or {})
    for deal in deals:
        ratings.update(rate_deal(deal, ratings, rules=rules))
    return ratings
