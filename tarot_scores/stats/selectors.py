"""Reads of the statistics: the leaderboard, the seasons a club has, a player's games and his
tarot statistics (contracts, partners, head-to-head, petit au bout, handfuls, slams) and his
score curve (the ratings' reads are ``tarot_scores.ratings.selectors``)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, Sum, Value, When
from django.db.models.functions import ExtractYear

from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.kinds import TAROT
from tarot_scores.games.models import Game, ScoreLine, counting
from tarot_scores.games.selectors import day_number_of
from tarot_scores.scoring import OTHER_GAMES, Contract
from tarot_scores.stats.models import (
    PlayerContract,
    PlayerFigures,
    PlayerGameTotal,
    PlayerPairing,
    PlayerSeason,
)


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
    """The player's games at this club, oldest first, with their total in each, summed from
    his score lines: what his game totals (``latest_games``) must hold (the tests and
    bench/federation.py compare them)."""
    totals = (
        ScoreLine.objects.filter(counting("deal"), player=player, deal__game__club=club)
        .values("deal__game_id")
        .annotate(total=Sum("points"), deals=Count("id"))
    )
    by_game: dict[int, dict[str, Any]] = {t["deal__game_id"]: dict(t) for t in totals}
    games = Game.objects.filter(pk__in=by_game).order_by("date", "id")
    return [PlayerGame(g, by_game[g.pk]["total"], by_game[g.pk]["deals"]) for g in games]


# Head-to-head only names an opponent met in at least this many deals in the other camp:
# one lucky deal says nothing about who a player beats.
HEAD_TO_HEAD_MIN_DEALS = 3
HEAD_TO_HEAD_SHOWN = 3
SLAMS_MADE = ("announced_made", "unannounced_made")


@dataclass(frozen=True)
class ContractStats:
    """The deals a player took with one contract."""

    contract: str
    taken: int
    won: int
    average: float  # the player's average score on those deals

    @property
    def success(self) -> float:
        return self.won / self.taken if self.taken else 0.0


@dataclass(frozen=True)
class WithPlayer:
    """Deals played with (same camp) or against (other camp) another player, and the player's
    average score in them."""

    player_id: int
    name: str
    deals: int
    average: float


@dataclass(frozen=True)
class PlayerStats:
    """A player's tarot statistics over his live deals (a club's, or every club's)."""

    deals: int  # deals played (not those he sat out)
    contracts: list[ContractStats]  # in contract order, only those taken
    taker_average: float | None
    defender_average: float | None
    partner_deals: int  # at five with a called king, deals as the called partner
    partner_won: int
    partner_average: float | None
    partners: list[WithPlayer]  # same attack (taker or partner), best average first
    best_against: list[WithPlayer]  # other camp, at least HEAD_TO_HEAD_MIN_DEALS, best first
    worst_against: list[WithPlayer]  # the others of them, worst first
    petit_made: int  # petit au bout won by the player's camp
    petit_lost: int  # petit au bout won by the other camp
    handfuls: dict[str, int]  # handfuls the player showed, by size
    slams_made: int  # every trick taken by the player's camp
    slams_failed: int  # announced by his attack and failed
    slams_against: int  # every trick taken by the other camp

    @property
    def taken(self) -> int:
        return sum(c.taken for c in self.contracts)


CONTRACT_ORDER = tuple(contract.value for contract in Contract)  # the engine's order


def _live_tarot_lines(
    *, player: Player, club: Club | None, season: int | None, clubs: QuerySet[Club] | None
) -> QuerySet[ScoreLine]:
    """The player's score lines in tarot deals that count (``games.models.counting``): joined
    straight to their deals and games (not through a list of deal ids), so PostgreSQL reads
    each deal once."""
    lines = ScoreLine.objects.filter(counting("deal"), player=player).exclude(
        deal__game__variant__in=OTHER_GAMES
    )
    if club is not None:
        lines = lines.filter(deal__game__club=club)
    if clubs is not None:
        lines = lines.filter(deal__game__club__in=clubs)
    if season is not None:
        # A season starts in the club's starting month: the same rule as Club.season_of, in SQL.
        lines = lines.annotate(
            season=ExtractYear("deal__game__date")
            - Case(
                When(
                    deal__game__date__month__lt=F("deal__game__club__season_start_month"),
                    then=Value(1),
                ),
                default=Value(0),
            )
        ).filter(season=season)
    return lines


def _average(values: list[int]) -> float | None:
    return sum(values) / len(values) if values else None


def _in_contract_order(by_contract: dict[str, tuple[int, int, int]]) -> list[ContractStats]:
    """(taken, won, points) by contract as the page lists them: the usual four in order,
    then any other."""
    return [
        ContractStats(c, taken, won, points / taken)
        for c in [*CONTRACT_ORDER, *sorted(set(by_contract) - set(CONTRACT_ORDER))]
        if c in by_contract
        for taken, won, points in [by_contract[c]]
        if taken
    ]


def _by_average(row: WithPlayer) -> tuple[float, int, str, int]:
    # The player's id last: two players of the same name and figures keep one order.
    return (-row.average, -row.deals, row.name, row.player_id)


def _partners_and_opponents(
    together: list[WithPlayer], against: list[WithPlayer]
) -> tuple[list[WithPlayer], list[WithPlayer], list[WithPlayer]]:
    """Partners best first; the opponents met often enough he scores best and worst against."""
    partners = sorted((r for r in together if r.deals), key=_by_average)
    # Best first; the worst are read from the other end of the same order, and the two lists
    # never share a player (with few opponents, the better half is "best", the rest "worst").
    met = sorted((r for r in against if r.deals >= HEAD_TO_HEAD_MIN_DEALS), key=_by_average)
    best = met[: min(HEAD_TO_HEAD_SHOWN, (len(met) + 1) // 2)]
    worst = met[::-1][: min(HEAD_TO_HEAD_SHOWN, len(met) // 2)]
    return partners, best, worst


def player_stats(
    *,
    player: Player,
    club: Club | None = None,
    season: int | None = None,
    clubs: QuerySet[Club] | None = None,
) -> PlayerStats:
    """The player's tarot statistics in three queries, whatever the number of deals: the
    contracts he took (aggregated in SQL), his score lines with their deals' columns and
    payloads (partner, sitting out, petit au bout, handfuls and slam are only in the payload),
    and who else sat at those deals. ``clubs`` keeps only those clubs' deals (the clubs a
    caller may see)."""
    lines = _live_tarot_lines(player=player, club=club, season=season, clubs=clubs)
    taken_rows = (
        lines.filter(deal__taker=player)
        .values("deal__contract")
        .annotate(
            taken=Count("id"), won=Count("id", filter=Q(deal__won=True)), points=Sum("points")
        )
    )
    contracts = _in_contract_order(
        {r["deal__contract"]: (r["taken"], r["won"], r["points"]) for r in taken_rows}
    )
    mine = list(
        lines.values_list("deal_id", "points", "deal__taker_id", "deal__won", "deal__payload")
    )
    others: dict[int, list[int]] = defaultdict(list)
    names: dict[int, str] = {}
    for deal_id, other_id, name, nickname in (
        ScoreLine.objects.filter(deal__in=lines.values("deal_id"))
        .exclude(player=player)
        .values_list("deal_id", "player_id", "player__name", "player__nickname")
    ):
        others[deal_id].append(other_id)
        names[other_id] = nickname or name

    me = player.pk
    played = 0
    as_taker: list[int] = []
    as_defender: list[int] = []
    as_partner: list[int] = []
    partner_won = 0
    together: dict[int, list[int]] = defaultdict(list)
    against: dict[int, list[int]] = defaultdict(list)
    petit_made = petit_lost = 0
    handfuls: dict[str, int] = {}
    slams_made = slams_failed = slams_against = 0
    for deal_id, points, taker_id, won, payload in mine:
        sitting_out = payload.get("sitting_out")
        if sitting_out == me:
            continue
        played += 1
        partner = payload.get("partner")
        # A taker who called his own king plays alone.
        attack = {taker_id} | ({partner} if partner not in (None, taker_id) else set())
        seated = [p for p in others[deal_id] if p != sitting_out]
        in_attack = me in attack
        if me == taker_id:
            as_taker.append(points)
        elif in_attack:
            as_partner.append(points)
            partner_won += bool(won)
        else:
            as_defender.append(points)
        for other in seated:
            if (other in attack) == in_attack:
                if in_attack:
                    together[other].append(points)
            else:
                against[other].append(points)
        side = "attack" if in_attack else "defense"
        petit = payload.get("petit_au_bout")
        if petit:
            if petit == side:
                petit_made += 1
            else:
                petit_lost += 1
        for handful in payload.get("handfuls") or ():
            if handful.get("player") == me:
                size = str(handful.get("size"))
                handfuls[size] = handfuls.get(size, 0) + 1
        slam = payload.get("slam")
        if slam in SLAMS_MADE:
            if in_attack:
                slams_made += 1
            else:
                slams_against += 1
        elif slam == "defense":
            if in_attack:
                slams_against += 1
            else:
                slams_made += 1
        elif slam == "announced_failed" and in_attack:
            slams_failed += 1

    def rows(scores: dict[int, list[int]]) -> list[WithPlayer]:
        return [WithPlayer(p, names[p], len(s), sum(s) / len(s)) for p, s in scores.items()]

    partners, best, worst = _partners_and_opponents(rows(together), rows(against))
    return PlayerStats(
        deals=played,
        contracts=contracts,
        taker_average=_average(as_taker),
        defender_average=_average(as_defender),
        partner_deals=len(as_partner),
        partner_won=partner_won,
        partner_average=_average(as_partner),
        partners=partners,
        best_against=best,
        worst_against=worst,
        petit_made=petit_made,
        petit_lost=petit_lost,
        handfuls=handfuls,
        slams_made=slams_made,
        slams_failed=slams_failed,
        slams_against=slams_against,
    )


def player_figures(*, player: Player, club: Club) -> PlayerStats:
    """The same statistics as ``player_stats`` over the player's deals at one club, read from
    the rows the deal services keep (``stats.figures``): three queries of his own rows (his
    figures, his contracts, the players he met), whatever the deals he played."""
    row = PlayerFigures.objects.filter(club=club, player=player).first()
    if row is None:
        row = PlayerFigures(club=club, player=player)
    contracts = _in_contract_order(
        {
            contract: (taken, won, points)
            for contract, taken, won, points in PlayerContract.objects.filter(
                club=club, player=player, taken__gt=0
            ).values_list("contract", "taken", "won", "points")
        }
    )
    together: list[WithPlayer] = []
    against: list[WithPlayer] = []
    for other, name, nickname, with_deals, with_points, met_deals, met_points in (
        PlayerPairing.objects.filter(club=club, player=player)
        .filter(Q(together_deals__gt=0) | Q(against_deals__gt=0))
        .values_list(
            "other_id",
            "other__name",
            "other__nickname",
            "together_deals",
            "together_points",
            "against_deals",
            "against_points",
        )
    ):
        if with_deals:
            together.append(
                WithPlayer(other, nickname or name, with_deals, with_points / with_deals)
            )
        if met_deals:
            against.append(WithPlayer(other, nickname or name, met_deals, met_points / met_deals))
    partners, best, worst = _partners_and_opponents(together, against)
    handfuls = {
        "simple": row.handfuls_simple,
        "double": row.handfuls_double,
        "triple": row.handfuls_triple,
    }

    def average(points: int, deals: int) -> float | None:
        return points / deals if deals else None

    return PlayerStats(
        deals=row.deals,
        contracts=contracts,
        taker_average=average(row.taker_points, row.taker_deals),
        defender_average=average(row.defender_points, row.defender_deals),
        partner_deals=row.partner_deals,
        partner_won=row.partner_won,
        partner_average=average(row.partner_points, row.partner_deals),
        partners=partners,
        best_against=best,
        worst_against=worst,
        petit_made=row.petit_made,
        petit_lost=row.petit_lost,
        handfuls={size: count for size, count in handfuls.items() if count},
        slams_made=row.slams_made,
        slams_failed=row.slams_failed,
        slams_against=row.slams_against,
    )


# The page lists a player's latest games only; the curves draw at most this many points
# (charts.MAX_POINTS: more would draw the same line), read newest first with a limit.
GAMES_SHOWN = 20
CURVE_POINTS = 160


def latest_games(*, club: Club, player: Player, most: int = GAMES_SHOWN) -> list[PlayerGame]:
    """The player's latest games at this club (every kind), newest first, with his total and
    score lines in each: at most ``most`` rows of his game totals, by index."""
    rows = (
        PlayerGameTotal.objects.filter(club=club, player=player, deals__gt=0)
        .select_related("game")
        # Two games of one day are told apart by their title's number.
        .annotate(game_day_number=day_number_of("game"))
        .order_by("-played_on", "-game_id")[:most]
    )
    out = []
    for row in rows:
        row.game.day_number = row.game_day_number  # type: ignore[attr-defined]
        out.append(PlayerGame(row.game, row.total, row.deals))
    return out


@dataclass(frozen=True)
class ScorePoint:
    played_on: Any
    total: int  # the player's tarot total at the club after this game


def score_curve(*, club: Club, player: Player, most: int = CURVE_POINTS) -> list[ScorePoint]:
    """His cumulative tarot total at the club after each of his latest ``most`` tarot games,
    oldest first. The totals are counted back from his whole total (his figures' row), so a
    long career reads ``most`` rows, not every game."""
    rows = list(
        PlayerGameTotal.objects.filter(club=club, player=player, kind=TAROT, deals__gt=0)
        .order_by("-played_on", "-game_id")
        .values_list("played_on", "total")[:most]
    )
    if len(rows) < most:
        running = sum(total for _day, total in rows)
    else:
        running = (
            PlayerFigures.objects.filter(club=club, player=player)
            .values_list("points", flat=True)
            .first()
        ) or 0
    out = []
    for day, total in rows:
        out.append(ScorePoint(day, running))
        running -= total
    return out[::-1]
