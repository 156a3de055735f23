"""A club's leaderboard and a player's history over the API: the same rows as the pages'
selectors, filtered by season, table size and game, ordered as asked, paged, private clubs
hidden, and a fixed number of queries."""

from __future__ import annotations

from typing import Any

import pytest

from tarot_scores.clubs.models import Club
from tarot_scores.games.models import Game
from tarot_scores.stats.selectors import leaderboard, player_history
from tests.api.helpers import assert_problem, codes_of
from tests.factories import ApiTable, build_api_table, garde, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def table() -> ApiTable:
    return build_api_table()


def enter(table: ApiTable, taker: int, points: int = 56) -> None:
    answer = table.client("seated").post(
        f"/api/v1/games/{table.game.pk}/deals/", garde(taker, points=points), format="json"
    )
    assert answer.status_code == 201, answer.content


def test_the_leaderboard_is_the_pages_in_order_and_paged(table: ApiTable) -> None:
    enter(table, table.ids[0])
    enter(table, table.ids[2], points=30)
    url = f"/api/v1/clubs/{table.club.pk}/leaderboard/"

    answer = token_client(None).get(url).json()

    expected = leaderboard(club=table.club)
    assert answer["count"] == len(expected) == len(table.ids)
    assert [(r["rank"], r["player"], r["points"]) for r in answer["results"]] == [
        (r.rank, r.player_id, r.points) for r in expected
    ]
    by_name = token_client(None).get(url, {"ordering": "name", "page_size": "2"}).json()
    names = [r.name for r in leaderboard(club=table.club, sort="name")]
    assert [r["name"] for r in by_name["results"]] == names[:2] and by_name["next"]


def test_the_leaderboard_filters_by_season_size_and_kind(table: ApiTable) -> None:
    enter(table, table.ids[0])
    url = f"/api/v1/clubs/{table.club.pk}/leaderboard/"
    size = len(table.ids)
    other = 3 if size != 3 else 4
    season = Game.objects.get(pk=table.game.pk).date.year
    client = token_client(None)

    assert client.get(url, {"size": size}).json()["count"] == size
    assert client.get(url, {"size": other}).json()["count"] == 0
    assert client.get(url, {"kind": "buraco"}).json()["count"] == 0
    assert client.get(url, {"season": 1999}).json()["count"] == 0
    assert client.get(url, {"season": season - 1}).json()["count"] in (0, size)
    wrong: list[tuple[dict[str, Any], str]] = [
        ({"size": 7}, "size"),
        ({"kind": "chess"}, "kind"),
        ({"season": "x"}, "season"),
        ({"ordering": "luck"}, "ordering"),
    ]
    for query, field in wrong:
        body = assert_problem(client.get(url, query, headers={"Accept-Language": "en"}), 400)
        assert list(codes_of(body)) == [field]


def test_a_private_clubs_leaderboard_and_players_do_not_exist_for_outsiders() -> None:
    private = build_api_table(public=False)
    assert (
        token_client(None).get(f"/api/v1/clubs/{private.club.pk}/leaderboard/").status_code == 404
    )
    assert token_client(None).get(f"/api/v1/players/{private.ids[0]}/history/").status_code == 404
    member = private.client("member")
    assert member.get(f"/api/v1/clubs/{private.club.pk}/leaderboard/").status_code == 200
    assert member.get(f"/api/v1/players/{private.ids[0]}/history/").status_code == 200


def test_a_players_history_is_his_games_with_his_totals(table: ApiTable) -> None:
    enter(table, table.ids[0])
    enter(table, table.ids[1], points=30)
    player = table.players[0]

    answer = token_client(None).get(f"/api/v1/players/{player.pk}/history/").json()

    expected = player_history(club=table.club, player=player)
    assert answer["count"] == 1
    (row,) = answer["results"]
    assert (row["game"], row["club"], row["total"], row["deals"]) == (
        table.game.pk,
        table.club.pk,
        expected[0].total,
        2,
    )
    other = Club.objects.create(name="Ailleurs", slug="ailleurs")
    only = token_client(None).get(f"/api/v1/players/{player.pk}/history/", {"club": other.pk})
    assert only.status_code == 200 and only.json()["count"] == 0


def test_the_leaderboard_reads_a_fixed_number_of_queries(
    table: ApiTable, django_assert_max_num_queries: Any
) -> None:
    for _ in range(3):
        enter(table, table.ids[0])
    client = token_client(None)
    url = f"/api/v1/clubs/{table.club.pk}/leaderboard/"
    with django_assert_max_num_queries(4):
        assert client.get(url).status_code == 200
    history = f"/api/v1/players/{table.ids[0]}/history/"
    with django_assert_max_num_queries(6):
        assert client.get(history).status_code == 200
