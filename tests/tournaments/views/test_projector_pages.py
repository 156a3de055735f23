"""The projector pages through a ranking longer than one screen: the next page at each refresh
(the 10-second slot), or the page a link asks for; a bad page number is not an error. A page's
rows take one column up to a dozen, more beyond, and each shows its score in each round."""

from __future__ import annotations

import re
import time

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, make_tournament, play
from tournaments.models import Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.views.results import PROJECTOR_ROWS, PROJECTOR_SECONDS, board_layout

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


@pytest.mark.parametrize(
    ("rows", "layout"),
    [(1, ("fit-12", 1)), (12, ("fit-12", 1)), (13, ("fit-24", 2)), (36, ("fit-36", 2))]
    + [(37, ("fit-48", 3)), (48, ("fit-48", 3)), (49, ("fit-60", 4)), (60, ("fit-60", 4))],
)
def test_a_dozen_players_take_one_column_more_share_the_screen_in_columns(
    rows: int, layout: tuple[str, int]
) -> None:
    assert board_layout(rows) == layout


def test_each_row_shows_its_score_in_each_round_under_the_rounds_heads() -> None:
    tournament = make_tournament(ClubFactory.create(), 0, name="Open", deals_per_round=1)
    for n in range(14):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1}", checked_in=True
        )
    for _ in range(2):
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        round_services.round_start(round_=round_)
        play(round_)  # the round closes itself with its last deal

    url = reverse("tournaments:projector", args=[tournament.pk])
    french = Client(headers={"accept-language": "fr"}).get(url).content.decode()
    html = Client(headers={"accept-language": "en"}).get(url).content.decode()

    assert 'class="board-table fit-24 rounds-2"' in html
    heads = html.split('id="board-heads"', 1)[1].split("</div>", 1)[0]
    assert heads.count("<p ") == 2  # one above each of the two columns
    assert heads.count('aria-hidden="true"') == 1  # read once
    assert re.findall(r"<abbr title=\"[^\"]+\">([^<]+)</abbr>", heads) == ["R1", "R2"] * 2
    assert '<abbr title="Séance 2">S2</abbr>' in french
    for row in standings_selectors.standings_for(tournament=tournament):
        cells = html.split(f'data-testid="board-rounds-{row.player.pk}">', 1)[1]
        cells = cells.split("</span> ", 1)[0]
        assert re.findall(r"<span[^>]*>([^<]+)</span>", cells + "</span>") == [
            str(points) for points in row.rounds
        ]
