"""Player ratings: each deal (donne) rated as the attack against the defence with OpenSkill.

The attack is the taker (preneur) and, at five with a called king, the called partner; the
defence is every other active player. The player sitting out (the mort) is not rated: he is not
in the deal given here at all. A rating is a belief about a player's skill, ``mu`` (the mean)
and ``sigma`` (how unsure it still is); the rating shown to people is the conservative one,
``mu - 3 sigma`` (:func:`conservative`), so a newcomer starts low and climbs as his deals make
the site sure of him.

The model is OpenSkill's Plackett-Luce (Weng and Lin 2011) with its usual defaults, scaled on
``mu = 25``. Two choices are ours, both measured by ``bench/ratings.py`` and explained with the
figures in docs/ratings.md:

- the camps are balanced: OpenSkill sums the skills of a team, so a taker alone against three
  would be a huge outsider and every won contract a windfall. The attack is made up to the size
  of the defence with stand-ins for "the hand the taker chose to play", each of exactly the
  average rating and (almost) no uncertainty, so they absorb no update;
- the margin (écart au contrat) weights the update, within bounds: a deal made or lost by a
  wide margin says more about the players than one decided by half a point
  (:func:`deal_weight`).

Pure and deterministic: no Django, no randomness, and no input is ever changed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from openskill.models import PlackettLuce

PlayerId = int | str

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
# OpenSkill's defaults for a mu of 25: beta is the spread of one deal's performance around the
# skill, tau the uncertainty added before each deal so that a rating keeps following the player.
BETA = DEFAULT_MU / 6
TAU = DEFAULT_MU / 300
CONSERVATIVE_Z = 3.0
# A stand-in's uncertainty: small enough that it takes (practically) no share of the update.
STAND_IN_SIGMA = 1e-3

CONTRACTS = ("prise", "garde", "garde_sans", "garde_contre")


@dataclass(frozen=True)
class Rating:
    """One player's skill as the site believes it: mean ``mu``, uncertainty ``sigma``."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> float:
        """The conservative rating people see (:func:`conservative`)."""
        return conservative(self.mu, self.sigma)


NEW_PLAYER = Rating()


class Weighting(Enum):
    """How much one deal counts, between ``MIN_WEIGHT`` and 1 (1: a full OpenSkill update)."""

    NONE = "none"
    MARGIN = "margin"
    CONTRACT = "contract"
    MARGIN_AND_CONTRACT = "margin_and_contract"


# A deal decided by half a point counts half; from MARGIN_FULL points either way it counts in
# full. Half a point of margin is the smallest that decides a deal.
MIN_WEIGHT = 0.5
MARGIN_FULL = 30
CONTRACT_WEIGHT = {"prise": 0.7, "garde": 0.8, "garde_sans": 0.9, "garde_contre": 1.0}


@dataclass(frozen=True)
class RatingRules:
    """The rating's two choices (see the module's docstring); the defaults are the site's."""

    balance_camps: bool = True
    weighting: Weighting = Weighting.MARGIN


DEFAULT_RULES = RatingRules()


@dataclass(frozen=True)
class RatedDeal:
    """One deal as the rating needs it: who attacked, who defended, and how it went.

    ``attack`` is the taker, then the called partner if there is one; ``defence`` the other
    active players. ``margin`` is the écart au contrat (negative when the contract fell) and
    ``contract`` one of :data:`CONTRACTS`.
    """

    attack: tuple[PlayerId, ...]
    defence: tuple[PlayerId, ...]
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
    def players(self) -> tuple[PlayerId, ...]:
        return self.attack + self.defence


_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=BETA, tau=TAU)


def conservative(mu: float, sigma: float, z: float = CONSERVATIVE_Z) -> float:
    """The rating shown: ``mu - z sigma``, a skill the player is almost surely above."""
    return mu - z * sigma


def deal_weight(deal: RatedDeal, weighting: Weighting = DEFAULT_RULES.weighting) -> float:
    """How much ``deal`` counts, in ``[MIN_WEIGHT, 1]``.

    Margin: ``MIN_WEIGHT + (1 - MIN_WEIGHT) * min(|margin|, MARGIN_FULL) / MARGIN_FULL``.
    Contract: :data:`CONTRACT_WEIGHT`. Both: their product, floored at ``MIN_WEIGHT``.
    """
    by_margin = MIN_WEIGHT + (1 - MIN_WEIGHT) * min(abs(deal.margin), MARGIN_FULL) / MARGIN_FULL
    by_contract = CONTRACT_WEIGHT[deal.contract]
    if weighting is Weighting.MARGIN:
        return by_margin
    if weighting is Weighting.CONTRACT:
        return by_contract
    if weighting is Weighting.MARGIN_AND_CONTRACT:
        return max(MIN_WEIGHT, by_margin * by_contract)
    return 1.0


def rate_deal(
    deal: RatedDeal,
    ratings: Mapping[PlayerId, Rating],
    *,
    rules: RatingRules = DEFAULT_RULES,
) -> dict[PlayerId, Rating]:
    """The new ratings of the deal's players after ``deal``; a player missing from ``ratings``
    starts at :data:`NEW_PLAYER`. Nobody else's rating changes, so only these are returned.

    The update is OpenSkill's, made partial by :func:`deal_weight`: with weight ``w``,
    ``mu' = mu + w (mu_openskill - mu)`` and ``sigma'^2 = sigma^2 + w (sigma_openskill^2 -
    sigma^2)``.
    """
    before = {player: ratings.get(player, NEW_PLAYER) for player in deal.players}
    attack = [_MODEL.rating(before[p].mu, before[p].sigma) for p in deal.attack]
    defence = [_MODEL.rating(before[p].mu, before[p].sigma) for p in deal.defence]
    if rules.balance_camps:
        attack += [
            _MODEL.rating(DEFAULT_MU, STAND_IN_SIGMA) for _ in range(len(defence) - len(attack))
        ]
    new_attack, new_defence = _MODEL.rate([attack, defence], ranks=[0, 1] if deal.won else [1, 0])
    weight = deal_weight(deal, rules.weighting)
    after: dict[PlayerId, Rating] = {}
    for players, updated in ((deal.attack, new_attack), (deal.defence, new_defence)):
        for player, new in zip(players, updated, strict=False):
            old = before[player]
            after[player] = Rating(
                mu=old.mu + weight * (new.mu - old.mu),
                sigma=math.sqrt(old.sigma**2 + weight * (new.sigma**2 - old.sigma**2)),
            )
    return after


def rate_deals(
    deals: Iterable[RatedDeal],
    *,
    start: Mapping[PlayerId, Rating] | None = None,
    rules: RatingRules = DEFAULT_RULES,
) -> dict[PlayerId, Rating]:
    """Every player's rating after ``deals``, in the order given (the rebuild): from ``start``,
    or from scratch."""
    ratings: dict[PlayerId, Rating] = dict(start or {})
    for deal in deals:
        ratings.update(rate_deal(deal, ratings, rules=rules))
    return ratings
