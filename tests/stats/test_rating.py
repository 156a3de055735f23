"""The rating of deals (``tarot_scores.ratings.rating``): pure, so no database here.

What holds, and is tested: the attack's players move one way and the defence's the other; the
player sitting out, and anyone not at the table, keeps his rating; the partner moves with the
taker; a lone taker moves as much as his whole defence together; the sum of the changes is 0
when every player of the deal is as sure as the others, and only then (OpenSkill is not
zero-sum: an unsure newcomer moves more than a sure regular); rating a sequence is rating its
deals one by one; the same deals give the same ratings; a deal never makes a player less sure
than the drift ``tau`` allows.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tarot_scores.ratings.rating import (
    BETA,
    CONTRACTS,
    DEFAULT_MU,
    DEFAULT_RULES,
    DEFAULT_SIGMA,
    NEW_PLAYER,
    TAU,
    Camps,
    RatedDeal,
    Rating,
    RatingRules,
    Weighting,
    conservative,
    cote,
    deal_weight,
    one_against_one,
    rate_deal,
    rate_deals,
)

# The profile's number of deals, at most 2,000 (thousands of deals a property; the 10,000 of
# CI's profile are the scoring engine's, whose deals cost a tenth of a rating's update).
RATED = settings(max_examples=min(settings().max_examples, 2_000))

# (what, attack, defence): the tables the site can have. At five with the dealer sitting out,
# "Eve" is the mort: at the table but in neither camp.
TABLES = [
    ("three", ("Ann",), ("Bob", "Cat")),
    ("four", ("Ann",), ("Bob", "Cat", "Dan")),
    ("five, called partner", ("Ann", "Bob"), ("Cat", "Dan", "Eve")),
    ("five, king in own hand", ("Ann",), ("Bob", "Cat", "Dan", "Eve")),
    ("five, Eve sitting out", ("Ann",), ("Bob", "Cat", "Dan")),
]
TABLE_IDS = [t[0] for t in TABLES]


def moves(deal: RatedDeal[str], ratings: dict[str, Rating]) -> dict[str, float]:
    after = rate_deal(deal, ratings)
    return {p: after[p].mu - ratings.get(p, NEW_PLAYER).mu for p in after}


@pytest.mark.parametrize(("what", "attack", "defence"), TABLES, ids=TABLE_IDS)
@pytest.mark.parametrize("won", [True, False], ids=["made", "failed"])
def test_attack_and_defence_move_apart(
    what: str, attack: tuple[str, ...], defence: tuple[str, ...], won: bool
) -> None:
    deal = RatedDeal(attack=attack, defence=defence, won=won, margin=10 if won else -10)
    change = moves(deal, {})
    sign = 1 if won else -1
    assert all(sign * change[p] > 0 for p in attack)
    assert all(sign * change[p] < 0 for p in defence)


@pytest.mark.parametrize("camps", list(Camps))
def test_every_camp_model_moves_the_camps_apart(camps: Camps) -> None:
    deal = RatedDeal(attack=("Ann",), defence=("Bob", "Cat", "Dan"), won=True, margin=5)
    after = rate_deal(deal, {}, rules=RatingRules(camps=camps))
    assert after["Ann"].mu > DEFAULT_MU
    assert all(after[p].mu < DEFAULT_MU for p in ("Bob", "Cat", "Dan"))


def test_sitting_out_and_absent_players_keep_their_rating() -> None:
    ratings: dict[str, Rating] = {
        "Eve": Rating(31.0, 2.5),  # the mort of this deal
        "Zoé": Rating(19.0, 4.0),  # not at the table
        "Ann": Rating(27.0, 3.0),
    }
    deal = RatedDeal(attack=("Ann",), defence=("Bob", "Cat", "Dan"), won=True, margin=20)
    after = rate_deal(deal, ratings)
    assert set(after) == {"Ann", "Bob", "Cat", "Dan"}
    whole = rate_deals([deal], start=ratings)
    assert whole["Eve"] == Rating(31.0, 2.5)
    assert whole["Zoé"] == Rating(19.0, 4.0)


@pytest.mark.parametrize("won", [True, False])
def test_at_five_the_partner_moves_with_the_taker(won: bool) -> None:
    deal = RatedDeal(attack=("Ann", "Bob"), defence=("Cat", "Dan", "Eve"), won=won, margin=0)
    change = moves(deal, {})
    assert change["Bob"] == pytest.approx(change["Ann"])
    # Unequal certainty: the less sure of the two takes the larger share, same direction.
    ratings = {"Ann": Rating(25.0, 2.0), "Bob": Rating(25.0, 6.0)}
    change = moves(deal, ratings)
    assert change["Ann"] * change["Bob"] > 0
    assert abs(change["Bob"]) > abs(change["Ann"])


@pytest.mark.parametrize(
    ("defence", "ratio"),
    [(("Bob", "Cat"), 2), (("Bob", "Cat", "Dan"), 3), (("Bob", "Cat", "Dan", "Eve"), 4)],
    ids=["three", "four", "five alone"],
)
def test_a_lone_taker_moves_as_much_as_his_whole_defence(
    defence: tuple[str, ...], ratio: int
) -> None:
    deal = RatedDeal(attack=("Ann",), defence=defence, won=True, margin=25)
    change = moves(deal, {})
    for p in defence:
        assert change["Ann"] == pytest.approx(-ratio * change[p])


@RATED
@given(
    mus=st.lists(st.floats(0, 50), min_size=5, max_size=5),
    sigma=st.floats(0.5, DEFAULT_SIGMA),
    table=st.sampled_from(TABLES),
    won=st.booleans(),
    margin=st.integers(0, 91),
)
def test_zero_sum_when_everyone_is_as_sure(
    mus: list[float],
    sigma: float,
    table: tuple[str, tuple[str, ...], tuple[str, ...]],
    won: bool,
    margin: int,
) -> None:
    _what, attack, defence = table
    ratings: dict[str, Rating] = {
        p: Rating(mu, sigma) for p, mu in zip(("Ann", "Bob", "Cat", "Dan", "Eve"), mus, strict=True)
    }
    deal = RatedDeal(attack=attack, defence=defence, won=won, margin=margin if won else -margin)
    assert sum(moves(deal, ratings).values()) == pytest.approx(0, abs=1e-9)


def test_not_zero_sum_when_a_newcomer_plays_regulars() -> None:
    regulars: dict[str, Rating] = {p: Rating(25.0, 1.5) for p in ("Bob", "Cat", "Dan")}
    deal = RatedDeal(attack=("Ann",), defence=("Bob", "Cat", "Dan"), won=True, margin=30)
    change = moves(deal, regulars)  # Ann is new: sigma 8.3
    lost = -sum(change[p] for p in ("Bob", "Cat", "Dan"))
    assert lost > 0
    assert change["Ann"] > 10 * lost  # the site learns about Ann, hardly about them


@pytest.mark.parametrize(
    ("margin", "weight"),
    [(0, 0.2), (-1, 0.2 + 0.8 / 60), (30, 0.6), (-60, 1.0), (91, 1.0)],
)
def test_the_margin_weights_the_update_within_bounds(margin: int, weight: float) -> None:
    deal = RatedDeal(attack=("Ann",), defence=("Bob", "Cat"), won=margin >= 0, margin=margin)
    assert deal_weight(deal) == pytest.approx(weight)
    full = rate_deal(deal, {}, rules=RatingRules(weighting=Weighting.NONE))
    weighted = rate_deal(deal, {})
    assert weighted["Ann"].mu - DEFAULT_MU == pytest.approx(weight * (full["Ann"].mu - DEFAULT_MU))


@pytest.mark.parametrize("weighting", list(Weighting))
@pytest.mark.parametrize("contract", CONTRACTS)
def test_every_weight_is_between_the_floor_and_one(weighting: Weighting, contract: str) -> None:
    for margin in (-56, -1, 0, 5, 91):
        deal = RatedDeal(attack=("A",), defence=("B", "C"), won=margin >= 0, margin=margin)
        deal = RatedDeal(deal.attack, deal.defence, deal.won, deal.margin, contract)
        weight = deal_weight(deal, RatingRules(weighting=weighting))
        assert DEFAULT_RULES.min_weight <= weight <= 1


SEASON = [
    RatedDeal(attack=("Ann",), defence=("Bob", "Cat", "Dan"), won=True, margin=12),
    RatedDeal(attack=("Bob", "Dan"), defence=("Ann", "Cat", "Eve"), won=False, margin=-4),
    RatedDeal(attack=("Cat",), defence=("Ann", "Bob"), won=True, margin=0, contract="garde_contre"),
    RatedDeal(attack=("Eve",), defence=("Ann", "Bob", "Cat", "Dan"), won=True, margin=40),
]


def test_a_sequence_is_rated_deal_by_deal() -> None:
    step: dict[str, Rating] = {}
    for deal in SEASON:
        step = {**step, **rate_deal(deal, step)}
    assert rate_deals(SEASON) == step


def test_the_same_deals_give_the_same_ratings_and_change_no_input() -> None:
    start: dict[str, Rating] = {"Ann": Rating(30.0, 3.0)}
    first = rate_deals(SEASON, start=start)
    assert rate_deals(SEASON, start=start) == first
    assert start == {"Ann": Rating(30.0, 3.0)}
    assert rate_deals(SEASON[2:], start=rate_deals(SEASON[:2], start=start)) == first


def test_a_new_player_is_rated_zero_and_grows_surer() -> None:
    assert Rating(DEFAULT_MU, DEFAULT_SIGMA) == NEW_PLAYER
    assert NEW_PLAYER.shown == pytest.approx(0.0)
    assert conservative(30.0, 2.0) == 24.0
    after = rate_deals(SEASON)
    assert all(r.sigma < DEFAULT_SIGMA for r in after.values())


@pytest.mark.parametrize(
    ("attack", "defence", "contract", "message"),
    [
        ((), ("B", "C"), "prise", "attack"),
        (("A", "B", "C"), ("D", "E"), "prise", "attack"),
        (("A",), (), "prise", "defence"),
        (("A",), ("B", "A"), "prise", "twice"),
        (("A",), ("B", "C"), "petite", "contract"),
    ],
)
def test_a_deal_that_cannot_be_is_refused(
    attack: tuple[str, ...], defence: tuple[str, ...], contract: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        RatedDeal(attack=attack, defence=defence, won=True, contract=contract)


players = st.lists(st.integers(0, 30), min_size=3, max_size=5, unique=True)
ratings_of = st.builds(Rating, st.floats(0, 50), st.floats(0.5, DEFAULT_SIGMA))


@st.composite
def deals(draw: st.DrawFn) -> RatedDeal[int]:
    table = draw(players)
    taken = draw(st.integers(1, 2 if len(table) == 5 else 1))
    margin = draw(st.integers(-56, 91))
    return RatedDeal(
        attack=tuple(table[:taken]),
        defence=tuple(table[taken:]),
        won=margin >= 0,
        margin=margin,
        contract=draw(st.sampled_from(CONTRACTS)),
    )


@RATED
@given(deal=deals(), known=st.dictionaries(st.integers(0, 30), ratings_of))
def test_properties_of_any_deal(deal: RatedDeal[int], known: dict[int, Rating]) -> None:
    after = rate_deal(deal, known)
    assert set(after) == set(deal.players)
    sign = 1 if deal.won else -1
    for p in deal.players:
        old, new = known.get(p, NEW_PLAYER), after[p]
        side = sign if p in deal.attack else -sign
        assert side * (new.mu - old.mu) > 0
        assert 0 < new.sigma <= math.sqrt(old.sigma**2 + TAU**2) + 1e-12
    assert rate_deal(deal, known) == after


# -- OpenSkill's update, written out for two camps ---------------------------------------------

camp_ratings = st.builds(
    Rating,
    mu=st.floats(-100, 150, allow_nan=False, allow_infinity=False),
    sigma=st.floats(1e-3, 20, allow_nan=False, allow_infinity=False),
)


@RATED
@given(winner=camp_ratings, loser=camp_ratings)
def test_one_against_one_is_openskills_own_update_to_the_last_bit(
    winner: Rating, loser: Rating
) -> None:
    """The replay rates each deal with ``one_against_one``, OpenSkill's Plackett-Luce update
    written out for one opponent against one: it must give OpenSkill's very floats, so that
    ratings stay what they were."""
    model = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=BETA, tau=0.0)
    (new_winner,), (new_loser,) = model.rate(
        [[model.rating(winner.mu, winner.sigma)], [model.rating(loser.mu, loser.sigma)]],
        ranks=[0, 1],
    )
    ours = one_against_one(winner, loser)
    assert ours == (
        Rating(new_winner.mu, new_winner.sigma),
        Rating(new_loser.mu, new_loser.sigma),
    )


def test_the_rating_members_read_starts_at_1000_and_is_never_negative() -> None:
    assert NEW_PLAYER.cote == 1000 == cote(25.0, 25.0 / 3)
    assert cote(25.0, 1.5) == 1820  # a regular of average play, once the site is sure
    assert cote(22.0, 7.5) < 1000  # a bad start shows below a newcomer
    assert cote(-20.0, 8.0) == 0  # and never below 0
    # The order is that of the model's cautious rating.
    pairs = [(30.0, 2.0), (25.0, 1.0), (20.0, 5.0), (10.0, 1.0)]
    by_cote = sorted(pairs, key=lambda p: -cote(*p))
    assert by_cote == sorted(pairs, key=lambda p: -conservative(*p))
