"""The leaderboard, the club records, the season report (PDF), a player's page (season row,
statistics, rating and its curve, games), and the rating rankings (a club's and the
federation's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from reportlab.graphics.shapes import Drawing

from tarot_scores.clubs.models import Club, Player
from tarot_scores.clubs.permissions import club_for
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.results import leaderboard_key, player_page_key
from tarot_scores.games.words import rules_label
from tarot_scores.ratings import selectors as rating_selectors
from tarot_scores.scoring import Contract
from tarot_scores.stats import charts, report, selectors
from tarot_scores.stats.forms import (
    LeaderboardFilterForm,
    RatingFilterForm,
    current_season,
    season_label,
)
from tarot_scores.stats.records import club_records

SORT_COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("points", gettext_lazy("Points")),
    ("deals", gettext_lazy("Deals")),
    ("average", gettext_lazy("Average per deal")),
    ("taken", gettext_lazy("Times taker")),
    ("success", gettext_lazy("Success rate")),
]


@require_safe
def leaderboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    # The table only changes when a deal is written, which bumps the club's stats version:
    # drawn once per version, filters and language, then served from the cache.
    filters = _filters(request, club)
    key = leaderboard_key(club=club, language=get_language(), filters=_filters_key(filters))
    table = cache.get(key)
    if table is None:
        table = render_to_string(
            "tarot_scores/club/_leaderboard.html", _leaderboard_context(club, filters)
        )
        cache.set(key, table, LEADERBOARD_SECONDS)
    template = "tarot_scores/club/leaderboard.html"
    if request.htmx:
        template += "#leaderboard"
    return render(request, template, {"club": club, "leaderboard_html": mark_safe(table)})


LEADERBOARD_SECONDS = 600


def _filters(request: HttpRequest, club: Club) -> LeaderboardFilterForm:
    """The leaderboard's filters as read from the query string. The club's seasons they are
    checked against are cached beside the table, so a cached board reads no statistics."""
    key = leaderboard_key(club=club, language="", filters="seasons")
    seasons: list[int] | None = cache.get(key)
    if seasons is None:
        seasons = selectors.seasons_of(club=club)
        cache.set(key, seasons, LEADERBOARD_SECONDS)
    return LeaderboardFilterForm(request.GET, club=club, seasons=seasons)


def _filters_key(filters: LeaderboardFilterForm, page: str = "") -> str:
    """The cache key's part for these filters: their valid values only, so that a query string
    with made-up parameters or values (``?x=random``) is the page it falls back to, not a new
    cache entry."""
    return page + urlencode(sorted(filters.query().items()))


def _leaderboard_context(club: Club, filters: LeaderboardFilterForm) -> dict[str, Any]:
    url = reverse("clubs:leaderboard", kwargs={"slug": club.slug})
    values = filters.values()
    rows = selectors.leaderboard(
        club=club,
        season=values["season"],
        table_size=values["size"],
        kind=values["kind"],
        sort=values["sort"],
    )
    columns = [
        (key, label, f"{url}?{urlencode(filters.query(sort=key))}") for key, label in SORT_COLUMNS
    ]
    season_text = (
        _("all seasons")
        if values["season"] is None
        else _("season %(season)s") % {"season": season_label(club, values["season"])}
    )
    return {
        "club": club,
        "filters": filters,
        "values": values,
        "rows": rows,
        "records_url": f"{reverse('clubs:records', kwargs={'slug': club.slug})}?"
        + urlencode(filters.query()),
        "report_url": _report_url(club, values["season"]),
        "columns": columns,
        "season_text": season_text,
        "kind_text": dict(filters.fields["kind"].choices)[values["kind"]],  # type: ignore[attr-defined]
        "sort_text": dict(filters.fields["sort"].choices)[values["sort"]],  # type: ignore[attr-defined]
        "url": url,
    }


@require_safe
def records(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The club's records for the leaderboard's game and season. Reading them grows with the
    season's deals, so they have their own page (the leaderboard stays flat), drawn once per
    results version, filters and language, like the leaderboard."""
    club = club_for(request, slug)
    form = _filters(request, club)
    key = leaderboard_key(
        club=club, language=get_language(), filters=_filters_key(form, "records&")
    )
    section = cache.get(key)
    if section is None:
        values = form.values()
        season_text = (
            _("all seasons")
            if values["season"] is None
            else _("season %(season)s") % {"season": season_label(club, values["season"])}
        )
        section = render_to_string(
            "tarot_scores/club/_records.html",
            {
                "records": club_records(club=club, season=values["season"], kind=values["kind"]),
                "season_text": season_text,
                "kind_text": dict(form.fields["kind"].choices)[values["kind"]],  # type: ignore[attr-defined]
            },
        )
        cache.set(key, section, LEADERBOARD_SECONDS)
    leaderboard_url = f"{reverse('clubs:leaderboard', kwargs={'slug': club.slug})}?" + (
        urlencode(form.query())
    )
    context = {"club": club, "records_html": mark_safe(section), "leaderboard_url": leaderboard_url}
    return render(request, "tarot_scores/club/records.html", context)


def _report_url(club: Club, season: int | None) -> str | None:
    """The season report's link; a report covers one season, so none for every season."""
    if season is None:
        return None
    url = reverse("clubs:season_report", kwargs={"slug": club.slug})
    return f"{url}?{urlencode({'season': season})}"


@require_safe
def season_report(request: HttpRequest, slug: str) -> FileResponse:
    """The club's printable season report (``?season=2025``; the latest season by default)."""
    club = club_for(request, slug)
    seasons = selectors.seasons_of(club=club)
    text = request.GET.get("season", "")
    if (asked := whole_number(text, minimum=1900, maximum=2999)) is not None:
        season = asked
    else:
        season = seasons[0] if seasons else current_season(club)
    data = report.season_report_data(club=club, season=season, min_deals=settings.RATING_MIN_DEALS)
    return pdf_response(report.render_season_report(data), f"{club.slug}-season-{season}.pdf")


@require_safe
def player_detail(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = club_for(request, slug)
    player = get_object_or_404(club.players.all(), pk=player_id)
    season = current_season(club)
    # Everything below the name changes only with the club's results (a deal written, corrected
    # or deleted bumps their version, the ratings with it): drawn once per version, season and
    # language, then served from the cache, like the leaderboard.
    key = player_page_key(club=club, player_id=player.pk, season=season, language=get_language())
    figures = cache.get(key)
    if figures is None:
        figures = render_to_string(
            "tarot_scores/club/_player_figures.html", _player_figures(club, player, season)
        )
        cache.set(key, figures, LEADERBOARD_SECONDS)
    context = {
        "club": club,
        "player": player,
        "report_url": reverse("clubs:player_report", args=[club.slug, player.pk]),
        "figures_html": mark_safe(figures),
        # Not cached with the figures: the rating below waits for the ratings' job.
        "behind_since": rating_selectors.ratings_behind_since(club=club),
    }
    return render(request, "tarot_scores/club/player.html", context)


def _player_figures(club: Club, player: Player, season: int) -> dict[str, Any]:
    # The whole board (one query) so the row carries the player's rank in the club.
    board = selectors.leaderboard(club=club, season=season)
    row = next((r for r in board if r.player_id == player.pk), None)
    games = selectors.latest_games(club=club, player=player, most=selectors.GAMES_SHOWN + 1)
    curves = _player_curves(player=player, club=club)
    chart = None
    if curves.score:
        # svg_markup escapes the only text that comes from users (the title).
        chart = mark_safe(charts.svg_markup(curves.score_drawing(), title=curves.score_title))
    stats = selectors.player_figures(player=player, club=club)
    rating = rating_selectors.player_cote(player=player, club=club)
    # A rating (its number, its curve) shows once the player is ranked, as on the ranking.
    rating_points = curves.rating if rating.ranked else []
    rating_chart = None
    if rating_points:
        rating_chart = mark_safe(
            charts.svg_markup(
                curves.rating_drawing(),
                title=curves.rating_title,
                description=curves.rating_description,
            )
        )
    return {
        "club": club,
        "player": player,
        "row": row,
        "season_text": season_label(club, season),
        "history": [(item, rules_label(item.game)) for item in games[: selectors.GAMES_SHOWN]],
        "games_shown": selectors.GAMES_SHOWN,
        "more_games": len(games) > selectors.GAMES_SHOWN,
        "chart": chart,
        "cumulative": curves.score,
        "stats": stats,
        "contracts": [(CONTRACT_WORDS.get(c.contract, c.contract), c) for c in stats.contracts],
        "handfuls": [(words, stats.handfuls.get(size, 0)) for size, words in HANDFUL_WORDS.items()],
        "head_to_head_min": selectors.HEAD_TO_HEAD_MIN_DEALS,
        "rating": rating.cote,
        "rating_deals": rating.deals,
        "rating_min_deals": rating.min_deals,
        "rating_chart": rating_chart,
        # The table beside the chart: one row per day (the rating after that day's last deal).
        "rating_days": rating_points,
    }


@dataclass(frozen=True)
class PlayerCurves:
    """A player's two curves, as the page draws them in SVG and the player's PDF draws them
    on paper: the same reportlab drawings."""

    score: list[tuple[str, int]]  # (date, cumulative tarot total) after each game
    rating: list[tuple[str, int]]  # (date, shown rating) after each day's last rated deal
    score_title: str
    rating_title: str
    rating_description: str

    def score_drawing(self) -> Drawing:
        return charts.render_score_chart(self.score)

    def rating_drawing(self) -> Drawing:
        return charts.render_rating_chart([(day, float(r)) for day, r in self.rating])


def _player_curves(*, player: Player, club: Club) -> PlayerCurves:
    # The score curve follows tarot games only: other games count points on another scale.
    # Both curves hold the latest points the chart draws (a long career's first games and
    # days are left out), so the page reads as many rows whatever the deals played.
    # Each date is written once: the two curves mostly share their days, and writing a date
    # out costs more than drawing its point (profiled at 5,000,000 deals).
    written: dict[Any, str] = {}

    def day_text(day: Any) -> str:
        if day not in written:
            written[day] = date_format(day, "DATE_FORMAT")
        return written[day]

    cumulative = [
        (day_text(point.played_on), point.total)
        for point in selectors.score_curve(club=club, player=player, most=selectors.CURVE_POINTS)
    ]
    days = rating_selectors.rating_history(player=player, club=club, most=selectors.CURVE_POINTS)
    rating = [(day_text(day.played_on), round(day.rating)) for day in days]
    description = ""
    if rating:
        description = ngettext(
            "From %(first)s on %(start)s to %(last)s on %(end)s, %(count)s deal.",
            "From %(first)s on %(start)s to %(last)s on %(end)s, %(count)s deals.",
            days[-1].deals,
        ) % {
            "first": rating[0][1],
            "start": rating[0][0],
            "last": rating[-1][1],
            "end": rating[-1][0],
            "count": days[-1].deals,
        }
    return PlayerCurves(
        score=cumulative,
        rating=rating,
        score_title=_("%(player)s: cumulative tarot total after each game")
        % {"player": player.label},
        rating_title=_("%(player)s: rating after each rated deal") % {"player": player.label},
        rating_description=description,
    )


@require_safe
def player_report(request: HttpRequest, slug: str, player_id: int) -> FileResponse:
    """A player's page on paper: the figures and the same two curves as the page."""
    club = club_for(request, slug)
    player = get_object_or_404(club.players.all(), pk=player_id)
    curves = _player_curves(player=player, club=club)
    stats = selectors.player_figures(player=player, club=club)
    rating = rating_selectors.player_cote(player=player, club=club)
    drawings = []
    if curves.score:
        drawings.append((curves.score_title, curves.score_drawing()))
    if curves.rating and rating.ranked:
        drawings.append((curves.rating_title, curves.rating_drawing()))
    data = report.PlayerReport(
        club_name=club.name,
        player_name=player.label,
        deals=stats.deals,
        rating=rating.cote,
        rating_deals=rating.deals,
        rating_min_deals=rating.min_deals,
        contracts=[
            (str(CONTRACT_WORDS.get(c.contract, c.contract)), c.taken, c.won)
            for c in stats.contracts
        ],
        charts=drawings,
    )
    return pdf_response(report.render_player_report(data), f"{club.slug}-{player.pk}.pdf")


CONTRACT_WORDS: dict[str, Any] = {
    Contract.PRISE: gettext_lazy("Prise"),
    Contract.GARDE: gettext_lazy("Garde"),
    Contract.GARDE_SANS: gettext_lazy("Garde sans"),
    Contract.GARDE_CONTRE: gettext_lazy("Garde contre"),
}
HANDFUL_WORDS = {
    "simple": pgettext_lazy("handful", "Simple"),
    "double": pgettext_lazy("handful", "Double"),
    "triple": pgettext_lazy("handful", "Triple"),
}


def _ratings_page(request: HtmxHttpRequest, club: Club | None, url: str) -> HttpResponse:
    seasons = rating_selectors.rating_seasons(club=club)
    filters = RatingFilterForm(request.GET, club=club, seasons=seasons)
    season = filters.chosen_season()
    min_deals = settings.RATING_MIN_DEALS
    # The federation lists the players of the clubs this visitor may see.
    clubs = clubs_for(user=request.user) if club is None else None
    ranking = rating_selectors.rating_ranking(
        club=club, season=season, min_deals=min_deals, clubs=clubs
    )
    if season is None:
        season_text = _("today, on every deal")
    else:
        label = season_label(club, season) if club is not None else str(season)
        season_text = _("as season %(season)s ended") % {"season": label}
    template = "tarot_scores/club/ratings.html"
    if request.htmx:
        template += "#ranking"
    context = {
        "club": club,
        "filters": filters,
        "ranking": ranking,
        "min_deals": min_deals,
        "season_text": season_text,
        "url": url,
        # A correction waiting for the ratings' job: the ranking does not show it yet.
        "behind_since": rating_selectors.ratings_behind_since(club=club),
    }
    return render(request, template, context)


@require_safe
def ratings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A club's players ranked by rating, on the club's deals only."""
    club = club_for(request, slug)
    return _ratings_page(request, club, reverse("clubs:ratings", kwargs={"slug": club.slug}))


@require_safe
def federation_ratings(request: HtmxHttpRequest) -> HttpResponse:
    """Players ranked by rating on every club's deals together."""
    return _ratings_page(request, None, reverse("ratings"))
