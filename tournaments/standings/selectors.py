"""Tournament reads: live standings with their tie-breaks, team standings, table progress and
knockout brackets. Each is a fixed number of queries, whatever the number of deals: the
standings read the rows ``tournaments.standings.store`` keeps in step."""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery, Sum, Window
from django.db.models.functions import Rank

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import ScoreLine, Seat
from tournaments.models import (
    Cut,
    DealConfirmation,
    Entry,
    Penalty,
    Round,
    Standing,
    Tournament,
)
from tournaments.people.selectors import bye_points, replaced_rounds
from tournaments.ranking import (
    RANKING_COLUMNS,
    CutLine,
    RankingKey,
    StandingRow,
    cell,
    counted_from,
    ranked,
    ranking_key,
    stage_cells,
    tie_breaks,
)
from tournaments.rules import counted

Confirmation = DealConfirmation.Status


def round_totals(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, dict[int, int]]:
    """player id -> round number -> points, from the live score lines (one query)."""
    rows = ScoreLine.objects.filter(
        counted(tournament, "deal__"),
        deal__game__tournament_table__round__tournament=tournament,
    )
    if player_ids is not None:
        rows = rows.filter(player_id__in=player_ids)
    totals: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, number, points in rows.values_list(
        "player_id", "deal__game__tournament_table__round__number"
    ).annotate(points=Sum("points")):
        totals[player_id][number] = points
    return totals


def round_penalties(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, dict[int, int]]:
    """player id -> round number -> the points the live penalties take off (one query)."""
    rows = Penalty.objects.filter(tournament=tournament, removed_at__isnull=True)
    if player_ids is not None:
        rows = rows.filter(entry__player_id__in=player_ids)
    taken: dict[int, dict[int, int]] = defaultdict(dict)
    for player_id, number, points in (
        rows.values_list("entry__player_id", "round__number")
        .annotate(points=Sum("points"))
        .order_by()
    ):
        taken[player_id][number] = points
    return taken


def seated_rounds(
    tournament: Tournament, player_ids: Collection[int] | None = None
) -> dict[int, set[int]]:
    """player id -> the rounds they were seated in (one query)."""
    seats = Seat.objects.filter(game__tournament_table__round__tournament=tournament)
    if player_ids is not None:
        seats = seats.filter(player_id__in=player_ids)
    seated: dict[int, set[int]] = defaultdict(set)
    for player_id, number in seats.values_list(
        "player_id", "game__tournament_table__round__number"
    ):
        seated[player_id].add(number)
    return seated


def series_or_overall(asked: str | None) -> str:
    """The series a reader asked for (``?series=s1``), or "" (the overall standings) for none
    and for any value that is not a series: a made-up value is the overall ranking."""
    return asked if asked in Entry.Series.values else ""


def series_present(*, tournament: Tournament) -> list[tuple[str, str]]:
    """The series (value, label) of the players the standings rank, in the federation's order
    (one query)."""
    present = set(
        Standing.objects.filter(tournament=tournament)
        .exclude(entry__series="")
        .values_list("entry__series", flat=True)
        .distinct()
    )
    return [(value, str(label)) for value, label in Entry.Series.choices if value in present]


def _stored(tournament: Tournament, series: str, substitutes: bool = False) -> QuerySet[Standing]:
    # Substitutes are ranked apart, never among the tournament's players.
    stored = Standing.objects.filter(
        tournament=tournament, entry__substitute_for__isnull=not substitutes
    )
    return stored.filter(entry__series=series) if series else stored


def _rounds_cuts_and_byes(
    tournament: Tournament,
) -> tuple[list[int], list[CutLine], dict[int, tuple[int, ...]]]:
    """The round numbers, the live cuts made after them, and player id -> the places (in those
    rounds) of his byes: one query, the byes joined to their rounds."""
    live = Cut.objects.filter(
        tournament_id=OuterRef("tournament_id"),
        after_round=OuterRef("number"),
        undone_at__isnull=True,
    )
    rows = (
        tournament.round_set.order_by("number")
        .annotate(
            cut_keep=Subquery(live.values("keep")[:1]),
            cut_carry=Subquery(live.values("carry")[:1]),
        )
        .values_list("number", "cut_keep", "cut_carry", "byes__entry__player_id")
    )
    numbers: list[int] = []
    cuts: list[CutLine] = []
    byes: dict[int, list[int]] = defaultdict(list)
    for number, keep, carry, pid in rows:
        if not numbers or numbers[-1] != number:
            numbers.append(number)
            if keep is not None:
                cuts.append(CutLine(number, keep, bool(carry)))
        if pid is not None:
            byes[pid].append(len(numbers) - 1)
    return numbers, cuts, {pid: tuple(places) for pid, places in byes.items()}


def standings_for(
    *, tournament: Tournament, series: str = "", substitutes: bool = False
) -> list[StandingRow]:
    """Every registered player who has been seated, ranked; equal keys share a rank. With a
    ``series`` (a valid one: ``series_or_overall``), only that series' players, ranked among
    themselves (1..n, ties as overall). ``substitutes``: the substitutes instead, ranked among
    themselves (they are never in the main ranking). After a championship's cuts
    (``tournaments.standings.cuts``) the players still in come first, then those cut after the
    latest
    round, and so on back, each group in its order at its cut; a cut that did not carry the
    scores over leaves the rounds before it out of its qualified players' totals (and
    tie-breaks). Read from the stored standings (``tournaments.standings.store``): two queries,
    whatever the number of deals."""
    numbers, cuts, byes = _rounds_cuts_and_byes(tournament)
    rounds = [str(n) for n in numbers]
    # Plain values, one Player (its id and names only) a row: building the standing, entry and
    # team instances too cost most of a 1,000-player page (docs/performance.md).
    stored = _stored(tournament, series, substitutes).values_list(
        "total",
        "best_round",
        "last_round",
        "rounds",
        "penalties",
        "player_id",
        "player__name",
        "player__nickname",
        "entry__team__name",
        "entry__cut_after",
    )
    rows: list[tuple[RankingKey, StandingRow]] = []
    for total, best, last, per_round, penalties, pid, name, nickname, team, out in stored:
        player = Player.from_db("default", _PLAYER_FIELDS, (pid, name, nickname))
        first = counted_from(cuts, out) if cuts else 1
        if first > 1:  # a cut restarted the scores: the stage's rounds only
            total, best, last = stage_cells(per_round, numbers, first)
        key = ranking_key(total, best, last, nickname or name, out)
        cells = [per_round.get(n) for n in rounds]
        row = StandingRow(
            0, player, total, cells, team or "", penalties, out, first, byes.get(pid, ())
        )
        rows.append((key, row))
    return ranked(rows)


_PLAYER_FIELDS = ["id", "name", "nickname"]


@dataclass(frozen=True)
class CutSummary:
    """What a standings page says about a championship's cuts, read from its rows (no query)."""

    cut_after: list[int]  # the rounds after which players were cut, in order
    counted_from: int  # the first round the totals of the players still in count (1: all)

    def __bool__(self) -> bool:
        return bool(self.cut_after) or self.counted_from > 1

    @property
    def stage(self) -> int:
        """The stage (session) the players still in are at: 1 before the first cut."""
        return len(self.cut_after) + 1


def cut_summary_of(lines: list[CutLine]) -> CutSummary:
    """The same, read from the tournament's live cuts rather than its rows."""
    return CutSummary([c.after_round for c in lines], counted_from(lines, None))


def cut_summary(rows: list[StandingRow]) -> CutSummary:
    cut_after = sorted({r.eliminated_after for r in rows if r.eliminated_after is not None})
    still_in = [r.counted_from for r in rows if r.eliminated_after is None]
    return CutSummary(cut_after, max(still_in, default=1))


def standings_from_score_lines(*, tournament: Tournament) -> list[StandingRow]:
    """The same standings computed from every score line of the tournament: what the stored
    standings must always equal (the rebuild and the tests read it; its cost grows with the
    deals)."""

    totals = round_totals(tournament)
    seated = seated_rounds(tournament)
    taken = round_penalties(tournament)
    rounds, cuts, places = _rounds_cuts_and_byes(tournament)
    byes = bye_points(tournament)
    for pid, numbers in [*replaced_rounds(tournament).items(), *byes.items()]:
        seated[pid] = seated.get(pid, set()) | set(numbers)
    entries = Entry.objects.filter(
        tournament=tournament, substitute_for__isnull=True
    ).select_related("player", "team")
    rows: list[tuple[RankingKey, StandingRow]] = []
    for entry in entries:
        pid = entry.player_id
        if pid not in seated:
            continue
        mine = taken.get(pid, {})
        bye = byes.get(pid, {})
        per_round = [
            cell(totals[pid].get(n, 0), bye.get(n, 0), mine.get(n, 0)) if n in seated[pid] else None
            for n in rounds
        ]
        out = entry.cut_after
        first = counted_from(cuts, out)
        stage = [v if n >= first else None for n, v in zip(rounds, per_round, strict=True)]
        total, best, last = tie_breaks(stage)
        key = ranking_key(total, best, last, entry.player.label, out)
        team = entry.team.name if entry.team else ""
        penalties = sum(mine.get(n, 0) for n in seated[pid])
        row = StandingRow(
            0, entry.player, total, per_round, team, penalties, out, first, places.get(pid, ())
        )
        rows.append((key, row))
    return ranked(rows)


# The database orders on the ranking's numeric keys (``ranking.RANKING_COLUMNS``).
_RANKING_ORDER = [F(column).desc() for column in RANKING_COLUMNS]


def standings_slice(
    *, tournament: Tournament, series: str = "", first: int, size: int
) -> list[StandingRow]:
    """``standings_for(...)[first:first + size]``, the database doing the paging (two queries):
    see ``standings_slice_and_cuts``."""
    return standings_slice_and_cuts(tournament=tournament, series=series, first=first, size=size)[0]


def standings_slice_and_cuts(
    *, tournament: Tournament, series: str = "", first: int, size: int
) -> tuple[list[StandingRow], list[CutLine]]:
    """``standings_for(...)[first:first + size]``, the database doing the paging: a page costs
    the same whatever the number of players (two queries).

    The database ranks on the numeric keys (``RANK()``: the place of a group of equal players,
    and a running count: the place of its last), and returns only the groups that reach into
    the page; the name orders each group here, as ``standings_for`` does (Python's casefold,
    not the database's collation), so the page is the same rows in the same order. After a
    championship's cut the ranking has groups and stage totals the stored columns do not hold:
    it is then ``standings_for``'s, sliced. With the page, the tournament's live cuts (read in
    the same query as the rounds), for what the page says of them (``cut_summary_of``)."""
    numbers, cuts, byes = _rounds_cuts_and_byes(tournament)
    if cuts:
        return standings_for(tournament=tournament, series=series)[first : first + size], cuts
    rounds = [str(n) for n in numbers]
    placed = _stored(tournament, series).annotate(
        place=Window(Rank(), order_by=_RANKING_ORDER),
        reach=Window(Count("pk"), order_by=_RANKING_ORDER),  # peers included: the group's last
    )
    stored = placed.filter(place__lte=first + size, reach__gt=first).values_list(
        "place",
        "total",
        "best_round",
        "last_round",
        "rounds",
        "penalties",
        "player_id",
        "player__name",
        "player__nickname",
        "entry__team__name",
    )
    rows: list[tuple[RankingKey, int, StandingRow]] = []
    for place, total, best, last, per_round, penalties, pid, name, nickname, team in stored:
        player = Player.from_db("default", _PLAYER_FIELDS, (pid, name, nickname))
        key = ranking_key(total, best, last, nickname or name)
        cells = [per_round.get(n) for n in rounds]
        row = StandingRow(
            place, player, total, cells, team or "", penalties, byes=byes.get(pid, ())
        )
        rows.append((key, place, row))
    if not rows:
        return [], cuts
    rows.sort(key=lambda kpr: (kpr[0], kpr[2].player.pk))  # as ranking.ranked
    start = first - (rows[0][1] - 1)  # the first group read begins at its place
    return [row for _key, _place, row in rows[start : start + size]], cuts


@dataclass(frozen=True)
class StandingsSummary:
    """What a page of the standings shows about the whole ranking besides its rows."""

    count: int  # players ranked
    has_teams: bool  # someone plays in a team
    has_penalties: bool  # someone lost points to a penalty


def standings_summary(*, tournament: Tournament, series: str = "") -> StandingsSummary:
    """The players the standings (of that series, if any) rank, and whether any has a team or
    a penalty (one query)."""
    counts = _stored(tournament, series).aggregate(
        count=Count("pk"),
        teams=Count("pk", filter=Q(entry__team__isnull=False)),
        penalised=Count("pk", filter=Q(penalties__gt=0)),
    )
    return StandingsSummary(counts["count"], counts["teams"] > 0, counts["penalised"] > 0)


def standings_count(*, tournament: Tournament, series: str = "") -> int:
    """How many players the standings (of that series, if any) rank: for the whole ranking, the
    count the store keeps on the tournament (``Tournament.ranked_players``, as ``tournament``
    was read: no query); one query for a series."""
    if not series:
        return tournament.ranked_players
    return _stored(tournament, series).count()


def _folded(text: str) -> str:
    """For finding a name as people type it: no case, no accents ("chloe" finds "Chloé")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


@dataclass(frozen=True)
class StandingsPage:
    """One page of the standings, and what a search found: ``found`` are the players whose
    name holds the words typed (best ranked first), ``highlight`` the one shown, whose page
    this is."""

    rows: list[StandingRow]
    number: int
    pages: int
    first: int  # the place of the page's first row in the whole ranking, from 0
    query: str = ""
    found: list[StandingRow] = field(default_factory=list)
    highlight: int | None = None  # a player id

    @property
    def searched(self) -> bool:
        return bool(self.query)


def standings_page(
    rows: list[StandingRow],
    *,
    size: int,
    number: int | None = None,
    query: str = "",
    player: int | None = None,
) -> StandingsPage:
    """The page of ``size`` rows to show: the one holding ``player`` (a found player's link),
    else the one holding the best ranked player whose name holds ``query``, else page
    ``number`` (the first if none, the last if beyond it). Pure: the rows are the caller's."""
    pages = max(1, -(-len(rows) // size))
    wanted = _folded(query)
    found = (
        [r for r in rows if wanted in _folded(f"{r.player.label}\n{r.player.name}")]
        if wanted
        else []
    )
    places = {r.player.pk: i for i, r in enumerate(rows)}
    highlight = player if player in places else (found[0].player.pk if found else None)
    if highlight is not None:
        number = places[highlight] // size + 1
    number = min(max(number or 1, 1), pages)
    first = (number - 1) * size
    return StandingsPage(
        rows[first : first + size], number, pages, first, query.strip(), found, highlight
    )


@dataclass(frozen=True)
class TeamRow:
    rank: int
    name: str
    total: int
    members: list[str]


def team_standings_for(
    *, tournament: Tournament, rows: list[StandingRow] | None = None
) -> list[TeamRow]:
    """A team's total is the sum of its members' totals. ``rows``: the standings, when the
    caller has them already."""
    teams: dict[str, list[StandingRow]] = defaultdict(list)
    for row in rows if rows is not None else standings_for(tournament=tournament):
        if row.team:
            teams[row.team].append(row)
    ordered = sorted(teams.items(), key=lambda t: (-sum(r.total for r in t[1]), t[0].casefold()))
    out: list[TeamRow] = []
    for i, (name, rows) in enumerate(ordered):
        total = sum(r.total for r in rows)
        rank = out[-1].rank if out and out[-1].total == total else i + 1
        out.append(TeamRow(rank, name, total, [r.player.label for r in rows]))
    return out


# --- confirmation at the table -----------------------------------------------------------------


# --- knockout ----------------------------------------------------------------------------------


# --- penalties ---------------------------------------------------------------------------------


def penalties_for(
    *, tournament: Tournament, round_: Round | None = None, live_only: bool = False
) -> list[Penalty]:
    """The tournament's penalties (a round's, the live ones only, if asked), removed ones
    included otherwise: their history, in round order (one query)."""
    rows = Penalty.objects.filter(tournament=tournament).select_related(
        "entry__player", "round", "deal", "given_by", "removed_by"
    )
    if round_ is not None:
        rows = rows.filter(round=round_)
    if live_only:
        rows = rows.filter(removed_at__isnull=True)
    return list(rows)
