"""Reads of the statistics: the leaderboard, the seasons a club has, a player's games, and the
rating rankings (a club's or the federation's, today or as a season ended)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, QuerySet, Sum, Window
from django.db.models.functions import RowNumber

from tarot_scores.clubs.models import Club, Player
from tarot_scores.games.kinds import TAROT
from tarot_scores.games.models import Game, ScoreLine
from tarot_scores.stats.models import PlayerRating, PlayerSeason, RatingStep
from tarot_scores.stats.rating import conservative


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


@dataclass(frozen=True)
class RatedPlayer:
    """One line of a rating ranking; ``rank`` is None for a player not yet ranked."""

    rank: int | None
    player_id: int
    name: str
    mu: float
    sigma: float
    deals: int

    @property
    def rating(self) -> int:
        """The rating shown: mu - 3 sigma, rounded."""
        return round(conservative(self.mu, self.sigma))


@dataclass(frozen=True)
class Ranking:
    """Players with at least the minimum of deals, best first; the others by deals played."""

    ranked: list[RatedPlayer]
    unranked: list[RatedPlayer]


def _scope(club: Club | None) -> Q:
    return Q(club=club) if club is not None else Q(club__isnull=True)


def rating_seasons(*, club: Club | None) -> list[int]:
    """The seasons with rated deals in a club (or the federation), latest first."""
    return list(
        RatingStep.objects.filter(_scope(club))
        .values_list("season", flat=True)
        .distinct()
        .order_by("-season")
    )


def rating_ranking(
    *,
    club: Club | None,
    season: int | None,
    min_deals: int,
    clubs: QuerySet[Club] | None = None,
) -> Ranking:
    """A club's ranking (``club``) or the federation's (None), in one query.

    ``season`` None ranks today's ratings on every deal; a season ranks each player who played
    in it by his rating just after his last deal of that season, with the deals he played in
    it (the minimum counts those). ``clubs`` limits the federation's list to the players of
    those clubs (the clubs a visitor may see)."""
    rows: QuerySet[Any, Any]
    if season is None:
        rows = PlayerRating.objects.filter(_scope(club)).values_list(
            "player_id", "player__name", "mu", "sigma", "deals"
        )
    else:
        latest_first = [F("played_on").desc(), F("game_id").desc(), F("number").desc()]
        rows = (
            RatingStep.objects.filter(_scope(club), season=season)
            .annotate(
                nth=Window(RowNumber(), partition_by=[F("player_id")], order_by=latest_first),
                in_season=Window(Count("id"), partition_by=[F("player_id")]),
            )
            .filter(nth=1)
            .values_list("player_id", "player__name", "mu", "sigma", "in_season")
        )
    if clubs is not None:
        rows = rows.filter(player_id__in=Player.objects.filter(clubs__in=clubs).values("pk"))
    lines = [RatedPlayer(None, p, name, mu, sigma, n) for p, name, mu, sigma, n in rows]
    lines.sort(key=lambda r: (-conservative(r.mu, r.sigma), -r.deals, r.name, r.player_id))
    ranked: list[RatedPlayer] = []
    for line in lines:
        if line.deals >= min_deals:
            ranked.append(
                RatedPlayer(
                    len(ranked) + 1, line.player_id, line.name, line.mu, line.sigma, line.deals
                )
            )
    unranked = sorted(
        (line for line in lines if line.deals < min_deals),
        key=lambda r: (-r.deals, r.name, r.player_id),
    )
    return Ranking(ranked, unranked)
