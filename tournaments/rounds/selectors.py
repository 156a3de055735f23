"""Round reads: a round's tables and their progress, the deals waiting for a confirmation,
knockout brackets and repeated meetings. Each is a fixed number of queries."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet, Value

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import Seat
from tournaments.models import (
    DealConfirmation,
    Entry,
    Round,
    Table,
    Tournament,
)
from tournaments.seating.fairness import Quality, quality_of
from tournaments.standings.selectors import _PLAYER_FIELDS, round_penalties, round_totals

Confirmation = DealConfirmation.Status


@dataclass(frozen=True)
class TableState:
    table: Table
    players: list[Player]
    entered: int
    goal: int
    pending: int = 0  # live deals waiting for the other side's confirmation
    disputed: int = 0  # live deals the sides disagree on, waiting for a referee

    @property
    def complete(self) -> bool:
        return _complete(self.entered, self.goal, self.pending, self.disputed)


def _complete(entered: int, goal: int, pending: int, disputed: int) -> bool:
    """A table is done with its round: every deal entered, none waiting for the other side's
    confirmation or for a referee."""
    return entered >= goal and not pending and not disputed


@dataclass(frozen=True)
class TableProgress:
    """A table still playing, as the projector lists it."""

    number: int
    entered: int
    goal: int
    pending: int = 0
    disputed: int = 0


def tables_playing(*, round_: Round, limit: int) -> tuple[list[TableProgress], int]:
    """The round's tables still playing: the ``limit`` furthest behind (fewest deals entered,
    then the lower number), in table order, and how many are playing in all. One aggregate
    query of plain numbers, whatever the tables and deals."""
    goal = round_.tournament.deals_per_round
    progress = _with_progress(Table.objects.filter(round=round_), round_.tournament)
    playing = [
        TableProgress(number, entered, goal, pending, disputed)
        for number, entered, pending, disputed in progress.values_list(  # type: ignore[misc]
            "number",
            "entered",
            "pending",
            "disputed",  # the stubs do not see the annotations
        )
        if not _complete(entered, goal, pending, disputed)
    ]
    behind = sorted(playing, key=lambda t: (t.entered, t.number))[:limit]
    return sorted(behind, key=lambda t: t.number), len(playing)


def _with_progress(tables: QuerySet[Table], tournament: Tournament) -> QuerySet[Table]:
    """Each table with its live deals counted, and (when the tournament requires confirmation)
    those pending and disputed: one query with the tables."""
    live = Q(game__deals__deleted_at__isnull=True)
    tables = tables.annotate(entered=Count("game__deals", filter=live))
    if not tournament.require_confirmation:
        return tables.annotate(pending=Value(0), disputed=Value(0))
    status = "game__deals__confirmation__status"
    return tables.annotate(
        pending=Count("game__deals", filter=live & Q(**{status: Confirmation.PENDING})),
        disputed=Count("game__deals", filter=live & Q(**{status: Confirmation.DISPUTED})),
    )


def _state(table: Any, players: list[Player], goal: int) -> TableState:
    return TableState(table, players, table.entered, goal, table.pending, table.disputed)


def table_now(*, entry: Entry) -> Table | None:
    """The table where the entry's player sits in his tournament's latest round still open
    (what his card's page leads him to), or None between rounds and after the last."""
    return (
        Table.objects.filter(
            round__tournament_id=entry.tournament_id, game__seats__player_id=entry.player_id
        )
        .exclude(round__status=Round.Status.CLOSED)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )


def round_tables(*, round_: Round) -> list[TableState]:
    """The round's tables with their players in seat order and deals entered (2 queries)."""
    tournament = round_.tournament
    tables = list(
        _with_progress(Table.objects.filter(round=round_), tournament)
        .select_related("game")
        .order_by("number")
    )
    seats: dict[int, list[Player]] = defaultdict(list)
    for game_id, *player in (
        Seat.objects.filter(game__tournament_table__round=round_)
        .order_by("position")
        .values_list("game_id", "player_id", "player__name", "player__nickname")
    ):
        seats[game_id].append(Player.from_db("default", _PLAYER_FIELDS, player))
    goal = tournament.deals_per_round
    return [_state(t, seats[t.game_id], goal) for t in tables]


def tournament_rounds(*, tournament: Tournament) -> list[tuple[Round, list[TableState]]]:
    """Every round with its tables, players in seat order and deals entered (3 queries, however
    many rounds, tables and deals)."""
    rounds = list(tournament.round_set.order_by("number"))
    tables = (
        _with_progress(Table.objects.filter(round__tournament=tournament), tournament)
        .select_related("game")
        .order_by("round__number", "number")
    )
    seats: dict[int, list[Player]] = defaultdict(list)
    for seat in (
        Seat.objects.filter(game__tournament_table__round__tournament=tournament)
        .select_related("player")
        .order_by("position")
    ):
        seats[seat.game_id].append(seat.player)
    by_round: dict[int, list[TableState]] = defaultdict(list)
    goal = tournament.deals_per_round
    for t in tables:
        by_round[t.round_id].append(_state(t, seats[t.game_id], goal))
    return [(r, by_round[r.pk]) for r in rounds]


@dataclass(frozen=True)
class Waiting:
    """A tournament's live deals not counted yet: waiting for the other side, or disputed."""

    pending: int = 0
    disputed: int = 0

    def __bool__(self) -> bool:
        return bool(self.pending or self.disputed)


def deals_waiting_count(*, tournament: Tournament) -> Waiting:
    """How many deals wait for a confirmation or a referee (one query; none when the
    tournament does not require confirmation)."""
    if not tournament.require_confirmation:
        return Waiting()
    counts = DealConfirmation.objects.filter(
        deal__game__tournament_table__round__tournament=tournament,
        deal__deleted_at__isnull=True,
    ).aggregate(
        pending=Count("pk", filter=Q(status=Confirmation.PENDING)),
        disputed=Count("pk", filter=Q(status=Confirmation.DISPUTED)),
    )
    return Waiting(counts["pending"], counts["disputed"])


def deals_waiting(*, tournament: Tournament, table: Table | None = None) -> list[DealConfirmation]:
    """The live deals waiting for a confirmation or a referee, disputed ones first, then by
    round, table and deal; with their deal, game, table and the players named (one query)."""
    found = (
        DealConfirmation.objects.filter(
            deal__game__tournament_table__round__tournament=tournament,
            deal__deleted_at__isnull=True,
        )
        .exclude(status=Confirmation.CONFIRMED)
        .select_related(
            "deal__game__tournament_table__round",
            "entered_by",
            "disputed_by",
        )
    )
    if table is not None:
        found = found.filter(deal__game_id=table.game_id)
    disputed_first = [Confirmation.DISPUTED, Confirmation.PENDING]
    return sorted(
        found,
        key=lambda c: (
            disputed_first.index(Confirmation(c.status)),
            c.deal.game.tournament_table.round.number,
            c.deal.game.tournament_table.number,
            c.deal.number,
        ),
    )


def deal_states(*, game_id: int) -> dict[int, DealConfirmation]:
    """A table's deals' confirmations, by deal id (one query)."""
    return {c.deal_id: c for c in DealConfirmation.objects.filter(deal__game_id=game_id)}


@dataclass(frozen=True)
class StageSeat:
    player: Player
    points: int
    qualified: bool


@dataclass(frozen=True)
class StageTable:
    number: int
    seats: list[StageSeat]  # best first


@dataclass(frozen=True)
class Stage:
    number: int
    tables: list[StageTable]
    complete: bool
    final: bool
    qualified: list[int] = field(default_factory=list)  # player ids going through


@dataclass(frozen=True)
class Bracket:
    stages: list[Stage]
    ranking: list[tuple[int, Player]]  # (rank, player), once the final is played


def next_stage_places(players: int) -> int:
    """How many go through: half the field, down to a multiple of four, never fewer than 4."""
    return max(4, (players // 2) // 4 * 4)


def qualify(tables: list[list[tuple[Player, int]]], *, per_table: int, places: int) -> set[int]:
    """The best ``per_table`` of each table go through (fewer if the places are short), then the
    best of the rest, by their score at their table, fill the remaining places."""
    quota = min(per_table, places // max(1, len(tables)))
    chosen: set[int] = set()
    rest: list[tuple[int, str, Player]] = []
    for table in tables:
        ordered = sorted(table, key=lambda pp: (-pp[1], pp[0].label.casefold()))
        for i, (player, points) in enumerate(ordered):
            if i < quota:
                chosen.add(player.pk)
            else:
                rest.append((points, player.label.casefold(), player))
    rest.sort(key=lambda r: (-r[0], r[1]))
    for _points, _name, player in rest[: max(0, places - len(chosen))]:
        chosen.add(player.pk)
    return chosen


def bracket(*, tournament: Tournament) -> Bracket:
    """Every knockout stage: its tables, each player's score there (less his penalties of
    that stage) and who went through."""
    totals = round_totals(tournament)
    taken = round_penalties(tournament)
    rounds = list(tournament.round_set.order_by("number"))
    stages: list[Stage] = []
    eliminated: list[list[tuple[int, Player]]] = []
    ranking: list[tuple[int, Player]] = []
    for round_ in rounds:
        round_.tournament = tournament
        states = round_tables(round_=round_)
        per_table = [
            [
                (p, totals[p.pk].get(round_.number, 0) - taken[p.pk].get(round_.number, 0))
                for p in s.players
            ]
            for s in states
        ]
        field_size = sum(len(t) for t in per_table)
        final = len(states) == 1
        complete = all(s.complete for s in states)
        chosen: set[int] = set()
        if not final:
            chosen = qualify(
                per_table,
                per_table=tournament.qualifiers_per_table,
                places=next_stage_places(field_size),
            )
        tables = [
            StageTable(
                s.table.number,
                [
                    StageSeat(p, pts, p.pk in chosen)
                    for p, pts in sorted(t, key=lambda pp: (-pp[1], pp[0].label.casefold()))
                ],
            )
            for s, t in zip(states, per_table, strict=True)
        ]
        stages.append(Stage(round_.number, tables, complete, final, sorted(chosen)))
        out = [(pts, p) for t in per_table for p, pts in t if p.pk not in chosen]
        eliminated.append(sorted(out, key=lambda x: (-x[0], x[1].label.casefold())))
        if final and complete:
            order: list[Player] = [p for stage_out in reversed(eliminated) for _pts, p in stage_out]
            ranking = [(i + 1, p) for i, p in enumerate(order)]
    return Bracket(stages, ranking)


@dataclass(frozen=True)
class Repeat:
    """Two players seated together again at ``table``: the seating could not keep them apart."""

    table: int
    first: Player
    second: Player
    rounds: list[int]  # the earlier rounds where they already met


def round_repeats(*, round_: Round) -> list[Repeat]:
    """The meetings of this round that already happened in an earlier round (two queries)."""
    seats = Seat.objects.filter(
        game__tournament_table__round__tournament_id=round_.tournament_id,
        game__tournament_table__round__number__lte=round_.number,
    ).values_list(
        "game__tournament_table__round__number", "game__tournament_table__number", "player_id"
    )
    players = {
        p.pk: p
        for p in Player.objects.filter(seats__game__tournament_table__round=round_).distinct()
    }
    tables: dict[tuple[int, int], list[int]] = defaultdict(list)
    for number, table, player_id in seats:
        tables[(number, table)].append(player_id)
    met: dict[tuple[int, int], list[int]] = defaultdict(list)
    for (number, _table), ids in tables.items():
        if number < round_.number:
            for a in ids:
                for b in ids:
                    if a < b:
                        met[(a, b)].append(number)
    repeats: list[Repeat] = []
    for (number, table), ids in sorted(tables.items()):
        if number != round_.number:
            continue
        for a in sorted(ids):
            for b in sorted(ids):
                if a < b and (a, b) in met:
                    repeats.append(Repeat(table, players[a], players[b], sorted(met[(a, b)])))
    return repeats


def round_seating_quality(*, round_: Round) -> Quality:
    """How fair the seating of the rounds up to this one is, and the best any schedule of them
    could be (``seating.fairness.quality_of``; one query)."""
    seats = (
        Seat.objects.filter(
            game__tournament_table__round__tournament_id=round_.tournament_id,
            game__tournament_table__round__number__lte=round_.number,
        )
        .values_list(
            "game__tournament_table__round__number", "game__tournament_table__number", "player_id"
        )
        .order_by("game__tournament_table__round__number", "game__tournament_table__number")
    )
    rounds: dict[int, dict[int, list[int]]] = {}
    for number, table, player_id in seats:
        rounds.setdefault(number, {}).setdefault(table, []).append(player_id)
    return quality_of([list(tables.values()) for _n, tables in sorted(rounds.items())])
