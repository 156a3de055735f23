"""Table links: a new link per table (the old one stops at once), read-only once the round
closes, and a referee's pages never carry a table's link, so a removed referee loses access
at once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.games.models import Deal
from tests.factories import build_world, play
from tests.tournaments.play.test_pages_confirmation import enter_at, event, link, phone
from tests.tournaments.views.test_pages_world import deal_post
from tournaments.models import Round, Table
from tournaments.registration.referees import referee_remove
from tournaments.rounds import selectors

pytestmark = pytest.mark.django_db


def test_a_new_link_stops_the_old_one_at_once() -> None:
    world = build_world()
    state = selectors.round_tables(round_=world.round)[0]
    table = state.table
    old = table.token
    old_url = reverse("tournaments:table_entry", args=[old])
    assert Client().get(old_url).status_code == 200
    url = reverse(
        "tournaments:round_table_new_link",
        args=[world.tournament.pk, world.round.number, table.number],
    )
    for role in ("anonymous", "member", "outsider"):
        refused = world.client(role).post(url)
        assert refused.status_code in (302, 403, 404), role
        assert Table.objects.get(pk=table.pk).token == old, role

    done = world.client("organiser").post(url)
    assert done.status_code == 302
    new = Table.objects.get(pk=table.pk).token
    assert new != old
    # The old link says it was replaced (tournaments.views.table_sync), and opens nothing.
    assert Client().get(old_url).status_code == 410
    taker = state.players[0].pk
    assert Client().post(old_url, deal_post(taker, 1)).status_code == 410
    assert not Deal.objects.filter(game=table.game).exists()
    assert Client().get(reverse("tournaments:table_entry", args=[new])).status_code == 200
    page = world.client("organiser").get(
        reverse("tournaments:round", args=[world.tournament.pk, world.round.number])
    )
    assert new in page.content.decode() and old not in page.content.decode()


def test_a_link_is_read_only_once_its_round_closes() -> None:
    world = build_world()
    state = selectors.round_tables(round_=world.round)[0]
    play(world.round)
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.CLOSED
    url = reverse("tournaments:table_entry", args=[state.table.token])
    page = Client().get(url)
    assert page.status_code == 403 and 'id="deal-form"' not in page.content.decode()
    before = Deal.objects.filter(game=state.table.game).count()
    assert Client().post(url, deal_post(state.players[0].pk, before + 1)).status_code == 403
    assert Deal.objects.filter(game=state.table.game).count() == before


def test_a_referee_page_never_carries_a_table_link_and_a_removed_referee_is_out() -> None:
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    referee = e.client("referee")
    edit_url = reverse("tournaments:referee_deal_edit", args=[e.tournament.pk, deal.pk])
    page = referee.get(edit_url)
    assert page.status_code == 200
    html = page.content.decode()
    assert state.table.token not in html
    preview_url = reverse("tournaments:referee_deal_preview", args=[e.tournament.pk, deal.pk])
    assert preview_url in html
    taker = state.players[0].pk
    assert referee.post(preview_url, deal_post(taker, deal.number)).status_code == 200

    referee_remove(tournament=e.tournament, user=e.users["referee"])
    assert referee.post(preview_url, deal_post(taker, deal.number)).status_code in (403, 404)
    assert referee.get(edit_url).status_code in (403, 404)
    assert link(state) not in html
