"""Rating the deals onto the stored ratings, and replaying a scope: a scope is a club's id, or
None for the federation (every club's deals together). A deal's place in play order is (game
date, game id, deal number): the order ratings are computed in. A new deal played after
everyone at its table's last rated deal is rated on top of their ratings; anything else (a
correction, a deletion, a restore, a late game) replays the scope from the earliest change."""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import results_changed
from tarot_scores.games.models import Deal, Game, Seat, counting
from tarot_scores.ratings.models import PlayerRating, RatingsBehind, RatingStep
from tarot_scores.ratings.rating import CONTRACTS, RatedDeal, Rating, rate_deal

# A deal's place in play order.
Place = tuple[datetime.date, int, int]


def rated_deal(deal: Deal, seated: Iterable[int]) -> RatedDeal[int] | None:
    """A tarot deal as the rating sees it, or None for a deal that is not rated.

    The attack is the taker and the called partner (unless the taker called himself); the
    defence every other seated player but the one sitting out."""
    payload = deal.payload
    return _rated(
        deal.taker_id,
        deal.won,
        deal.margin,
        deal.contract,
        payload.get("partner"),
        payload.get("sitting_out"),
        seated,
    )


def _rated(
    taker_id: int | None,
    won: bool | None,
    margin: int | None,
    contract: str,
    partner: Any,
    sitting: Any,
    seated: Iterable[int],
) -> RatedDeal[int] | None:
    """``rated_deal`` from the deal's columns and the two payload fields it reads."""
    if taker_id is None or won is None or contract not in CONTRACTS:
        return None
    attack = [taker_id]
    if partner is not None and int(partner) != taker_id:
        attack.append(int(partner))
    out = {int(sitting)} if sitting is not None else set()
    defence = tuple(p for p in seated if p not in attack and p not in out)
    return RatedDeal(
        attack=tuple(attack),
        defence=defence,
        won=bool(won),
        margin=margin or 0,
        contract=contract,
    )


def _in_scope(club_id: int | None) -> Q:
    return Q(club_id=club_id) if club_id is not None else Q(club__isnull=True)


def _steps_from(club_id: int | None, place: Place | None) -> QuerySet[RatingStep]:
    steps = RatingStep.objects.filter(_in_scope(club_id))
    if place is None:
        return steps
    day, game_id, number = place
    return steps.filter(
        Q(played_on__gt=day)
        | Q(played_on=day, game_id__gt=game_id)
        | Q(played_on=day, game_id=game_id, number__gte=number)
    )


def _deals_from(club_id: int | None, place: Place | None) -> QuerySet[Deal]:
    # Only tarot deals have a taker and a result (the deal services leave them empty else);
    # a deal held out of the counts (contested at a tournament's table) is not rated until
    # it is released (its hold and its release each note it: ``ratings_after_deal``).
    deals = Deal.objects.filter(counting(), taker__isnull=False, won__isnull=False)
    if club_id is not None:
        deals = deals.filter(game__club_id=club_id)
    if place is not None:
        day, game_id, number = place
        deals = deals.filter(
            Q(game__date__gt=day)
            | Q(game__date=day, game_id__gt=game_id)
            | Q(game__date=day, game_id=game_id, number__gte=number)
        )
    return deals.order_by("game__date", "game_id", "number")


@dataclass(frozen=True)
class _Played:
    """Where a deal sits, as the rating log stores it: its game, number, day and season."""

    deal_id: int
    game_id: int
    number: int
    played_on: datetime.date
    season: int

    @property
    def place(self) -> Place:
        return (self.played_on, self.game_id, self.number)


def _played(deal: Deal, game: Game) -> _Played:
    return _Played(deal.pk, game.pk, deal.number, game.date, game.club.season_of(game.date))


def _rated_from(club_id: int | None, place: Place | None) -> list[tuple[_Played, RatedDeal[int]]]:
    """The live rated deals of a scope from ``place`` on, in play order, read as plain rows
    (a replay reads tens of thousands: building Deal, Game and Club objects for each, with
    their dates and whole payloads, cost more than rating them; profiled with
    bench/replay.py --profile)."""
    rows = list(
        _deals_from(club_id, place).values_list(
            "pk",
            "game_id",
            "number",
            "game__date",
            "game__club_id",
            "taker_id",
            "won",
            "margin",
            "contract",
            "payload__partner",
            "payload__sitting_out",
        )
    )
    seats: dict[int, list[int]] = {}
    for game_id, player_id in (
        Seat.objects.filter(game_id__in={row[1] for row in rows})
        .order_by("game_id", "position")
        .values_list("game_id", "player_id")
    ):
        seats.setdefault(game_id, []).append(player_id)
    clubs = Club.objects.in_bulk({row[4] for row in rows})
    seasons: dict[tuple[int, datetime.date], int] = {}
    rated = []
    for deal_id, game_id, number, day, club, taker, won, margin, contract, partner, out in rows:
        match = _rated(taker, won, margin, contract, partner, out, seats.get(game_id, []))
        if match is None:
            continue
        season = seasons.get((club, day))
        if season is None:
            season = seasons[(club, day)] = clubs[club].season_of(day)
        rated.append((_Played(deal_id, game_id, number, day, season), match))
    return rated


@dataclass(frozen=True)
class _Standing:
    """A player's rating in a scope after his last rated deal, his rated deals, and where."""

    rating: Rating
    deals: int
    place: Place


def _latest(club_id: int | None, players: set[int], before: Place) -> dict[int, _Standing]:
    """Each player's last logged rating in the scope before ``before`` (the log from there on
    is already dropped). A player whose current rating is older than that place has it as his
    last: read from his one rating row, not from his whole log (which grows with history)."""
    latest: dict[int, _Standing] = {}
    current = PlayerRating.objects.filter(_in_scope(club_id), player_id__in=players)
    columns = ("player_id", "mu", "sigma", "deals", "last_played_on", "last_game", "last_number")
    for player_id, mu, sigma, count, day, game_id, number in current.values_list(*columns):
        if (day, game_id, number) < before:
            latest[player_id] = _Standing(Rating(mu, sigma), count, (day, game_id, number))
    rest = players - latest.keys()
    if not rest:
        return latest
    steps = (
        RatingStep.objects.filter(_in_scope(club_id), player_id__in=rest)
        .order_by("player_id", "played_on", "game_id", "number")
        .values_list("player_id", "mu", "sigma", "deals", "played_on", "game_id", "number")
    )
    for player_id, mu, sigma, count, day, game_id, number in steps.iterator(chunk_size=5000):
        latest[player_id] = _Standing(Rating(mu, sigma), count, (day, game_id, number))
    return latest


# One rating step as the log stores it, in _STEP_COLUMNS' order.
Step = tuple[int | None, int, int, int, int, datetime.date, int, float, float, int]
_STEP_COLUMNS = (
    "club_id",
    "game_id",
    "deal_id",
    "player_id",
    "season",
    "played_on",
    "number",
    "mu",
    "sigma",
    "deals",
)


def _step(club_id: int | None, played: _Played, player_id: int, now: _Standing) -> Step:
    return (
        club_id,
        played.game_id,
        played.deal_id,
        player_id,
        played.season,
        played.played_on,
        played.number,
        now.rating.mu,
        now.rating.sigma,
        now.deals,
    )


def _steps_write(steps: list[Step]) -> None:
    """Add rows to the rating log: PostgreSQL's COPY, or one statement per row sent together.

    A rebuild writes four rows per deal and scope; building RatingStep models for them and
    letting bulk_create prepare each value cost more than rating the deals (profiled with
    bench/entry.py's rebuild)."""
    if not steps:
        return
    table = connection.ops.quote_name(RatingStep._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(c) for c in _STEP_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                copy.write("".join([_copy_line(step) for step in steps]))
            return
        marks = ", ".join(["%s"] * len(_STEP_COLUMNS))
        cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", steps)


def _copy_line(step: Step) -> str:
    """A log row in COPY's text format: written here, as psycopg's ``write_row`` adapting each
    value cost a replay more than this (bench/replay.py --profile). Floats as Python's shortest
    repr, which PostgreSQL reads back to the same double."""
    club_id, game_id, deal_id, player_id, season, played_on, number, mu, sigma, deals = step
    club = r"\N" if club_id is None else str(club_id)
    return (
        f"{club}\t{game_id}\t{deal_id}\t{player_id}\t{season}\t{played_on.isoformat()}\t"
        f"{number}\t{mu!r}\t{sigma!r}\t{deals}\n"
    )


def _rate(
    club_id: int | None, played: _Played, match: RatedDeal[int], state: dict[int, _Standing]
) -> list[Step]:
    """Rate one deal on top of ``state`` (changed in place); the log rows it adds."""
    before = {p: state[p].rating for p in match.players if p in state}
    place = played.place
    steps = []
    for player_id, rating in rate_deal(match, before).items():
        old = state.get(player_id)
        state[player_id] = now = _Standing(rating, (old.deals if old else 0) + 1, place)
        steps.append(_step(club_id, played, player_id, now))
    return steps


def _rating_row(club_id: int | None, player_id: int, now: _Standing) -> PlayerRating:
    day, game_id, number = now.place
    return PlayerRating(
        club_id=club_id,
        player_id=player_id,
        mu=now.rating.mu,
        sigma=now.rating.sigma,
        deals=now.deals,
        last_played_on=day,
        last_game=game_id,
        last_number=number,
    )


def ratings_from(*, club_id: int | None, place: Place | None) -> int:
    """Recompute a scope's ratings from the deal at ``place`` onward (None: from scratch).

    The log from that place on is dropped, the ratings as they stood before it are read back
    from the log, and the live tarot deals from there are rated again in play order. Returns
    the number of deals rated."""
    later = _steps_from(club_id, place)
    dropped = set(later.order_by().values_list("player_id", flat=True).distinct())
    if dropped:
        later.delete()
    rated = _rated_from(club_id, place)
    players = dropped | {p for _played, match in rated for p in match.players}
    if not players:
        return 0
    state = _latest(club_id, players, place) if place is not None else {}
    steps = []
    for played, match in rated:
        steps += _rate(club_id, played, match, state)
    _steps_write(steps)
    PlayerRating.objects.filter(_in_scope(club_id), player_id__in=players).delete()
    PlayerRating.objects.bulk_create(
        (_rating_row(club_id, p, now) for p, now in state.items() if p in players),
        batch_size=2000,
    )
    return len(rated)


def _rated_at_the_end(club_id: int | None, deal: Deal, game: Game, seated: Sequence[int]) -> bool:
    """Rate a deal on top of the scope's current ratings, if no one at the table has a rated
    deal after it (nothing later can change then); False, having written nothing, if someone
    has. The caller holds the scope (``hold_the_scope``)."""
    match = rated_deal(deal, seated)
    if match is None:
        return True
    place = (game.date, game.pk, deal.number)
    rows = list(PlayerRating.objects.filter(_in_scope(club_id), player_id__in=match.players))
    if any((r.last_played_on, r.last_game, r.last_number) >= place for r in rows):
        return False
    current = {r.player_id: r for r in rows}
    state = {p: _Standing(Rating(r.mu, r.sigma), r.deals, place) for p, r in current.items()}
    steps = _rate(club_id, _played(deal, game), match, state)
    changed: list[PlayerRating] = []
    added: list[PlayerRating] = []
    for player_id in match.players:
        row = _rating_row(club_id, player_id, state[player_id])
        if player_id in current:
            row.pk = current[player_id].pk
            changed.append(row)
        else:
            added.append(row)
    _steps_and_ratings_write(steps, changed)
    if added:
        PlayerRating.objects.bulk_create(added)
    return True


_RATING_COLUMNS = ("mu", "sigma", "deals", "last_played_on", "last_game", "last_number")


def _steps_and_ratings_write(steps: list[Step], rows: list[PlayerRating]) -> None:
    """A new deal's log rows and its players' new ratings, sent together (one round trip on
    PostgreSQL, a psycopg pipeline). Django's ``bulk_update`` built a CASE per column and row,
    which cost more than the save it follows (15 ms of Python a deal in bench/entry.py)."""
    step_table = connection.ops.quote_name(RatingStep._meta.db_table)
    step_columns = ", ".join(connection.ops.quote_name(c) for c in _STEP_COLUMNS)
    marks = ", ".join(["%s"] * len(_STEP_COLUMNS))
    table = connection.ops.quote_name(PlayerRating._meta.db_table)
    sets = ", ".join(f"{connection.ops.quote_name(c)} = %s" for c in _RATING_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            pipeline = connection.connection.pipeline()
        else:
            pipeline = contextlib.nullcontext()
        with pipeline:
            if steps:
                cursor.executemany(
                    f"INSERT INTO {step_table} ({step_columns}) VALUES ({marks})", steps
                )
            if rows:
                cursor.executemany(
                    f"UPDATE {table} SET {sets} WHERE id = %s",
                    [[*(getattr(row, c) for c in _RATING_COLUMNS), row.pk] for row in rows],
                )


# Any constant of the site's own: PostgreSQL's advisory locks are named by numbers (this one,
# and the club's id or 0 for the federation).
_RATINGS_LOCK = 0x7A207A


def hold_the_scope(club_id: int | None) -> None:
    """One ratings job at a time per scope, until its transaction ends: two jobs of one club
    (two workers), or every club's jobs in the federation, would rewrite the same rows. Only
    the jobs take it; a deal's save never waits for it. SQLite writes one transaction at a time
    anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_RATINGS_LOCK, club_id or 0])


@dataclass
class CatchUp:
    """What a ratings job did in one scope: deals rated on top of the ratings, and the replay
    (deals rated again from the earliest change), if one was needed."""

    rated: int = 0
    replays: int = 0
    replayed: int = 0


def ratings_scope_catch_up(*, club_id: int | None) -> CatchUp:
    """Bring one scope's ratings up to every deal noted behind them, in one transaction.

    The notes are read in play order. New deals at the front are rated on top of the current
    ratings, one by one, as long as no one at their table has a later rated deal; from the
    first note that is not such a deal (a correction, a deletion, a restore, a late game), the
    scope is replayed once, from that place: ten corrections are one replay, from the earliest.
    The notes read are deleted with the ratings written; a deal saved meanwhile leaves its own
    note for the next job."""
    done = CatchUp()
    with transaction.atomic():
        hold_the_scope(club_id)
        notes = list(
            RatingsBehind.objects.filter(_in_scope(club_id)).order_by(
                "played_on", "game_id_at", "number", "pk"
            )
        )
        if not notes:
            return done
        fresh = [n.deal_id for n in notes if n.new]
        deals = {
            d.pk: d
            for d in Deal.objects.filter(counting(), pk__in=fresh).select_related("game__club")
        }
        seats: dict[int, list[int]] = {}
        for game_id, player_id in (
            Seat.objects.filter(game_id__in={d.game_id for d in deals.values()})
            .order_by("game_id", "position")
            .values_list("game_id", "player_id")
        ):
            seats.setdefault(game_id, []).append(player_id)
        replay_from: Place | None = None
        for note in notes:
            deal = deals.get(note.deal_id)
            if not note.new:
                replay_from = note.place
                break
            if deal is None:  # deleted or held since: that left a note of its own
                continue
            if not _rated_at_the_end(club_id, deal, deal.game, seats.get(deal.game_id, [])):
                replay_from = note.place
                break
            done.rated += 1
        if replay_from is not None:
            done.replays = 1
            done.replayed = ratings_from(club_id=club_id, place=replay_from)
        RatingsBehind.objects.filter(pk__in=[n.pk for n in notes]).delete()
        if club_id is not None:
            # The club's player pages show the ratings, cached under the results version.
            results_changed(club_id=club_id)
    return done
