"""The Content-Security-Policy: every page sends it; no template holds an inline script, an event
handler attribute, an inline style or htmx's eval; htmx is told not to eval."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.factories import build_table, build_world, garde, play
from tournaments.models import Table

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def policy(response) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


class InlineCode(HTMLParser):
    """Collects what a Content-Security-Policy without 'unsafe-inline' would block."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): value or "" for name, value in attrs}
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in names.items():
            if name.startswith("on"):
                self.found.append(f"{name}= handler")
            if name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"{name} attribute")
            if name == "style":
                self.found.append("style= attribute")
            if name in {"hx-vals", "hx-vars", "hx-headers"} and value.strip().startswith("js:"):
                self.found.append(f"{name}=js: value")
            if name == "href" and value.strip().lower().startswith("javascript:"):
                self.found.append("javascript: link")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


def test_the_parser_finds_what_it_looks_for() -> None:
    html = (
        '<script>alert(1)</script><script src="/x.js"></script><a onclick="x()" href="#">'
        '<p style="color: red" hx-on:click="x()" hx-vals="js:{a: 1}"><style>p{}</style>'
    )
    assert sorted(inline_code(html)) == sorted(
        [
            "<script> without src",
            "onclick= handler",
            "style= attribute",
            "hx-on:click attribute",
            "hx-vals=js: value",
            "<style> element",
        ]
    )


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_no_template_has_inline_code(template: Path) -> None:
    assert inline_code(template.read_text(encoding="utf-8")) == []


def test_htmx_is_told_not_to_eval() -> None:
    for name in ("base.html", "tournaments/projector.html"):
        html = (TEMPLATES / name).read_text(encoding="utf-8")
        match = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", html)
        assert match is not None, name
        config = json.loads(match.group(1))
        assert config["allowEval"] is False
        assert config["includeIndicatorStyles"] is False


@pytest.mark.django_db
def test_every_page_sends_the_policy() -> None:
    table = build_table()
    a, b, c, _d = table.ids
    table.record(garde(c))
    table.record(garde(a, points=30))
    world = build_world(tag="w")
    play(world.round, seed=2)
    club = table.club
    knockout_table = Table.objects.filter(round__tournament=world.knockout).first()
    assert knockout_table is not None
    pages = [
        reverse("home"),
        reverse("login"),
        reverse("calculator"),
        reverse("clubs:detail", args=[club.slug]),
        reverse("clubs:leaderboard", args=[club.slug]),
        reverse("clubs:player", args=[club.slug, b]),
        reverse("games:detail", args=[table.game.pk]),
        reverse("tournaments:standings", args=[world.tournament.pk]),
        reverse("tournaments:projector", args=[world.tournament.pk]),
        reverse("tournaments:table_entry", args=[knockout_table.token]),
    ]
    client = Client()
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        directives = policy(response)
        assert directives["default-src"] == ["'self'"]
        assert directives["script-src"] == ["'self'"], url
        assert directives["style-src"] == ["'self'"], url
        assert directives["object-src"] == ["'none'"]
        assert directives["base-uri"] == ["'self'"]
        assert directives["frame-ancestors"] == ["'none'"]
        assert directives["form-action"] == ["'self'"]
        assert directives["img-src"] == ["'self'", "data:"]
        # What the page is, once drawn (charts included), holds nothing the policy blocks.
        assert inline_code(response.content.decode()) == [], url


@pytest.mark.django_db
def test_the_player_page_chart_is_drawn_without_style_attributes() -> None:
    table = build_table()
    table.record(garde(table.ids[2]))
    club = table.club
    html = Client().get(reverse("clubs:player", args=[club.slug, table.ids[2]])).content.decode()
    assert "<svg" in html
    assert ' fill="' in html
    assert "style=" not in html
