"""At a festival a burst of deals moves the results pages (standings, their block, the
projector, the standings API) at most once in ``RESULTS_LAG_SECONDS``: a deal shows there after
that window at the latest, with an ETag that names what is shown. The table that entered it and
the organisers see it at once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import build_world
from tests.results_clock import Clock, clock
from tests.tournaments.standings.test_standings_pages import enter_deal, urls
from tests.tournaments.views.test_pages_world import deal_post
from tournaments.rounds import selectors as round_selectors

pytestmark = pytest.mark.django_db

__all__ = ["clock"]  # a fixture


# The taker's garde (+198) as each answer shows a total.
GARDE = {
    "page": 'data-total="198"',
    "block": 'data-total="198"',
    "board": '<span class="board-total">198</span>',
    "api": '"total":198',
}


def shows_the_garde(which: str, content: bytes) -> bool:
    return GARDE[which] in content.decode()


@pytest.mark.parametrize("which", ["page", "block", "board", "api"])
def test_a_deal_shows_after_the_window_at_the_latest(clock: Clock, which: str) -> None:
    world = build_world()
    url, headers = urls(world.tournament)[which]
    client = Client()
    before = client.get(url, headers=headers)
    assert before.status_code == 200 and not shows_the_garde(which, before.content)

    enter_deal(world)
    clock.now += 1
    lagging = client.get(url, headers=headers)
    assert lagging["ETag"] == before["ETag"]
    assert not shows_the_garde(which, lagging.content)
    assert client.get(url, headers={**headers, "If-None-Match": before["ETag"]}).status_code == 304

    clock.now += 1.5
    after = client.get(url, headers={**headers, "If-None-Match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert shows_the_garde(which, after.content)


def test_an_organiser_sees_a_deal_at_once(clock: Clock) -> None:
    world = build_world()
    url, _ = urls(world.tournament)["block"]
    Client().get(url, headers={"HX-Request": "true"})
    enter_deal(world)
    shown = world.client("organiser").get(url, headers={"HX-Request": "true"})
    assert shows_the_garde("block", shown.content)
    # The others keep the shared drawing until the window is over.
    assert not shows_the_garde("block", Client().get(url, headers={"HX-Request": "true"}).content)


def test_the_table_sees_its_own_deal_at_once(clock: Clock) -> None:
    world = build_world()
    state = round_selectors.round_tables(round_=world.round)[0]
    standings, _ = urls(world.tournament)["page"]
    table = Client()
    table.get(standings)  # the standings drawn before the deal
    link = reverse("tournaments:table_entry", args=[state.table.token])
    saved = table.post(link, deal_post(state.players[0].pk, 1), headers={"HX-Request": "true"})
    assert saved.status_code == 200 and 'data-deals="1"' in saved.content.decode()
    assert 'data-deals="1"' in table.get(link).content.decode()
