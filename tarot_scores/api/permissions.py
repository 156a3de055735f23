"""Who may call the club API, in the API's terms: 401, 404 or 403.

The questions themselves (may this user read the club, enter deals at this table...) are
``tarot_scores.permissions``, the same the HTML pages ask. This module only orders them: an
anonymous write is 401 before anything is looked up; a private club does not exist for an
outsider (404, as the pages do); a reader without the right to write gets 403.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Club
from tarot_scores.games.models import Deal, Game


class ReadAnyoneWriteSignedIn(BasePermission):
    """Anyone may read (what they may read is checked per object); writes need an account."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_authenticated)


def readable_club(who: Any, club: Club) -> Club:
    """The club, or 404 for someone who may not know it exists."""
    if not permissions.can_view_club(who, club):
        raise Http404
    return club


def club_or_404(who: Any, pk: int) -> Club:
    club = Club.objects.filter(pk=pk).first()
    if club is None:
        raise Http404
    return readable_club(who, club)


def game_or_404(who: Any, pk: int) -> Game:
    game = Game.objects.select_related("club").filter(pk=pk).first()
    if game is None:
        raise Http404
    readable_club(who, game.club)
    return game


def deal_or_404(who: Any, pk: int) -> Deal:
    deal = Deal.objects.select_related("game__club").filter(pk=pk).first()
    if deal is None:
        raise Http404
    readable_club(who, deal.game.club)
    return deal


def require(allowed: bool, message: str | None = None) -> None:
    """403 unless ``allowed``: the user may read this but not change it."""
    if not allowed:
        raise PermissionDenied(message)
