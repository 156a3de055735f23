"""The score chart: one reportlab drawing, as inline SVG for the page and as PDF for print."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from reportlab.graphics import renderPDF

from tarot_scores.stats.charts import MAX_POINTS, render_score_chart, svg_markup, thinned

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("count", [1, 2, 7, 40])
def test_one_marked_point_per_game(count: int) -> None:
    points = [(f"{i}/10", (i - 3) * 50) for i in range(1, count + 1)]
    svg = ET.fromstring(svg_markup(render_score_chart(points), title="Chloé"))
    assert len(svg.findall(f".//{SVG}circle")) == count
    polyline = svg.find(f".//{SVG}polyline")
    if count > 1:
        assert polyline is not None
        assert len((polyline.get("points") or "").split(",")) == count


def test_svg_is_fit_for_a_page() -> None:
    markup = svg_markup(
        render_score_chart([("1/9", 10), ("8/9", -30)]),
        title="Score de <Chloé> & co",
        description="Total après chaque partie",
    )
    assert markup.startswith("<svg")  # no XML prolog inside HTML
    svg = ET.fromstring(markup)
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == "Score de <Chloé> & co"
    assert svg.get("viewBox") == "0 0 400 200"
    assert svg.find(f"{SVG}title") is not None
    assert svg.findtext(f"{SVG}title") == "Score de <Chloé> & co"
    assert svg.findtext(f"{SVG}desc") == "Total après chaque partie"


def test_few_labels_under_many_games() -> None:
    points = [(f"d{i}", i) for i in range(1, 31)]
    svg = ET.fromstring(svg_markup(render_score_chart(points), title="x"))
    labels = [t.text for t in svg.iter(f"{SVG}text") if (t.text or "").startswith("d")]
    assert 1 < len(labels) <= 5
    assert labels[0] == "d1"


def test_empty_chart_still_draws() -> None:
    svg = ET.fromstring(svg_markup(render_score_chart([]), title="x"))
    assert svg.findall(f".//{SVG}circle") == []


def test_the_same_drawing_goes_into_a_pdf() -> None:
    pdf = renderPDF.drawToString(render_score_chart([("1/9", 10), ("8/9", -30)]))
    assert pdf.startswith(b"%PDF")


@pytest.mark.parametrize("count", [159, 160, 161, 2000])
def test_a_long_curve_draws_at_most_the_points_the_plot_can_show(count: int) -> None:
    points = [(f"d{i}", float(i % 17)) for i in range(1, count + 1)]
    kept = thinned(points)
    assert len(kept) == min(count, MAX_POINTS)
    assert kept[0] == points[0] and kept[-1] == points[-1]
    svg = ET.fromstring(svg_markup(render_score_chart([(d, int(v)) for d, v in points]), title="x"))
    polyline = svg.find(f".//{SVG}polyline")
    assert polyline is not None
    assert len((polyline.get("points") or "").split(",")) == min(count, MAX_POINTS)
