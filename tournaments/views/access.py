"""Who reaches a tournament page, and the small things every tournament page shows.

A private club's tournaments answer 404 to outsiders, so their existence is not revealed;
members without the organiser role get 403 on the pages that manage a tournament; anonymous
visitors of those pages are sent to the login page first.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass

import segno
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from tarot_scores.clubs import permissions
from tarot_scores.clubs.permissions import club_readable
from tournaments.formats import round_name
from tournaments.models import Round, Table, Tournament

__all__ = ["round_name"]  # the pages name rounds as the papers do (tournaments.formats)


def readable(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, if this user may read its club; otherwise 404, whether or not it exists."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("club", "house_rules"), pk=tournament_id
    )
    club_readable(request, tournament.club)
    return tournament


def managed(request: HttpRequest, tournament_id: int) -> Tournament:
    """The tournament, for an organiser of its club (or a superuser): 403 for other readers."""
    tournament = readable(request, tournament_id)
    if not permissions.is_organiser(request, tournament.club):
        raise PermissionDenied
    return tournament


def round_of(tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    return round_


def entry_url(request: HttpRequest, table: Table) -> str:
    """A table's private link, absolute: it is printed and read by phones as a QR code."""
    return request.build_absolute_uri(reverse("tournaments:table_entry", args=[table.token]))


def table_poll_context(table: Table) -> dict[str, str]:
    """What a table's page needs to keep in step with the table's other phones (the poll of
    ``views.table_sync``): the poll's address, how often (htmx's "every", from
    ``TABLE_POLL_SECONDS``), and the page that "Refresh" reloads without JavaScript."""
    every = max(100, round(settings.TABLE_POLL_SECONDS * 1000))
    return {
        "poll_url": reverse("tournaments:table_poll", args=[table.token]),
        "poll_every": f"{every}ms",
        "table_url": reverse("tournaments:table_entry", args=[table.token]),
    }


def qr_svg(url: str, title: str) -> SafeString:
    """The link as an inline SVG QR code that scales with its box."""
    svg = segno.make(url, error="m").svg_inline(
        scale=1, border=2, omitsize=True, svgclass="qr", title=title
    )
    # segno escapes the title; the rest is its own markup.
    return mark_safe(svg)


@dataclass(frozen=True)
class Countdown:
    """How long a round has left: from its start and the tournament's minutes per round."""

    deadline: datetime.datetime
    seconds_left: int  # below zero once the time is up

    @property
    def over(self) -> bool:
        return self.seconds_left <= 0

    @property
    def minutes_left(self) -> int:
        """Rounded up: "1 min" until the very last second."""
        return max(0, math.ceil(self.seconds_left / 60))

    @property
    def minutes_over(self) -> int:
        return max(0, -self.seconds_left // 60)


def countdown(tournament: Tournament, round_: Round | None) -> Countdown | None:
    if round_ is None or round_.status != Round.Status.PLAYING:
        return None
    deadline = round_.ends_at(tournament.round_minutes)
    if deadline is None:
        return None
    return Countdown(deadline, int((deadline - timezone.now()).total_seconds()))
