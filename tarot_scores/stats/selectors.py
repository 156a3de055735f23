"""Reads of the statistics: the leaderboard, the seasons a club has, a player's games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Sum

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games.kinds import TAROT
from tarot_scores.games.models import Game, ScoreLine
from tarot_scores.stats.models import PlayerSeason


@dataclass(frozen=True)
class LeaderRow:
    rank: int
    player_id: int
    name: str
    points: int
    deals: int
    taken: int
    taken_won: int

    @property
    def average(self) -> float:
        return self.points / self.deals if self.deals else 0.0

    @property
    def success(self) -> float | None:
        return self.taken_won / self.taken if self.taken else None


LEADERBOARD_SORTS = {
    "points": lambda r: (-r.points, r.name.casefold()),
    "average": lambda r: (-r.average, r.name.casefold()),
    "deals": lambda r: (-r.deals, r.name.casefold()),
    "taken": lambda r: (-r.taken, r.name.casefold()),
    "success": lambda r: (-(r.success or 0), r.name.casefold()),
    "name": lambda r: (r.name.casefold(),),
}


def leaderboard(
    *,
    club: Club,
    season: int | None = None,
    table_size: int | None = None,
    kind: str = TAROT,
    sort: str = "points",
    player_id: int | None = None,
) -> list[LeaderRow]:
    """The club's leaderboard from the statistics rows: one query, whatever the deal count."""
    rows = PlayerSeason.objects.filter(club=club, kind=kind)
    if season is not None:
        rows = rows.filter(season=season)
    if table_size is not None:
        rows = rows.filter(table_size=table_size)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    grouped = (
        rows.values("player_id", "player__name", "player__nickname")
        .annotate(
            points=Sum("points"), deals=Sum("deals"), taken=Sum("taken"), taken_won=Sum("taken_won")
        )
        .filter(deals__gt=0)
    )
    out = [
        LeaderRow(
            0,
            g["player_id"],
            g["player__nickname"] or g["player__name"],
            g["points"],
            g["deals"],
            g["taken"],
            g["taken_won"],
        )
        for g in grouped
    ]
    out.sort(key=LEADERBOARD_SORTS.get(sort, LEADERBOARD_SORTS["points"]))
    ranked: list[LeaderRow] = []
    for i, row in enumerate(out):
        ranked.append(
            LeaderRow(
                i + 1, row.player_id, row.name, row.points, row.deals, row.taken, row.taken_won
            )
        )
    return ranked


def seasons_of(*, club: Club) -> list[int]:
    return list(
        PlayerSeason.objects.filter(club=club)
        .values_list("season", flat=True)
        .distinct()
        .order_by("-season")
    )


@dataclass(frozen=True)
class PlayerGame:
    game: Game
    total: int
    deals: int


def player_history(*, club: Club, player: Player) -> list[PlayerGame]:
    """The player's games at this club, oldest first, with their total in each."""
    totals = (
        ScoreLine.objects.filter(
            player=player, deal__game__club=club, deal__deleted_at__isnull=True
        )
        .values("deal__game_id")
        .annotate(total=Sum("points"), deals=Count("id"))
    )
    by_game: dict[int, dict[str, Any]] = {t["deal__game_id"]: dict(t) for t in totals}
    games = Game.objects.filter(pk__in=by_game).order_by("date", "id")
    return [PlayerGame(g, by_game[g.pk]["total"], by_game[g.pk]["deals"]) for g in games]
