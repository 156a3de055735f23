"""French Tarot scoring, one table of cases per rule: FFT (seeds 002, 003, 004, 000, DESIGN.md),
the classic preset (seed 002's program) and club rule sets read with ``RuleSet.from_mapping``.

Every case is a full deal that a real pack allows; the expected numbers are worked out by hand
in the case's comment, from the rule it checks.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tarot_scores.scoring import (
    CLASSIC,
    FFT,
    NEEDED,
    PRESETS,
    Beneficiary,
    FivePlayers,
    HandfulSize,
    MarginRounding,
    RuleSet,
    score,
)
from tests.scoring.deals import FIVE, FOUR, THREE, refusal, scores, tarot

# Chloé takes; at four the defenders are Aurélie, Bruno and Denis.
DEFENDERS_4 = ("Aurélie", "Bruno", "Denis")


def four(unit: int) -> dict[str, int]:
    """Expected scores at four: each defender pays ``unit``, Chloé collects 3 units."""
    return {"Aurélie": -unit, "Bruno": -unit, "Chloé": 3 * unit, "Denis": -unit}


def unit_of(payload: dict[str, Any], rules: RuleSet | None = None) -> int:
    """What each defender pays the attack (the defenders' score, negated)."""
    result = score(payload, rules=rules)
    assert result.unit is not None
    assert result.scores["Aurélie"] == -result.unit
    return result.unit


# --- Points needed, won at exactly the points needed --------------------------------------


@pytest.mark.parametrize(
    ("oudlers", "needed"),
    [(0, 56), (1, 51), (2, 41), (3, 36)],
    ids=["0-bout-56", "1-bout-51", "2-bouts-41", "3-bouts-36"],
)
def test_needed_points_and_won_at_exactly_needed(oudlers: int, needed: int) -> None:
    assert NEEDED[oudlers] == needed
    # Won by 0: (25 + 0) x 1 per defender, the taker 3 x 25.
    won = score(tarot(contract="prise", oudlers=oudlers, points=needed))
    assert (won.won, won.margin, won.needed, won.unit) == (True, 0, needed, 25)
    assert won.scores == four(25)
    # One point short: lost by 1, (25 + 1) x 1 to each defender.
    lost = score(tarot(contract="prise", oudlers=oudlers, points=needed - 1))
    assert (lost.won, lost.margin, lost.unit) == (False, -1, -26)
    assert lost.scores == four(-26)


# --- The half point goes to the side that won ---------------------------------------------


@pytest.mark.parametrize(
    ("players", "partner", "oudlers", "points", "margin", "expected"),
    [
        # 40.5 with 2 bouts: lost, the half point goes to the defence: lost by 1, 26 each.
        (THREE, None, 2, 40.5, -1, {"Aurélie": 26, "Bruno": 26, "Chloé": -52}),
        # 41.5: won, the half point goes to the attack: won by 1.
        (THREE, None, 2, 41.5, 1, {"Aurélie": -26, "Bruno": -26, "Chloé": 52}),
        (THREE, None, 0, 55.5, -1, {"Aurélie": 26, "Bruno": 26, "Chloé": -52}),
        (THREE, None, 0, 56.5, 1, {"Aurélie": -26, "Bruno": -26, "Chloé": 52}),
        (THREE, None, 3, 35.5, -1, {"Aurélie": 26, "Bruno": 26, "Chloé": -52}),
        # Seed 002: 43.5 with 2 bouts is won by 3 (44 - 41).
        (THREE, None, 2, 43.5, 3, {"Aurélie": -28, "Bruno": -28, "Chloé": 56}),
        # At five, taker alone (4 units).
        (
            FIVE,
            None,
            2,
            40.5,
            -1,
            {"Aurélie": 26, "Bruno": 26, "Chloé": -104, "Denis": 26, "Émile": 26},
        ),
        # At five with a partner: taker 2 units, partner 1.
        (
            FIVE,
            "Denis",
            2,
            41.5,
            1,
            {"Aurélie": -26, "Bruno": -26, "Chloé": 52, "Denis": 26, "Émile": -26},
        ),
        (
            FIVE,
            "Denis",
            1,
            50.5,
            -1,
            {"Aurélie": 26, "Bruno": 26, "Chloé": -52, "Denis": -26, "Émile": 26},
        ),
    ],
    ids=[
        "3p-40.5-2b-lost-by-1",
        "3p-41.5-2b-won-by-1",
        "3p-55.5-0b-lost-by-1",
        "3p-56.5-0b-won-by-1",
        "3p-35.5-3b-lost-by-1",
        "3p-43.5-2b-won-by-3",
        "5p-alone-40.5-lost-by-1",
        "5p-partner-41.5-won-by-1",
        "5p-partner-50.5-1b-lost-by-1",
    ],
)
def test_half_point_goes_to_the_winning_side(
    players: list[str],
    partner: str | None,
    oudlers: int,
    points: float,
    margin: int,
    expected: dict[str, int],
) -> None:
    result = score(
        tarot(
            players=list(players), partner=partner, contract="prise", oudlers=oudlers, points=points
        )
    )
    assert result.margin == margin
    assert result.won is (margin >= 0)
    assert result.scores == expected


# --- Contract coefficients ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "unit"),
    # 51 points with 2 bouts: won by 10, (25 + 10) x coefficient.
    [("prise", 35), ("garde", 70), ("garde_sans", 140), ("garde_contre", 210)],
    ids=["prise-x1", "garde-x2", "garde_sans-x4", "garde_contre-x6"],
)
def test_contract_coefficient(contract: str, unit: int) -> None:
    assert scores(tarot(contract=contract, points=51)) == four(unit)
    # Lost by 10 (31 points): the same amount the other way.
    assert scores(tarot(contract=contract, points=31)) == four(-unit)


# --- Petit au bout: to the side that took it, whatever the result, x coefficient --------


@pytest.mark.parametrize(
    ("contract", "points", "side", "unit", "petit"),
    [
        ("garde", 45, "attack", 58 + 20, 20),  # won by 4: 29 x 2, + 10 x 2
        ("garde", 45, "defense", 58 - 20, -20),  # won, but the defence took the petit
        ("garde", 38, "attack", -56 + 20, 20),  # lost by 3: -28 x 2, the petit still counts
        ("garde", 38, "defense", -56 - 20, -20),
        ("prise", 45, "attack", 29 + 10, 10),
        ("prise", 38, "defense", -28 - 10, -10),
        ("garde_sans", 45, "attack", 116 + 40, 40),
        ("garde_contre", 45, "defense", 174 - 60, -60),
        ("garde_contre", 38, "attack", -168 + 60, 60),
    ],
    ids=[
        "garde-won-attack",
        "garde-won-defence",
        "garde-lost-attack",
        "garde-lost-defence",
        "prise-won-attack",
        "prise-lost-defence",
        "garde_sans-won-attack",
        "garde_contre-won-defence",
        "garde_contre-lost-attack",
    ],
)
def test_petit_au_bout_multiplied_to_the_side_that_took_it(
    contract: str, points: int, side: str, unit: int, petit: int
) -> None:
    result = score(tarot(contract=contract, points=points, petit_au_bout=side))
    assert result.scores == four(unit)
    [term] = [t for t in result.terms if t.kind == "petit_au_bout"]
    assert term.value == petit


@pytest.mark.parametrize(
    ("contract", "side", "taker", "each_opponent"),
    [
        # Seed 000: "The one that decides, during a guard, gets the lower edge until the end.
        # He/she scores 60 bonus points and each opponent looses 20 points."
        ("garde", "attack", 60, -20),
        # Seed 000: "calls for a fist [prise], but falls [loses the petit]. He loses 30 points
        # and each adversary scores 10 points."
        ("prise", "defense", -30, 10),
    ],
    ids=["seed000-garde-taker-takes-petit", "seed000-prise-taker-loses-petit"],
)
def test_seed_000_petit_au_bout_component(
    contract: str, side: str, taker: int, each_opponent: int
) -> None:
    # The same deal with and without the petit au bout: the difference is the petit's part.
    for points in (45, 38):  # won and lost: the petit does not depend on the result
        without = scores(tarot(contract=contract, points=points))
        with_petit = scores(tarot(contract=contract, points=points, petit_au_bout=side))
        assert with_petit["Chloé"] - without["Chloé"] == taker
        for name in DEFENDERS_4:
            assert with_petit[name] - without[name] == each_opponent


# --- Handfuls (FFT): to the side that WON the deal, never multiplied ----------------------


@pytest.mark.parametrize(
    ("contract", "points", "handfuls", "unit"),
    [
        # garde sans won by 4: 29 x 4 = 116; the handful is added to the winner, as is.
        ("garde_sans", 45, [("Chloé", "simple")], 116 + 20),
        ("garde_sans", 45, [("Bruno", "simple")], 116 + 20),  # shown by a defender: same
        ("garde_sans", 45, [("Chloé", "double")], 116 + 30),
        ("garde_sans", 45, [("Denis", "triple")], 116 + 40),
        ("garde_sans", 45, [("Chloé", "simple"), ("Bruno", "simple")], 116 + 40),
        # Lost by 3: -28 x 4 = -112; the handful goes to the defence, whoever showed it.
        ("garde_sans", 38, [("Chloé", "simple")], -112 - 20),
        ("garde_sans", 38, [("Aurélie", "double")], -112 - 30),
        ("garde_sans", 38, [("Chloé", "triple")], -112 - 40),
        # Not multiplied: a prise gets the same 20.
        ("prise", 45, [("Chloé", "simple")], 29 + 20),
        ("garde_contre", 38, [("Bruno", "simple")], -168 - 20),
    ],
    ids=[
        "won-taker-simple",
        "won-defender-simple",
        "won-double",
        "won-triple-by-defender",
        "won-two-simples",
        "lost-taker-simple",
        "lost-defender-double",
        "lost-taker-triple",
        "prise-simple-not-multiplied",
        "garde_contre-lost-simple-not-multiplied",
    ],
)
def test_fft_handfuls_go_to_the_winning_side(
    contract: str, points: int, handfuls: list[tuple[str, str]], unit: int
) -> None:
    shown = [{"player": player, "size": size} for player, size in handfuls]
    result = score(tarot(contract=contract, points=points, handfuls=shown))
    assert result.scores == four(unit)
    values = [t.value for t in result.terms if t.kind == "handful"]
    sign = 1 if result.won else -1
    assert values == [sign * {"simple": 20, "double": 30, "triple": 40}[s] for _, s in handfuls]


@pytest.mark.parametrize(
    ("players", "size", "trumps"),
    [
        (3, "simple", 13),
        (3, "double", 15),
        (3, "triple", 18),
        (4, "simple", 10),
        (4, "double", 13),
        (4, "triple", 15),
        (5, "simple", 8),
        (5, "double", 10),
        (5, "triple", 13),
    ],
    ids=lambda v: str(v),
)
def test_fft_handful_trumps(players: int, size: str, trumps: int) -> None:
    assert FFT.handful_trumps(players, HandfulSize(size)) == trumps


# --- Slams: not multiplied ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "oudlers", "points", "slam", "unit"),
    [
        # 91 with 3 bouts: won by 55, (25 + 55) x 1 + 400.
        ("prise", 3, 91, "announced_made", 80 + 400),
        ("prise", 3, 91, "unannounced_made", 80 + 200),
        # Not multiplied: (25 + 55) x 4 + 400.
        ("garde_sans", 3, 91, "announced_made", 320 + 400),
        # The defence kept the Excuse it played: 86.5 with 2 bouts, won by 46 (half point up).
        ("prise", 2, 86.5, "unannounced_made", 71 + 200),
        # Announced and failed, yet the contract is won by 34: (25 + 34) x 2 - 200.
        ("garde", 3, 70, "announced_failed", 118 - 200),
        # Announced, failed and the contract lost by 3.
        ("prise", 1, 48, "announced_failed", -28 - 200),
        # Defence slam: the attack only has its discard (3 points), each defender gets +200.
        ("prise", 0, 3, "defense", -78 - 200),
        ("garde_contre", 0, 0, "defense", -81 * 6 - 200),
        ("garde_sans", 3, 15, "defense", -46 * 4 - 200),
        # Garde contre: the dog (and so up to 3 bouts) stays with the defence.
        ("garde_contre", 0, 70, "announced_made", 39 * 6 + 400),
    ],
    ids=[
        "announced-made",
        "unannounced-made",
        "garde_sans-announced-not-multiplied",
        "made-excuse-kept-by-defence",
        "announced-failed-contract-won",
        "announced-failed-contract-lost",
        "defence-slam-prise",
        "defence-slam-garde_contre",
        "defence-slam-garde_sans",
        "garde_contre-slam-dog-holds-the-bouts",
    ],
)
def test_slam(contract: str, oudlers: int, points: float, slam: str, unit: int) -> None:
    result = score(tarot(contract=contract, oudlers=oudlers, points=points, slam=slam))
    assert result.scores == four(unit)
    [term] = [t for t in result.terms if t.kind == "slam"]
    assert (
        term.value
        == {
            "announced_made": 400,
            "unannounced_made": 200,
            "announced_failed": -200,
            "defense": -200,
        }[slam]
    )


def test_defence_slam_gives_each_defender_200_at_five() -> None:
    # The attack only has the 3-card discard: 1.5 points, lost by 55 (the half point goes to
    # the defence): -(25 + 55); the slam: each of the three defenders +200, not multiplied.
    payload = tarot(
        players=FIVE, partner="Denis", contract="prise", oudlers=0, points=1.5, slam="defense"
    )
    with_slam = score(payload)
    assert with_slam.unit == -80 - 200
    assert with_slam.scores == {
        "Aurélie": 280,
        "Bruno": 280,
        "Chloé": -560,
        "Denis": -280,
        "Émile": 280,
    }


# --- Players: 3, 4, 5 with a partner, 5 alone, 5 with the dealer sitting out --------------


@pytest.mark.parametrize(
    ("players", "partner", "sitting_out", "expected"),
    [
        # prise, 51 points with 2 bouts: unit 35.
        (THREE, None, None, {"Aurélie": -35, "Bruno": -35, "Chloé": 70}),
        (FOUR, None, None, {"Aurélie": -35, "Bruno": -35, "Chloé": 105, "Denis": -35}),
        (
            FIVE,
            "Aurélie",
            None,
            {"Aurélie": 35, "Bruno": -35, "Chloé": 70, "Denis": -35, "Émile": -35},
        ),
        (
            FIVE,
            None,
            None,
            {"Aurélie": -35, "Bruno": -35, "Chloé": 140, "Denis": -35, "Émile": -35},
        ),
        # The taker called a king he held: his own name as partner, he plays alone.
        (
            FIVE,
            "Chloé",
            None,
            {"Aurélie": -35, "Bruno": -35, "Chloé": 140, "Denis": -35, "Émile": -35},
        ),
        # The dealer sits out: 0 for him, 4-player rules for the others.
        (
            FIVE,
            None,
            "Émile",
            {"Aurélie": -35, "Bruno": -35, "Chloé": 105, "Denis": -35, "Émile": 0},
        ),
        (
            FIVE,
            "Chloé",
            "Aurélie",
            {"Aurélie": 0, "Bruno": -35, "Chloé": 105, "Denis": -35, "Émile": -35},
        ),
        # At four, the taker's own name as partner is also "alone".
        (FOUR, "Chloé", None, {"Aurélie": -35, "Bruno": -35, "Chloé": 105, "Denis": -35}),
    ],
    ids=[
        "3p-taker-2x",
        "4p-taker-3x",
        "5p-partner-2x-1x",
        "5p-alone-null-4x",
        "5p-alone-own-name-4x",
        "5p-sitting-out-0",
        "5p-sitting-out-own-name-partner",
        "4p-own-name-partner",
    ],
)
def test_table_sizes(
    players: list[str], partner: str | None, sitting_out: str | None, expected: dict[str, int]
) -> None:
    result = score(
        tarot(
            players=list(players),
            partner=partner,
            sitting_out=sitting_out,
            contract="prise",
            points=51,
        )
    )
    assert result.scores == expected
    assert list(result.scores) == list(players)  # seat order kept
    assert sum(result.scores.values()) == 0


def test_sitting_out_uses_four_player_handfuls() -> None:
    handfuls = [{"player": "Chloé", "size": "simple"}, {"player": "Bruno", "size": "double"}]
    # Five active players: a simple shows 8 trumps, a double 10; 18 of the 22 trumps.
    five = tarot(players=FIVE, contract="prise", points=51, handfuls=handfuls)
    assert scores(five)["Chloé"] == 4 * (35 + 20 + 30)
    # The dealer sits out: four active players, 10 + 13 = 23 trumps, more than the pack has.
    error = refusal(
        tarot(players=FIVE, sitting_out="Émile", contract="prise", points=51, handfuls=handfuls)
    )
    assert list(error.errors) == ["handfuls"]
    two_simples = tarot(
        players=FIVE,
        sitting_out="Émile",
        contract="prise",
        points=51,
        handfuls=[{"player": "Chloé", "size": "simple"}, {"player": "Bruno", "size": "simple"}],
    )
    assert scores(two_simples) == {
        "Aurélie": -75,
        "Bruno": -75,
        "Chloé": 225,
        "Denis": -75,
        "Émile": 0,
    }


# --- The classic preset (seed 002's program) ----------------------------------------------


@pytest.mark.parametrize(
    ("oudlers", "expected"),
    [
        # Seed 002 example 1: ((25 + (44 - 41) + 0) x 1) x 2 = 56, each defender -28.
        (2, {"Aurélie": -28, "Bruno": -28, "Chloé": 56}),
        # Seed 002 example 2: ((-25 + (43 - 51)) x 1) x 2 = -66, each defender +33.
        (1, {"Aurélie": 33, "Bruno": 33, "Chloé": -66}),
    ],
    ids=["seed002-43.5-2-bouts-won-by-3", "seed002-43.5-1-bout-lost-by-8"],
)
@pytest.mark.parametrize("variant", ["classic", "fft"])
def test_seed_002_examples(oudlers: int, expected: dict[str, int], variant: str) -> None:
    payload = tarot(variant=variant, players=THREE, contract="prise", points=43.5, oudlers=oudlers)
    assert scores(payload) == expected


@pytest.mark.parametrize(
    ("variant", "points", "handfuls", "miseres", "unit"),
    [
        # Classic: a handful counts for the side that showed it, whoever won.
        ("classic", 45, [("Bruno", "simple")], [], 116 - 20),
        ("classic", 45, [("Chloé", "double")], [], 116 + 30),
        ("classic", 38, [("Chloé", "triple")], [], -112 + 40),
        ("classic", 38, [("Denis", "simple")], [], -112 - 20),
        # FFT, same deals: to the winner.
        ("fft", 45, [("Bruno", "simple")], [], 116 + 20),
        ("fft", 38, [("Chloé", "triple")], [], -112 - 40),
        # Classic misères: 10 for the side that declared them.
        ("classic", 45, [], [("Chloé", "head")], 116 + 10),
        ("classic", 45, [], [("Bruno", "trump")], 116 - 10),
        ("classic", 38, [], [("Chloé", "trump"), ("Chloé", "head")], -112 + 20),
        ("classic", 38, [], [("Bruno", "head"), ("Denis", "trump")], -112 - 20),
        ("classic", 45, [("Chloé", "simple")], [("Bruno", "trump")], 116 + 20 - 10),
    ],
    ids=[
        "classic-defender-handful-attack-wins",
        "classic-taker-double-won",
        "classic-taker-triple-lost",
        "classic-defender-handful-attack-loses",
        "fft-defender-handful-to-winner",
        "fft-taker-triple-lost-to-defence",
        "classic-misere-taker",
        "classic-misere-defender",
        "classic-two-miseres-taker-lost",
        "classic-two-miseres-defenders",
        "classic-handful-and-misere",
    ],
)
def test_classic_declarations_count_for_the_declaring_side(
    variant: str,
    points: int,
    handfuls: list[tuple[str, str]],
    miseres: list[tuple[str, str]],
    unit: int,
) -> None:
    payload = tarot(
        variant=variant,
        contract="garde_sans",
        points=points,
        handfuls=[{"player": p, "size": s} for p, s in handfuls],
        miseres=[{"player": p, "kind": k} for p, k in miseres],
    )
    assert scores(payload) == four(unit)


def test_classic_preset_parameters() -> None:
    assert PRESETS == {"fft": FFT, "classic": CLASSIC}
    assert CLASSIC.handful_beneficiary is Beneficiary.DECLARER
    assert FFT.handful_beneficiary is Beneficiary.WINNER
    assert (CLASSIC.miseres_allowed, CLASSIC.misere) == (True, 10)
    assert FFT.miseres_allowed is False
    # Seed 002: at three players a simple handful is 12 trumps (FFT: 13); double 15, triple 18.
    assert [CLASSIC.handful_trumps(3, s) for s in HandfulSize] == [12, 15, 18]
    assert [FFT.handful_trumps(3, s) for s in HandfulSize] == [13, 15, 18]
    assert [CLASSIC.handful_trumps(4, s) for s in HandfulSize] == [10, 13, 15]
    # Everything else is FFT.
    for name in ("base", "coefficient_garde", "petit_au_bout", "slam_announced_made"):
        assert getattr(CLASSIC, name) == getattr(FFT, name)


def test_classic_misere_at_three_and_five() -> None:
    three = tarot(
        variant="classic",
        players=THREE,
        contract="prise",
        points=43.5,
        miseres=[{"player": "Aurélie", "kind": "head"}],
    )
    # (25 + 3) - 10 per defender: each defender -18, the taker 2 x 18.
    assert scores(three) == {"Aurélie": -18, "Bruno": -18, "Chloé": 36}
    five = tarot(
        variant="classic",
        players=FIVE,
        partner="Denis",
        contract="prise",
        points=51,
        miseres=[{"player": "Denis", "kind": "trump"}],
    )
    # The partner is in the attack: (25 + 10) + 10.
    assert scores(five) == {"Aurélie": -45, "Bruno": -45, "Chloé": 90, "Denis": 45, "Émile": -45}


# --- Club rule sets -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rounding", "points", "unit"),
    [
        # prise with 2 bouts (41 needed) at four: unit = 25 + the counted margin.
        ("exact", 49, 25 + 8),
        ("5", 43, 25 + 0),  # 2 -> 0
        ("5", 44, 25 + 5),  # 3 -> 5 (2.5 is the half: up)
        ("5", 47, 25 + 5),  # 6 -> 5
        ("5", 49, 25 + 10),  # 8 -> 10
        ("5", 36, -(25 + 5)),  # lost by 5 stays 5
        ("5", 39, -(25 + 0)),  # lost by 2 -> 0
        ("10", 45, 25 + 0),  # 4 -> 0
        ("10", 46, 25 + 10),  # 5 -> 10: halves up
        ("10", 55, 25 + 10),  # 14 -> 10
        ("10", 56, 25 + 20),  # 15 -> 20
        ("10", 41, 25 + 0),  # won by 0
        ("10", 36, -(25 + 10)),  # lost by 5 -> 10
    ],
    ids=lambda v: str(v),
)
def test_club_margin_rounding(rounding: str, points: int, unit: int) -> None:
    rules = RuleSet.from_mapping({"name": "club", "margin_rounding": rounding})
    assert rules.margin_rounding is MarginRounding(rounding)
    result = score(tarot(contract="prise", points=points), rules=rules)
    assert result.scores == four(unit)
    # The margin reported is the real one; only the counted margin is rounded.
    assert result.margin == points - 41
    counted = [t.value for t in result.terms if t.kind == "margin"]
    assert counted == [abs(unit) - 25]


def test_club_margin_rounding_after_the_half_point() -> None:
    rules = RuleSet.from_mapping({"name": "club", "margin_rounding": "5"})
    # 43.5 with 2 bouts at three: won by 3 (half point up), rounded to 5: 30, taker 60.
    payload = tarot(players=THREE, contract="prise", points=43.5)
    assert scores(payload, rules) == {"Aurélie": -30, "Bruno": -30, "Chloé": 60}


@pytest.mark.parametrize(
    ("mapping", "payload_changes", "unit"),
    [
        # Petit au bout not multiplied: garde sans won by 4, 29 x 4 + 10.
        (
            {"petit_au_bout_multiplied": False},
            {"contract": "garde_sans", "points": 45, "petit_au_bout": "attack"},
            116 + 10,
        ),
        (
            {"petit_au_bout_multiplied": False},
            {"contract": "garde_contre", "points": 38, "petit_au_bout": "defense"},
            -168 - 10,
        ),
        (
            {"petit_au_bout": 20},
            {"contract": "garde", "points": 45, "petit_au_bout": "attack"},
            58 + 40,
        ),
        # Other handful values.
        (
            {"handful_simple": 10, "handful_double": 20, "handful_triple": 30},
            {
                "contract": "garde",
                "points": 45,
                "handfuls": [{"player": "Bruno", "size": "simple"}],
            },
            58 + 10,
        ),
        (
            {"handful_simple": 10, "handful_double": 20, "handful_triple": 30},
            {
                "contract": "garde",
                "points": 38,
                "handfuls": [{"player": "Chloé", "size": "triple"}],
            },
            -56 - 30,
        ),
        # Handfuls to the declarer on an FFT base.
        (
            {"handful_beneficiary": "declarer"},
            {
                "contract": "garde",
                "points": 45,
                "handfuls": [{"player": "Bruno", "size": "simple"}],
            },
            58 - 20,
        ),
        # Coefficients.
        ({"coefficient_garde": 3}, {"contract": "garde", "points": 45}, 29 * 3),
        (
            {"coefficient_garde_sans": 5, "coefficient_garde_contre": 10},
            {"contract": "garde_contre", "points": 45, "petit_au_bout": "attack"},
            29 * 10 + 100,
        ),
        ({"coefficient_prise": 2}, {"contract": "prise", "points": 38}, -28 * 2),
        ({"base": 20}, {"contract": "prise", "points": 45}, 24),
        # Slam values.
        (
            {"slam_announced_made": 500},
            {"contract": "prise", "oudlers": 3, "points": 91, "slam": "announced_made"},
            80 + 500,
        ),
        (
            {"slam_defense": 100},
            {"contract": "prise", "oudlers": 0, "points": 3, "slam": "defense"},
            -78 - 100,
        ),
        (
            {"slam_announced_failed": 300},
            {"contract": "garde", "oudlers": 3, "points": 70, "slam": "announced_failed"},
            118 - 300,
        ),
        # Misères switched on, worth 20, on an FFT base (handfuls still to the winner).
        (
            {"miseres_allowed": True, "misere": 20},
            {
                "contract": "garde",
                "points": 45,
                "miseres": [{"player": "Denis", "kind": "head"}],
                "handfuls": [{"player": "Denis", "size": "simple"}],
            },
            58 - 20 + 20,
        ),
    ],
    ids=[
        "petit-not-multiplied-attack",
        "petit-not-multiplied-defence",
        "petit-worth-20",
        "handful-10-won",
        "handful-30-lost",
        "handful-to-declarer",
        "garde-x3",
        "garde_contre-x10",
        "prise-x2-lost",
        "base-20",
        "slam-announced-500",
        "defence-slam-100",
        "slam-failed-300",
        "miseres-on-worth-20",
    ],
)
def test_club_rule_set(mapping: dict[str, Any], payload_changes: dict[str, Any], unit: int) -> None:
    rules = RuleSet.from_mapping({"name": "Club du Jeudi", **mapping})
    assert scores(tarot(**payload_changes), rules) == four(unit)


def test_club_rule_set_based_on_classic() -> None:
    rules = RuleSet.from_mapping({"name": "club", "misere": 15}, based_on=CLASSIC)
    assert rules.handful_beneficiary is Beneficiary.DECLARER
    payload = tarot(
        variant="club", contract="garde", points=45, miseres=[{"player": "Chloé", "kind": "head"}]
    )
    assert scores(payload, rules) == four(58 + 15)


def test_rules_argument_overrides_the_variant() -> None:
    # The game layer passes the club's rule set; the payload's variant then only names it.
    rules = RuleSet.from_mapping({"name": "club", "coefficient_garde": 3})
    for variant in ("fft", "classic", "club"):
        assert scores(tarot(variant=variant, points=45), rules) == four(87)


@pytest.mark.parametrize("rules", [FFT, CLASSIC], ids=["fft", "classic"])
def test_rule_set_mapping_round_trip(rules: RuleSet) -> None:
    mapping = rules.to_mapping()
    assert mapping["name"] == rules.name
    assert RuleSet.from_mapping(mapping) == rules
    assert RuleSet.from_mapping({}, based_on=rules) == rules


def test_club_rule_set_round_trip() -> None:
    club = RuleSet.from_mapping(
        {
            "name": "Club du Jeudi",
            "coefficient_garde_contre": 8,
            "handful_trumps_5": [7, 9, 12],
            "margin_rounding": "10",
            "five_players": "sitting_out",
            "petit_au_bout_multiplied": False,
        }
    )
    assert club.handful_trumps_5 == (7, 9, 12)
    assert club.five_players is FivePlayers.SITTING_OUT
    assert RuleSet.from_mapping(club.to_mapping()) == club
    assert club.to_mapping()["margin_rounding"] == "10"


# --- Seed 004: taker = 3 x (G x 25 + delta + petit at the end) x coefficient -------------


def _seed_004_taker(points: int, contract: str, petit: str | None) -> int:
    coefficient = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}[contract]
    g = 1 if points >= 41 else -1
    delta = points - 41
    pab = {None: 0, "attack": 10, "defense": -10}[petit]
    return 3 * (g * 25 + delta + pab) * coefficient


@pytest.mark.parametrize("contract", ["prise", "garde", "garde_sans", "garde_contre"])
@pytest.mark.parametrize("points", [30, 40, 41, 45, 60])
@pytest.mark.parametrize("petit", [None, "attack", "defense"])
def test_seed_004_formula(contract: str, points: int, petit: str | None) -> None:
    result = scores(tarot(contract=contract, points=points, petit_au_bout=petit))
    taker = _seed_004_taker(points, contract, petit)
    assert result["Chloé"] == taker
    for name in DEFENDERS_4:
        assert result[name] == -taker // 3


# --- DESIGN.md's example, and the explanation ---------------------------------------------


def test_design_example() -> None:
    payload = {
        "variant": "fft",
        "players": ["Aurélie", "Bruno", "Chloé", "Denis"],
        "sitting_out": None,
        "taker": "Chloé",
        "partner": None,
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
        "petit_au_bout": "attack",
        "handfuls": [{"player": "Chloé", "size": "simple"}],
        "slam": None,
        "miseres": [],
    }
    result = score(payload)
    # (25 + 8) x 2 = 66, petit 10 x 2 = 20, handful 20: 106 per defender.
    assert result.to_json("en")["scores"] == {
        "Aurélie": -106,
        "Bruno": -106,
        "Chloé": 318,
        "Denis": -106,
    }
    assert (result.won, result.margin, result.unit, result.needed) == (True, 8, 106, 41)
    assert [(t.kind, t.value) for t in result.terms] == [
        ("contract", None),
        ("base", 25),
        ("margin", 8),
        ("coefficient", 66),
        ("petit_au_bout", 20),
        ("handful", 20),
        ("defender", -106),
        ("taker", 318),
    ]


@pytest.mark.parametrize(
    ("payload", "kinds"),
    [
        (
            tarot(
                players=FIVE,
                partner="Denis",
                contract="prise",
                points=51,
                slam=None,
                petit_au_bout="defense",
            ),
            [
                "contract",
                "base",
                "margin",
                "coefficient",
                "petit_au_bout",
                "defender",
                "taker",
                "partner",
            ],
        ),
        (
            tarot(
                players=FIVE,
                sitting_out="Émile",
                contract="prise",
                oudlers=3,
                points=91,
                slam="announced_made",
            ),
            [
                "contract",
                "base",
                "margin",
                "coefficient",
                "slam",
                "defender",
                "taker",
                "sitting_out",
            ],
        ),
        (
            tarot(
                variant="classic",
                contract="prise",
                points=38,
                handfuls=[{"player": "Bruno", "size": "double"}],
                miseres=[{"player": "Chloé", "kind": "trump"}],
            ),
            ["contract", "base", "margin", "coefficient", "handful", "misere", "defender", "taker"],
        ),
    ],
    ids=["5p-partner-petit-defence", "5p-sitting-out-slam", "classic-handful-misere"],
)
def test_breakdown_terms(payload: dict[str, Any], kinds: list[str]) -> None:
    result = score(payload)
    terms = result.terms
    assert [t.kind for t in terms] == kinds
    by_kind = {t.kind: t.value for t in terms}
    # The unit is the coefficient term plus every bonus; each defender pays it.
    bonuses = sum(
        v
        for k, v in by_kind.items()
        if k in ("petit_au_bout", "handful", "slam", "misere") and v is not None
    )
    assert (by_kind["coefficient"] or 0) + bonuses == result.unit
    assert by_kind["defender"] == -result.unit
    assert by_kind["taker"] == result.scores[payload["taker"]]
    if "partner" in by_kind:
        assert by_kind["partner"] == result.scores[payload["partner"]]
    if "sitting_out" in by_kind:
        assert by_kind["sitting_out"] == 0
    french, english = result.breakdown("fr"), result.breakdown("en")
    assert [t["term"] for t in french] == kinds
    for fr_line, en_line in zip(french, english, strict=True):
        assert fr_line["text"] and en_line["text"]
        assert not re.search(r"\{[a-z_]+\}", fr_line["text"] + en_line["text"])
        assert fr_line["text"] != en_line["text"]
        assert fr_line["value"] == en_line["value"]


def test_breakdown_words() -> None:
    result = score(tarot(players=THREE, contract="garde", points=40.5, petit_au_bout="attack"))
    french = " ".join(line["text"] for line in result.breakdown("fr"))
    english = " ".join(line["text"] for line in result.breakdown("en"))
    assert "40,5" in french and "chuté" in french and "garde" in french
    assert "40.5" in english and "lost" in english and "guard" in english
    assert "+20" in english  # the petit's total is signed


def test_to_json_shape() -> None:
    answer = score(tarot()).to_json("fr")
    assert set(answer) == {"scores", "won", "margin", "breakdown"}
    assert answer["scores"] == four(66)
    assert all(set(line) == {"term", "value", "text"} for line in answer["breakdown"])


# --- The FFT's worked example 5: 87 points written for 86.5 --------------------------------

FFT_EXAMPLE_5 = {
    "contract": "garde",
    "oudlers": 2,
    "slam": "announced_made",
    "petit_au_bout": "attack",
    "handfuls": [{"player": "Chloé", "size": "simple"}],
}


def test_fft_example_5_scores_87_as_written() -> None:
    # Garde, slam announced and made, simple handful, petit au bout for the attack, 2 bouts:
    # the FFT writes 87 points; the exact count is 86.5 (the defence kept its Excuse). Won by
    # 46: (25 + 46) x 2 + 10 x 2 + 20 + 400 = 582 a defender, 1746 for the taker.
    written = score(tarot(points=87, **FFT_EXAMPLE_5))
    assert written.scores == four(582)
    assert written.scores == score(tarot(points=86.5, **FFT_EXAMPLE_5)).scores
    [note] = [t for t in written.terms if t.kind == "points_written"]
    assert note.value is None
    assert "87" in note.text.render("fr") and "86,5" in note.text.render("fr")
    assert "86.5" in note.text.render("en")


def test_the_exact_count_carries_no_note() -> None:
    exact = score(tarot(points=86.5, **FFT_EXAMPLE_5))
    assert [t for t in exact.terms if t.kind == "points_written"] == []


@pytest.mark.parametrize(
    ("players", "changes"),
    [
        # Only the whole number just above a count a real pack allows is read as it.
        (FOUR, {"points": 88}),
        (FOUR, {"points": 87.5}),
        # No slam: 2 bouts cap the attack at 85.
        (FOUR, {"points": 87, "slam": None, "petit_au_bout": None, "handfuls": []}),
        # 3 bouts and a slam: 91 exactly; 90 is not 89.5 written up.
        (FOUR, {"points": 90, "oudlers": 3}),
        # A garde contre leaves the dog to the defence: 86.5 is out of reach, so is 87.
        (FOUR, {"points": 87, "contract": "garde_contre"}),
        # A defence slam is not the attack's.
        (FOUR, {"points": 87, "slam": "defense", "petit_au_bout": None, "handfuls": []}),
    ],
    ids=["88", "87.5", "no-slam", "three-bouts-90", "garde-contre", "defence-slam"],
)
def test_what_no_pack_allows_is_still_refused(players: list[str], changes: dict[str, Any]) -> None:
    error = refusal(tarot(players=players, **{**FFT_EXAMPLE_5, **changes}))
    assert error.messages()


@pytest.mark.parametrize("players", [THREE, FIVE], ids=["three", "five"])
def test_87_for_86_5_at_three_and_five(players: list[str]) -> None:
    extra = {"partner": "Denis"} if players == FIVE else {}
    payload = tarot(players=players, points=87, **FFT_EXAMPLE_5, **extra)
    assert scores(payload) == scores({**payload, "points": 86.5})
