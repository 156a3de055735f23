"""The worked examples of docs/duplicate.md, read from the page itself: the deals score what
the page says through the scoring engine, and both methods give the page's numbers."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from tarot_scores.scoring import score
from tournaments.duplicate import (
    DIRECTIONS,
    BoardScore,
    Direction,
    TableDeal,
    compare_seats,
    movement,
    movement_rows,
    traveller,
)

PAGE = Path(__file__).resolve().parents[3] / "docs" / "duplicate.md"
NAMES = {"North": Direction.NORTH, "East": Direction.EAST, "South": Direction.SOUTH}
NAMES["West"] = Direction.WEST


def example(name: str) -> list[dict[str, str]]:
    """The markdown table under ``<!-- example:name -->``, as one dict per row."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- example:{name} -->") + 1
    rows: list[list[str]] = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    header, _rule, *body = rows
    return [dict(zip(header, row, strict=True)) for row in body]


def board_scores() -> list[BoardScore]:
    return [
        BoardScore(
            board=5,
            table=int(row["table"]),
            direction=NAMES[d],
            player=4 * int(row["table"]) + i,
            score=int(row[d]),
        )
        for row in example("deals")
        for i, d in enumerate(NAMES)
    ]


def test_the_deals_score_what_the_page_says() -> None:
    for row in example("deals"):
        result = score(
            {
                "variant": "fft",
                "players": list(NAMES),
                "sitting_out": None,
                "taker": row["taker"],
                "partner": None,
                "contract": row["contract"],
                "points": int(row["points"]),
                "oudlers": int(row["bouts"]),
                "petit_au_bout": None,
                "handfuls": [],
                "slam": None,
                "miseres": [],
            }
        )
        assert result.scores == {name: int(row[name]) for name in NAMES}


def test_matchpoints_as_the_page_works_them_out() -> None:
    got = {(r.entry.table, r.entry.direction): r.matchpoints for r in compare_seats(board_scores())}
    for row in example("matchpoints"):
        for name, direction in NAMES.items():
            assert got[(int(row["table"]), direction)] == int(row[name])


def test_differences_from_the_average_as_the_page_works_them_out() -> None:
    results = compare_seats(board_scores())
    got = {(r.entry.table, r.entry.direction): r.difference for r in results}
    rows = example("average")
    averages, tables = rows[0], rows[1:]
    assert averages["table"] == "average"
    for name, direction in NAMES.items():
        scores = [r.entry.score for r in results if r.entry.direction is direction]
        assert Fraction(sum(scores), len(scores)) == int(averages[name])
    for row in tables:
        for name, direction in NAMES.items():
            assert got[(int(row["table"]), direction)] == int(row[name])


def test_the_movement_example_is_the_movement() -> None:
    rows = [r for r in movement_rows(movement(5, 5, 2)) if r.round == 2]
    page = example("movement")
    assert [
        [str(r.table), r.boards, str(r.boards_from), *map(str, (r.north, r.east, r.south, r.west))]
        for r in rows
    ] == [list(row.values()) for row in page]
    assert movement(5, 5, 2).repeated_meetings() == ()


def test_the_traveller_of_the_example_board() -> None:
    deals = []
    for row in example("deals"):
        table = int(row["table"])
        deals.append(
            TableDeal(
                board=5,
                table=table,
                contract=row["contract"],
                taker=NAMES[row["taker"]],
                points=Decimal(row["points"]),
                players={d: 4 * table + i for i, d in enumerate(DIRECTIONS)},
                scores={NAMES[name]: int(row[name]) for name in NAMES},
            )
        )
    # Another board's deal is left out.
    other = TableDeal(5 + 1, 1, None, None, None, deals[0].players, deals[0].scores)
    sheet = traveller(5, [deals[3], other, *deals[:3]])
    assert sheet.dealer is Direction.NORTH
    assert [line.table for line in sheet.lines] == [1, 2, 3, 4]
    matchpoints = {int(row["table"]): row for row in example("matchpoints")}
    for line in sheet.lines:
        assert line.matchpoints == tuple(int(matchpoints[line.table][n]) for n in NAMES)
        assert line.maximum == 6
    assert sheet.lines[3].taker is Direction.EAST and sheet.lines[3].points == 35
    assert sheet.lines[1].scores == (-58, -58, 174, -58)
