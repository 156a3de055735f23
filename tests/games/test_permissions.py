"""Who may read and write each game page: a test per view and role that fails if a check breaks.

Roles: anonymous, a logged-in outsider, a club member who does not sit at the table, a member
seated at it, an organiser, a superuser. Public clubs are readable by anyone; private ones do
not exist for outsiders (404). Writes by the wrong people change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.urls import reverse

from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tests.factories import ROLES, WRITERS, Table, build_table, garde
from tests.games.helpers import tarot_post

pytestmark = pytest.mark.django_db


@dataclass
class World:
    table: Table
    live: Deal  # deal 1
    deleted: Deal  # deal 2, struck off


def world(public: bool) -> World:
    table = build_table(public=public)
    live = table.record()
    deleted = table.record(garde(table.ids[2], points=60))
    services.deal_delete(deal=deleted, version=deleted.version, by=None)
    return World(table, live, deleted)


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]] = field(default=lambda w: {})
    write: bool = True
    # For a write: did it happen? (None: the view writes nothing, e.g. the preview)
    happened: Callable[[World], bool] | None = None
    ok: int = 302


def _refetch(deal: Deal) -> Deal:
    return Deal.objects.get(pk=deal.pk)


CASES = [
    Case(
        "detail",
        "GET",
        lambda w: reverse("games:detail", args=[w.table.game.pk]),
        write=False,
        ok=200,
    ),
    Case(
        "history",
        "GET",
        lambda w: reverse("games:deal_history", args=[w.live.pk]),
        write=False,
        ok=200,
    ),
    Case("csv", "GET", lambda w: reverse("games:csv", args=[w.table.game.pk]), write=False, ok=200),
    Case("pdf", "GET", lambda w: reverse("games:pdf", args=[w.table.game.pk]), write=False, ok=200),
    Case(
        "deal_new page", "GET", lambda w: reverse("games:deal_new", args=[w.table.game.pk]), ok=200
    ),
    Case("deal_edit page", "GET", lambda w: reverse("games:deal_edit", args=[w.live.pk]), ok=200),
    Case(
        "deal_new save",
        "POST",
        lambda w: reverse("games:deal_new", args=[w.table.game.pk]),
        # Deal 2 is struck off: the next deal takes its number again.
        lambda w: tarot_post(w.table.ids[0], number=2),
        happened=lambda w: w.table.game.deals.filter(number=2, deleted_at__isnull=True).exists(),
    ),
    Case(
        "deal_preview",
        "POST",
        lambda w: reverse("games:deal_preview", args=[w.table.game.pk]),
        lambda w: tarot_post(w.table.ids[0], number=3),
        ok=200,
    ),
    Case(
        "deal_edit save",
        "POST",
        lambda w: reverse("games:deal_edit", args=[w.live.pk]),
        lambda w: tarot_post(w.table.ids[3], points="60", version=1),
        happened=lambda w: _refetch(w.live).version == 2,
    ),
    Case(
        "deal_delete",
        "POST",
        lambda w: reverse("games:deal_delete", args=[w.live.pk]),
        lambda w: {"version": "1"},
        happened=lambda w: _refetch(w.live).is_deleted,
    ),
    Case(
        "deal_restore",
        "POST",
        lambda w: reverse("games:deal_restore", args=[w.deleted.pk]),
        happened=lambda w: not _refetch(w.deleted).is_deleted,
    ),
    Case(
        "status",
        "POST",
        lambda w: reverse("games:status", args=[w.table.game.pk]),
        lambda w: {"status": "finished"},
        happened=lambda w: Game.objects.get(pk=w.table.game.pk).status == "finished",
    ),
]


def expected(case: Case, role: str, public: bool) -> int:
    if case.write and role == "anonymous":
        return 302  # to the login page
    if not case.write:
        return case.ok if public or role not in ("anonymous", "outsider") else 404
    if role == "outsider":
        return 403 if public else 404
    if role == "member":
        return 403
    return case.ok


@pytest.mark.parametrize("public", [True, False], ids=["public", "private"])
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_access(case: Case, role: str, public: bool) -> None:
    w = world(public)
    client = w.table.client(role)
    url = case.url(w)

    response = client.get(url) if case.method == "GET" else client.post(url, case.data(w))

    assert response.status_code == expected(case, role, public), (case.name, role)
    if response.status_code == 302 and role == "anonymous":
        assert response["Location"].startswith(reverse("login"))
    if case.happened is not None:
        assert case.happened(w) is (role in WRITERS), (case.name, role)


@pytest.mark.parametrize("role", ROLES)
def test_htmx_writes_by_anonymous_go_to_login_page(role: str) -> None:
    w = world(public=True)
    client = w.table.client(role)
    response = client.post(
        reverse("games:deal_new", args=[w.table.game.pk]),
        tarot_post(w.table.ids[0], number=2),
        headers={"HX-Request": "true"},
    )
    if role == "anonymous":
        assert response.status_code == 200
        assert response["HX-Redirect"].startswith(reverse("login"))
    live = w.table.game.deals.filter(number=2, deleted_at__isnull=True)
    assert live.exists() is (role in WRITERS)


def test_a_member_of_another_club_cannot_enter_deals() -> None:
    w = world(public=True)
    other = build_table(public=True, tag="2")
    stranger = other.users["organiser"]
    assert stranger is not None
    client = w.table.client("anonymous")
    client.force_login(stranger)

    response = client.post(
        reverse("games:deal_new", args=[w.table.game.pk]), tarot_post(w.table.ids[0], number=3)
    )

    assert response.status_code == 403
    assert not Deal.objects.filter(game=w.table.game, number=3).exists()


def test_unknown_game_and_deal_are_404() -> None:
    w = world(public=True)
    client = w.table.client("superuser")
    assert client.get(reverse("games:detail", args=[999999])).status_code == 404
    assert client.get(reverse("games:deal_new", args=[999999])).status_code == 404
    assert client.get(reverse("games:deal_edit", args=[999999])).status_code == 404
    assert client.get(reverse("games:deal_history", args=[999999])).status_code == 404
