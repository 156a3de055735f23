"""Charts drawn with reportlab.graphics: one drawing goes to a PDF as it is, and to the web as
inline SVG (``svg_markup``), so a player's score and rating curves look the same on screen and
on paper; the season report's bars of the top players' points.

Numbers on an axis are written as the reader writes them: a decimal comma in French, and a
true minus sign (−0,2, not -0.2); a date is written once under the axis, at the first game
of its day."""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from django.utils.formats import get_format
from reportlab.graphics import renderSVG
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Line
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors

WIDTH, HEIGHT = 400, 200
ACCENT = colors.HexColor("#0b4f8a")  # the site's accent colour
# Dates under the x axis are written out as on every page ("25 novembre 2026"): four fit.
MAX_X_LABELS = 4
MAX_MARKERS = 60
# The plot is 330 units wide: past about two units a point, more points draw the same line and
# only cost time (a rating curve has a point per day of play, a score curve one per game).
MAX_POINTS = 160
MINUS = "\u2212"


def axis_number(value: float) -> str:
    """A tick's number as the reader writes it: no needless decimals, the language's decimal
    mark, a true minus sign (−0,2; 1 250 is left without a thousands mark, as on the pages)."""
    rounded = round(float(value), 2)
    if rounded == 0:
        return "0"
    text = f"{abs(rounded):.2f}".rstrip("0").rstrip(".")
    text = text.replace(".", str(get_format("DECIMAL_SEPARATOR")))
    return (MINUS + text) if rounded < 0 else text


def label_steps(labels: list[str], most: int = MAX_X_LABELS) -> list[int]:
    """Where (1-based) to write the x axis's labels: at the first point of each run of equal
    labels (a day of several games is written once), at most ``most`` of them, evenly spread."""
    firsts = [i for i, label in enumerate(labels, start=1) if i == 1 or label != labels[i - 2]]
    if len(firsts) <= most:
        return firsts
    last = len(firsts) - 1
    picked = sorted({firsts[round(k * last / (most - 1))] for k in range(most)})
    return picked


def render_score_chart(points: list[tuple[str, int]]) -> Drawing:
    """A player's cumulative total after each game: ``points`` is (game label, total) in order.

    Each game is a marked point on one line; a few game labels are written under the x axis.
    """
    return _line_chart([(label, float(total)) for label, total in points])


def render_rating_chart(points: list[tuple[str, float]]) -> Drawing:
    """A player's shown rating after each rated deal: ``points`` is (day label, rating) in
    order. A rating starts below 0 and climbs as the site grows sure of the player, so the
    zero line is drawn as on the score chart."""
    return _line_chart(points)


def thinned(points: list[tuple[str, float]], most: int = MAX_POINTS) -> list[tuple[str, float]]:
    """At most ``most`` points, evenly spread over the curve, the first and last kept."""
    if len(points) <= most:
        return points
    last = len(points) - 1
    return [points[round(i * last / (most - 1))] for i in range(most)]


def _line_chart(points: list[tuple[str, float]]) -> Drawing:
    points = thinned(points)
    drawing = Drawing(WIDTH, HEIGHT)
    plot = LinePlot()
    plot.x, plot.y, plot.width, plot.height = 50, 40, WIDTH - 70, HEIGHT - 60
    data = [(float(i), float(total)) for i, (_label, total) in enumerate(points, start=1)]
    plot.data = [data or [(1.0, 0.0)]]
    plot.lines[0].strokeColor = ACCENT
    plot.lines[0].strokeWidth = 2
    # A long rating curve (one point per deal) would be a row of blots: markers only when few.
    if data and len(data) <= MAX_MARKERS:
        plot.lines[0].symbol = makeMarker("FilledCircle", size=5, fillColor=ACCENT)
    count = max(len(points), 1)
    plot.xValueAxis.valueMin = 0.5
    plot.xValueAxis.valueMax = count + 0.5
    labels = [label for label, _total in points]
    plot.xValueAxis.valueSteps = label_steps(labels) if labels else [1]
    plot.xValueAxis.labelTextFormat = lambda v: labels[int(v) - 1] if labels else ""
    plot.xValueAxis.labels.fontSize = 9
    plot.yValueAxis.labels.fontSize = 10
    plot.yValueAxis.labelTextFormat = axis_number
    totals = [total for _label, total in points] or [0]
    low, high = min(0.0, *totals), max(0.0, *totals)
    if low == high:
        high = low + 10
    plot.yValueAxis.valueMin = low
    plot.yValueAxis.valueMax = high
    drawing.add(plot)
    # Zero is where a player is even: a thin line makes gains and losses readable at a glance.
    zero = plot.y + (0 - low) / (high - low) * plot.height
    drawing.add(
        Line(plot.x, zero, plot.x + plot.width, zero, strokeColor=colors.grey, strokeWidth=0.5)
    )
    return drawing


def render_points_bars(totals: list[tuple[str, int]]) -> Drawing:
    """One bar per player: ``totals`` is (name, points) in the order to draw, names under the
    bars (slanted, so ten fit)."""
    drawing = Drawing(WIDTH, HEIGHT)
    chart = VerticalBarChart()
    chart.x, chart.y, chart.width, chart.height = 50, 60, WIDTH - 70, HEIGHT - 75
    values = [total for _name, total in totals] or [0]
    chart.data = [values]
    chart.bars[0].fillColor = ACCENT
    chart.bars[0].strokeColor = None
    chart.categoryAxis.categoryNames = [name for name, _total in totals] or [""]
    # The names under the chart, not on the zero line where they would cross the bars below it.
    chart.categoryAxis.joinAxisMode = "bottom"
    chart.categoryAxis.labels.angle = 30
    chart.categoryAxis.labels.boxAnchor = "ne"
    chart.categoryAxis.labels.fontSize = 8
    chart.valueAxis.labels.fontSize = 8
    chart.valueAxis.labelTextFormat = axis_number
    low, high = min(0, *values), max(0, *values)
    high = high if high > low else low + 10
    chart.valueAxis.valueMin = low
    chart.valueAxis.valueMax = high
    drawing.add(chart)
    if low < 0:
        # The zero line, where the bars below it start.
        zero = chart.y + (0 - low) / (high - low) * chart.height
        drawing.add(
            Line(
                chart.x, zero, chart.x + chart.width, zero, strokeColor=colors.grey, strokeWidth=0.5
            )
        )
    return drawing


_STYLE = re.compile(r' style="([^"]*)"')
_PROPERTY = re.compile(r"^[a-z-]+$")


def _presentation_attributes(match: re.Match[str]) -> str:
    """``style="fill: red; stroke: none"`` as ``fill="red" stroke="none"``: SVG presentation
    attributes draw the same, and the site's Content-Security-Policy (no inline style) lets
    them through where it blocks a ``style`` attribute."""
    attributes = []
    for declaration in match.group(1).split(";"):
        name, _colon, value = declaration.partition(":")
        name, value = name.strip(), value.strip()
        if _PROPERTY.match(name) and value:
            attributes.append(f' {name}="{value}"')
    return "".join(attributes)


def svg_markup(drawing: Drawing, *, title: str, description: str = "") -> str:
    """The drawing as an ``<svg>`` element to put inside an HTML page: no XML prolog, a
    ``<title>`` and ``<desc>`` for screen readers, and a width that follows its container."""
    svg: str = renderSVG.drawToString(
        drawing,
        svgAttrs={"role": "img", "aria-label": title, "class": "chart"},
    )
    svg = svg[svg.index("<svg") :]
    svg = _STYLE.sub(_presentation_attributes, svg)
    svg = svg.replace("<title>...</title>", f"<title>{escape(title)}</title>", 1)
    svg = svg.replace("<desc>...</desc>", f"<desc>{escape(description)}</desc>", 1)
    return svg
