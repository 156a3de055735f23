"""One way to read a number from a request (tarot_scores/core/numbers.py), and the audit's
cases of numbers that used to end in a server error, each asked the way the audit asked it."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Invitation, Membership
from tarot_scores.core.numbers import LARGEST, whole_number
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tests.factories import build_world, play, signed_in_client
from tests.tournaments.play.test_pages_confirmation import enter_at, event, link, phone
from tournaments.models import Penalty, Round
from tournaments.play import penalties
from tournaments.rounds import selectors

ODD = ["²", "①", "١", "1e3", "3.5", "", "x", "\x00", "--1", "+1", str(2**63), "1" * 19]


@pytest.mark.parametrize("raw", ODD)
def test_what_is_no_number_gives_the_default(raw: str) -> None:
    assert whole_number(raw) is None
    assert whole_number(raw, default=7) == 7


@pytest.mark.parametrize(
    ("raw", "kwargs", "expected"),
    [
        ("12", {}, 12),
        (" 12 ", {}, 12),
        ("0", {}, 0),
        ("0", {"minimum": 1}, None),
        ("-1", {}, None),
        ("-1", {"minimum": -5}, -1),
        ("3000", {"maximum": 2999}, None),
        (str(LARGEST), {}, LARGEST),
        (12, {}, 12),
        (True, {}, None),
        (2**63, {}, None),
        (1e3, {}, None),
        (None, {"default": 3}, 3),
        (["1"], {}, None),
    ],
)
def test_a_number_is_ascii_digits_in_range(raw: Any, kwargs: dict[str, Any], expected: Any) -> None:
    assert whole_number(raw, **kwargs) == expected


@pytest.mark.django_db
@pytest.mark.parametrize("odd", ["²", "①"])
def test_results_pages_read_an_odd_page_as_none(odd: str) -> None:
    world = build_world()
    anonymous = Client()
    for name in ("tournaments:standings", "tournaments:projector"):
        response = anonymous.get(reverse(name, args=[world.tournament.pk]), {"page": odd})
        assert response.status_code == 200, name
    report = anonymous.get(
        reverse("clubs:season_report", args=[world.club.slug]), {"season": odd, "page": odd}
    )
    assert report.status_code == 200
    assert report["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_removing_a_penalty_with_an_odd_id_is_a_404_and_removes_nothing() -> None:
    world = build_world()
    entry = world.tournament.entries.exclude(pk=world.absent.pk).first()
    assert entry is not None
    penalty = penalties.penalty_give(
        tournament=world.tournament,
        entry=entry,
        points=10,
        reason="Retard",
        by=None,
        round_number=1,
    )
    organiser = world.client("organiser")
    url = reverse("tournaments:penalties", args=[world.tournament.pk])
    response = organiser.post(url, {"action": "remove", "penalty": "²", "reason": "x"})
    assert response.status_code == 404
    assert Penalty.objects.get(pk=penalty.pk).removed_at is None


@pytest.mark.django_db
def test_cancelling_an_invitation_with_an_odd_id_is_a_404() -> None:
    world = build_world()
    organiser = world.users["organiser"]
    invitation = Invitation.objects.create(
        club=world.club, email="x@example.org", role=Membership.Role.MEMBER, created_by=organiser
    )
    url = reverse("clubs:members", args=[world.club.slug])
    for odd in ["abc", "²", str(2**63)]:
        response = world.client("organiser").post(url, {"action": "cancel", "invitation": odd})
        assert response.status_code == 404
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.PENDING


@pytest.mark.django_db
def test_confirming_with_an_odd_version_is_refused_not_a_crash() -> None:
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    response = phone(state, 1).post(link(state, "table_deal_confirm", deal.pk), {"version": "²"})
    assert response.status_code < 500


@pytest.mark.django_db
def test_undo_on_a_reopened_table_of_a_closed_round_asks_for_the_reason() -> None:
    world = build_world()
    play(world.round)
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.CLOSED
    state = selectors.round_tables(round_=world.round)[0]
    game = state.table.game
    game_services.game_set_status(game=game, status=Game.Status.OPEN)
    deal = Deal.objects.filter(game=game).order_by("-number").first()
    assert deal is not None
    organiser = signed_in_client(world.users["organiser"])
    url = reverse("games:deal_undo", args=[deal.pk])

    asked = organiser.post(url, {"version": deal.version}, headers={"HX-Request": "true"})
    assert asked.status_code == 400
    content = asked.content.decode()
    assert 'id="undo-reason"' in content and 'name="reason"' in content
    assert Deal.objects.get(pk=deal.pk).deleted_at is None

    done = organiser.post(url, {"version": deal.version, "reason": "Points mal recopiés"})
    assert done.status_code == 302
    assert Deal.objects.get(pk=deal.pk).deleted_at is not None
    assert deal.revisions.order_by("-pk").first().reason == "Points mal recopiés"  # type: ignore[union-attr]
