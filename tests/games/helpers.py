"""What a phone posts for a deal, and how to read a page's answer."""

from __future__ import annotations

import html
import re
from typing import Any


def tarot_post(taker: int, **given: Any) -> dict[str, Any]:
    """The deal entry form as a phone sends it (players by id, extras left at "none");
    ``given`` adds or replaces fields: number, contract, oudlers, points, handful_12..."""
    data: dict[str, Any] = {
        "number": 1,
        "taker": taker,
        "contract": "garde",
        "oudlers": 2,
        "points": "49",
        "petit_au_bout": "",
        "slam": "",
        **given,
    }
    return {k: str(v) if isinstance(v, int) else v for k, v in data.items()}


def slot_text(content: bytes | str, slot: str) -> str:
    """The messages shown in one error slot of the entry form, as a reader sees them."""
    text = content.decode() if isinstance(content, bytes) else content
    found = re.search(
        rf'<div id="deal-err-{slot}" class="field-errors"[^>]*>(.*?)</div>', text, re.S
    )
    assert found, f"no error slot {slot!r} on the page"
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def page_text(content: bytes) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content.decode())))
