"""A tournament's referees (arbitres): the accounts its organisers name for the event."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import Code, TournamentRefusal
from tournaments.models import Tournament


def _refusal(field: str, code: Code, message: str) -> TournamentRefusal:
    return TournamentRefusal.on(field, code, message)


@transaction.atomic
def referee_add(*, tournament: Tournament, user: Any) -> Tournament:
    """Name ``user`` a referee (arbitre) of the tournament. A private club's tournament is read
    by its members only, so there the referee must be a member first. ``Refusal`` on ``user``
    otherwise, or if already named."""
    if tournament.referees.filter(pk=user.pk).exists():
        raise _refusal(
            "user",
            Code.ALREADY_REFEREE,
            _("%(name)s is already a referee of this tournament.") % {"name": user.get_username()},
        )
    club = tournament.club
    if not club.public and not club.memberships.filter(user=user).exists():
        raise _refusal(
            "user",
            Code.REFEREE_NOT_MEMBER,
            _(
                "%(name)s is not a member of this private club: invite them on the members page "
                "first."
            )
            % {"name": user.get_username()},
        )
    tournament.referees.add(user)
    return tournament


@transaction.atomic
def referee_remove(*, tournament: Tournament, user: Any) -> Tournament:
    tournament.referees.remove(user)
    return tournament
