"""A deal's client id: the same deal sent again (a lost answer, a phone's queue sent when the
network is back, a form posted twice) is stored once and answered as it is; a client id of
another game's deal is refused."""

from __future__ import annotations

import re
import threading
import uuid
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from tarot_scores.core.errors import Refusal
from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine
from tarot_scores.stats.models import PlayerSeason
from tests.factories import Table, garde, make_game
from tests.games.helpers import page_text, tarot_post

HTMX = {"HX-Request": "true"}
CLIENT_ID = re.compile(r'name="client_id" value="([0-9a-f-]{36})"')


def new_url(table: Table) -> str:
    return reverse("games:deal_new", args=[table.game.pk])


def stats(game: Game) -> list[tuple[int, int, int]]:
    return list(
        PlayerSeason.objects.order_by("player_id").values_list("player_id", "deals", "points")
    )


# --- the service ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_deal_sent_again_with_its_client_id_is_answered_not_stored_again(table: Table) -> None:
    a, b, c, d = table.ids
    key = uuid.uuid4()
    first = services.deal_record(game=table.game, payload=garde(c), by=None, client_id=key)
    seasons = stats(table.game)

    # Sent again, even with another body and a number that is now taken.
    again = services.deal_record(
        game=table.game, payload=garde(a, points=60), by=None, number=1, client_id=key
    )

    assert not first.replayed and again.replayed
    assert again.deal.pk == first.deal.pk and again.deal.client_id == key
    assert again.scores == first.scores == {a: -66, b: -66, c: 198, d: -66}
    assert Deal.objects.filter(game=table.game).count() == 1
    assert ScoreLine.objects.count() == 4 and DealRevision.objects.count() == 1
    assert stats(table.game) == seasons  # nothing counted twice
    # A new client id is a new deal.
    other = services.deal_record(game=table.game, payload=garde(c), by=None, client_id=uuid.uuid4())
    assert other.deal.number == 2 and not other.replayed


@pytest.mark.django_db
def test_a_replay_answers_the_deal_as_it_is_now_even_on_a_finished_game(table: Table) -> None:
    key = uuid.uuid4()
    c = table.ids[2]
    deal = services.deal_record(game=table.game, payload=garde(c), by=None, client_id=key).deal
    services.deal_update(deal=deal, payload=garde(c, points=56), version=1, by=None)
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)

    again = services.deal_record(game=table.game, payload=garde(c), by=None, client_id=key)

    assert again.replayed and again.deal.version == 2 and again.deal.payload["points"] == 56
    assert again.scores[c] == 240


@pytest.mark.django_db
def test_a_client_id_of_another_games_deal_is_refused(table: Table) -> None:
    key = uuid.uuid4()
    services.deal_record(game=table.game, payload=garde(table.ids[2]), by=None, client_id=key)
    other = make_game(club=table.club, players=table.players)

    with pytest.raises(Refusal) as refused:
        services.deal_record(game=other, payload=garde(table.ids[2]), by=None, client_id=key)

    assert [r.code for r in refused.value.reasons["client_id"]] == ["client_id_other_game"]
    assert not other.deals.exists()


@pytest.mark.django_db(transaction=True)
def test_the_same_client_id_sent_twice_at_once_stores_one_deal() -> None:
    """Two copies of one request (a phone's retry while the first is still on its way) race:
    the second waits for the first's lock, then answers its deal. Real row locks on
    PostgreSQL; SQLite (transaction_mode IMMEDIATE) serialises the two the same way."""
    game = make_game(players=4)
    taker = game.seats.values_list("player_id", flat=True)[2]
    key = uuid.uuid4()
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def send() -> None:
        try:
            barrier.wait()
            outcomes.append(
                services.deal_record(
                    game=game, payload=garde(taker), by=None, number=1, client_id=key
                )
            )
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert Deal.objects.filter(game=game).count() == 1
    assert ScoreLine.objects.count() == 4 and DealRevision.objects.count() == 1
    assert all(isinstance(o, services.RecordedDeal) for o in outcomes), outcomes
    assert sorted(o.replayed for o in outcomes) == [False, True]
    assert outcomes[0].deal.pk == outcomes[1].deal.pk


# --- the entry page ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_each_blank_entry_form_carries_a_new_client_id(table: Table) -> None:
    client = table.client("seated")

    ids = [CLIENT_ID.findall(client.get(new_url(table)).content.decode()) for _ in range(2)]

    assert len(ids[0]) == 1 and len(ids[1]) == 1 and ids[0] != ids[1]
    page = client.get(new_url(table)).content.decode()
    assert f'data-offline-game="{table.game.pk}"' in page


@pytest.mark.django_db
def test_the_same_form_posted_twice_without_javascript_stores_one_deal(table: Table) -> None:
    client = table.client("seated")
    key = CLIENT_ID.findall(client.get(new_url(table)).content.decode())[0]
    data = tarot_post(table.ids[2], client_id=key)

    one = client.post(new_url(table), data)
    two = client.post(new_url(table), data, headers={"Accept-Language": "en"})

    assert one.status_code == two.status_code == 302
    assert one["Location"] == two["Location"]
    deal = Deal.objects.get(game=table.game)
    assert str(deal.client_id) == key and DealRevision.objects.count() == 1


@pytest.mark.django_db
def test_a_resent_htmx_save_shows_the_stored_deal(table: Table) -> None:
    client = table.client("seated")
    key = str(uuid.uuid4())
    data = tarot_post(table.ids[2], client_id=key)
    client.post(new_url(table), data, headers=HTMX)
    client.post(new_url(table), tarot_post(table.ids[0], number=2), headers=HTMX)

    again = client.post(new_url(table), data, headers={"Accept-Language": "en", **HTMX})

    assert again.status_code == 200
    text = page_text(again.content)
    assert "Deal 1 saved." in text
    assert 'name="number" value="3"' in again.content.decode()  # the next one, as it is now
    assert Deal.objects.filter(game=table.game).count() == 2


@pytest.mark.django_db
def test_the_page_refuses_a_client_id_of_another_game(table: Table) -> None:
    key = uuid.uuid4()
    other = make_game(club=table.club, players=table.players)
    services.deal_record(game=other, payload=garde(table.ids[2]), by=None, client_id=key)

    response = table.client("seated").post(
        new_url(table),
        tarot_post(table.ids[2], client_id=str(key)),
        headers={"Accept-Language": "en"},
    )

    assert response.status_code == 400
    assert "This client id already names a deal of another game" in page_text(response.content)
    assert not table.game.deals.exists()


@pytest.mark.django_db
def test_a_client_id_that_is_not_a_uuid_is_refused(table: Table) -> None:
    response = table.client("seated").post(
        new_url(table),
        tarot_post(table.ids[2], client_id="not-a-uuid"),
        headers={"Accept-Language": "en"},
    )

    assert response.status_code == 400
    assert "Enter a valid UUID." in page_text(response.content)
    assert not table.game.deals.exists()


@pytest.mark.django_db
def test_the_entry_page_carries_the_hidden_list_of_deals_not_sent(table: Table) -> None:
    """Filled by offline.js; its words come in the reader's language, with the seats in order."""
    client = table.client("seated")

    french = client.get(new_url(table)).content.decode()
    english = client.get(new_url(table), headers={"Accept-Language": "en"}).content.decode()

    panel = re.search(r'<section id="offline-queue"[^>]*>', french)
    assert panel and f'data-game="{table.game.pk}"' in panel[0] and " hidden>" in panel[0]
    assert '<template data-text="waiting">en attente du réseau</template>' in french
    assert '<template data-text="number">Donne {n}</template>' in french
    assert '<template data-text="dealer">{name} distribue.</template>' in french
    assert '<template data-text="waiting">waiting for the network</template>' in english
    seats = "".join(f"<span>{p.label}</span>" for p in table.players)
    assert f'<template data-text="seats">{seats}</template>' in french
