"""Keeping the season statistics in step with the deals, and rebuilding them from score lines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import results_changed
from tarot_scores.games.kinds import TAROT
from tarot_scores.games.models import Deal, Game, Seat
from tarot_scores.stats.models import PlayerSeason


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


_STATS_UPSERT = """
INSERT INTO {table} (club_id, season, kind, table_size, player_id, points, deals, taken,
                     taken_won)
VALUES {values}
ON CONFLICT (club_id, season, kind, table_size, player_id) DO UPDATE SET
    points = {table}.points + excluded.points,
    deals = {table}.deals + excluded.deals,
    taken = {table}.taken + excluded.taken,
    taken_won = {table}.taken_won + excluded.taken_won
"""


def stats_apply(
    game: Game, deal: Deal, scores: Mapping[int, int], sign: int, table_size: int
) -> None:
    """Add (sign=1) or take back (sign=-1) a deal's part in the season statistics.

    Adding is one upsert statement (SQLite and PostgreSQL share the syntax); taking back
    updates rows that exist, since the check constraints forbid a negative row even briefly.
    """
    rows = _stats_rows(game, deal, scores, table_size)
    results_changed(club_id=game.club_id)
    if not rows:
        return
    if sign > 0:
        table = connection.ops.quote_name(PlayerSeason._meta.db_table)
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
        with connection.cursor() as cursor:
            cursor.execute(
                _STATS_UPSERT.format(table=table, values=values),
                [value for row in rows for value in row],
            )
        return
    for club_id, season, kind, size, player_id, points, deals, taken, won in rows:
        PlayerSeason.objects.filter(
            club_id=club_id, season=season, kind=kind, table_size=size, player_id=player_id
        ).update(
            points=F("points") - points,
            deals=F("deals") - deals,
            taken=F("taken") - taken,
            taken_won=F("taken_won") - won,
        )


@transaction.atomic
def stats_rebuild(*, club: Club | None = None) -> int:
    """Recompute every statistics row from the score lines; returns the rows written."""
    rows = PlayerSeason.objects.all()
    deals = Deal.objects.filter(deleted_at__isnull=True).select_related("game__club")
    clubs = Club.objects.all()
    if club is not None:
        rows = rows.filter(club=club)
        deals = deals.filter(game__club=club)
        clubs = clubs.filter(pk=club.pk)
    rows.delete()
    clubs.update(stats_version=F("stats_version") + 1)  # what results_changed does, for many
    sizes = dict(
        Seat.objects.filter(game_id__in=deals.values("game_id"))
        .values_list("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    totals: dict[tuple[Any, ...], list[int]] = {}
    for deal in deals.prefetch_related("lines").iterator(chunk_size=2000):
        scores = {line.player_id: line.points for line in deal.lines.all()}
        # The same rows a deal's save adds (_apply_stats), summed.
        for *key, points, played, taken, won in _stats_rows(
            deal.game, deal, scores, sizes[deal.game_id]
        ):
            row = totals.setdefault(tuple(key), [0, 0, 0, 0])
            row[0] += points
            row[1] += played
            row[2] += taken
            row[3] += won
    PlayerSeason.objects.bulk_create(
        PlayerSeason(
            club_id=k[0],
            season=k[1],
            kind=k[2],
            table_size=k[3],
            player_id=k[4],
            points=v[0],
            deals=v[1],
            taken=v[2],
            taken_won=v[3],
        )
        for k, v in totals.items()
    )
    return len(totals)
