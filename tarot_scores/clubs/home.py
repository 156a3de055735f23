"""The reader's clubs on their home page (``core.sections``): each with their role."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tarot_scores.clubs.models import Membership
from tarot_scores.core.sections import Section


def home_clubs(request: HttpRequest) -> Section:
    """The clubs the reader belongs to, by name, in one query."""
    user: Any = request.user  # signed in: the home page asks only then
    memberships = list(
        Membership.objects.filter(user=user).select_related("club").order_by("club__name")
    )
    return Section("tarot_scores/home/_clubs.html", {"memberships": memberships})
