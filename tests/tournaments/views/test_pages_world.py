"""Helpers of the tournament page tests: the deal form as a phone posts it, a round's live deals
and a page's text. The tournament world itself is built by tests.factories (``build_world``)."""

from __future__ import annotations

import html
import re
from typing import Any

from tarot_scores.games.models import Deal
from tournaments.models import Round


def deal_post(taker: int, number: int, **given: Any) -> dict[str, str]:
    """The deal entry form as a phone sends it: a garde with two bouts and 49 points."""
    data: dict[str, Any] = {
        "number": number,
        "taker": taker,
        "contract": "garde",
        "oudlers": 2,
        "points": "49",
        "petit_au_bout": "",
        "slam": "",
        **given,
    }
    return {k: str(v) for k, v in data.items()}


def live_deals(round_: Round) -> list[Deal]:
    return list(Deal.objects.filter(game__tournament_table__round=round_, deleted_at__isnull=True))


def text_of(content: bytes) -> str:
    """A page as a reader sees it: no tags, entities decoded, whitespace squeezed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content.decode())))
