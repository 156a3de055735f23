"""The ``fixed`` method: a printed movement, the same sheet whatever happens at the tables.

Round 1 is a seeded draw of every player to a station (a table and a seat). Afterwards each
player keeps his seat number and moves by a fixed step each round: seat 1 stays, seat 2 moves
one table up, seat 3 two tables, seat 4 three, seat 5 four, counting only the tables that have
that seat (a table of 3 has no seat 4, only tables of 5 have a seat 5) and wrapping from the
last such table to the first (a step that would come back to the same table is one table
instead). Two players at the same seat number never meet; two others meet
again only when the difference of their steps, times the rounds played, comes back to their
starting distance, so with a prime number of tables (5, 7, 11...) nobody meets twice within as
many rounds as there are tables.

With teams, the draw puts each team's members on the same seat number (at different tables):
they move in step and never meet. Only a team that no seat number has room left for is split,
and its members may meet: ``team_clashes`` says so.
"""

from __future__ import annotations

import random

from .plan import Lang, TablePlan
from .search import Tables


def seat_tables(plan: TablePlan, seat: int) -> list[int]:
    """The tables (0-based, in order) that have seat ``seat`` (0-based)."""
    return [t for t, size in enumerate(plan.sizes) if seat < size]


def seat_step(plan: TablePlan, seat: int) -> int:
    """How many tables seat ``seat`` (0-based) moves up each round: ``seat``, counted among the
    tables that have that seat; one instead of none when that count divides it, so that the
    seat does not stay put beside seat 1."""
    tables = len(seat_tables(plan, seat))
    step = seat % tables
    return 1 if step == 0 and seat > 0 and tables > 1 else step


def station_draw(plan: TablePlan, team: list[int], rng: random.Random) -> Tables:
    """Round 1: a seeded draw of players ``0..n-1`` to stations, teammates on one seat number."""
    players = list(range(plan.players))
    rng.shuffle(players)
    columns = [seat_tables(plan, s) for s in range(max(plan.sizes))]
    free = [len(column) for column in columns]
    # Teams, largest first, each on one seat number; a team that no seat number has room for
    # any more is split (its members may then meet). Players without a team fill the rest.
    groups: dict[int, list[int]] = {}
    loose: list[int] = []
    for p in players:
        if team[p] < 0:
            loose.append(p)
        else:
            groups.setdefault(team[p], []).append(p)
    placed: list[list[int]] = [[] for _ in columns]
    for members in sorted(groups.values(), key=len, reverse=True):
        fits = [s for s in range(len(columns)) if free[s] >= len(members)]
        if fits:  # best fit: the seat number with the least room that holds the whole team
            s = min(fits, key=lambda c: free[c])
            placed[s].extend(members)
            free[s] -= len(members)
            continue
        rest = members
        while rest:
            s = max(range(len(columns)), key=lambda c: free[c])
            take = rest[: free[s]]
            placed[s].extend(take)
            free[s] -= len(take)
            rest = rest[len(take) :]
    for s in range(len(columns)):
        placed[s].extend(loose[: free[s]])
        loose = loose[free[s] :]
    tables: Tables = [[] for _ in plan.sizes]
    for s, column in enumerate(columns):
        for t, p in zip(column, placed[s], strict=True):
            tables[t].append(p)
    return tables


def move(plan: TablePlan, start: Tables, round_number: int) -> Tables:
    """Where round 1's stations sit in round ``round_number``: seat ``s`` moves ``s - 1``
    tables up per round among the tables that have it."""
    tables: Tables = [[] for _ in plan.sizes]
    for s in range(max(plan.sizes)):
        column = seat_tables(plan, s)
        step = seat_step(plan, s) * (round_number - 1)
        for j, t in enumerate(column):
            tables[column[(j + step) % len(column)]].append(start[t][s])
    return tables


def describe_movement(plan: TablePlan, lang: Lang = "fr") -> tuple[str, ...]:
    """The movement in words, one line per seat number, for the sheet the organiser prints."""
    lines = []
    for s in range(max(plan.sizes)):
        column = seat_tables(plan, s)
        step = seat_step(plan, s)
        names = ", ".join(str(t + 1) for t in column)
        first, last = column[0] + 1, column[-1] + 1
        only = len(column) < plan.tables
        if lang == "fr":
            where = f" (tables {names} seulement)" if only else ""
            tables = "d'une table" if step == 1 else f"de {step} tables"
            move = (
                "reste à sa table"
                if step == 0
                else f"avance {tables} à chaque tour "
                f"(après la table {last}, on repart de la table {first})"
            )
            lines.append(f"Siège {s + 1}{where} : {move}.")
        else:
            where = f" (tables {names} only)" if only else ""
            tables = "one table" if step == 1 else f"{step} tables"
            move = (
                "stays at its table"
                if step == 0
                else f"moves {tables} up each round (after table {last}, back to table {first})"
            )
            lines.append(f"Seat {s + 1}{where}: {move}.")
    return tuple(lines)
