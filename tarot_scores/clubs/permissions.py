"""Who may do what in a club.

Organisers manage members and house rules and may correct any deal of their club. Members
create games and enter or correct deals in the games they sit in (through the player linked
to their account). Everyone may read a club that publishes its results. Superusers may do
everything. HTML views and the API ask these same questions.
"""

from __future__ import annotations

from typing import Any

from tarot_scores.clubs.models import Club, Membership
from tarot_scores.games.models import Deal, Game


def _role(user: Any, club: Club) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    cache: dict[int, str | None] = user.__dict__.setdefault("_club_roles", {})
    if club.pk not in cache:
        cache[club.pk] = (
            Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        )
    return cache[club.pk]


def is_superuser(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_superuser)


def can_view_club(user: Any, club: Club) -> bool:
    return club.public or is_superuser(user) or _role(user, club) is not None


def is_member(user: Any, club: Club) -> bool:
    return is_superuser(user) or _role(user, club) is not None


def is_organiser(user: Any, club: Club) -> bool:
    return is_superuser(user) or _role(user, club) == Membership.Role.ORGANISER


def can_create_game(user: Any, club: Club) -> bool:
    return is_member(user, club)


def can_add_player(user: Any, club: Club) -> bool:
    return is_member(user, club)


def sits_in(user: Any, game: Game) -> bool:
    if user is None or not user.is_authenticated:
        return False
    cache: dict[int, bool] = user.__dict__.setdefault("_seated_in", {})
    if game.pk not in cache:
        cache[game.pk] = game.seats.filter(player__user=user).exists()
    return cache[game.pk]


def can_enter_deals(user: Any, game: Game) -> bool:
    """Organisers of the club; members who sit at the table."""
    if is_organiser(user, game.club):
        return True
    return is_member(user, game.club) and sits_in(user, game)


def can_correct_deal(user: Any, deal: Deal) -> bool:
    return can_enter_deals(user, deal.game)


def can_manage_game(user: Any, game: Game) -> bool:
    """Finish or reopen a game: whoever may enter its deals."""
    return can_enter_deals(user, game)
