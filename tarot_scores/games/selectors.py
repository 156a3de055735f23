"""Reads of the games: a game's score sheet (running totals, ranking) and a club's games."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.collation import name_key
from tarot_scores.core.hooks import Hook
from tarot_scores.core.kinds import HOUSE, NOVATAROK
from tarot_scores.games.models import Deal, Game, ScoreLine, Seat
from tarot_scores.games.seats import TableSeats, deal_seats


@dataclass(frozen=True)
class DealRow:
    deal: Deal
    scores: list[int | None]  # in seat order; None for a deleted deal
    totals: list[int]  # running totals after this deal
    # A struck deal that may come back: its number (and board) not entered again since. An
    # undone deal entered afresh has its number taken, so it stays struck (``deal_restore``
    # refuses it: ``number_reused``) and the sheet offers no Restore for it.
    restorable: bool = True
    # Held out of the counts (``Deal.counted``: contested at a tournament's table): shown,
    # counted for nobody.
    held: bool = False


@dataclass(frozen=True)
class Ranked:
    rank: int
    player: Player
    total: int


@dataclass(frozen=True)
class GameSheet:
    game: Game
    players: list[Player]
    table: TableSeats
    rows: list[DealRow]
    totals: list[int]
    ranking: list[Ranked]
    next_number: int
    next_dealer: Player
    winners: list[Player] = field(default_factory=list)

    @property
    def live_deals(self) -> int:
        return sum(1 for r in self.rows if not r.deal.is_deleted)

    def after(self, deal: Deal, scores: dict[int, int]) -> GameSheet:
        """This sheet with ``deal`` (just saved, with its ``scores``) added: what a fresh
        read would give when nothing else changed meanwhile, without reading it again."""
        lines = {
            row.deal.pk: {
                p.pk: s for p, s in zip(self.players, row.scores, strict=True) if s is not None
            }
            for row in self.rows
        }
        lines[deal.pk] = scores
        held = {row.deal.pk for row in self.rows if row.held}
        return _sheet(self.game, self.table, [row.deal for row in self.rows] + [deal], lines, held)


def game_sheet(*, game_id: int) -> GameSheet:
    """A game's score sheet: every deal in order with each player's score and running totals."""
    game = with_day_number(Game.objects.select_related("club", "house_rules")).get(pk=game_id)
    table = TableSeats(list(Seat.objects.filter(game=game).select_related("player")))
    # A struck deal sorts before the live one that took its number again.
    deals = list(Deal.objects.filter(game=game).order_by("number", "pk"))
    lines: dict[int, dict[int, int]] = {deal.pk: {} for deal in deals}
    rows = ScoreLine.objects.filter(deal_id__in=lines).values_list("deal_id", "player_id", "points")
    for deal_id, player_id, points in rows:
        lines[deal_id][player_id] = points
    # A deal held out of the counts (contested at a tournament's table) counts for nobody.
    return _sheet(game, table, deals, lines, {deal.pk for deal in deals if not deal.counted})


def _sheet(
    game: Game,
    table: TableSeats,
    deals: list[Deal],
    lines: Mapping[int, Mapping[int, int]],
    held: Collection[int] = (),
) -> GameSheet:
    """The sheet of these deals (in number order) and their score lines (deal id -> player id
    -> points); the ``held`` deals (contested) are shown but add nothing to the totals."""
    players = table.players
    position = {p.pk: i for i, p in enumerate(players)}
    totals = [0] * len(players)
    rows: list[DealRow] = []
    last_number = 0
    live = [deal for deal in deals if not deal.is_deleted]
    numbers_taken = {deal.number for deal in live}
    boards_taken = {deal.board for deal in live if deal.board is not None}
    for deal in deals:
        if deal.is_deleted:
            restorable = deal.number not in numbers_taken and deal.board not in boards_taken
            rows.append(DealRow(deal, [None] * len(players), list(totals), restorable))
            continue
        # The next deal follows the last live one: an undone or deleted last deal frees its
        # number and its dealer.
        last_number = max(last_number, deal.number)
        scores: list[int | None] = [0] * len(players)
        then: dict[int, int] | None = None
        for player_id, points in lines[deal.pk].items():
            i = position.get(player_id)
            if i is None:
                # Played by someone whose seat has been taken over since (a tournament's
                # substitute): his points stay in his seat's column. Only such deals ask.
                if then is None:
                    then = {p.pk: k for k, p in enumerate(deal_seats(deal, table).players)}
                i = then[player_id]
            scores[i] = points
            if deal.pk not in held:
                totals[i] += points
        rows.append(DealRow(deal, scores, list(totals), held=deal.pk in held))
    ranking = rank_players(list(zip(players, totals, strict=True)))
    winners: list[Player] = []
    if game.kind == NOVATAROK:
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
    ordered = sorted(totals, key=lambda pt: (-pt[1], name_key(pt[0].label)))
    out: list[Ranked] = []
    for i, (player, total) in enumerate(ordered):
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(Ranked(rank, player, total))
    return out


def usual_rules(*, club: Club) -> str:
    """The rules a new game of the club starts with, as the new-game form names them
    (``fft``, ``classic``, ``house:<id>``, a game kind): those of its latest game, so that an
    evening's second table needs no tap for them; FFT for a club's first game."""
    latest = (
        Game.objects.filter(club=club)
        .order_by("-date", "-id")
        .values_list("variant", "house_rules_id")
        .first()
    )
    if latest is None:
        return "fft"
    variant, house_rules_id = latest
    if variant == HOUSE:
        return f"{HOUSE}:{house_rules_id}" if house_rules_id else "fft"
    return str(variant)


def club_games(*, club: Club) -> QuerySet[Game]:
    return (
        with_day_number(Game.objects.filter(club=club))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-date", "-id")
    )


# Games another app lists under its own heading (a tournament's tables, under their
# tournament), registered from its AppConfig's ``ready``: the club page's list of games
# leaves them out without the games knowing that app.
grouped_elsewhere: Hook[Q] = Hook("games.selectors.grouped_elsewhere")
# Leave the games a filter matches out of ``club_loose_games`` and ``open_games_of``.
on_grouped_elsewhere = grouped_elsewhere.register


def club_loose_games(*, club: Club) -> QuerySet[Game]:
    """A club's games that belong to nothing larger: its evenings, not a tournament's tables."""
    games = club_games(club=club)
    for grouped in grouped_elsewhere:
        games = games.exclude(grouped)
    return games


def open_games_of(*, user: Any, limit: int) -> list[Game]:
    """The newest ``limit`` games, not finished, where the player linked to ``user`` sits, with
    their club and seated players: two queries, whatever the number of games. Games grouped
    elsewhere (a tournament's tables) are left to their own list."""
    games = Game.objects.filter(status=Game.Status.OPEN, seats__player__user=user)
    for grouped in grouped_elsewhere:
        games = games.exclude(grouped)
    return list(
        with_day_number(games.select_related("club"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by("-date", "-id")[:limit]
    )


def with_day_number(games: QuerySet[Game]) -> QuerySet[Game]:
    """These games, each with ``day_number``: its place among its club's games of its day, in
    the order they were started (1 for the first), which ``Game.title`` writes after the date
    from the second game on."""
    return games.annotate(day_number=day_number_of())


def day_number_of(game: str = "") -> Subquery:
    """The place of the game (at the path ``game`` from the rows read, or the row itself) among
    its club's games of its day, as a subquery on the (club, date) index. A tournament's tables
    (games grouped elsewhere) are left out of the count: they are named by their label."""
    at = f"{game}__" if game else ""
    same_day = Game.objects.filter(
        club=OuterRef(f"{at}club"), date=OuterRef(f"{at}date"), pk__lte=OuterRef(f"{at}pk")
    )
    for grouped in grouped_elsewhere:
        same_day = same_day.exclude(grouped)
    counted = same_day.order_by().values("club").annotate(n=Count("pk")).values("n")[:1]
    return Subquery(counted, output_field=IntegerField())


def game_day_number(game: Game) -> Game:
    """``game`` with its ``day_number`` (one query), for a page that read it without."""
    if "day_number" not in game.__dict__ and not game.label:
        game.day_number = (  # type: ignore[attr-defined]
            Game.objects.filter(pk=game.pk)
            .annotate(number=day_number_of())
            .values_list("number", flat=True)
            .get()
        )
    return game
