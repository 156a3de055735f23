"""Keeping the season statistics in step with the deals, and rebuilding them from the score
lines (the ratings are a concern of their own: ``tarot_scores.ratings``)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F

from tarot_scores.clubs.models import Club
from tarot_scores.core.kinds import TAROT
from tarot_scores.core.results import results_changed
from tarot_scores.games.models import Deal, Game, Seat, counting
from tarot_scores.stats.figures import ContractRow, FigureRow, PairingRow, deal_figures
from tarot_scores.stats.models import (
    PlayerContract,
    PlayerFigures,
    PlayerGameTotal,
    PlayerPairing,
    PlayerSeason,
)


def _stats_key(game: Game, table_size: int) -> dict[str, Any]:
    return {
        "club_id": game.club_id,
        "season": game.club.season_of(game.date),
        "kind": game.kind,
        "table_size": table_size,
    }


def _stats_rows(
    game: Game, deal: Deal, scores: Mapping[int, int], table_size: int
) -> list[tuple[int, int, str, int, int, int, int, int, int]]:
    """One row per player: the key, then points, deals played, times taker, times won."""
    key = _stats_key(game, table_size)
    sitting = deal.payload.get("sitting_out") if game.kind == TAROT else None
    rows = []
    for player_id, points in scores.items():
        taken = 1 if player_id == deal.taker_id else 0
        rows.append(
            (
                key["club_id"],
                key["season"],
                key["kind"],
                key["table_size"],
                player_id,
                points,
                0 if player_id == sitting else 1,
                taken,
                taken if deal.won else 0,
            )
        )
    return rows


def stats_apply(
    game: Game, deal: Deal, scores: Mapping[int, int], sign: int, table_size: int
) -> None:
    """Add (sign=1) or take back (sign=-1) a deal's part in the season statistics, in its
    players' figures (a tarot deal) and in their game totals.

    Adding is one upsert statement a table (SQLite and PostgreSQL share the syntax); taking
    back updates rows that exist, since the check constraints forbid a negative row even
    briefly (PostgreSQL checks the row an upsert proposes before it finds the conflict).
    """
    rows = _stats_rows(game, deal, scores, table_size)
    results_changed(club_id=game.club_id)
    if not rows:
        return
    if sign > 0:
        # The deal's save waits for these: one round trip on PostgreSQL (a psycopg pipeline).
        with _one_round_trip():
            _upsert(_SEASON_TABLE, rows)
            for table, more in _figures_rows(game, deal, scores).items():
                _upsert(table, more)
    else:
        for club_id, season, kind, size, player_id, points, deals, taken, won in rows:
            PlayerSeason.objects.filter(
                club_id=club_id, season=season, kind=kind, table_size=size, player_id=player_id
            ).update(
                points=F("points") - points,
                deals=F("deals") - deals,
                taken=F("taken") - taken,
                taken_won=F("taken_won") - won,
            )
        for table, more in _figures_rows(game, deal, scores).items():
            _take_back(table, more)


def _one_round_trip() -> contextlib.AbstractContextManager[Any]:
    if connection.vendor != "postgresql":
        return contextlib.nullcontext()
    connection.ensure_connection()
    pipeline: contextlib.AbstractContextManager[Any] = connection.connection.pipeline()
    return pipeline


@dataclass(frozen=True)
class _Table:
    """A running-totals table as the upserts write it: a row is the key columns, then the
    counts; ``unique`` is the constraint that names a row, where it is not the whole key."""

    model: type[Any]
    key: tuple[str, ...]
    counts: tuple[str, ...]
    unique: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return self.unique or self.key


_SEASON_TABLE = _Table(
    PlayerSeason,
    ("club_id", "season", "kind", "table_size", "player_id"),
    ("points", "deals", "taken", "taken_won"),
)
_FIGURE_COUNTS = FigureRow._fields[1:]
_FIGURES_TABLE = _Table(PlayerFigures, ("club_id", "player_id"), _FIGURE_COUNTS)
_CONTRACTS_TABLE = _Table(
    PlayerContract, ("club_id", "player_id", "contract"), ContractRow._fields[2:]
)
_PAIRINGS_TABLE = _Table(
    PlayerPairing, ("club_id", "player_id", "other_id"), PairingRow._fields[2:]
)
# A game total's key is (player, game); the club, the date and the kind come with the game.
_GAMES_TABLE = _Table(
    PlayerGameTotal,
    ("club_id", "played_on", "kind", "player_id", "game_id"),
    ("total", "deals"),
    unique=("player_id", "game_id"),
)


def _upsert(table: _Table, rows: Sequence[Sequence[Any]]) -> None:
    """Add each row's counts to its key's row, creating the rows missing: one statement."""
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(table, len(rows)), [value for row in rows for value in row])


def _upsert_sql(table: _Table, count: int) -> str:
    """The statement of ``_upsert`` for ``count`` rows (bench/entry.py's floor sends it too)."""
    q = connection.ops.quote_name
    name = q(table.model._meta.db_table)
    columns = [*table.key, *table.counts]
    marks = "(" + ", ".join(["%s"] * len(columns)) + ")"
    sets = ", ".join(f"{q(c)} = {name}.{q(c)} + excluded.{q(c)}" for c in table.counts)
    return (
        f"INSERT INTO {name} ({', '.join(q(c) for c in columns)}) "
        f"VALUES {', '.join([marks] * count)} "
        f"ON CONFLICT ({', '.join(q(c) for c in table.names)}) DO UPDATE SET {sets}"
    )


def _take_back(table: _Table, rows: Sequence[Sequence[Any]]) -> None:
    """Subtract each row's counts from its key's row (which the deal's adding created)."""
    if not rows:
        return
    q = connection.ops.quote_name
    name = q(table.model._meta.db_table)
    key = table.names
    sets = ", ".join(f"{q(c)} = {q(c)} - %s" for c in table.counts)
    where = " AND ".join(f"{q(c)} = %s" for c in key)
    columns = [*table.key, *table.counts]
    params = []
    for row in rows:
        values = dict(zip(columns, row, strict=True))
        params.append([*(values[c] for c in table.counts), *(values[c] for c in key)])
    with connection.cursor() as cursor:
        cursor.executemany(f"UPDATE {name} SET {sets} WHERE {where}", params)


def _figures_rows(
    game: Game, deal: Deal, scores: Mapping[int, int]
) -> dict[_Table, list[tuple[Any, ...]]]:
    """The rows a deal adds to its players' figures and game totals, keys first."""
    club_id = game.club_id
    out: dict[_Table, list[tuple[Any, ...]]] = {
        _GAMES_TABLE: [
            (club_id, game.date, game.kind, player_id, game.pk, points, 1)
            for player_id, points in scores.items()
        ]
    }
    if game.kind != TAROT:
        return out
    part = deal_figures(
        payload=deal.payload,
        taker_id=deal.taker_id,
        won=deal.won,
        contract=deal.contract,
        scores=scores,
    )
    out[_FIGURES_TABLE] = [(club_id, *row) for row in part.figures]
    out[_CONTRACTS_TABLE] = [(club_id, *row) for row in part.contracts]
    out[_PAIRINGS_TABLE] = [(club_id, *row) for row in part.pairings]
    return out


_FIGURE_TABLES = (_FIGURES_TABLE, _CONTRACTS_TABLE, _PAIRINGS_TABLE, _GAMES_TABLE)


@transaction.atomic
def stats_rebuild(*, club: Club | None = None) -> int:
    """Recompute every statistics row from the score lines of the deals that count (live, not
    held out of the counts): the season statistics, the players' figures and their game
    totals. Returns the season rows written."""
    deals = Deal.objects.filter(counting()).select_related("game__club")
    clubs = Club.objects.all()
    if club is not None:
        deals = deals.filter(game__club=club)
        clubs = clubs.filter(pk=club.pk)
    for table in (_SEASON_TABLE, *_FIGURE_TABLES):
        rows = table.model.objects.all()
        (rows.filter(club=club) if club is not None else rows).delete()
    clubs.update(stats_version=F("stats_version") + 1)  # what results_changed does, for many
    sizes = dict(
        Seat.objects.filter(game_id__in=deals.values("game_id"))
        .values_list("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    totals: dict[_Table, dict[tuple[Any, ...], list[int]]] = {
        t: {} for t in (_SEASON_TABLE, *_FIGURE_TABLES)
    }
    for deal in deals.prefetch_related("lines").iterator(chunk_size=2000):
        scores = {line.player_id: line.points for line in deal.lines.all()}
        # The same rows a deal's save adds (stats_apply), summed.
        parts = _figures_rows(deal.game, deal, scores)
        parts[_SEASON_TABLE] = _stats_rows(deal.game, deal, scores, sizes[deal.game_id])
        for table, rows in parts.items():
            width = len(table.key)
            summed = totals[table]
            for row in rows:
                counts = summed.setdefault(tuple(row[:width]), [0] * len(table.counts))
                for i, value in enumerate(row[width:]):
                    counts[i] += value
    for table, summed in totals.items():
        columns = [*table.key, *table.counts]
        table.model.objects.bulk_create(
            (
                table.model(**dict(zip(columns, (*key, *counts), strict=True)))
                for key, counts in summed.items()
            ),
            batch_size=2000,
        )
    return len(totals[_SEASON_TABLE])
