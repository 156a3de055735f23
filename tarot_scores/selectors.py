"""Reads: game sheets, club leaderboards and player histories, each in a bounded number of
queries. Leaderboards read the per-season statistics rows, never the deals themselves."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Prefetch, Q, QuerySet, Sum

from tarot_scores import scoring
from tarot_scores.models import (
    Club,
    Deal,
    Game,
    HouseRules,
    Membership,
    Player,
    PlayerSeason,
    ScoreLine,
    Seat,
)
from tarot_scores.services import TableView


@dataclass(frozen=True)
class DealRow:
    deal: Deal
    scores: list[int | None]  # in seat order; None for a deleted deal
    totals: list[int]  # running totals after this deal


@dataclass(frozen=True)
class Ranked:
    rank: int
    player: Player
    total: int


@dataclass(frozen=True)
class GameSheet:
    game: Game
    players: list[Player]
    table: TableView
    rows: list[DealRow]
    totals: list[int]
    ranking: list[Ranked]
    next_number: int
    next_dealer: Player
    winners: list[Player] = field(default_factory=list)

    @property
    def live_deals(self) -> int:
        return sum(1 for r in self.rows if not r.deal.is_deleted)

    def after(self, deal: Deal) -> GameSheet:
        """This sheet with ``deal`` (just saved, its score lines at hand) added: what a fresh
        read would give when nothing else changed meanwhile, without reading it again."""
        lines = {
            row.deal.pk: {
                p.pk: s for p, s in zip(self.players, row.scores, strict=True) if s is not None
            }
            for row in self.rows
        }
        lines[deal.pk] = {line.player_id: line.points for line in deal.lines.all()}
        return _sheet(self.game, self.table, [row.deal for row in self.rows] + [deal], lines)


def game_sheet(*, game_id: int) -> GameSheet:
    """A game's score sheet: every deal in order with each player's score and running totals."""
    game = Game.objects.select_related("club", "house_rules").get(pk=game_id)
    table = TableView(list(Seat.objects.filter(game=game).select_related("player")))
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    lines: dict[int, dict[int, int]] = {deal.pk: {} for deal in deals}
    rows = ScoreLine.objects.filter(deal_id__in=lines).values_list("deal_id", "player_id", "points")
    for deal_id, player_id, points in rows:
        lines[deal_id][player_id] = points
    return _sheet(game, table, deals, lines)


def _sheet(
    game: Game, table: TableView, deals: list[Deal], lines: Mapping[int, Mapping[int, int]]
) -> GameSheet:
    """The sheet of these deals (in number order) and their score lines (deal id -> player id
    -> points)."""
    players = table.players
    position = {p.pk: i for i, p in enumerate(players)}
    totals = [0] * len(players)
    rows: list[DealRow] = []
    last_number = 0
    for deal in deals:
        last_number = max(last_number, deal.number)
        if deal.is_deleted:
            rows.append(DealRow(deal, [None] * len(players), list(totals)))
            continue
        scores: list[int | None] = [0] * len(players)
        for player_id, points in lines[deal.pk].items():
            i = position[player_id]
            scores[i] = points
            totals[i] += points
        rows.append(DealRow(deal, scores, list(totals)))
    ranking = rank_players(list(zip(players, totals, strict=True)))
    winners: list[Player] = []
    if game.kind == "novatarok":
        by_label = {table.labels[p.pk]: t for p, t in zip(players, totals, strict=True)}
        names = scoring.novatarok_winners(by_label)
        winners = [p for p in players if table.labels[p.pk] in names]
    return GameSheet(
        game=game,
        players=players,
        table=table,
        rows=rows,
        totals=totals,
        ranking=ranking,
        next_number=last_number + 1,
        next_dealer=table.dealer(last_number + 1),
        winners=winners,
    )


def rank_players(totals: list[tuple[Player, int]]) -> list[Ranked]:
    """Highest total first; equal totals share a rank (1, 2, 2, 4)."""
    ordered = sorted(totals, key=lambda pt: (-pt[1], pt[0].label.casefold()))
    out: list[Ranked] = []
    for i, (player, total) in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(Ranked(rank, player, total))
    return out


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
    kind: str = "tarot",
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


def clubs_for(*, user: Any) -> QuerySet[Club]:
    """The clubs a user may read: public ones and their own (every club for a superuser)."""
    if user is not None and user.is_authenticated and user.is_superuser:
        return Club.objects.all()
    if user is None or not user.is_authenticated:
        return Club.objects.filter(public=True)
    return Club.objects.filter(Q(public=True) | Q(memberships__user=user)).distinct()


def club_players(*, club: Club) -> QuerySet[Player]:
    return club.players.select_related("user").order_by("name", "id")


def club_memberships(*, club: Club) -> QuerySet[Membership]:
    """Members with their account and the player it is linked to."""
    return (
        Membership.objects.filter(club=club)
        .select_related("user", "user__player")
        .order_by("user__username")
    )


def club_games(*, club: Club) -> QuerySet[Game]:
    return (
        Game.objects.filter(club=club)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-date", "-id")
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


# --- names taken ---------------------------------------------------------------------------
# Compared here, casefolded, rather than with ``__iexact``: SQLite folds only ASCII letters, so
# "CHLOÉ" would not match "Chloé". The lists are a club's players or rule sets, or the clubs.


def _taken(names: Any, wanted: str) -> bool:
    folded = wanted.casefold()
    return any(name.casefold() == folded for name in names)


def club_name_taken(*, name: str) -> bool:
    return _taken(Club.objects.values_list("name", flat=True).iterator(), name)


def player_label_taken(*, club: Club, label: str) -> bool:
    """Whether one of the club's players is already shown as ``label`` (nickname, or name)."""
    shown = (nickname or name for name, nickname in club.players.values_list("name", "nickname"))
    return _taken(shown, label)


def house_rules_name_taken(*, club: Club, name: str, other_than: int | None = None) -> bool:
    rule_sets = HouseRules.objects.filter(club=club)
    if other_than is not None:
        rule_sets = rule_sets.exclude(pk=other_than)
    return _taken(rule_sets.values_list("name", flat=True), name)
