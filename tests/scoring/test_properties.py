"""Properties of the scoring engine over many random deals, and the pack model checked against an
independent brute force.

The deal strategy only builds deals a real pack allows (the points are drawn from
``possible_half_points``), under the ``fft`` and ``classic`` presets and random club rule sets
read with ``RuleSet.from_mapping``. Each valid deal is checked against a reference formula
written here from the rules (not from the engine), and for the invariants of a zero-sum game.
"""

from __future__ import annotations

import ast
import copy
import itertools
import json
import math
import random
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarot_scores.scoring import (
    CLASSIC,
    FFT,
    Contract,
    FivePlayers,
    HandfulSize,
    MisereKind,
    RuleSet,
    ScoringError,
    Side,
    Slam,
    possible_half_points,
    score,
)

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "tarot_scores" / "scoring"

# How many deals: the Hypothesis profile says (tests/conftest.py: few while working, 10,000 in
# CI); garbage, cheaper to find failures in, gets a tenth of that.
FULL_EXAMPLES = settings().max_examples
VALID_EXAMPLES = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
GARBAGE_EXAMPLES = settings(
    max_examples=max(FULL_EXAMPLES // 10, 20),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

NAME_POOL = (
    "Aurélie",
    "Bruno",
    "Chloé",
    "Denis",
    "Émile",
    "Zoë",
    "李雷",
    "Ольга",
    "Nguyễn",
    "O'Brien",
    "Jean-Luc",
)
HAND = {3: 24, 4: 18, 5: 15}
DOG = {3: 6, 4: 6, 5: 3}
NEEDED = (56, 51, 41, 36)
SEEDS = st.integers(0, 2**32)


# --- Strategies ---------------------------------------------------------------------------


def _shapes(active: int) -> list[tuple[Contract, int, Slam | None, Side | None]]:
    """Every (contract, bouts, slam, petit au bout) a real pack allows; ordinary deals
    weighted three to one against slams."""
    out: list[tuple[Contract, int, Slam | None, Side | None]] = []
    for contract, bouts, slam, petit in itertools.product(
        Contract, range(4), (None, *Slam), (None, *Side)
    ):
        if possible_half_points(active, contract, bouts, slam, petit):
            out.extend([(contract, bouts, slam, petit)] * (3 if slam is None else 1))
    return out


SHAPES = {active: _shapes(active) for active in (3, 4, 5)}


def _trumps(rng: random.Random, high: int) -> list[int]:
    return sorted(rng.sample(range(1, high + 1), 3))


CLUB_FIELDS: dict[str, Callable[[random.Random], Any]] = {
    "base": lambda r: r.randint(0, 100),
    "coefficient_prise": lambda r: r.randint(1, 10),
    "coefficient_garde": lambda r: r.randint(1, 10),
    "coefficient_garde_sans": lambda r: r.randint(1, 10),
    "coefficient_garde_contre": lambda r: r.randint(1, 10),
    "handful_simple": lambda r: r.randint(0, 100),
    "handful_double": lambda r: r.randint(0, 100),
    "handful_triple": lambda r: r.randint(0, 100),
    "handful_beneficiary": lambda r: r.choice(["winner", "declarer"]),
    "handful_trumps_3": lambda r: _trumps(r, 22),
    "handful_trumps_4": lambda r: _trumps(r, 18),
    "handful_trumps_5": lambda r: _trumps(r, 15),
    "petit_au_bout": lambda r: r.randint(0, 50),
    "petit_au_bout_multiplied": lambda r: r.random() < 0.5,
    "slam_announced_made": lambda r: r.randint(0, 1000),
    "slam_unannounced_made": lambda r: r.randint(0, 1000),
    "slam_announced_failed": lambda r: r.randint(0, 1000),
    "slam_defense": lambda r: r.randint(0, 1000),
    "miseres_allowed": lambda r: r.random() < 0.5,
    "misere": lambda r: r.randint(0, 50),
    "margin_rounding": lambda r: r.choice(["exact", "5", "10"]),
    "five_players": lambda r: r.choice(["called_king", "sitting_out", "either"]),
}


def _club(seed: int) -> RuleSet:
    """A random club rule set, read by ``RuleSet.from_mapping`` like the site reads one."""
    rng = random.Random(seed)
    mapping = {key: make(rng) for key, make in CLUB_FIELDS.items() if rng.random() < 0.5}
    return RuleSet.from_mapping({"name": "club", **mapping}, based_on=rng.choice([FFT, CLASSIC]))


club_rules = SEEDS.map(_club)


TABLES = (
    ("Aurélie", "Bruno", "Chloé", "Denis", "Émile"),
    ("李雷", "Ольга", "Nguyễn", "O'Brien", "Zoë"),
)


def _seats(five_players: FivePlayers) -> list[tuple[list[str], str | None, str, str | None]]:
    """Every (players, sitting out, taker, partner) of the tables above that the rules allow."""
    out: list[tuple[list[str], str | None, str, str | None]] = []
    for table in TABLES:
        for count in (3, 4):
            out += [(list(table[:count]), None, taker, None) for taker in table[:count]]
        if five_players is not FivePlayers.SITTING_OUT:
            # Called king; the taker's own name as partner also means alone.
            out += [
                (list(table), None, taker, partner) for taker in table for partner in (None, *table)
            ]
        if five_players is not FivePlayers.CALLED_KING:
            out += [
                (list(table), sitting, taker, None)
                for sitting in table
                for taker in table
                if taker != sitting
            ]
    return out


# Built once: a strategy built per example costs more than the example.
SEAT_CHOICES = {mode: st.sampled_from(_seats(mode)) for mode in FivePlayers}
SHAPE_CHOICES = {active: st.sampled_from(SHAPES[active]) for active in (3, 4, 5)}


@st.composite
def deals(draw: st.DrawFn, rules: RuleSet) -> tuple[dict[str, Any], float]:
    """A valid deal under ``rules``, and other points the same deal could have had.

    The structure (table, seats, contract, bouts, slam, petit au bout) is drawn by Hypothesis;
    the points and the declarations come from a seeded Random: three draws per deal keep
    10,000 deals per rule set within seconds.
    """
    players, sitting_out, taker, partner = draw(SEAT_CHOICES[rules.five_players])
    active = [p for p in players if p != sitting_out]
    contract, oudlers, slam, petit = draw(SHAPE_CHOICES[len(active)])
    rng = random.Random(draw(SEEDS))
    possible = sorted(possible_half_points(len(active), contract, oudlers, slam, petit))
    # Points just around the points needed are where the rules bite: drawn a third of the time.
    needed = 2 * NEEDED[oudlers]
    near = [h for h in (needed - 2, needed - 1, needed, needed + 1) if h in possible]
    half = rng.choice(near) if near and rng.random() < 0.35 else rng.choice(possible)
    other = rng.choice(possible)

    miseres: list[dict[str, str]] = []
    if rules.miseres_allowed:
        declared = {kind: 0 for kind in MisereKind}
        for player, kind in itertools.product(active, MisereKind):
            if rng.random() > 0.15:
                continue
            cards = 22 if kind is MisereKind.TRUMP else 16
            if (len(active) - declared[kind] - 1) * HAND[len(active)] + DOG[len(active)] < cards:
                continue
            declared[kind] += 1
            miseres.append({"player": player, "kind": kind.value})
    no_trumps = {m["player"] for m in miseres if m["kind"] == "trump"}
    handfuls: list[dict[str, str]] = []
    shown = 0
    for player in active:
        size = rng.choice([None, None, None, None, *HandfulSize])
        if size is None or player in no_trumps:
            continue
        trumps = rules.handful_trumps(len(active), size)
        if shown + trumps <= 22:
            shown += trumps
            handfuls.append({"player": player, "size": size.value})

    payload: dict[str, Any] = {
        "variant": rules.name,
        "players": players,
        "taker": taker,
        "contract": contract.value,
        "points": _points(half),
        "oudlers": oudlers,
    }
    optional = {
        "sitting_out": sitting_out,
        "partner": partner,
        "petit_au_bout": petit.value if petit else None,
        "slam": slam.value if slam else None,
        "handfuls": handfuls,
        "miseres": miseres,
    }
    for key, value in optional.items():
        if value or rng.random() < 0.5:  # empty values are sometimes left out
            payload[key] = value
    return payload, _points(other)


def _points(half: int) -> float:
    return half // 2 if half % 2 == 0 else half / 2


# --- The reference: the rules, written independently of the engine -----------------------


def reference_unit(deal: dict[str, Any], rules: RuleSet) -> int:
    """What each defender pays the attack, from the FFT formula and the rule set's values."""
    points = Fraction(deal["points"]).limit_denominator(2)
    needed = NEEDED[deal["oudlers"]]
    won = points >= needed
    # The half point goes to the side that won.
    margin = abs(math.ceil(points - needed) if won else math.floor(points - needed))
    step = {"exact": 1, "5": 5, "10": 10}[rules.margin_rounding.value]
    counted = math.floor(Fraction(margin, step) + Fraction(1, 2)) * step if step > 1 else margin
    contract = deal["contract"]
    coefficient = getattr(rules, f"coefficient_{contract}")
    sign = 1 if won else -1
    unit: int = sign * (rules.base + counted) * coefficient
    attack = {deal["taker"], deal.get("partner")} - {None}
    if deal.get("petit_au_bout"):
        petit = rules.petit_au_bout * (coefficient if rules.petit_au_bout_multiplied else 1)
        unit += petit if deal["petit_au_bout"] == "attack" else -petit
    for shown in deal.get("handfuls") or ():
        value = getattr(rules, f"handful_{shown['size']}")
        if rules.handful_beneficiary.value == "winner":
            unit += sign * value
        else:
            unit += value if shown["player"] in attack else -value
    slam = deal.get("slam")
    if slam:
        unit += {
            "announced_made": rules.slam_announced_made,
            "unannounced_made": rules.slam_unannounced_made,
            "announced_failed": -rules.slam_announced_failed,
            "defense": -rules.slam_defense,
        }[slam]
    for declared in deal.get("miseres") or ():
        unit += rules.misere if declared["player"] in attack else -rules.misere
    return unit


def check_valid_deal(deal: dict[str, Any], other_points: float, rules: RuleSet | None) -> None:
    rule_set = rules or {"fft": FFT, "classic": CLASSIC}[deal["variant"]]
    before = copy.deepcopy(deal)
    result = score(deal, rules=rules)
    assert deal == before, "the engine changed its input"

    scores = result.scores
    assert list(scores) == deal["players"]
    assert all(type(v) is int for v in scores.values())
    assert sum(scores.values()) == 0
    sitting_out = deal.get("sitting_out")
    if sitting_out:
        assert scores[sitting_out] == 0
    taker, partner = deal["taker"], deal.get("partner")
    if partner == taker:
        partner = None
    defenders = [p for p in deal["players"] if p not in (taker, partner, sitting_out)]
    unit = reference_unit(deal, rule_set)
    assert result.unit == unit
    assert {scores[p] for p in defenders} == {-unit}
    active = len(deal["players"]) - (1 if sitting_out else 0)
    multiplier = {3: 2, 4: 3, 5: 2 if partner else 4}[active]
    assert scores[taker] == multiplier * unit
    if partner:
        assert scores[partner] == unit
    needed = NEEDED[deal["oudlers"]]
    assert result.needed == needed
    assert result.won is (deal["points"] >= needed)

    # Each term adds up to the score it explains.
    terms = result.terms
    values = {t.kind: t.value for t in terms}
    bonus = sum(
        t.value or 0 for t in terms if t.kind in ("petit_au_bout", "handful", "slam", "misere")
    )
    assert (values["coefficient"] or 0) + bonus == unit
    assert values["taker"] == scores[taker]
    french, english = result.to_json("fr"), result.to_json("en")
    assert json.loads(json.dumps(french)) == french
    assert json.loads(json.dumps(english)) == english
    assert french["scores"] == english["scores"] == scores
    assert [t["text"] for t in french["breakdown"]] != [t["text"] for t in english["breakdown"]]

    # More points never lower the attack's score (a won deal never scores less than lost).
    moved = score({**deal, "points": other_points}, rules=rules).scores
    if other_points >= deal["points"]:
        assert moved[taker] >= scores[taker]
    if other_points <= deal["points"]:
        assert moved[taker] <= scores[taker]


@VALID_EXAMPLES
@given(deals(FFT))
def test_fft_deals(drawn: tuple[dict[str, Any], float]) -> None:
    check_valid_deal(*drawn, None)


@VALID_EXAMPLES
@given(deals(CLASSIC))
def test_classic_deals(drawn: tuple[dict[str, Any], float]) -> None:
    check_valid_deal(*drawn, None)


@VALID_EXAMPLES
@given(st.data(), club_rules)
def test_club_rule_set_deals(data: st.DataObject, rules: RuleSet) -> None:
    deal, other = data.draw(deals(rules))
    check_valid_deal(deal, other, rules)


def test_monotonic_in_points_for_every_shape() -> None:
    """For every shape of deal, the taker's score never drops as the attack's points rise."""
    for active, names in ((3, ["A", "B", "C"]), (4, ["A", "B", "C", "D"])):
        for contract, bouts, slam, petit in set(SHAPES[active]):
            deal = {
                "variant": "fft",
                "players": names,
                "taker": "A",
                "contract": contract.value,
                "oudlers": bouts,
                "slam": slam and slam.value,
                "petit_au_bout": petit and petit.value,
                "handfuls": [{"player": "B", "size": "simple"}],
            }
            taker = [
                score({**deal, "points": _points(half)}).scores["A"]
                for half in sorted(possible_half_points(active, contract, bouts, slam, petit))
            ]
            assert taker == sorted(taker), (active, contract, bouts, slam, petit)


# --- Garbage never raises anything but ScoringError ---------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=8,
)
names = st.sampled_from(NAME_POOL) | st.text(max_size=3)


def refuses_cleanly(payload: Any, rules: RuleSet | None = None) -> None:
    try:
        result = score(payload, rules=rules)
    except ScoringError as error:
        for lang in ("fr", "en"):
            messages = error.messages(lang)
            assert messages and all(isinstance(k, str) for k in messages)
            assert all(isinstance(m, str) and m for ms in messages.values() for m in ms)
            json.dumps(messages)
    else:
        assert sum(result.scores.values()) == 0 or payload.get("variant") in ("novatarok", "buraco")
        json.dumps(result.to_json("en"))


@GARBAGE_EXAMPLES
@given(json_values)
def test_any_json_value_is_refused_cleanly(payload: Any) -> None:
    refuses_cleanly(payload)


@GARBAGE_EXAMPLES
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "variant",
                "players",
                "sitting_out",
                "taker",
                "partner",
                "contract",
                "points",
                "oudlers",
                "petit_au_bout",
                "handfuls",
                "slam",
                "miseres",
                "card_points",
                "kings",
                "trull",
                "pagat",
                "sides",
                "other",
            ]
        ),
        json_values | names,
    ),
    st.sampled_from(["fft", "classic", "novatarok", "buraco", None]),
)
def test_any_object_is_refused_cleanly(payload: dict[str, Any], variant: str | None) -> None:
    if variant:
        payload["variant"] = variant
    refuses_cleanly(payload)


@st.composite
def mutated(draw: st.DrawFn, base: dict[str, Any]) -> dict[str, Any]:
    """A valid payload with one field, or one field inside a list of objects, replaced."""
    payload = copy.deepcopy(base)
    key = draw(st.sampled_from([*payload, "extra"]))
    garbage = draw(json_values | names | st.lists(names, max_size=6))
    containers: list[list[dict[str, Any]]] = [
        v
        for v in payload.values()
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    ]
    inside = draw(st.booleans())
    if containers and inside:
        item: dict[str, Any] = draw(st.sampled_from(draw(st.sampled_from(containers))))
        item[draw(st.sampled_from([*item, "extra"]))] = garbage
    elif draw(st.integers(0, 4)) == 0:
        payload.pop(key, None)
    else:
        payload[key] = garbage
    return payload


TAROT_BASES: list[dict[str, Any]] = [
    {
        "variant": "classic",
        "players": ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"],
        "sitting_out": None,
        "taker": "Chloé",
        "partner": "Bruno",
        "contract": "garde",
        "points": 45.5,
        "oudlers": 2,
        "petit_au_bout": "attack",
        "handfuls": [{"player": "Chloé", "size": "simple"}, {"player": "Denis", "size": "double"}],
        "slam": None,
        "miseres": [{"player": "Émile", "kind": "head"}],
    },
    {
        "variant": "fft",
        "players": ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"],
        "sitting_out": "Émile",
        "taker": "Chloé",
        "partner": None,
        "contract": "prise",
        "points": 91,
        "oudlers": 3,
        "petit_au_bout": None,
        "handfuls": [],
        "slam": "announced_made",
        "miseres": [],
    },
]
NOVATAROK_BASE = {
    "variant": "novatarok",
    "players": ["Aurélie", "Bruno", "Chloé", "Denis"],
    "card_points": {"Aurélie": 40, "Bruno": 20, "Chloé": 10, "Denis": 8},
    "kings": "Aurélie",
    "trull": "Bruno",
    "pagat": "Chloé",
}
BURACO_BASE = {
    "variant": "buraco",
    "players": ["Aurélie", "Bruno", "Chloé", "Denis"],
    "sides": [
        {
            "players": ["Aurélie", "Chloé"],
            "table_points": 300,
            "natural_canastas": 1,
            "mixed_canastas": 1,
            "red_threes": 2,
            "went_out": True,
            "took_extra_pile": True,
            "extra_pile_unplayed": False,
            "hand_points": 10,
        },
        {
            "players": ["Bruno", "Denis"],
            "table_points": 150,
            "natural_canastas": 0,
            "mixed_canastas": 0,
            "red_threes": 1,
            "went_out": False,
            "took_extra_pile": True,
            "extra_pile_unplayed": True,
            "hand_points": 45,
        },
    ],
}


@GARBAGE_EXAMPLES
@given(st.sampled_from(TAROT_BASES).flatmap(mutated))
def test_mutated_tarot_deals_are_refused_cleanly(payload: dict[str, Any]) -> None:
    refuses_cleanly(payload)


@GARBAGE_EXAMPLES
@given(mutated(NOVATAROK_BASE))
def test_mutated_novatarok_rounds_are_refused_cleanly(payload: dict[str, Any]) -> None:
    refuses_cleanly(payload)


@GARBAGE_EXAMPLES
@given(mutated(BURACO_BASE))
def test_mutated_buraco_hands_are_refused_cleanly(payload: dict[str, Any]) -> None:
    # Found a TypeError on side members that are not names (see test_refusals.py).
    refuses_cleanly(payload)


@GARBAGE_EXAMPLES
@given(json_values, club_rules)
def test_garbage_with_club_rules_is_refused_cleanly(payload: Any, rules: RuleSet) -> None:
    refuses_cleanly(payload, rules)


@settings(GARBAGE_EXAMPLES, max_examples=max(FULL_EXAMPLES // 20, 10))
@given(st.dictionaries(st.sampled_from(sorted(CLUB_FIELDS) + ["name", "other"]), json_values))
def test_garbage_rule_sets_are_refused_cleanly(mapping: dict[str, Any]) -> None:
    try:
        rules = RuleSet.from_mapping(mapping)
    except ScoringError as error:
        assert set(error.errors) <= set(mapping)
    else:
        assert RuleSet.from_mapping(rules.to_mapping()) == rules


# --- The pack model against an independent brute force ------------------------------------

# Non-bout cards: kings, queens, knights, jacks (4 each) and the 59 others, in half points.
KINGS, QUEENS, KNIGHTS, JACKS, OTHERS = (9, 4), (7, 4), (5, 4), (3, 4), (1, 59)


@cache
def brute_sums(discard: bool) -> dict[int, frozenset[int]]:
    """For each number of non-bout cards, every half-point total they can make (a discard holds
    no king), by enumerating how many cards of each rank are taken."""
    sums: dict[int, set[int]] = defaultdict(set)
    for kings in range(1 if discard else 5):
        for queens, knights, jacks in itertools.product(range(5), repeat=3):
            cards = kings + queens + knights + jacks
            value = 9 * kings + 7 * queens + 5 * knights + 3 * jacks
            for others in range(60):
                sums[cards + others].add(value + others)
    return {k: frozenset(v) for k, v in sums.items()}


def brute_pile(cards: int, bouts: int, *, discard: bool = False) -> set[int]:
    """Half points of a pile of ``cards`` cards holding exactly ``bouts`` of the 3 bouts."""
    if discard and bouts:
        return set()
    others = cards - bouts
    return {9 * bouts + s for s in brute_sums(discard).get(others, ())} if others >= 0 else set()


def brute_attack(
    active: int, contract: Contract, bouts: int, slam: Slam | None, petit: Side | None
) -> set[int]:
    tricks, dog = HAND[active], DOG[active]
    dog_to_attack = contract is not Contract.GARDE_CONTRE
    seen_dog = contract in (Contract.PRISE, Contract.GARDE)
    made = slam in (Slam.ANNOUNCED_MADE, Slam.UNANNOUNCED_MADE)
    if petit is Side.ATTACK and (bouts == 0 or slam is Slam.DEFENSE):
        return set()  # the attack took the petit in the last trick
    if petit is Side.DEFENSE and (bouts == 3 or made):
        return set()
    out: set[int] = set()
    if made:
        # Every card but the dog of a garde contre; the defence may have kept its Excuse.
        cards = 78 - (0 if dog_to_attack else dog)
        out |= brute_pile(cards, bouts)
        if bouts <= 2:
            out |= brute_pile(cards - 1, bouts)
    elif slam is Slam.DEFENSE:
        # No trick: only the dog or discard, maybe with the taker's own Excuse.
        cards = dog if dog_to_attack else 0
        out |= brute_pile(cards, bouts, discard=seen_dog)
        if bouts >= 1:
            out |= {9 + s for s in brute_pile(cards, bouts - 1, discard=seen_dog)}
    else:
        for won in range(1, tricks):
            out |= brute_pile(active * won + (dog if dog_to_attack else 0), bouts)
    return {h for h in out if 0 <= h <= 182}


def test_pack_model_matches_a_brute_force() -> None:
    for active, contract, bouts, slam, petit in itertools.product(
        (3, 4, 5), Contract, range(4), (None, *Slam), (None, *Side)
    ):
        expected = brute_attack(active, contract, bouts, slam, petit)
        got = possible_half_points(active, contract, bouts, slam, petit)
        assert got == expected, (active, contract, bouts, slam, petit)


def test_pack_facts() -> None:
    made = (Slam.ANNOUNCED_MADE, Slam.UNANNOUNCED_MADE)
    for active, contract, bouts, slam, petit in itertools.product(
        (3, 4, 5), Contract, range(4), (None, *Slam), (None, *Side)
    ):
        possible = possible_half_points(active, contract, bouts, slam, petit)
        assert all(0 <= h <= 182 for h in possible)
        if active == 4 and slam not in (*made, Slam.DEFENSE):
            # Four players: each side holds an even number of cards, each an odd number of
            # half points, so the attack's points are whole.
            assert all(h % 2 == 0 for h in possible)
        if slam not in made:
            # 91 only with a slam; 0 bouts leave the defence at least the 3 bouts and 2 more
            # half points at four (a 4-card trick), 1 more at three.
            assert 182 not in possible
            if bouts == 0:
                assert max(possible, default=0) <= 155
        if slam in made and contract is not Contract.GARDE_CONTRE:
            assert possible <= {173, 182}  # 91, or 86.5 when the defence kept its Excuse
        if slam is Slam.DEFENSE and contract in (Contract.PRISE, Contract.GARDE):
            # The discard only (no king, no bout), maybe with the Excuse the taker kept.
            assert max(possible, default=0) <= 4 * 7 + 2 * 5 + 9
        if slam is None and petit is None:
            assert possible, "every bout count happens in an ordinary deal"

    # The numbers quoted in docs/scoring.md.
    def points(active: int, contract: Contract, bouts: int, slam: Slam | None = None) -> Any:
        p = possible_half_points(active, contract, bouts, slam, None)
        return min(p) / 2, max(p) / 2

    assert points(4, Contract.PRISE, 0) == (5, 77)
    assert points(3, Contract.PRISE, 0) == (4.5, 77.5)
    assert points(5, Contract.PRISE, 0) == (4, 76.5)
    assert points(4, Contract.PRISE, 3) == (17, 89)
    assert points(4, Contract.GARDE_CONTRE, 3) == (14, 86)
    assert points(4, Contract.PRISE, 3, Slam.ANNOUNCED_MADE) == (91, 91)
    assert points(4, Contract.PRISE, 2, Slam.ANNOUNCED_MADE) == (86.5, 86.5)
    assert points(4, Contract.GARDE_CONTRE, 0, Slam.DEFENSE) == (0, 0)
    assert points(4, Contract.PRISE, 0, Slam.DEFENSE) == (3, 19)
    assert not possible_half_points(4, Contract.PRISE, 1, Slam.ANNOUNCED_MADE, None)
    assert not possible_half_points(4, Contract.PRISE, 2, Slam.DEFENSE, None)


def test_possible_half_points_is_cached_and_frozen() -> None:
    first = possible_half_points(4, Contract.GARDE, 2, None, Side.ATTACK)
    assert isinstance(first, frozenset)
    assert possible_half_points(4, Contract.GARDE, 2, None, Side.ATTACK) is first


# --- The engine stays free of Django ------------------------------------------------------


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_no_django_in_the_engine_or_its_tests() -> None:
    sources = sorted(ENGINE.glob("*.py")) + sorted(Path(__file__).parent.glob("*.py"))
    assert len(sources) >= 9
    for path in sources:
        text = path.read_text(encoding="utf-8")
        django = {m for m in _imports(path) if m == "django" or m.startswith("django.")}
        assert not django, f"{path} imports {django}"
        if path.parent == ENGINE:
            assert "import django" not in text and "from django" not in text, path


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, tarot_scores.scoring as s; "
        "s.score({'variant': 'fft', 'players': ['A', 'B', 'C'], 'taker': 'A', "
        "'contract': 'prise', 'points': 51, 'oudlers': 2}); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert out.stdout.strip() == "[]"
