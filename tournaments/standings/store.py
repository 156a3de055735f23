"""The stored standings (``Standing``): each seated player's points per round, their total and
the tie-breaks, kept in step inside the transaction of whatever changes what counts.

A player sits at one table per round, so a round's points of a player are the counted score
lines of that one table: a change recomputes just those cells (the table's players, one round)
from the table's few deals, never the whole tournament. What changes them:

- a deal entered, corrected, deleted or restored (``standings_after_deal``, the deal hook's
  step after the confirmation's, so that it counts the deal as it now stands);
- a deal confirmed, disputed or settled where the tournament requires confirmation (only
  confirmed deals count: ``confirmations`` calls ``standings_refresh``);
- a round seated (its players get the round, at 0) and a swap before its first deal;
- a penalty given or removed (``tournaments.play.penalties``): a penalty lowers the player's points
  in its round, so a round's cell is its counted score lines minus its live penalties, and the
  total and the tie-breaks read the cells as always; ``Standing.penalties`` keeps their sum.

A bye (``tournaments.people``) is a round's cell too, at the bye's points; a player a
substitute replaced keeps his cell of that round (the deals before), though no longer seated.

Closing a round, reopening a table's game, a check-in or a withdrawal change nothing that
counts. ``standings_rebuild`` (``manage.py rebuild_standings``) recomputes every row from the
score lines, as ``selectors.standings_from_score_lines`` does at each read.

The tournament keeps the count of players its standings rank (``Tournament.ranked_players``),
moved here where rows are made or removed: every poll of the projector needs it, and counting
the rows there each time would cost a join per poll.

Each of these writes, and a round closed or a cut made or undone, notes a ``StandingsChange``
(``standings_changed``): the tournament's standings take their place in the change feed.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

from django.db import transaction
from django.db.models import F, Q, Sum

from tarot_scores.core import feed
from tarot_scores.core.results import results_changed
from tarot_scores.games.models import ScoreLine, Seat
from tournaments.models import (
    Entry,
    Round,
    Standing,
    StandingsChange,
    Substitution,
    Table,
    Tournament,
)
from tournaments.people.selectors import bye_points, present_in_round, replaced_rounds
from tournaments.ranking import cell, tie_breaks
from tournaments.rules import counted
from tournaments.standings.selectors import round_penalties, round_totals, seated_rounds
from tournaments.webhooks import standings_changed_announce


def _fill(standing: Standing, cells: dict[int, int], penalties: int = 0) -> None:
    """Set a row from its rounds (number -> points, penalties taken off already) and the sum
    of its live penalties: the total and the tie-break columns."""
    ordered = sorted(cells.items())
    standing.penalties = penalties
    standing.rounds = {str(number): points for number, points in ordered}
    standing.total, standing.best_round, standing.last_round = tie_breaks(
        points for _n, points in ordered
    )


def _cells(standing: Standing) -> dict[int, int]:
    return {int(number): points for number, points in standing.rounds.items()}


def _round_points(round_: Round, player_ids: Collection[int]) -> dict[int, int]:
    """The players' counted points in this round, before penalties (one query over the
    round's score lines)."""

    lines = (
        ScoreLine.objects.filter(
            counted(round_.tournament, "deal__"),
            deal__game__tournament_table__round=round_,
            player_id__in=player_ids,
        )
        .values_list("player_id")
        .annotate(points=Sum("points"))
    )
    return dict(lines)


Computed = dict[int, tuple[dict[int, int], int]]


def _computed(tournament: Tournament, player_ids: Collection[int] | None = None) -> Computed:
    """player id -> (round number -> points, penalties taken off, for every round each was
    seated in; the sum of the live penalties), from the seats, score lines and penalties (the
    rebuild's reading; three queries)."""

    seated = seated_rounds(tournament, player_ids)
    totals = round_totals(tournament, player_ids)
    penalties = round_penalties(tournament, player_ids)
    byes = bye_points(tournament, player_ids)
    for pid, numbers in [*replaced_rounds(tournament, player_ids).items(), *byes.items()]:
        seated[pid] = seated.get(pid, set()) | set(numbers)
    out: Computed = {}
    for pid, numbers in seated.items():
        taken = penalties.get(pid, {})
        bye = byes.get(pid, {})
        cells = {
            n: cell(totals.get(pid, {}).get(n, 0), bye.get(n, 0), taken.get(n, 0))
            for n in sorted(numbers)
        }
        out[pid] = (cells, sum(taken.get(n, 0) for n in numbers))
    return out


def _created(
    tournament: Tournament,
    player_ids: Iterable[int],
    cells: Computed | None = None,
) -> list[Standing]:
    """New rows, from the score lines (``cells`` when the caller has read them), for registered
    players seated but without one yet."""
    wanted = set(player_ids)
    entries = {
        e.player_id: e for e in Entry.objects.filter(tournament=tournament, player_id__in=wanted)
    }
    if cells is None:
        cells = _computed(tournament, list(entries))
    rows = []
    for pid, entry in entries.items():
        if pid in cells:
            row = Standing(tournament=tournament, entry=entry, player_id=pid)
            _fill(row, *cells[pid])
            rows.append(row)
    created = Standing.objects.bulk_create(rows)
    _ranked_moved(tournament, sum(1 for r in created if r.entry.substitute_for_id is None))
    return created


def _ranked_moved(tournament: Tournament, delta: int) -> None:
    """Rows of ranked players (substitutes apart) were made (``delta`` > 0) or removed: the
    tournament's stored count follows, in the same transaction (an increment: two writers
    never lose each other's)."""
    if delta:
        Tournament.objects.filter(pk=tournament.pk).update(
            ranked_players=F("ranked_players") + delta
        )
        tournament.ranked_players += delta


def standings_changed(*, tournament: Tournament, round_closed: bool = False) -> None:
    """The tournament's standings changed in this transaction: the one place that says so. Noted
    for the change feed (``core.feed``: a row added, never one updated, so the tables of a
    festival writing at once take no lock in common for it), announced to its webhooks (once,
    however many changes this transaction makes: ``tournaments.webhooks``), and the club's
    results version bumped (``core.results``, once a transaction too): the pages and polls
    that show the standings follow from here, and no caller bumps it beside.

    The feed reads a tournament's latest change only, so the rows before it say nothing more
    (a reader behind them is served the tournament at its latest). They are deleted when a round
    closes (``round_closed``: once a round, under the round's lock), not at each deal, where
    two tables deleting the same rows would wait on each other: a tournament keeps at most one
    round's changes."""
    position = feed.next_stamp()
    StandingsChange.objects.create(tournament_id=tournament.pk, **position.fields())
    if round_closed:
        StandingsChange.objects.filter(
            Q(feed_xact__lt=position.xact) | Q(feed_xact=position.xact, feed_seq__lt=position.seq),
            tournament_id=tournament.pk,
        ).delete()
    standings_changed_announce(tournament)
    results_changed(club_id=tournament.club_id)


def standings_refresh(
    *, round_: Round, player_ids: Sequence[int], seated: Collection[int] | None = None
) -> None:
    """Recompute these players' points in this round, in the caller's transaction. ``seated``:
    those of them seated in the round, when the caller knows it (the deal hook does)."""
    tournament = round_.tournament
    ids = sorted(set(player_ids))
    if not ids:
        return
    byes: dict[int, int] = {}
    if seated is None:
        seated = set(
            Seat.objects.filter(
                game__tournament_table__round=round_, player_id__in=ids
            ).values_list("player_id", flat=True)
        )
        # The deal hook's players are all seated: byes and replaced players only come here.
        byes, replaced = present_in_round(round_, ids)
        seated = seated | set(byes) | replaced

    points = _round_points(round_, ids)
    # Every round's penalties of these players: the row's penalty column stays their sum.
    taken = round_penalties(tournament, ids)
    # Locked in id order: two tables writing at once never wait on each other in a cycle.
    rows = {
        s.player_id: s
        for s in Standing.objects.select_for_update()
        .filter(tournament=tournament, player_id__in=ids)
        .order_by("pk")
    }
    changed: list[Standing] = []
    gone: list[int] = []
    for pid, row in rows.items():
        cells = _cells(row)
        mine = taken.get(pid, {})
        if pid in seated:
            cells[round_.number] = cell(
                points.get(pid, 0), byes.get(pid, 0), mine.get(round_.number, 0)
            )
        else:
            cells.pop(round_.number, None)
        if not cells:
            gone.append(row.pk)
            continue
        _fill(row, cells, sum(mine.get(n, 0) for n in cells))
        changed.append(row)
    for row in changed:
        # One UPDATE a row: bulk_update's CASE per column and row costs more for a table's few
        # players (docs/performance.md).
        Standing.objects.filter(pk=row.pk).update(
            rounds=row.rounds,
            total=row.total,
            penalties=row.penalties,
            best_round=row.best_round,
            last_round=row.last_round,
        )
    if gone:
        removed = Standing.objects.filter(pk__in=gone)
        _ranked_moved(tournament, -removed.filter(entry__substitute_for__isnull=True).count())
        removed.delete()
    missing = [pid for pid in ids if pid in seated and pid not in rows]
    if missing:
        _created(tournament, missing)
    standings_changed(tournament=tournament)


def standings_after_deal(*, table: Table, seated: Sequence[int]) -> None:
    """A deal of this table changed (the deal hook's second step, ``tournaments.play.deal``):
    recompute its players' points in its round. ``table`` as the hook read it, with
    ``replaced``, the count of its substitutions."""
    standings_refresh(round_=table.round, player_ids=seated, seated=set(seated))
    if getattr(table, "replaced", 1):  # the hook counted its substitutions (unknown: look)
        # A deal from before a substitution may hold the replaced player's score lines.

        gone = Substitution.objects.filter(table=table).values_list(
            "replaced__player_id", flat=True
        )
        standings_refresh(round_=table.round, player_ids=list(gone))


def standings_after_table_change(*, game_id: int) -> None:
    """What counts at a table changed without a deal write (a confirmation, a dispute)."""
    table = Table.objects.filter(game_id=game_id).select_related("round__tournament").first()
    if table is None:
        return
    players = list(Seat.objects.filter(game_id=game_id).values_list("player_id", flat=True))
    standings_refresh(round_=table.round, player_ids=players, seated=set(players))


@transaction.atomic
def standings_rebuild(*, tournament: Tournament) -> int:
    """Recompute the tournament's standings from its seats and score lines; returns the rows."""
    Standing.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(ranked_players=0)
    tournament.ranked_players = 0
    cells = _computed(tournament)
    rows = len(_created(tournament, cells, cells))
    standings_changed(tournament=tournament)
    return rows
