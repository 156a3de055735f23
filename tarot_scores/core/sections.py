"""Parts of a page that a concern adds: a signed-in reader's home page (their clubs, their open
games, their tournaments today) and a club's page (its tournaments, their tables grouped under
each). Each concern registers a function at start-up (an AppConfig's ``ready``), so the page
shows what tournaments adds without the site importing tournaments. A function reads what its
part needs in a fixed number of queries and answers None when it has nothing to show."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest

from tarot_scores.clubs.models import Club


@dataclass(frozen=True)
class Section:
    """A part of a page: the template that draws it and what that template reads."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


HomeSection = Callable[[HttpRequest], Section | None]
ClubSection = Callable[[HttpRequest, Club], Section | None]

_home: list[HomeSection] = []
_club: list[ClubSection] = []


def on_home_page(source: HomeSection) -> HomeSection:
    """Add ``source``'s part to a signed-in reader's home page, after those added before."""
    if source not in _home:
        _home.append(source)
    return source


def on_club_page(source: ClubSection) -> ClubSection:
    """Add ``source``'s part to a club's page, after its games."""
    if source not in _club:
        _club.append(source)
    return source


def home_page_sections(request: HttpRequest) -> list[Section]:
    return [s for s in (source(request) for source in _home) if s is not None]


def club_page_sections(request: HttpRequest, club: Club) -> list[Section]:
    return [s for s in (source(request, club) for source in _club) if s is not None]
