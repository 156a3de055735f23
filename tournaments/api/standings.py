"""The tournament API's results: standings (individual, by series, duplicate), team standings
and knockout brackets, each with an ETag."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from tarot_scores.api.feed import UPDATED_SINCE_QUERY, FeedOnlyPages, feed_answer
from tarot_scores.clubs import permissions
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core import feed
from tarot_scores.core.results import (
    etag_matches,
    results_etag,
    shared_results,
    tournament_page_key,
    with_etag,
)
from tournaments.api.base import (
    CLUB_QUERY,
    READ_ERRORS,
    TAGS,
    TournamentAPIView,
    club_filter,
    refusal,
    tournament_or_404,
)
from tournaments.api.examples import (
    BRACKET_EXAMPLES,
    STANDINGS_EXAMPLES,
    TEAM_STANDINGS_EXAMPLES,
)
from tournaments.api.serializers import (
    DuplicateStandingSerializer,
    KnockoutBracketSerializer,
    StandingsChangeSerializer,
    TournamentStandingSerializer,
    TournamentTeamStandingSerializer,
)
from tournaments.formats import format_for
from tournaments.models import Entry, StandingsChange, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds.selectors import Bracket
from tournaments.standings import selectors as standings_selectors
from tournaments.standings.duplicate import DuplicateRow, duplicate_standings

NOT_MODIFIED = (
    "The `If-None-Match` header names the current `ETag`: nothing changed since, no body."
)


def duplicate_json(row: DuplicateRow) -> dict[str, Any]:
    average = row.method == "average"
    shown = row.shown_percentage
    return {
        "rank": row.rank,
        "player": row.player.pk,
        "name": row.player.label,
        "method": str(row.method),
        "boards": row.boards,
        "matchpoints": row.matchpoints,
        "maximum": row.maximum,
        "percentage": None if shown is None else str(shown),
        "total": row.shown_total if average else None,
        "tops": row.tops,
        "penalties": row.penalties,
    }


class StandingsView(TournamentAPIView):
    open_to_any_origin = True  # public results: any origin's page may read them
    serializer_class = TournamentStandingSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_standings",
        summary="Standings",
        description="Every player seated so far, ranked by total, then the better best round, "
        "then the better last round, then name; equal on all of these share a rank. Totals are "
        "sums of the score lines of the tables' live deals (confirmed ones, where the tournament "
        "requires confirmation), kept in step as deals are written: a fixed number of queries, "
        "whatever the number of deals. A penalty lowers its round's points (and so the total); "
        "`penalties` is their sum. The answer carries an `ETag` named after the club's "
        "results version: send it back in `If-None-Match` and the answer is `304 Not Modified` "
        "(no body) until a deal, a confirmation or a round changes the results. Team events: "
        "see `.../teams/standings/`. `?series=s1`: only that series' players, ranked among "
        "themselves. After a championship's cuts (`.../rounds/{number}/cut/`), the players still "
        "in come first, then each group cut, latest cut first, in its order at its cut "
        "(`eliminated_after`); `total` counts from round `counted_from`. "
        "A duplicate tournament answers its own lines (`DuplicateStanding`): "
        "boards played, matchpoints out of the maximum and percentage, or the total difference "
        "from the boards' averages, tops and penalties, ranked by the result then the tops.",
        tags=TAGS,
        parameters=[
            OpenApiParameter(
                "series",
                str,
                enum=list(Entry.Series.values),
                description="Only the players of this series (open, s1, s2, s3, promotion), "
                "ranked 1..n among themselves. Empty or absent: the overall standings; any "
                "other value is refused (400 on `series`).",
            )
        ],
        responses={
            200: PolymorphicProxySerializer(
                component_name="TournamentStandingOrDuplicate",
                serializers=[TournamentStandingSerializer, DuplicateStandingSerializer],
                resource_type_field_name=None,
                many=True,
            ),
            304: OpenApiResponse(description=NOT_MODIFIED),
            **READ_ERRORS,
        },
        examples=STANDINGS_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        asked = serializers.ChoiceField(choices=Entry.Series.choices, allow_blank=True)
        try:
            asked.run_validation(request.query_params.get("series", ""))
        except serializers.ValidationError as error:
            raise serializers.ValidationError({"series": error.detail}) from None
        series = standings_selectors.series_or_overall(request.query_params.get("series"))
        club = tournament.club

        def draw() -> list[dict[str, Any]]:
            if format_for(tournament).compares_boards:
                ranked = duplicate_standings(tournament=tournament, series=series)
                return [duplicate_json(row) for row in ranked]
            return [
                {
                    "rank": row.rank,
                    "player": row.player.pk,
                    "name": row.player.label,
                    "team": row.team or None,
                    "total": row.total,
                    "rounds": row.rounds,
                    "penalties": row.penalties,
                    "eliminated_after": row.eliminated_after,
                    "counted_from": row.counted_from,
                    "byes": [place + 1 for place in row.byes],
                }
                for row in standings_selectors.standings_for(tournament=tournament, series=series)
            ]

        # Shared by its readers as the standings pages are (tarot_scores.core.results): a
        # burst of deals moves it at most about once in RESULTS_LAG_SECONDS.
        etag, rows = shared_results(
            key=tournament_page_key(
                club=club,
                tournament_id=tournament.pk,
                page=f"api-standings-{series}",
                language=None,
                htmx=False,
            ),
            club=club,
            tag=lambda version: results_etag(
                club=club, parts=["api-standings", tournament.pk, series], version=version
            ),
            headers=request.headers,
            draw=draw,
            fresh=lambda: permissions.is_organiser(request, club),
        )
        if rows is None:
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), etag)
        return with_etag(self.page_of(rows), etag)


class StandingsFeedView(TournamentAPIView):
    """The feed of standings: the tournaments whose standings changed after a cursor."""

    open_to_any_origin = True  # public results: any origin's page may read them
    serializer_class = StandingsChangeSerializer
    paged = True
    page_numbers = False
    pagination_class = FeedOnlyPages

    def changed_standings(self, below: int | None) -> QuerySet[Tournament]:
        """The readable tournaments whose standings ever changed, each with the position of
        its latest change (below ``below``, where the reader's snapshot bounds what is final)."""
        club = club_filter(self.request)
        if club is not None:
            tournaments = Tournament.objects.filter(club=club)
        else:
            tournaments = Tournament.objects.filter(club__in=clubs_for(user=self.request.user))
        changes = StandingsChange.objects.filter(tournament=OuterRef("pk"))
        if below is not None:
            changes = changes.filter(feed_xact__lt=below)
        latest = changes.order_by("-feed_xact", "-feed_seq")
        return tournaments.annotate(
            standings_xact=Subquery(latest.values("feed_xact")[:1]),
            standings_seq=Subquery(latest.values("feed_seq")[:1]),
        ).filter(standings_xact__isnull=False)

    def items(self, rows: Any) -> list[Any]:
        request = self.request
        return [
            {
                "tournament": tournament.pk,
                "club": tournament.club_id,
                "name": tournament.name,
                "status": tournament.status,
                "standings": request.build_absolute_uri(
                    reverse("tournaments_api:standings", kwargs={"pk": tournament.pk})
                ),
            }
            for tournament in rows
        ]

    @extend_schema(
        operation_id="tournaments_standings_feed",
        summary="The feed of standings",
        description="The tournaments whose standings changed after the cursor (`updated_since`, "
        "from the beginning without it), oldest change first, each once: a deal entered, "
        "corrected, deleted or restored at one of its tables, a confirmation, a penalty, a "
        "round seated or closed, a cut. Read the standings of each at `standings` (with their "
        "`ETag`). `?club=id`: that club's tournaments only; without it, those of every club "
        "the caller may read.",
        tags=TAGS,
        parameters=[CLUB_QUERY, UPDATED_SINCE_QUERY],
        responses={
            200: StandingsChangeSerializer(many=True),
            400: refusal("`club` is not an id, or `updated_since` is not a cursor."),
            **READ_ERRORS,
        },
    )
    def get(self, request: Request) -> Response:
        below = feed.served_below()
        return feed_answer(
            self, self.changed_standings(below), self.items, prefix="standings", bounded=False
        )


class TeamStandingsView(TournamentAPIView):
    open_to_any_origin = True  # public results: any origin's page may read them
    serializer_class = TournamentTeamStandingSerializer
    paged = True

    @extend_schema(
        operation_id="tournament_team_standings",
        summary="Team standings",
        description="Each team's total is the sum of its members' totals; equal totals share a "
        "rank. An empty list when the tournament has no teams. With an `ETag`, as the "
        "standings: `If-None-Match` answers `304 Not Modified` until the results change.",
        tags=TAGS,
        responses={
            200: TournamentTeamStandingSerializer(many=True),
            304: OpenApiResponse(description=NOT_MODIFIED),
            **READ_ERRORS,
        },
        examples=TEAM_STANDINGS_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        etag = results_etag(club=tournament.club, parts=["api-team-standings", tournament.pk])
        if etag_matches(request.headers, etag):
            return with_etag(Response(status=status.HTTP_304_NOT_MODIFIED), etag)
        rows = standings_selectors.team_standings_for(tournament=tournament)
        return with_etag(
            self.page_of(
                [
                    {"rank": r.rank, "name": r.name, "total": r.total, "members": r.members}
                    for r in rows
                ]
            ),
            etag,
        )


def bracket_json(result: Bracket) -> dict[str, Any]:
    return {
        "stages": [
            {
                "number": stage.number,
                "final": stage.final,
                "complete": stage.complete,
                "tables": [
                    {
                        "number": table.number,
                        "players": [
                            {
                                "player": seat.player.pk,
                                "name": seat.player.label,
                                "points": seat.points,
                                "qualified": seat.qualified,
                            }
                            for seat in table.seats
                        ],
                    }
                    for table in stage.tables
                ],
                "qualified": stage.qualified,
            }
            for stage in result.stages
        ],
        "ranking": [
            {"rank": rank, "player": player.pk, "name": player.label}
            for rank, player in result.ranking
        ],
    }


class BracketView(TournamentAPIView):
    open_to_any_origin = True  # public results: any origin's page may read them
    serializer_class = KnockoutBracketSerializer

    @extend_schema(
        operation_id="tournament_bracket",
        summary="Knockout bracket",
        description="Knockout tournaments only (404 for a tournament in rounds: read its "
        "standings). Every stage seated so far: its tables, each player's points there (best "
        "first) and who goes through; the final ranking once the final table is complete.",
        tags=TAGS,
        responses={
            200: KnockoutBracketSerializer,
            404: refusal(
                "No such tournament, a private club's for an outsider, or not a knockout."
            ),
        },
        examples=BRACKET_EXAMPLES,
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = tournament_or_404(request, pk)
        if not format_for(tournament).has_bracket:
            raise NotFound(_("This tournament is not a knockout: it has standings, no bracket."))
        return Response(bracket_json(round_selectors.bracket(tournament=tournament)))
