"""The score chart: one reportlab drawing, as inline SVG for the page and as PDF for print."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.utils import translation
from reportlab.graphics import renderPDF

from tarot_scores.stats.charts import (
    MAX_POINTS,
    axis_number,
    label_steps,
    render_points_bars,
    render_rating_chart,
    render_score_chart,
    svg_markup,
    thinned,
)

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


def _texts(markup: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(markup).iter(f"{SVG}text")]


@pytest.mark.parametrize(
    ("language", "shown", "never"),
    [("fr", "\u22120,2", "-0.2"), ("en", "\u22120.2", "-0.2")],
)
def test_axis_numbers_as_the_reader_writes_them(language: str, shown: str, never: str) -> None:
    points = [("1 déc.", -0.4), ("2 déc.", -0.2), ("3 déc.", 0.3)]
    with translation.override(language):
        texts = _texts(svg_markup(render_rating_chart(points), title="Cote"))
    assert shown in texts
    assert never not in texts and not any(t.startswith("-") for t in texts)


def test_axis_number_words() -> None:
    with translation.override("fr"):
        assert [axis_number(v) for v in (-0.2, 0.0, -0.0, 1.5, -250, 40)] == [
            "\u22120,2",
            "0",
            "0",
            "1,5",
            "\u2212250",
            "40",
        ]


def test_a_day_of_several_games_is_written_once_under_the_axis() -> None:
    days = ["2 déc."] * 3 + ["9 déc."] * 2 + ["16 déc."]
    points = [(day, float(i * 10)) for i, day in enumerate(days)]
    texts = _texts(svg_markup(render_score_chart([(d, int(t)) for d, t in points]), title="x"))
    dates = [t for t in texts if "déc." in t]
    assert dates == ["2 déc.", "9 déc.", "16 déc."]
    assert label_steps(days) == [1, 4, 6]
    many = [f"{d} nov." for d in range(1, 31) for _ in range(2)]
    steps = label_steps(many)
    assert len(steps) == 4 and len({many[i - 1] for i in steps}) == 4


def test_bar_names_sit_under_the_chart_not_over_the_bars_below_zero() -> None:
    drawing = render_points_bars([("Aurélie", 300), ("Bruno", -200), ("Chloé", -50)])
    svg = ET.fromstring(svg_markup(drawing, title="Points"))
    chart_bottom = 60  # render_points_bars's chart.y
    for group in svg.iter(f"{SVG}g"):
        text = group.find(f"{SVG}text")
        if text is not None and text.text in {"Aurélie", "Bruno", "Chloé"}:
            matrix = (group.get("transform") or "").split("(")[1].rstrip(")").split(",")
            assert float(matrix[5]) < chart_bottom, text.text
    # And in the season report's PDF, the same drawing.
    assert b"%PDF" in renderPDF.drawToString(drawing)[:8]
