"""The standings a page at a time, "find my name", and polling that costs nothing when nothing
changed: the standings page, its htmx block, the projector and the API answer 304 Not Modified
to the ETag they gave, until a deal changes the results version."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tarot_scores.games import services as game_services
from tests.factories import ClubFactory, World, build_world, garde, make_tournament, play
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import STANDINGS_ROWS

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def world() -> World:
    return build_world()


def urls(tournament: Tournament) -> dict[str, tuple[str, dict[str, str]]]:
    pk = tournament.pk
    return {
        "page": (reverse("tournaments:standings", args=[pk]), {}),
        "block": (reverse("tournaments:standings", args=[pk]), HTMX),
        "projector": (reverse("tournaments:projector", args=[pk]), {}),
        "board": (reverse("tournaments:projector", args=[pk]), HTMX),
        "api": (f"/api/v1/tournaments/{pk}/standings/", {}),
        "api-teams": (f"/api/v1/tournaments/{pk}/teams/standings/", {}),
    }


def enter_deal(world: World) -> None:
    table = world.round.tables.order_by("number").first()
    assert table is not None
    taker = table.game.seats.order_by("position").values_list("player_id", flat=True).first()
    assert taker is not None
    game_services.deal_record(game=table.game, payload=garde(taker), by=None)


@pytest.mark.parametrize("which", ["page", "block", "projector", "board", "api", "api-teams"])
def test_polling_gets_304_until_a_deal_changes_the_etag(world: World, which: str) -> None:
    url, headers = urls(world.tournament)[which]
    client = Client()
    first = client.get(url, headers=headers)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('"') and "no-cache" in first["Cache-Control"]

    again = client.get(url, headers={**headers, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b"" and again["ETag"] == etag

    enter_deal(world)
    world.club.refresh_from_db()
    changed = client.get(url, headers={**headers, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_the_page_and_its_block_have_their_own_tags(world: World) -> None:
    url, _ = urls(world.tournament)["page"]
    page = Client().get(url)
    block = Client().get(url, headers=HTMX)
    assert page["ETag"] != block["ETag"]
    assert "HX-Request" in page["Vary"]
    assert "<html" not in block.content.decode() and 'id="standings"' in block.content.decode()
    # The block's tag is not the page's: a browser holding the block gets the whole page.
    assert Client().get(url, headers={"If-None-Match": block["ETag"]}).status_code == 200


def test_a_member_made_organiser_gets_the_page_again_not_a_304(world: World) -> None:
    """The page's links follow the reader's role: its tag names the role it was drawn for."""
    from tarot_scores.clubs.models import Membership

    url, _ = urls(world.tournament)["page"]
    registration = f'href="{reverse("tournaments:registration", args=[world.tournament.pk])}"'
    client = world.client("member")
    first = client.get(url)
    assert registration not in first.content.decode()
    user = world.users["member"]
    Membership.objects.filter(club=world.club, user=user).update(role=Membership.Role.ORGANISER)
    again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 200
    assert registration in again.content.decode()


def test_a_304_needs_the_right_to_read(world: World) -> None:
    private = build_world(public=False, tag="prive")
    url, _ = urls(private.tournament)["page"]
    etag = private.client("member").get(url)["ETag"]
    assert Client().get(url, headers={"If-None-Match": etag}).status_code == 404


def test_a_304_costs_a_few_queries_whatever_was_played(world: World) -> None:
    play(world.round)
    for which in ("block", "board", "api"):
        url, headers = urls(world.tournament)[which]
        etag = Client().get(url, headers=headers)["ETag"]
        with CaptureQueriesContext(connection) as captured:
            response = Client().get(url, headers={**headers, "If-None-Match": etag})
        assert response.status_code == 304
        assert len(captured.captured_queries) <= 3, which


# --- pages and "find my name" --------------------------------------------------------------


@pytest.fixture
def festival() -> Tournament:
    tournament = make_tournament(ClubFactory.create(), 0, name="Festival", rounds=1)
    for n in range(STANDINGS_ROWS + 12):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1:03d}", checked_in=True
        )
    registration_services.entry_add(tournament=tournament, name="Chloé Zébulon", checked_in=True)
    round_services.round_seat_next(tournament=tournament, by=None)
    return tournament


def shown(html: str) -> list[int]:
    table = html.split('id="standings"', 1)[1].split("</table>", 1)[0]
    return [int(pk) for pk in re.findall(r'<tr id="standing-\d+" data-player="(\d+)"', table)]


def highlighted(html: str) -> list[int]:
    return [int(pk) for pk in re.findall(r'data-player="(\d+)"[^>]*standings-found-row', html)]


def test_the_standings_come_a_page_at_a_time(festival: Tournament) -> None:
    ranking = [r.player.pk for r in standings_selectors.standings_for(tournament=festival)]
    url = reverse("tournaments:standings", args=[festival.pk])
    first = Client().get(url).content.decode()
    second = Client().get(url + "?page=2").content.decode()
    assert shown(first) == ranking[:STANDINGS_ROWS]
    assert shown(second) == ranking[STANDINGS_ROWS:]
    assert f'href="{url}?page=2"' in first and f'hx-get="{url}?page=2"' in first
    assert 'aria-current="page">2<' in second
    assert shown(Client().get(url + "?page=99").content.decode()) == ranking[STANDINGS_ROWS:]
    assert shown(Client().get(url + "?page=x").content.decode()) == ranking[:STANDINGS_ROWS]


def test_finding_a_name_shows_its_page_with_the_row_highlighted(festival: Tournament) -> None:
    rows = standings_selectors.standings_for(tournament=festival)
    chloe = next(r for r in rows if r.player.label == "Chloé Zébulon")
    place = rows.index(chloe)
    url = reverse("tournaments:standings", args=[festival.pk])

    found = Client().get(url, {"q": "chloe zeb"})  # no accents, no capitals

    html = found.content.decode()
    assert highlighted(html) == [chloe.player.pk]
    start = place // STANDINGS_ROWS * STANDINGS_ROWS
    assert shown(html) == [r.player.pk for r in rows[start : start + STANDINGS_ROWS]]
    assert 'value="chloe zeb"' in html  # the box keeps what was typed
    assert "1 joueur trouvé pour « chloe zeb » :" in html
    assert "Chloé Zébulon, rang " in html
    english = Client().get(url, {"q": "chloe zeb"}, headers={"Accept-Language": "en"})
    assert "1 player found for “chloe zeb”:" in english.content.decode()
    assert "Find a player" in english.content.decode()
    assert "Trouver un joueur" in html


def test_several_found_each_have_a_real_link_to_their_page(festival: Tournament) -> None:
    rows = standings_selectors.standings_for(tournament=festival)
    url = reverse("tournaments:standings", args=[festival.pk])
    block = Client().get(url, {"q": "joueur 05"}, headers=HTMX).content.decode()
    assert "<html" not in block
    matches = [r for r in rows if r.player.label.startswith("Joueur 05")]
    assert len(matches) == 10
    assert highlighted(block) == [matches[0].player.pk]  # the best ranked of them
    last = matches[-1].player.pk
    href = f"{url}?q=joueur+05&amp;player={last}"
    assert f'href="{href}#standing-{last}"' in block and f'hx-get="{href}"' in block

    followed = Client().get(f"{url}?q=joueur+05&player={last}").content.decode()
    assert highlighted(followed) == [last]
    assert last in shown(followed)


def test_a_name_nobody_has_says_so_and_keeps_the_first_page(festival: Tournament) -> None:
    url = reverse("tournaments:standings", args=[festival.pk])
    html = Client().get(url, {"q": "Personne"}).content.decode()
    assert highlighted(html) == []
    assert len(shown(html)) == STANDINGS_ROWS
    assert "Personne au classement ne s'appelle « Personne »." in html.replace("&#x27;", "'")


@pytest.mark.parametrize("which", ["page", "block", "api"])
def test_the_standings_cost_the_same_for_10_or_100_deals(which: str, db: Any) -> None:
    counts = []
    for rounds, per_round in ((1, 5), (2, 25)):  # two tables of four: 10, then 100 deals
        tournament = make_tournament(
            ClubFactory.create(), 8, rounds=rounds, deals_per_round=per_round
        )
        for _ in range(rounds):
            play(round_services.round_seat_next(tournament=tournament, by=None))
        url, headers = urls(tournament)[which]
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(url, headers=headers).status_code == 200
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
