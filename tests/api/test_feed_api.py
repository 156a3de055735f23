"""The change feed (``?updated_since=``) on the lists of games and deals: every change once, in
order, as it is now, paged by its cursor; deletions and restores with their state; a cursor the
site did not give refused with a problem; and, on PostgreSQL, no change lost when transactions
commit in another order than they stamped."""

from __future__ import annotations

import base64
import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction
from pytest_django import DjangoAssertNumQueries
from rest_framework.test import APIClient

from tarot_scores.core import feed
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tests.api.helpers import assert_problem, codes_of
from tests.factories import ApiTable, garde, make_game
from tests.queue import database_queue

__all__ = ["database_queue"]  # a fixture

DEALS = "/api/v1/deals/"
GAMES = "/api/v1/games/"


def read(path: str, **params: Any) -> dict[str, Any]:
    response = APIClient().get(path, params)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results", "cursor"}
    return dict(body)


def read_all(path: str, cursor: str, **params: Any) -> tuple[list[dict[str, Any]], str]:
    """Every item of a feed after ``cursor``, following ``next``; and the last cursor."""
    body = read(path, updated_since=cursor, **params)
    items = list(body["results"])
    while body["next"] is not None:
        assert body["previous"] is None
        response = APIClient().get(body["next"])
        assert response.status_code == 200, response.content
        body = response.json()
        items += body["results"]
    return items, body["cursor"]


def test_a_cursor_round_trip_gives_each_change_once(table: ApiTable) -> None:
    deals = [table.record(garde(table.ids[2])) for _ in range(3)]

    first = read(DEALS, club=table.club.pk, updated_since="")
    assert [d["id"] for d in first["results"]] == [d.pk for d in deals]
    assert first["count"] == 3 and first["next"] is None and first["previous"] is None

    # Nothing since: nothing, and the same cursor to come back with.
    quiet = read(DEALS, club=table.club.pk, updated_since=first["cursor"])
    assert quiet["results"] == [] and quiet["count"] == 0
    assert quiet["cursor"] == first["cursor"]

    # A correction of the first deal: that deal alone, as it is now.
    game_services.deal_update(deal=deals[0], payload={"points": 56}, version=1, by=None, merge=True)
    after = read(DEALS, club=table.club.pk, updated_since=first["cursor"])
    assert [(d["id"], d["version"]) for d in after["results"]] == [(deals[0].pk, 2)]
    assert after["results"][0]["payload"]["points"] == 56
    assert after["cursor"] != first["cursor"]
    assert read(DEALS, club=table.club.pk, updated_since=after["cursor"])["results"] == []


def test_changed_twice_between_two_reads_a_deal_comes_once_as_it_is_now(table: ApiTable) -> None:
    deal = table.record(garde(table.ids[2]))
    cursor = read(DEALS, club=table.club.pk, updated_since="")["cursor"]
    deal = game_services.deal_update(
        deal=deal, payload={"points": 56}, version=1, by=None, merge=True
    )
    game_services.deal_update(deal=deal, payload={"points": 60}, version=2, by=None, merge=True)

    changes = read(DEALS, club=table.club.pk, updated_since=cursor)["results"]

    assert [(d["id"], d["version"], d["payload"]["points"]) for d in changes] == [(deal.pk, 3, 60)]


def test_a_feed_is_paged_by_its_cursor_and_no_page_skips_or_repeats(table: ApiTable) -> None:
    deals = [table.record(garde(table.ids[i % 4])) for i in range(7)]

    first = read(DEALS, club=table.club.pk, updated_since="", page_size=3)
    assert first["count"] == 7 and len(first["results"]) == 3
    assert first["next"] is not None and f"updated_since={first['cursor']}" in first["next"]
    assert "page_size=3" in first["next"]

    items, cursor = read_all(DEALS, "", club=table.club.pk, page_size=3)
    assert [d["id"] for d in items] == [d.pk for d in deals]
    assert read(DEALS, club=table.club.pk, updated_since=cursor)["results"] == []

    # A deal corrected while a reader is between two pages moves after the others: it is read
    # again later, in its new state, and none is lost.
    game_services.deal_update(deal=deals[1], payload={"points": 56}, version=1, by=None, merge=True)
    rest, _ = read_all(DEALS, first["cursor"], club=table.club.pk, page_size=3)
    assert [d["id"] for d in rest] == [d.pk for d in deals[3:]] + [deals[1].pk]


def test_a_deletion_and_a_restore_come_with_the_deals_state(table: ApiTable) -> None:
    deal = table.record(garde(table.ids[2]))
    table.record(garde(table.ids[1]))
    cursor = read(f"{GAMES}{table.game.pk}/deals/", updated_since="")["cursor"]

    game_services.deal_delete(deal=deal, version=1, by=None)
    deleted = read(f"{GAMES}{table.game.pk}/deals/", updated_since=cursor)
    assert [(d["id"], d["deleted"], d["scores"], d["version"]) for d in deleted["results"]] == [
        (deal.pk, True, None, 2)
    ]

    game_services.deal_restore(deal=deal, by=None)
    restored = read(f"{GAMES}{table.game.pk}/deals/", updated_since=deleted["cursor"])
    assert [(d["id"], d["deleted"], d["version"]) for d in restored["results"]] == [
        (deal.pk, False, 3)
    ]
    assert restored["results"][0]["scores"][str(table.ids[2])] == 198


def test_a_games_deals_list_in_the_sheets_order_deleted_ones_too(table: ApiTable) -> None:
    first = table.record(garde(table.ids[2]))
    second = table.record(garde(table.ids[1]))
    game_services.deal_delete(deal=first, version=1, by=None)

    body = read(f"{GAMES}{table.game.pk}/deals/")

    assert [(d["id"], d["deleted"]) for d in body["results"]] == [
        (first.pk, True),
        (second.pk, False),
    ]
    assert body["cursor"] is None and body["count"] == 2


def test_the_games_feed_has_games_started_and_finished(table: ApiTable) -> None:
    start = read(GAMES, club=table.club.pk, updated_since="")
    assert [g["id"] for g in start["results"]] == [table.game.pk]
    other = make_game(club=table.club, players=table.players)
    # A deal is not a change of its game.
    table.record(garde(table.ids[2]))
    game_services.game_set_status(game=table.game, status="finished")

    changes = read(GAMES, club=table.club.pk, updated_since=start["cursor"])["results"]

    assert [(g["id"], g["status"]) for g in changes] == [
        (other.pk, "open"),
        (table.game.pk, "finished"),
    ]


def test_a_feed_leaves_out_what_the_reader_may_not_read(
    table: ApiTable, private_table: ApiTable
) -> None:
    table.record(garde(table.ids[2]))
    private_table.record(garde(private_table.ids[2]))

    anonymous = read(DEALS, updated_since="")["results"]
    member = private_table.client("member").get(DEALS, {"updated_since": ""}).json()["results"]

    assert {d["game"] for d in anonymous} == {table.game.pk}
    assert {d["game"] for d in member} == {table.game.pk, private_table.game.pk}
    hidden = APIClient().get(f"{GAMES}{private_table.game.pk}/deals/", {"updated_since": ""})
    assert_problem(hidden, 404)


def cursor_of(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "abc",
        "!!!",
        "MS4x",  # "1.1": too short
        cursor_of("2.1.1.1"),  # another version of the cursor
        cursor_of("1.1.x.1"),
        cursor_of("1.-1.1.1"),
        cursor_of("1.99999999999999999999.1.1"),  # past 64 bits
        cursor_of("1.9999999999999999999.1.1"),
        "é",
        "x" * 300,
    ],
)
@pytest.mark.parametrize("path", [DEALS, GAMES, "/api/v1/tournaments/"])
def test_a_malformed_cursor_is_a_400_problem(db: None, path: str, cursor: str) -> None:
    response = APIClient().get(path, {"updated_since": cursor}, HTTP_ACCEPT_LANGUAGE="en")

    body = assert_problem(response, 400)
    assert codes_of(body) == {"updated_since": ["cursor_invalid"]}
    assert body["detail"].startswith("This is not a cursor of this list")


def test_the_cursor_refusal_is_in_french_by_default(db: None) -> None:
    body = assert_problem(APIClient().get(DEALS, {"updated_since": "abc"}), 400)
    assert body["detail"].startswith("Ce n'est pas un curseur de cette liste")


@pytest.mark.parametrize("start", ["", "0"])
def test_an_empty_cursor_or_0_reads_from_the_beginning(table: ApiTable, start: str) -> None:
    deal = table.record(garde(table.ids[2]))
    assert [d["id"] for d in read(DEALS, updated_since=start)["results"]] == [deal.pk]


def test_unknown_parameters_and_a_page_number_are_still_refused(table: ApiTable) -> None:
    unknown = APIClient().get(DEALS, {"updated_since": "", "clubb": str(table.club.pk)})
    assert codes_of(assert_problem(unknown, 400)) == {"clubb": ["unknown_parameter"]}
    misspelt = APIClient().get(GAMES, {"updated_sinc": ""})
    assert codes_of(assert_problem(misspelt, 400)) == {"updated_sinc": ["unknown_parameter"]}
    paged = APIClient().get(DEALS, {"updated_since": "", "page": "2"})
    assert codes_of(assert_problem(paged, 400)) == {"page": ["page_with_cursor"]}
    # A list without a feed refuses it as any other unknown parameter.
    players = APIClient().get("/api/v1/players/", {"updated_since": ""})
    assert codes_of(assert_problem(players, 400)) == {"updated_since": ["unknown_parameter"]}


def test_a_page_of_the_deals_feed_takes_a_fixed_number_of_queries(
    table: ApiTable, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    counts = []
    for deals in (3, 30):
        while table.game.deals.count() < deals:
            table.record(garde(table.ids[table.game.deals.count() % 4]))
        # bound, page, its score lines, the count when there is a next page; the club.
        with django_assert_max_num_queries(6) as captured:
            body = read(DEALS, club=table.club.pk, updated_since="", page_size=20)
        assert len(body["results"]) == min(deals, 20)
        counts.append(len(captured.captured_queries))
    assert counts[1] <= counts[0] + 1  # the count of a next page, no more


def test_a_page_of_the_games_feed_takes_a_fixed_number_of_queries(
    table: ApiTable, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    for _ in range(20):
        make_game(club=table.club, players=table.players)

    with django_assert_max_num_queries(6):
        body = read(GAMES, club=table.club.pk, updated_since="", page_size=10)

    assert len(body["results"]) == 10 and body["count"] == 21
    assert all(len(g["players"]) == 4 for g in body["results"])


# --- PostgreSQL: transactions that commit in another order than they stamped ----------------


@pytest.mark.django_db(transaction=True)
def test_a_change_committed_after_a_later_one_is_never_lost(database_queue: None) -> None:
    """Transaction 1 stamps its deal first and commits last; transaction 2 stamps after it and
    commits at once. A reader reading in between must not be given deal 2 (its cursor would
    then be past deal 1, which would never come): deal 2 waits until deal 1 is committed, and
    both come, each once, deal 1 first."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: commit order is stamp order")
    # Two tables (the ratings' jobs wait in the queue, as in production: run at once, as the
    # suite does elsewhere, the first deal's job would hold the second deal until its commit).
    first_game = make_game(players=4)
    second_game = make_game(players=4)
    taker = first_game.seats.order_by("position").first().player_id  # type: ignore[union-attr]
    other_taker = second_game.seats.order_by("position").first().player_id  # type: ignore[union-attr]
    stamped, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    ids: dict[str, int] = {}

    def slow_table() -> None:
        try:
            with transaction.atomic():
                ids["first"] = game_services.deal_record(
                    game=first_game, payload=garde(taker), by=None
                ).deal.pk
                stamped.set()
                release.wait(120)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    slow = threading.Thread(target=slow_table)
    slow.start()
    try:
        assert stamped.wait(120)
        # Transaction 2: stamped after transaction 1, committed before it.
        ids["second"] = game_services.deal_record(
            game=second_game, payload=garde(other_taker), by=None
        ).deal.pk
        assert Deal.objects.filter(pk=ids["second"]).exists()
        assert not Deal.objects.filter(pk=ids["first"]).exists()  # still in its transaction

        # A reader in between: deal 2 is committed, but not served while deal 1 may still
        # come before it.
        between = read(DEALS, updated_since="")
        assert ids["second"] not in [d["id"] for d in between["results"]]
    finally:
        release.set()
        slow.join()
    assert errors == []

    # Then both come after the reader's cursor, each once, deal 1 (stamped first) first.
    # Another transaction open on the server (another database's) may hold the feed back a
    # moment longer: it delays, it never skips.
    seen = [d["id"] for d in between["results"]]
    cursor = between["cursor"]
    for _ in range(600):
        items, cursor = read_all(DEALS, cursor)
        seen += [d["id"] for d in items]
        if ids["first"] in seen and ids["second"] in seen:
            break
        time.sleep(0.1)
    assert seen == [ids["first"], ids["second"]]


@pytest.mark.django_db(transaction=True)
def test_postgresql_stamps_with_the_transaction_id_and_a_sequence() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's clock")
    with transaction.atomic():
        one, two = feed.next_stamp(), feed.next_stamp()
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_xact_id()::text::bigint")
            (xact,) = cursor.fetchone()
    assert one.xact == two.xact == xact and two.seq > one.seq
    assert feed.served_below() is not None
