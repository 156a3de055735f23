"""Table plans: every head count from 3 to 60 gets tables of 4 with tables of 5 (or 3 when
allowed) for the rest, never 2 or 6; the counts that cannot be seated are refused in both
languages. No database: seating is pure Python."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from tournaments.seating import ImpossibleTablePlan, SeatingError, TablePlan, plan_tables

IMPOSSIBLE_WITHOUT_THREES = {1, 2, 3, 6, 7, 11}
IMPOSSIBLE_WITH_THREES = {1, 2}


@pytest.mark.parametrize("prefer_fives", [True, False])
@pytest.mark.parametrize("allow_threes", [False, True])
@pytest.mark.parametrize("players", range(1, 61))
def test_every_head_count(players: int, allow_threes: bool, prefer_fives: bool) -> None:
    impossible = IMPOSSIBLE_WITH_THREES if allow_threes else IMPOSSIBLE_WITHOUT_THREES
    if players in impossible:
        with pytest.raises(ImpossibleTablePlan):
            plan_tables(players, allow_threes=allow_threes, prefer_fives=prefer_fives)
        return
    plan = plan_tables(players, allow_threes=allow_threes, prefer_fives=prefer_fives)
    assert sum(plan.sizes) == players == plan.players
    assert set(plan.sizes) <= ({3, 4, 5} if allow_threes else {4, 5})
    assert not (3 in plan.sizes and 5 in plan.sizes)
    assert list(plan.sizes) == sorted(plan.sizes, key=lambda size: size != 4)  # 4s first
    assert plan.tables == len(plan.sizes) == plan.fours + plan.fives + plan.threes
    # The fewest odd tables the remainder needs: r tables of 5 or 4 - r tables of 3.
    remainder = players % 4
    assert plan.fives in (0, remainder)
    assert plan.threes in (0, (4 - remainder) % 4)


class Case(NamedTuple):
    players: int
    allow_threes: bool
    prefer_fives: bool
    sizes: tuple[int, ...]
    fr: str
    en: str


CASES = [
    Case(13, False, True, (4, 4, 5), "13 joueurs : 2 tables de 4 et 1 table de 5",
         "13 players: 2 tables of 4 and 1 table of 5"),
    Case(13, True, True, (4, 4, 5), "13 joueurs : 2 tables de 4 et 1 table de 5",
         "13 players: 2 tables of 4 and 1 table of 5"),
    Case(13, True, False, (4, 3, 3, 3), "13 joueurs : 1 table de 4 et 3 tables de 3",
         "13 players: 1 table of 4 and 3 tables of 3"),
    Case(16, False, True, (4, 4, 4, 4), "16 joueurs : 4 tables de 4",
         "16 players: 4 tables of 4"),
    Case(15, False, True, (5, 5, 5), "15 joueurs : 3 tables de 5", "15 players: 3 tables of 5"),
    Case(15, True, False, (4, 4, 4, 3), "15 joueurs : 3 tables de 4 et 1 table de 3",
         "15 players: 3 tables of 4 and 1 table of 3"),
    # Threes preferred but impossible (9 players for 3 tables of 3 are needed): a table of 5.
    Case(5, True, False, (5,), "5 joueurs : 1 table de 5", "5 players: 1 table of 5"),
    # Fives preferred but impossible: tables of 3.
    Case(7, True, True, (4, 3), "7 joueurs : 1 table de 4 et 1 table de 3",
         "7 players: 1 table of 4 and 1 table of 3"),
    Case(11, True, True, (4, 4, 3), "11 joueurs : 2 tables de 4 et 1 table de 3",
         "11 players: 2 tables of 4 and 1 table of 3"),
    Case(6, True, True, (3, 3), "6 joueurs : 2 tables de 3", "6 players: 2 tables of 3"),
    Case(3, True, True, (3,), "3 joueurs : 1 table de 3", "3 players: 1 table of 3"),
    Case(10, False, True, (5, 5), "10 joueurs : 2 tables de 5", "10 players: 2 tables of 5"),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.players}-{c.allow_threes}")
def test_plan_and_its_words(case: Case) -> None:
    plan = plan_tables(case.players, allow_threes=case.allow_threes, prefer_fives=case.prefer_fives)
    assert plan.sizes == case.sizes
    assert plan.describe("fr") == case.fr
    assert plan.describe("en") == case.en


class Refusal(NamedTuple):
    players: int
    allow_threes: bool
    fr: str
    en: str


REFUSALS = [
    Refusal(2, True, "au moins 3 joueurs", "At least 3 players"),
    Refusal(0, False, "au moins 4 joueurs", "At least 4 players"),
    Refusal(2, False, "les tables de 3 n'étant pas autorisées", "as tables of 3 are not allowed"),
    Refusal(7, False, "Autorisez les tables de 3 : 4 + 3", "Allow tables of 3: 4 + 3"),
    Refusal(6, False, "ni table de 2, ni table de 6", "never a table of 2 or 6"),
    Refusal(11, False, "Impossible d'asseoir 11 joueurs", "11 players cannot be seated"),
    Refusal(3, False, "tables de 4 et 5", "tables of 4 and 5"),
]


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: f"{r.players}-{r.allow_threes}")
def test_refusal_in_both_languages(refusal: Refusal) -> None:
    with pytest.raises(ImpossibleTablePlan) as caught:
        plan_tables(refusal.players, allow_threes=refusal.allow_threes)
    error = caught.value
    assert isinstance(error, SeatingError)
    assert isinstance(error, ValueError)
    assert refusal.fr in error.message("fr")
    assert refusal.en in error.message("en")
    assert refusal.fr in str(error)
    assert refusal.en in str(error)


def test_a_plan_must_add_up() -> None:
    with pytest.raises(ValueError, match="add up"):
        TablePlan(13, fours=3)
    with pytest.raises(ValueError, match="never both"):
        TablePlan(8, fours=0, fives=1, threes=1)
