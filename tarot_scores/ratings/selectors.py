"""The ratings as pages and the API read them: a club's or the federation's ranking (today, or
as a season ended), a player's rating and its curve, and since when the ratings wait for a deal."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Min, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from tarot_scores.clubs.models import Club, Player
from tarot_scores.ratings.models import PlayerRating, RatingsBehind, RatingStep
from tarot_scores.ratings.rating import conservative


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


@dataclass(frozen=True)
class RatingPoint:
    """A player's shown rating at the end of a day of play: just after his last rated deal
    that day, with his rated deals so far."""

    played_on: Any
    rating: float
    deals: int


def rating_history(
    *, player: Player, club: Club | None, most: int | None = None
) -> list[RatingPoint]:
    """The player's shown rating after each day he played rated deals in a club (or the
    federation), oldest first: one query, one row per day (the rating after the day's last
    deal), so a long career reads its days, not every deal; ``most``: his latest days only."""
    last_of_day = [F("game_id").desc(), F("number").desc()]
    steps = (
        RatingStep.objects.filter(_scope(club), player=player)
        .annotate(nth=Window(RowNumber(), partition_by=[F("played_on")], order_by=last_of_day))
        .filter(nth=1)
        .order_by("-played_on")
        .values_list("played_on", "mu", "sigma", "deals")
    )
    if most is not None:
        steps = steps[:most]
    return [RatingPoint(day, conservative(mu, sigma), n) for day, mu, sigma, n in steps][::-1]


def current_rating(*, player: Player, club: Club | None) -> PlayerRating | None:
    return PlayerRating.objects.filter(_scope(club), player=player).first()


def ratings_behind_since(*, club: Club | None) -> datetime.datetime | None:
    """Since when the ratings of a club (or the federation: None) have been waiting for the
    ratings' job to take in a deal (entered, corrected, deleted, restored), or None when they
    include every deal."""
    since: datetime.datetime | None = RatingsBehind.objects.filter(_scope(club)).aggregate(
        since=Min("since")
    )["since"]
    return since
