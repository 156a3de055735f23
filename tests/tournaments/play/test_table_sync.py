"""Every phone of a table in step (tournaments.views.table_sync): the table's poll answers 304
while nothing changed, after one query whatever the table's history, and the new block once
another phone acted; a replaced link says so; the table's and the games' pages are never kept
by the browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Player
from tarot_scores.games.models import Deal
from tests import factories
from tests.tournaments.play.test_pages_confirmation import enter_at, event, link, phone
from tests.tournaments.views.test_pages_world import text_of
from tournaments.models import DealConfirmation, ReplacedTableLink, Round
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def poll(client: Client, state: TableState, etag: str = "") -> Any:
    headers = dict(HTMX)
    if etag:
        headers["If-None-Match"] = etag
    return client.get(link(state, "table_poll"), headers=headers)


def test_a_poll_that_changed_nothing_answers_304_and_a_confirmation_elsewhere_a_new_block() -> None:
    e = event()
    state = e.tables[0]
    taker_phone, defender_phone = phone(state, 0), phone(state, 2)
    deal = enter_at(state, taker_phone)

    first = poll(taker_phone, state)
    assert first.status_code == 200
    etag = first["ETag"]
    body = first.content.decode()
    # The block on the taker's phone: the deal waits, marked on the sheet, and the poll carries
    # the tag of what it shows.
    assert 'data-testid="state-1"' in body and 'data-testid="waiting-1"' in body
    assert f"data-etag='{etag}'" in body or f'data-etag="{etag}"' in body.replace("&quot;", '"')
    assert 'hx-swap-oob="true"' in body and 'id="table-sheet"' in body
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]

    again = poll(taker_phone, state, etag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag

    # The other phone confirms: the taker's next poll brings the deal confirmed.
    response = defender_phone.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert response.status_code == 302
    assert DealConfirmation.objects.get(deal=deal).status == DealConfirmation.Status.CONFIRMED
    after = poll(taker_phone, state, etag)
    assert after.status_code == 200 and after["ETag"] != etag
    shown = after.content.decode()
    assert 'id="nothing-to-confirm"' in shown and 'data-testid="state-1"' not in shown
    assert poll(taker_phone, state, after["ETag"]).status_code == 304


def test_an_undo_on_one_phone_reaches_the_other() -> None:
    e = event()
    state = e.tables[0]
    taker_phone, defender_phone = phone(state, 0), phone(state, 2)
    deal = enter_at(state, taker_phone)
    seen = poll(defender_phone, state)
    assert 'id="confirm-1"' in seen.content.decode()

    undo = taker_phone.post(link(state, "table_deal_undo", deal.pk), {"version": "1"})
    assert undo.status_code == 302
    assert Deal.objects.get(pk=deal.pk).is_deleted

    after = poll(defender_phone, state, seen["ETag"])
    assert after.status_code == 200
    assert 'id="confirm-1"' not in after.content.decode()
    assert 'id="deal-1"' not in after.content.decode()  # off the sheet too


def test_the_poll_is_a_phones_own() -> None:
    """A phone naming its holder (its session) gets its own block, never another's 304."""
    e = event()
    state = e.tables[0]
    client = Client()
    client.get(link(state))
    unnamed = poll(client, state)
    client.post(link(state, "table_holder"), {"player": state.players[2].pk})
    named = poll(client, state, unnamed["ETag"])
    assert named.status_code == 200 and named["ETag"] != unnamed["ETag"]


@pytest.mark.parametrize("deals", [1, 2])
def test_a_poll_reads_a_bounded_number_of_queries(
    deals: int, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    e = event()
    state = e.tables[0]
    taker_phone = phone(state, 0)
    for _ in range(deals):
        enter_at(state, taker_phone)
    # A history behind the table: other tables' deals and the table's own undone ones.
    other = phone(e.tables[1], 0)
    enter_at(e.tables[1], other)
    etag = poll(taker_phone, state)["ETag"]
    # Unchanged: the table with its club (and the session, when the cache has lost it).
    with django_assert_max_num_queries(2):
        assert poll(taker_phone, state, etag).status_code == 304
    # Changed: what the table's page reads for its block (one more per deal waiting at the
    # table: a round's few), never the tournament's other deals.
    with django_assert_max_num_queries(10 + deals):
        assert poll(taker_phone, state).status_code == 200


def test_a_signed_in_players_poll_reads_no_more(
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    e = event()
    state = e.tables[0]
    user = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[1].pk).update(user=user)
    client = factories.signed_in_client(user)
    enter_at(state, phone(state, 0))
    first = poll(client, state)
    assert first.status_code == 200 and 'id="confirm-1"' in first.content.decode()
    with django_assert_max_num_queries(2):
        assert poll(client, state, first["ETag"]).status_code == 304
    # Signed out, the same browser is another reader: never the signed-in one's 304.
    client.logout()
    assert poll(client, state, first["ETag"]).status_code == 200


def test_without_htmx_the_poll_is_the_tables_page() -> None:
    e = event()
    state = e.tables[0]
    response = Client().get(link(state, "table_poll"))
    assert response.status_code == 302 and response["Location"] == link(state)


def test_the_tables_page_polls_with_a_real_link_underneath(settings: Any) -> None:
    settings.TABLE_POLL_SECONDS = 1.5
    e = event()
    state = e.tables[0]
    page = phone(state, 0).get(link(state)).content.decode()
    assert f'hx-get="{link(state, "table_poll")}"' in page
    assert 'hx-trigger="every 1500ms"' in page
    assert 'id="table-refresh"' in page and f'href="{link(state)}"' in page
    assert "js/table-sync" in page


def test_a_closed_round_or_a_replaced_link_reloads_the_polling_page() -> None:
    e = event()
    state = e.tables[0]
    client = phone(state, 0)
    old = link(state, "table_poll")
    round_services.table_link_renew(table=state.table)
    replaced = client.get(old, headers=HTMX)
    assert replaced.status_code == 410 and replaced["HX-Refresh"] == "true"

    state.table.refresh_from_db()
    Round.objects.filter(pk=state.table.round_id).update(status=Round.Status.CLOSED)
    closed = Client().get(link(state, "table_poll"), headers=HTMX)
    assert closed["HX-Refresh"] == "true"

    assert Client().get("/tournaments/t/never-a-table/state/", headers=HTMX).status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Le lien de cette table a été remplacé", "Demandez le nouveau lien"]),
        ("en", ["This table's link was replaced", "Ask the organisers for the new link"]),
    ],
)
def test_a_replaced_link_says_so_and_what_to_do(language: str, words: list[str]) -> None:
    e = event()
    state = e.tables[0]
    old = state.table.token
    deal = enter_at(state, phone(state, 0))
    round_services.table_link_renew(table=state.table)
    assert ReplacedTableLink.objects.get(token=old).table == state.table

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(reverse("tournaments:table_entry", args=[old]))
    assert page.status_code == 410
    text = text_of(page.content)
    for said in words:
        assert said in text
    assert "no-store" in page["Cache-Control"]
    # It opens nothing: no deal, no form, and a post through it changes nothing.
    assert 'id="deal-form"' not in page.content.decode() and "+198" not in text
    edit = client.get(reverse("tournaments:table_deal_edit", args=[old, deal.pk]))
    assert edit.status_code == 410
    saved = client.post(reverse("tournaments:table_entry", args=[old]), {"number": "2"})
    assert saved.status_code == 410 and Deal.objects.filter(game=state.table.game).count() == 1
    # htmx (a save on the page) reloads the page, which then says it.
    assert client.post(reverse("tournaments:table_entry", args=[old]), headers=HTMX)["HX-Refresh"]

    # The new link opens the table; a token that never opened one is a plain 404.
    state.table.refresh_from_db()
    for token, status in ((state.table.token, 200), ("never-a-table", 404)):
        assert client.get(reverse("tournaments:table_entry", args=[token])).status_code == status


def test_a_link_replaced_twice_keeps_both_old_tokens() -> None:
    e = event()
    table = e.tables[0].table
    first = table.token
    round_services.table_link_renew(table=table)
    second = table.token
    round_services.table_link_renew(table=table)
    assert {r.token for r in ReplacedTableLink.objects.filter(table=table)} == {first, second}
    assert len({first, second, table.token}) == 3


def test_entry_and_sheet_pages_are_never_kept_by_the_browser() -> None:
    e = event()
    state = e.tables[0]
    client = phone(state, 0)
    deal = enter_at(state, client)
    for url in (link(state), link(state, "table_deal_edit", deal.pk)):
        response = client.get(url)
        assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    table = factories.build_table()
    seated = factories.signed_in_client(table.users["seated"])
    for url in (
        reverse("games:detail", args=[table.game.pk]),
        reverse("games:deal_new", args=[table.game.pk]),
    ):
        response = seated.get(url)
        assert response.status_code == 200 and "no-store" in response["Cache-Control"]
