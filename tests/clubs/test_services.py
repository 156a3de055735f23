"""The clubs' services keep their rules even when two requests race."""

from __future__ import annotations

from typing import Any

import pytest

from tarot_scores.clubs import selectors, services
from tarot_scores.clubs.models import Membership
from tarot_scores.core.errors import Refusal
from tests.factories import ClubFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def test_a_club_name_taken_at_the_same_instant_is_the_same_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The other request's club is stored after this one looked: the database refuses the row,
    # and the service answers as if it had seen it.
    ClubFactory.create(name="Tarot Club de Lyon", slug="autre")
    looks: list[bool] = []
    real = selectors.club_name_taken

    def first_look_misses(**kwargs: Any) -> bool:
        looks.append(True)
        return len(looks) > 1 and real(**kwargs)

    monkeypatch.setattr(selectors, "club_name_taken", first_look_misses)

    with pytest.raises(Refusal) as refused:
        services.club_create(name="Tarot Club de Lyon", by=None)

    assert refused.value.codes() == {"name": ["club_name_taken"]}
    assert len(looks) == 2


def test_an_organiser_may_step_down_while_another_remains() -> None:
    club = ClubFactory.create()
    first, second = (
        MembershipFactory.create(club=club, role=Membership.Role.ORGANISER) for _ in range(2)
    )

    services.membership_update(membership=first, role=Membership.Role.MEMBER, player=None)

    with pytest.raises(Refusal) as refused:
        services.membership_update(membership=second, role=Membership.Role.MEMBER, player=None)
    assert refused.value.codes() == {"role": ["last_organiser"]}
    second.refresh_from_db()
    assert second.role == Membership.Role.ORGANISER


def test_adding_a_member_again_is_refused_and_keeps_their_role() -> None:
    organiser = MembershipFactory.create(role=Membership.Role.ORGANISER)

    with pytest.raises(Refusal) as refused:
        services.member_add(club=organiser.club, role=Membership.Role.MEMBER, user=organiser.user)

    assert refused.value.codes() == {"user": ["already_member"]}
    organiser.refresh_from_db()
    assert organiser.role == Membership.Role.ORGANISER
