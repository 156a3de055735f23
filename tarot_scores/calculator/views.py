"""The public score calculator page: one tarot deal in, everyone's score out, nothing stored.

The same page serves three ways: a plain GET (an empty form, ``?players=5`` for five), a plain
POST (the whole page again, with the scores or the messages beside the fields) and htmx's live
POST while someone types (only the result area, plus each field's message box out of band).
"""

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods

from tarot_scores.calculator.forms import PLAYER_COUNTS, CalculatorForm, player_count
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.scoring import Result, ScoringError, score

TEMPLATE = "tarot_scores/calculator.html"


@dataclass(frozen=True)
class ScoreLine:
    """One player's line of the result: the name, the role at this deal and the points."""

    name: str
    points: int
    role: str  # "taker", "partner", "sitting_out" or ""

    @property
    def signed(self) -> str:
        return f"{self.points:+d}" if self.points else "0"

    @property
    def trend(self) -> str:
        return "positive" if self.points > 0 else "negative" if self.points < 0 else "even"


def score_lines(deal: dict[str, Any], result: Result) -> list[ScoreLine]:
    roles = {deal["taker"]: "taker"}
    if deal.get("partner") and deal["partner"] != deal["taker"]:
        roles[deal["partner"]] = "partner"
    if deal.get("sitting_out"):
        roles[deal["sitting_out"]] = "sitting_out"
    return [ScoreLine(name, points, roles.get(name, "")) for name, points in result.scores.items()]


@require_http_methods(["GET", "HEAD", "POST"])
def calculator(request: HtmxHttpRequest) -> HttpResponse:
    lang = get_language()
    if request.method == "POST":
        form = CalculatorForm(request.POST, players=player_count(request.POST.get("players")))
    else:
        initial = {"variant": request.GET.get("variant", "fft")}
        form = CalculatorForm(players=player_count(request.GET.get("players")), initial=initial)

    result: Result | None = None
    lines: list[ScoreLine] = []
    if form.is_bound and form.is_valid():
        deal = form.deal()
        try:
            result = score(deal)
        except ScoringError as error:
            form.add_scoring_errors(error, lang)
        else:
            lines = score_lines(deal, result)

    live = bool(request.htmx) and not request.htmx.boosted
    missing = form.set_aside_missing() if live and form.is_bound else []
    context = {
        "form": form,
        "player_counts": PLAYER_COUNTS,
        "live": live,
        "result": result,
        "lines": lines,
        "breakdown": result.breakdown(lang) if result is not None else [],
        "margin": abs(result.margin) if result is not None and result.margin is not None else None,
        "missing": missing,
    }
    response = render(request, f"{TEMPLATE}#result" if live else TEMPLATE, context)
    # The same URL answers a fragment or a whole page: caches must keep them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response
