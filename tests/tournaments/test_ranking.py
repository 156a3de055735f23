"""The ranking's one home (``tournaments/ranking.py``): one cell formula, one key, one list of
the columns the database orders on; the store, the selectors and the SQL page all use them.

Pure tests (no database) for the rules, and a scan that no reader of the standings builds its
own key or cell again."""

from __future__ import annotations

import pathlib
import re

from django.db.models import F

import tournaments
from tarot_scores.clubs.models import Player
from tournaments.models import Standing
from tournaments.ranking import (
    RANKING_COLUMNS,
    StandingRow,
    cell,
    ranked,
    ranking_key,
    stage_cells,
    tie_break_key,
    tie_breaks,
)
from tournaments.standings import selectors

PACKAGE = pathlib.Path(tournaments.__file__).parent


def _row(pk: int, name: str) -> StandingRow:
    return StandingRow(0, Player(pk=pk, name=name), 0, [])


def test_a_cell_is_points_plus_bye_minus_penalties() -> None:
    assert cell(120, 0, 0) == 120
    assert cell(0, 50, 0) == 50  # a bye's round
    assert cell(-30, 0, 20) == -50


def test_tie_breaks_read_the_cells_in_round_order() -> None:
    assert tie_breaks([10, None, 40, -5]) == (45, 40, -5)
    assert tie_breaks([None, None]) == (0, 0, 0)
    assert stage_cells({"1": 100, "2": 10, "3": 30}, [1, 2, 3], first=2) == (40, 30, 30)


def test_the_key_orders_the_group_then_total_best_last_then_the_name() -> None:
    still_in = ranking_key(10, 10, 0, "Zoé")
    cut_late = ranking_key(500, 500, 500, "Anne", eliminated_after=3)
    cut_early = ranking_key(900, 900, 900, "Anne", eliminated_after=1)
    assert still_in < cut_late < cut_early
    assert ranking_key(100, 60, 40, "Béa") < ranking_key(100, 50, 50, "Alain")  # best round
    assert ranking_key(100, 60, 40, "Béa") < ranking_key(100, 60, 30, "Alain")  # last round
    assert ranking_key(100, 60, 40, "alain") < ranking_key(100, 60, 40, "Béa")  # the name
    assert ranking_key(100, 60, 40, "X").ties(ranking_key(100, 60, 40, "Y"))
    assert not ranking_key(100, 60, 40, "X").ties(ranking_key(100, 60, 40, "X", 2))
    assert tie_break_key(70, [30, None, 40], "Léa") == ranking_key(70, 40, 40, "Léa")


def test_ranked_shares_a_rank_on_a_tie_and_orders_twins_by_player() -> None:
    rows = [
        (ranking_key(50, 50, 50, "Marie"), _row(9, "Marie")),
        (ranking_key(80, 80, 80, "Paul"), _row(3, "Paul")),
        (ranking_key(50, 50, 50, "Marie"), _row(4, "Marie")),
        (ranking_key(50, 50, 50, "Luc"), _row(7, "Luc")),
        (ranking_key(10, 10, 10, "Eve"), _row(1, "Eve")),
    ]
    out = ranked(rows)
    assert [(r.rank, r.player.pk) for r in out] == [(1, 3), (2, 7), (2, 4), (2, 9), (5, 1)]


def test_the_database_orders_on_the_rankings_columns() -> None:
    fields = {f.name for f in Standing._meta.get_fields()}
    assert set(RANKING_COLUMNS) <= fields
    assert [str(o) for o in selectors._RANKING_ORDER] == [
        str(F(column).desc()) for column in RANKING_COLUMNS
    ]


def test_no_reader_builds_its_own_key_or_cell() -> None:
    """The copies the ranking replaced: a key as a tuple of negated totals, a cell summed by
    hand, the database's order spelled out."""
    copies = re.compile(
        r"\(-total, -best|_group\(|key\[:4\]|F\(\"total\"\)\.desc|"
        r"\+ bye(s)?\.get\([^)]*\) - "
    )
    found = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in PACKAGE.rglob("*.py")
        if path.name != "ranking.py"
        for n, line in enumerate(path.read_text().splitlines(), start=1)
        if copies.search(line)
    ]
    assert found == []
