"""A club's printable season report: the rating ranking, the leaders of the season (points,
average per deal, deals, takes, success as taker), the club records and the top players' points
as a chart. ``season_report_data`` reads it; ``render_season_report`` prints it in the active
language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from reportlab.graphics.shapes import Drawing
from reportlab.lib.units import cm
from reportlab.platypus import Spacer, Table

from tarot_scores.clubs.models import Club
from tarot_scores.core.pdf import build, grid_style, para, styles
from tarot_scores.ratings.selectors import Ranking, rating_ranking
from tarot_scores.stats import charts
from tarot_scores.stats.forms import season_label
from tarot_scores.stats.records import ClubRecords, club_records
from tarot_scores.stats.selectors import LeaderRow, leaderboard

# A best average or success rate over a handful of deals or takes says little: below these
# counts in the season a player is not a leader of those two.
LEADER_MIN_DEALS = 20
LEADER_MIN_TAKES = 5
CHART_PLAYERS = 10


@dataclass(frozen=True)
class SeasonReport:
    club_name: str
    season: str  # the season in words: "2025–2026"
    ranking: Ranking
    min_deals: int  # for the rating ranking
    board: list[LeaderRow]  # the season's leaderboard by points, tarot
    records: ClubRecords


def season_report_data(*, club: Club, season: int, min_deals: int) -> SeasonReport:
    """Everything the report prints for ``club`` and ``season``, in a few bounded queries."""
    return SeasonReport(
        club_name=club.name,
        season=season_label(club, season),
        ranking=rating_ranking(club=club, season=season, min_deals=min_deals),
        min_deals=min_deals,
        board=leaderboard(club=club, season=season),
        records=club_records(club=club, season=season),
    )


@dataclass(frozen=True)
class Leader:
    category: str
    name: str
    value: str


def _best(
    rows: list[LeaderRow], key: Callable[[LeaderRow], float], keep: Callable[[LeaderRow], bool]
) -> LeaderRow | None:
    """The row with the highest ``key`` among those ``keep`` keeps; a tie goes to the name."""
    kept = [row for row in rows if keep(row)]
    if not kept:
        return None
    return min(kept, key=lambda r: (-key(r), r.name.casefold(), r.player_id))


def leaders(board: list[LeaderRow]) -> list[Leader]:
    """The season's leader of each category; a category nobody qualifies for is left out."""
    number = formats.number_format
    categories: list[tuple[str, LeaderRow | None, Callable[[LeaderRow], str]]] = [
        (
            _("Most points"),
            _best(board, lambda r: r.points, lambda r: True),
            lambda r: str(r.points),
        ),
        (
            _("Best average per deal (at least %(count)s deals)") % {"count": LEADER_MIN_DEALS},
            _best(board, lambda r: r.average, lambda r: r.deals >= LEADER_MIN_DEALS),
            lambda r: number(round(r.average, 1), 1),
        ),
        (_("Most deals"), _best(board, lambda r: r.deals, lambda r: True), lambda r: str(r.deals)),
        (
            _("Most takes"),
            _best(board, lambda r: r.taken, lambda r: r.taken > 0),
            lambda r: str(r.taken),
        ),
        (
            _("Best success rate as taker (at least %(count)s takes)")
            % {"count": LEADER_MIN_TAKES},
            _best(board, lambda r: r.success or 0, lambda r: r.taken >= LEADER_MIN_TAKES),
            lambda r: f"{round(100 * (r.success or 0))} %",
        ),
    ]
    return [Leader(label, row.name, value(row)) for label, row, value in categories if row]


def record_lines(records: ClubRecords) -> list[tuple[str, str]]:
    """The club records as (record, in words), for the report."""
    lines: list[tuple[str, str]] = []
    dated = "DATE_FORMAT"  # as every page and chart writes a date
    if records.best_deal is not None:
        deal = records.best_deal
        lines.append(
            (
                _("Best deal"),
                _("%(name)s: %(points)s points, deal %(number)s of the game of %(date)s")
                % {
                    "name": deal.name,
                    "points": deal.points,
                    "number": deal.number,
                    "date": formats.date_format(deal.date, dated),
                },
            )
        )
    if records.best_evening is not None:
        evening = records.best_evening
        lines.append(
            (
                _("Best evening"),
                ngettext(
                    "%(name)s: %(points)s points on %(date)s, in %(deals)s deal",
                    "%(name)s: %(points)s points on %(date)s, in %(deals)s deals",
                    evening.deals,
                )
                % {
                    "name": evening.name,
                    "points": evening.points,
                    "date": formats.date_format(evening.date, dated),
                    "deals": evening.deals,
                },
            )
        )
    if records.longest_run is not None:
        run = records.longest_run
        lines.append(
            (
                _("Longest winning run"),
                ngettext(
                    "%(name)s: %(deals)s deal in a row scored above zero (%(first)s to %(last)s)",
                    "%(name)s: %(deals)s deals in a row scored above zero (%(first)s to %(last)s)",
                    run.deals,
                )
                % {
                    "name": run.name,
                    "deals": run.deals,
                    "first": formats.date_format(run.first, dated),
                    "last": formats.date_format(run.last, dated),
                },
            )
        )
    return lines


def render_season_report(data: SeasonReport) -> bytes:
    """The season report, A4 portrait, pages numbered, in the active language."""
    st = styles(text_size=9)
    title = _("%(club)s: season %(season)s") % {"club": data.club_name, "season": data.season}
    story: list[object] = [para(title, st["title"])]

    story.append(para(_("Rating ranking"), st["h2"]))
    if data.ranking.ranked:
        rows: list[list[object]] = [[_("Rank"), _("Player"), _("Rating"), _("Deals")]]
        rows += [
            [str(r.rank), para(r.name, st["cell"]), str(r.rating), str(r.deals)]
            for r in data.ranking.ranked
        ]
        grid = Table(
            rows, colWidths=[1.5 * cm, 8 * cm, 2.5 * cm, 2.5 * cm], hAlign="LEFT", repeatRows=1
        )
        grid.setStyle(grid_style(("ALIGN", (2, 0), (-1, -1), "RIGHT"), size=9))
        story.append(grid)
    story.append(
        para(
            ngettext(
                "Ranked: players with at least %(count)s rated deal in the season.",
                "Ranked: players with at least %(count)s rated deals in the season.",
                data.min_deals,
            )
            % {"count": data.min_deals}
            + (" " + _("Nobody is ranked yet.") if not data.ranking.ranked else ""),
            st["small"],
        )
    )

    story.append(para(_("Leaders of the season"), st["h2"]))
    season_leaders = leaders(data.board)
    if season_leaders:
        rows = [[_("Category"), _("Player"), _("Value")]]
        rows += [
            [para(leader.category, st["cell"]), para(leader.name, st["cell"]), leader.value]
            for leader in season_leaders
        ]
        grid = Table(rows, colWidths=[8 * cm, 5.5 * cm, 2.5 * cm], hAlign="LEFT")
        grid.setStyle(grid_style(("ALIGN", (2, 0), (2, -1), "RIGHT"), size=9))
        story.append(grid)
    else:
        story.append(para(_("No deal recorded in this season."), st["meta"]))

    story.append(para(_("Club records"), st["h2"]))
    records = record_lines(data.records)
    if records:
        grid = Table(
            [[para(label, st["head"]), para(text, st["cell"])] for label, text in records],
            colWidths=[4.5 * cm, 11.5 * cm],
            hAlign="LEFT",
        )
        grid.setStyle(grid_style(("VALIGN", (0, 0), (-1, -1), "TOP"), size=9, head=False))
        story.append(grid)
    else:
        story.append(para(_("No record yet for these choices."), st["meta"]))

    top = data.board[:CHART_PLAYERS]
    if top:
        story.append(para(_("Points of the top players"), st["h2"]))
        story.append(Spacer(1, 0.2 * cm))
        story.append(charts.render_points_bars([(row.name, row.points) for row in top]))

    return build(story, title=title, author=data.club_name, margin=1.5 * cm, numbered=True)


@dataclass(frozen=True)
class PlayerReport:
    """A player's page on paper: what the page shows at the top, and its two curves."""

    club_name: str
    player_name: str
    deals: int
    rating: int | None  # the shown rating; None before a first rated deal
    rating_deals: int
    contracts: list[tuple[str, int, int]]  # (contract in words, taken, won)
    charts: list[tuple[str, Drawing]]  # (title, the same drawing as the page's SVG)


def render_player_report(data: PlayerReport) -> bytes:
    """A player's figures and curves, A4 portrait, in the active language."""
    st = styles(text_size=9)
    title = _("%(player)s, %(club)s") % {"player": data.player_name, "club": data.club_name}
    story: list[object] = [para(title, st["title"])]
    facts = [
        ngettext("%(count)s tarot deal played.", "%(count)s tarot deals played.", data.deals)
        % {"count": data.deals},
        _("Rating: %(rating)s after %(count)s rated deals.")
        % {"rating": data.rating, "count": data.rating_deals}
        if data.rating is not None
        else _("No rated deal yet."),
    ]
    story += [para(text, st["meta"]) for text in facts]
    if data.contracts:
        story.append(para(_("Takes by contract"), st["h2"]))
        rows: list[list[object]] = [[_("Contract"), _("Taken"), pgettext("takes", "Won")]]
        rows += [
            [para(name, st["cell"]), str(taken), str(won)] for name, taken, won in data.contracts
        ]
        grid = Table(rows, colWidths=[6 * cm, 3 * cm, 3 * cm], hAlign="LEFT")
        grid.setStyle(grid_style(("ALIGN", (1, 0), (-1, -1), "RIGHT"), size=9))
        story.append(grid)
    for chart_title, drawing in data.charts:
        story += [para(chart_title, st["h2"]), drawing]
    return build(story, title=title, author=data.club_name)
