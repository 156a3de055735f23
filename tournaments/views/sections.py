"""What tournaments adds to the site's pages (``tarot_scores.core.sections``): a signed-in
reader's tournaments today on their home page, and on a club's page its latest tournaments with
their tables grouped under each, round by round (the tables are games of the club, but they
are not listed among its evening games)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch, Q
from django.http import HttpRequest
from django.utils import timezone

from tarot_scores.clubs.models import Club
from tarot_scores.core.sections import Section
from tarot_scores.games.models import Seat
from tournaments.models import Table, Tournament
from tournaments.views.access import round_name

CLUB_TOURNAMENTS_SHOWN = 5


@dataclass(frozen=True)
class TodayLine:
    tournament: Tournament
    table: Table | None  # the reader's table in the latest round seated, if they play
    round_name: str


def home_tournaments_today(request: HttpRequest) -> Section | None:
    """Today's tournaments of the reader's clubs and those they are entered in, with their
    table in the latest round: two queries. None when there is none today."""
    user: Any = request.user  # signed in: the home page asks only then
    today = timezone.localdate()
    tournaments = list(
        Tournament.objects.filter(date=today)
        .filter(Q(club__memberships__user=user) | Q(entries__player__user=user))
        .select_related("club")
        .distinct()
        .order_by("name", "id")
    )
    if not tournaments:
        return None
    tables: dict[int, Table] = {}
    for table in (
        Table.objects.filter(round__tournament__in=tournaments, game__seats__player__user=user)
        .select_related("round")
        .order_by("round__number")
    ):
        tables[table.round.tournament_id] = table  # the latest round's wins
    lines = []
    for tournament in tournaments:
        mine = tables.get(tournament.pk)
        name = round_name(tournament, mine.round.number) if mine is not None else ""
        lines.append(TodayLine(tournament, mine, name))
    return Section("tournaments/_home_today.html", {"lines": lines})


@dataclass(frozen=True)
class RoundTables:
    name: str
    tables: list[Table]


@dataclass(frozen=True)
class ClubTournament:
    tournament: Tournament
    rounds: list[RoundTables]

    @property
    def table_count(self) -> int:
        return sum(len(r.tables) for r in self.rounds)


def club_tournaments(request: HttpRequest, club: Club) -> Section | None:
    """The club's latest tournaments, each with its tables round by round and who sat there:
    three queries, whatever the number of tables. None when the club has held none."""
    tournaments = list(
        Tournament.objects.filter(club=club).order_by("-date", "-id")[: CLUB_TOURNAMENTS_SHOWN + 1]
    )
    if not tournaments:
        return None
    more = len(tournaments) > CLUB_TOURNAMENTS_SHOWN
    tournaments = tournaments[:CLUB_TOURNAMENTS_SHOWN]
    seats = Seat.objects.select_related("player").order_by("position")
    tables = (
        Table.objects.filter(round__tournament__in=tournaments)
        .select_related("round", "game")
        .prefetch_related(Prefetch("game__seats", queryset=seats))
        .order_by("round__number", "number")
    )
    by_round: dict[int, dict[int, list[Table]]] = {t.pk: {} for t in tournaments}
    for table in tables:
        by_round[table.round.tournament_id].setdefault(table.round.number, []).append(table)
    groups = [
        ClubTournament(
            tournament,
            [
                RoundTables(round_name(tournament, number), round_tables)
                for number, round_tables in by_round[tournament.pk].items()
            ],
        )
        for tournament in tournaments
    ]
    return Section(
        "tournaments/_club_tournaments.html", {"club": club, "groups": groups, "more": more}
    )
