"""A club's records, over one season or every season: the best deal (the highest score line),
the best evening (a player's points over one date's games) and the longest winning run (deals in
a row, in play order, where a player scored above zero).

Read from the live score lines of the club's games of one game kind; ties go to whoever set the
record first in play order, then to the name.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, F, QuerySet, Sum
from django.utils import formats
from django.utils.translation import ngettext

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.kinds import TAROT
from tarot_scores.games.models import ScoreLine, counting


@dataclass(frozen=True)
class BestDeal:
    """The highest single score line: ``number`` is the deal's number in its game."""

    player_id: int
    name: str
    points: int
    game_id: int
    date: datetime.date
    number: int


@dataclass(frozen=True)
class BestEvening:
    """The highest sum of one player's points over the games of one date."""

    player_id: int
    name: str
    points: int
    date: datetime.date
    deals: int


@dataclass(frozen=True)
class WinningRun:
    """The most deals in a row, in play order (date, game, number), scored above zero."""

    player_id: int
    name: str
    deals: int
    first: datetime.date
    last: datetime.date

    def in_words(self) -> str:
        """The run in a sentence, for the records page and the season report: "from 2 to 9
        December" as two dates, or one date when the run was played in one day (never "from
        2 December to 2 December")."""
        first = formats.date_format(self.first, "DATE_FORMAT")
        if self.first == self.last:
            return ngettext(
                "%(name)s: %(deals)s deal in a row scored above zero (on %(date)s)",
                "%(name)s: %(deals)s deals in a row scored above zero (on %(date)s)",
                self.deals,
            ) % {"name": self.name, "deals": self.deals, "date": first}
        return ngettext(
            "%(name)s: %(deals)s deal in a row scored above zero (%(first)s to %(last)s)",
            "%(name)s: %(deals)s deals in a row scored above zero (%(first)s to %(last)s)",
            self.deals,
        ) % {
            "name": self.name,
            "deals": self.deals,
            "first": first,
            "last": formats.date_format(self.last, "DATE_FORMAT"),
        }


@dataclass(frozen=True)
class ClubRecords:
    best_deal: BestDeal | None
    best_evening: BestEvening | None
    longest_run: WinningRun | None

    @property
    def empty(self) -> bool:
        return self.best_deal is None


def season_dates(club: Club, season: int) -> tuple[datetime.date, datetime.date]:
    """The first day of a season and the first day of the next."""
    month = club.season_start_month
    return datetime.date(season, month, 1), datetime.date(season + 1, month, 1)


def _lines(club: Club, season: int | None, kind: str) -> QuerySet[ScoreLine]:
    lines = ScoreLine.objects.filter(counting("deal"), deal__game__club=club)
    if kind == TAROT:
        lines = lines.exclude(deal__game__variant__in=scoring.OTHER_GAMES)
    else:
        lines = lines.filter(deal__game__variant=kind)
    if season is not None:
        start, end = season_dates(club, season)
        lines = lines.filter(deal__game__date__gte=start, deal__game__date__lt=end)
    return lines


def _name(nickname: str | None, name: str) -> str:
    return nickname or name


def club_records(*, club: Club, season: int | None = None, kind: str = TAROT) -> ClubRecords:
    """The club's records of ``season`` (None: every season), in four queries at most."""
    lines = _lines(club, season, kind)
    top = (
        lines.select_related("player", "deal__game")
        .order_by(
            "-points", "deal__game__date", "deal__game_id", "deal__number", "player__name", "pk"
        )
        .first()
    )
    if top is None:
        return ClubRecords(None, None, None)
    best_deal = BestDeal(
        top.player_id,
        _name(top.player.nickname, top.player.name),
        top.points,
        top.deal.game_id,
        top.deal.game.date,
        top.deal.number,
    )

    evening = (
        lines.values("player_id", "player__name", "player__nickname", date=F("deal__game__date"))
        .annotate(total=Sum("points"), deals=Count("id"))
        .order_by("-total", "date", "player__name", "player_id")
        .first()
    )
    assert evening is not None  # there is a line, so there is an evening
    best_evening = BestEvening(
        evening["player_id"],
        _name(evening["player__nickname"], evening["player__name"]),
        evening["total"],
        evening["date"],
        evening["deals"],
    )
    return ClubRecords(best_deal, best_evening, _longest_run(lines))


def _longest_run(lines: QuerySet[ScoreLine]) -> WinningRun | None:
    """Reads each line as (player, date, game, number, points), in play order: one pass."""
    # Within one deal, by name: two attackers reaching the same length tie by name.
    ordered = lines.order_by(
        "deal__game__date", "deal__game_id", "deal__number", "player__name", "player_id"
    ).values_list("player_id", "deal__game__date", "points")
    # Per player: the current run's length and first date.
    current: dict[int, tuple[int, datetime.date]] = {}
    # The best run so far: (length, player, first date, last date); a later run only takes the
    # record by being longer, so a tie stays with whoever reached the length first.
    best: tuple[int, int, datetime.date, datetime.date] | None = None
    for player_id, date, points in ordered.iterator(chunk_size=2000):
        if points > 0:
            length, first = current.get(player_id, (0, date))
            length += 1
            current[player_id] = (length, first)
            if best is None or length > best[0]:
                best = (length, player_id, first, date)
        else:
            current.pop(player_id, None)
    if best is None:
        return None
    length, player_id, first, last = best
    player = Player.objects.only("name", "nickname").get(pk=player_id)
    return WinningRun(player_id, _name(player.nickname, player.name), length, first, last)
