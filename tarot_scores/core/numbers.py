"""Whole numbers read from a request: a page number, a season, a version, an id in a form or a
query string, a number in a JSON body. One rule for all of them.

A number people send is ASCII digits (at most 18 of them, so it fits every integer column), or
for JSON an integer. Anything else is no number: ``²`` or ``①`` (which ``str.isdigit()``
accepts and ``int()`` refuses), ``١`` (which ``int()`` reads but nobody types in a URL),
``1e3``, ``-1`` where only counts make sense, ``2**63``, a NUL, ``true``. The caller then uses
its default or answers 400; it never reaches ``int()`` and a server error.
"""

from __future__ import annotations

import re

ASCII_DIGITS = re.compile(r"[0-9]{1,18}")
# The largest value an 18-digit number can take: below PostgreSQL's bigint limit (2**63 - 1).
LARGEST = 10**18 - 1


def whole_number(
    raw: object,
    *,
    default: int | None = None,
    minimum: int = 0,
    maximum: int = LARGEST,
) -> int | None:
    """``raw`` as an int between ``minimum`` and ``maximum`` (both included), else ``default``.

    ``raw`` is a query or form value (a str) or a JSON value (a str or an int; a bool is no
    number). A leading ``-`` is read only when ``minimum`` is below zero.
    """
    if isinstance(raw, bool):
        return default
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str):
        text = raw.strip()
        negative = text.startswith("-") and minimum < 0
        if negative:
            text = text[1:]
        if not ASCII_DIGITS.fullmatch(text):
            return default
        value = -int(text) if negative else int(text)
    else:
        return default
    return value if minimum <= value <= maximum else default
