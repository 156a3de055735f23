"""Reads of the clubs: which clubs a user sees, their players and members, invitations waiting
for an answer, names taken."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from tarot_scores.clubs.models import Club, HouseRules, Invitation, Membership, Player
from tarot_scores.core.collation import by_name
from tarot_scores.core.names import look_alike_key

MIN_TABLE = 3  # the fewest players a game (of tarot) seats


def clubs_for(*, user: Any) -> QuerySet[Club]:
    """The clubs a user may read: public ones and their own (every club for a superuser)."""
    if user is not None and user.is_authenticated and user.is_superuser:
        return Club.objects.all()
    if user is None or not user.is_authenticated:
        return Club.objects.filter(public=True)
    return Club.objects.filter(Q(public=True) | Q(memberships__user=user)).distinct()


def club_players(*, club: Club) -> QuerySet[Player]:
    """The club's players, by name in the database's order: pages that list them for people
    sort them with ``core.collation`` (``club_players_by_name``)."""
    return club.players.select_related("user").order_by("name", "id")


def club_players_by_name(*, club: Club) -> list[Player]:
    """The club's players as a list reads them: Éric before Sylvie."""
    return by_name(club_players(club=club), lambda p: p.name)


def club_has_played(*, club: Club) -> bool:
    """Whether the club has any game, a tournament's tables too: a club that has played is past
    its first steps."""
    return club.games.exists()


def first_step(*, club: Club, is_member: bool, players: int) -> str:
    """What a new club does next, for its members: ``players`` (fewer than a table of three),
    then ``game`` (no game yet); empty once it has played."""
    if not is_member or club_has_played(club=club):
        return ""
    return "players" if players < MIN_TABLE else "game"


def club_own_players(*, club: Club) -> QuerySet[Player]:
    """The club's own players: those whose accounts its organisers may propose (not the guests
    of its tournaments)."""
    return Player.objects.filter(club=club).select_related("user").order_by("name", "id")


def club_own_players_by_name(*, club: Club) -> list[Player]:
    """The club's own players as a list reads them (the members page's choices): Éric before
    Sylvie."""
    return by_name(club_own_players(club=club), lambda p: p.name)


def pending_invitations(*, club: Club) -> QuerySet[Invitation]:
    return (
        Invitation.objects.filter(club=club, status=Invitation.Status.PENDING)
        .select_related("user", "player")
        .order_by("created_at", "id")
    )


def invitations_for(*, user: Any) -> QuerySet[Invitation]:
    """The invitations waiting for this account's answer."""
    if user is None or not user.is_authenticated:
        return Invitation.objects.none()
    fresh = timezone.now() - timedelta(days=settings.INVITATION_DAYS)
    return (
        Invitation.objects.filter(user=user, status=Invitation.Status.PENDING, created_at__gt=fresh)
        .select_related("club", "player")
        .order_by("created_at", "id")
    )


def club_memberships(*, club: Club) -> QuerySet[Membership]:
    """Members with their account and the player it is linked to."""
    return (
        Membership.objects.filter(club=club)
        .select_related("user", "user__player")
        .order_by("user__username")
    )


def _taken(names: Any, wanted: str) -> bool:
    key = look_alike_key(wanted)
    return any(look_alike_key(name) == key for name in names)


def club_name_taken(*, name: str) -> bool:
    """Whether another club's name looks the same as ``name`` (``look_alike_key``)."""
    return Club.objects.filter(name_key=look_alike_key(name)).exists()


def player_label_taken(*, club: Club, label: str, other_than: int | None = None) -> bool:
    """Whether one of the club's players (but ``other_than``) is already shown as ``label``
    (nickname, or name), or as a label that looks the same."""
    players = club.players.all()
    if other_than is not None:
        players = players.exclude(pk=other_than)
    shown = (nickname or name for name, nickname in players.values_list("name", "nickname"))
    return _taken(shown, label)


def house_rules_name_taken(*, club: Club, name: str, other_than: int | None = None) -> bool:
    rule_sets = HouseRules.objects.filter(club=club)
    if other_than is not None:
        rule_sets = rule_sets.exclude(pk=other_than)
    return _taken(rule_sets.values_list("name", flat=True), name)
