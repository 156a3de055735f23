"""The projector pages through a ranking longer than one screen: the next page at each refresh
(the 10-second slot), or the page a link asks for; a bad page number is not an error."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, make_tournament
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import PROJECTOR_ROWS, PROJECTOR_SECONDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def large() -> Tournament:
    tournament = make_tournament(ClubFactory.create(), 0, name="Grand open")
    for n in range(PROJECTOR_ROWS * 2 + 3):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1}", checked_in=True
        )
    round_services.round_seat_next(tournament=tournament, by=None)
    return tournament


def shown(html: str) -> list[int]:
    board = html.split('id="standings"', 1)[1].split("</ol>", 1)[0]
    return [int(pk) for pk in re.findall(r'data-player="(\d+)"', board)]


def at(monkeypatch: pytest.MonkeyPatch, slot: int) -> None:
    monkeypatch.setattr(time, "time", lambda: slot * PROJECTOR_SECONDS + 1.0)


def test_each_refresh_shows_the_next_page_then_the_first_again(
    large: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    ranking = [r.player.pk for r in standings_selectors.standings_for(tournament=large)]
    url = reverse("tournaments:projector", args=[large.pk])
    pages = []
    for slot in range(300, 304):
        at(monkeypatch, slot)
        pages.append(shown(Client().get(url, headers={"HX-Request": "true"}).content.decode()))
    first, second, third, again = pages
    assert [*first, *second, *third] == ranking  # three pages, in order, nobody twice
    assert len(first) == PROJECTOR_ROWS and len(third) == 3
    assert again == first


def test_a_page_asked_for_stays_and_the_board_keeps_asking_for_it(
    large: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    ranking = [r.player.pk for r in standings_selectors.standings_for(tournament=large)]
    url = reverse("tournaments:projector", args=[large.pk])
    for slot in (300, 301):
        at(monkeypatch, slot)
        html = Client().get(url + "?page=2").content.decode()
        assert shown(html) == ranking[PROJECTOR_ROWS : 2 * PROJECTOR_ROWS]
        assert f'hx-get="{url}?page=2"' in html
        assert f'href="{url}?page=2" aria-current="page"' in html
        assert f'href="{url}">' in html  # back to every page in turn


@pytest.mark.parametrize(("asked", "page"), [("99", 3), ("0", None), ("x", None), ("-1", None)])
def test_a_page_out_of_range_is_the_last_and_nonsense_is_ignored(
    large: Tournament, monkeypatch: pytest.MonkeyPatch, asked: str, page: int | None
) -> None:
    at(monkeypatch, 300)  # slot 300: the first of three pages
    response = Client().get(reverse("tournaments:projector", args=[large.pk]) + f"?page={asked}")
    assert response.status_code == 200
    ranking = [r.player.pk for r in standings_selectors.standings_for(tournament=large)]
    expected = ranking[2 * PROJECTOR_ROWS :] if page == 3 else ranking[:PROJECTOR_ROWS]
    assert shown(response.content.decode()) == expected


def test_a_field_that_fits_one_screen_has_no_pages() -> None:
    tournament = make_tournament(ClubFactory.create(), 13)
    round_services.round_seat_next(tournament=tournament, by=None)
    html = Client().get(reverse("tournaments:projector", args=[tournament.pk])).content.decode()
    assert len(shown(html)) == 13
    assert "board-pages" not in html
