"""Names in the order people read them: alphabetical as in a French list, accents and case
aside (Éric before Sylvie, Émile between Denis and Fanny), not in the order of their bytes.

One key for every list of people the site shows (a club's players, the choices of a round's
swaps and substitutes, a tie between equal totals). The database's own ordering depends on its
collation (SQLite and PostgreSQL's "C" put Éric after Zoé), so lists of people are sorted here."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


def name_key(name: str) -> tuple[str, str]:
    """A sort key for a name: its letters without accents or case first, then the name itself
    (so "Eric" and "Éric" still come in a fixed order)."""
    decomposed = unicodedata.normalize("NFKD", name)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return (folded, name)


def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """``items`` sorted by ``name_key`` of the name ``name`` gives each."""
    return sorted(items, key=lambda item: name_key(name(item)))
