"""Parts of a page that a concern adds: a signed-in reader's home page (their clubs, their open
games, their tournaments today) and a club's page (its tournaments, their tables grouped under
each). Each concern registers a function at start-up (an AppConfig's ``ready``), so the page
shows what tournaments adds without the site importing tournaments. A function reads what its
part needs in a fixed number of queries and answers None when it has nothing to show."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest

from tarot_scores.core.hooks import Hook

if TYPE_CHECKING:
    # Only named in the hooks' shapes: the clubs sit above core.
    from tarot_scores.clubs.models import Club


@dataclass(frozen=True)
class Section:
    """A part of a page: the template that draws it and what that template reads."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)


HomeSection = Callable[[HttpRequest], Section | None]
ClubSection = Callable[[HttpRequest, "Club"], Section | None]

home_sections: Hook[HomeSection] = Hook("core.sections.home_sections")
club_sections: Hook[ClubSection] = Hook("core.sections.club_sections")

# Add a part to a signed-in reader's home page, after those added before.
on_home_page = home_sections.register
# Add a part to a club's page, after its games.
on_club_page = club_sections.register


def home_page_sections(request: HttpRequest) -> list[Section]:
    return home_sections.answers(lambda source: source(request))


def club_page_sections(request: HttpRequest, club: Club) -> list[Section]:
    return club_sections.answers(lambda source: source(request, club))
