"""Helpers of the club page tests: the house-rules form's post data, a deal payload, and reading
pages (the errors shown beside a field). Clubs themselves come from tests.factories."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from tarot_scores import scoring

_TAG = re.compile(r"<[^>]+>")


def text_of(fragment: str) -> str:
    return " ".join(unescape(_TAG.sub(" ", fragment)).split())


def field_errors(html: str, field_id: str) -> list[str]:
    """The messages of the error list tied to a field (``<ul id="<field id>_error">``), which
    the field names in its ``aria-describedby``."""
    match = re.search(
        rf'<ul class="errorlist[^"]*" id="{re.escape(field_id)}_error">(.*?)</ul>', html, re.S
    )
    if match is None:
        return []
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", match.group(1), re.S)]


def described_by(html: str, field_id: str) -> str:
    match = re.search(rf'<[^>]*id="{re.escape(field_id)}"[^>]*>', html)
    assert match is not None, f"no element #{field_id}"
    described = re.search(r'aria-describedby="([^"]*)"', match.group(0))
    return described.group(1) if described else ""


def non_field_errors(html: str) -> list[str]:
    lists = re.findall(r'<ul class="errorlist nonfield[^"]*"[^>]*>(.*?)</ul>', html, re.S)
    return [text_of(item) for block in lists for item in re.findall(r"<li>(.*?)</li>", block, re.S)]


def login(client: Client, user: User | None) -> Client:
    if user is not None:
        client.force_login(user)
    return client


def rules_post_data(name: str, based_on: str = "fft", **changes: Any) -> dict[str, Any]:
    """What the house-rules form posts for a preset with ``changes``."""
    values = {**scoring.PRESETS[based_on].to_mapping(), **changes}
    data: dict[str, Any] = {"name": name, "based_on": based_on}
    for key, value in values.items():
        if key == "name":
            continue
        if isinstance(value, bool):
            if value:
                data[key] = "on"
        elif isinstance(value, list | tuple):
            for i, item in enumerate(value):
                data[f"{key}_{i}"] = str(item)
        else:
            data[key] = str(value)
    return data


def garde(taker: int, points: float = 49, oudlers: int = 2, **extra: Any) -> dict[str, Any]:
    return {
        "taker": taker,
        "partner": None,
        "contract": "garde",
        "points": points,
        "oudlers": oudlers,
        **extra,
    }
