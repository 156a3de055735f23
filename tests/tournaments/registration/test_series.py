"""Players carry a series (Open, 1re série... Promotion, or none): the organiser sets it on the
registration page and through the API, and the standings read one series at a time, its
players ranked among themselves (page, htmx block, CSV, PDF, API)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.api.helpers import messages_of
from tests.csv_reading import csv_rows
from tests.factories import World, build_world, token_client
from tests.tournaments.printing.test_pdf import read, streamed
from tournaments.models import Entry, Standing
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

# Per player, in the order of their names: series, total, best round, last round.
FIELD = [
    ("s1", 100, 60, 40),
    ("s1", 50, 30, 20),
    ("s1", 50, 30, 20),  # equal to the one before on every tie-break: the same rank
    ("s2", 200, 100, 100),
    ("s2", -10, 0, -10),
    ("", 300, 150, 150),
    ("open", 10, 10, 0),
    ("promotion", 0, 0, 0),
]

# The series asked -> (player index, rank) in ranking order.
RANKED = [
    ("", [(5, 1), (3, 2), (0, 3), (1, 4), (2, 4), (6, 6), (7, 7), (4, 8)]),
    ("s1", [(0, 1), (1, 2), (2, 2)]),
    ("s2", [(3, 1), (4, 2)]),
    ("open", [(6, 1)]),
    ("promotion", [(7, 1)]),
    ("s3", []),
]


@pytest.fixture
def world() -> World:
    """Round 1 seated; each seated player's series and stored standing set as in FIELD."""
    world = build_world()
    standings = list(
        Standing.objects.filter(tournament=world.tournament)
        .select_related("entry", "player")
        .order_by("player__name")
    )
    assert len(standings) == len(FIELD)
    for standing, (series, total, best, last) in zip(standings, FIELD, strict=True):
        standing.entry.series = series
        standing.entry.save(update_fields=["series"])
        standing.total, standing.best_round, standing.last_round = total, best, last
        standing.rounds = {"1": total}
        standing.save()
    return world


def names(world: World) -> list[str]:
    return list(
        Standing.objects.filter(tournament=world.tournament)
        .order_by("player__name")
        .values_list("player__name", flat=True)
    )


def expected(world: World, series: str) -> list[tuple[str, int]]:
    labels = names(world)
    return next([(labels[i], rank) for i, rank in ranks] for s, ranks in RANKED if s == series)


def test_the_series_are_the_federations_in_both_languages() -> None:
    assert Entry.Series.values == ["open", "s1", "s2", "s3", "promotion"]
    assert Entry._meta.get_field("series").blank
    with translation.override("en"):
        assert [str(label) for label in Entry.Series.labels] == [
            "Open", "1st series", "2nd series", "3rd series", "Promotion",
        ]  # fmt: skip
    with translation.override("fr"):
        assert [str(label) for label in Entry.Series.labels] == [
            "Open", "1re série", "2e série", "3e série", "Promotion",
        ]  # fmt: skip


@pytest.mark.parametrize(("series", "ranks"), RANKED)
def test_a_series_is_ranked_among_itself(
    world: World, series: str, ranks: list[tuple[int, int]]
) -> None:
    rows = standings_selectors.standings_for(tournament=world.tournament, series=series)
    assert [(r.player.name, r.rank) for r in rows] == expected(world, series)
    world.tournament.refresh_from_db()  # the whole ranking's count is stored on it
    assert standings_selectors.standings_count(tournament=world.tournament, series=series) == len(
        ranks
    )


@pytest.mark.parametrize(
    ("asked", "series"),
    [("s1", "s1"), ("promotion", "promotion"), ("", ""), (None, ""), ("S1", ""), ("x", "")],
)
def test_only_a_real_series_filters(asked: str | None, series: str) -> None:
    assert standings_selectors.series_or_overall(asked) == series


def test_the_series_present_come_in_the_federations_order(world: World) -> None:
    with translation.override("fr"):
        present = standings_selectors.series_present(tournament=world.tournament)
    assert present == [
        ("open", "Open"), ("s1", "1re série"), ("s2", "2e série"), ("promotion", "Promotion"),
    ]  # fmt: skip


def standings_url(world: World, query: str = "") -> str:
    return reverse("tournaments:standings", args=[world.tournament.pk]) + query


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_the_standings_page_and_block_show_one_series(
    world: World, headers: dict[str, str]
) -> None:
    response = Client().get(standings_url(world, "?series=s2"), headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    labels = names(world)
    assert labels[3] in html and labels[4] in html
    for i in (0, 1, 2, 5, 6, 7):
        assert labels[i] not in html
    assert 'id="standings-series"' in html
    assert '?series=s1"' in html and '?series=s3"' not in html  # only the series present
    assert 'aria-current="page">2e série</a>' in html


def test_the_page_links_and_exports_keep_the_series(world: World) -> None:
    html = Client().get(standings_url(world, "?series=s1")).content.decode()
    pk = world.tournament.pk
    assert f'href="/tournaments/{pk}/standings.csv?series=s1"' in html
    assert f'href="/tournaments/{pk}/standings.pdf?series=s1"' in html
    assert '<input type="hidden" name="series" value="s1">' in html


def test_an_unknown_series_is_the_overall_standings(world: World) -> None:
    client = Client()
    overall = client.get(standings_url(world))
    bogus = client.get(standings_url(world, "?series=nope"))
    assert bogus.status_code == 200
    assert bogus["ETag"] == overall["ETag"]
    for name in names(world):
        assert name in bogus.content.decode()


def test_no_series_links_when_nobody_has_a_series() -> None:
    world = build_world()
    html = Client().get(standings_url(world)).content.decode()
    assert 'id="standings-series"' not in html


def test_the_csv_of_a_series(world: World) -> None:
    url = reverse("tournaments:standings_csv", args=[world.tournament.pk]) + "?series=s1"
    response = Client().get(url)
    assert "-standings-s1.csv" in response["Content-Disposition"]
    rows = csv_rows(response)
    assert [(r[1], int(r[0])) for r in rows[1:]] == expected(world, "s1")


def test_the_pdf_of_a_series(world: World) -> None:
    url = reverse("tournaments:standings_pdf", args=[world.tournament.pk]) + "?series=s2"
    response = Client().get(url)  # in French, the site's language
    assert response.status_code == 200
    _pages, texts = read(streamed(response))
    text = " ".join(texts)
    assert "Classement : 2e série" in text
    for name, rank in expected(world, "s2"):
        assert f"{rank}. {name}" in text
    labels = names(world)
    for i in (0, 1, 2, 5, 6, 7):
        assert labels[i] not in text


def test_the_api_standings_of_a_series(world: World) -> None:
    client = token_client(None)
    url = f"/api/v1/tournaments/{world.tournament.pk}/standings/"
    overall = client.get(url)
    s1 = client.get(url + "?series=s1")
    assert [(r["name"], r["rank"]) for r in s1.json()["results"]] == expected(world, "s1")
    assert s1["ETag"] != overall["ETag"]
    # The page shows the overall standings for a made-up series; the API says what its schema
    # says: that value is not one it takes.
    bogus = client.get(url + "?series=s9")
    assert bogus.status_code == 400 and bogus.json()["errors"][0]["field"] == "series"
    assert bogus.json()["code"] == "invalid_choice"
    assert client.get(url + "?series=")["ETag"] == overall["ETag"]
    again = client.get(url + "?series=s1", headers={"If-None-Match": s1["ETag"]})
    assert again.status_code == 304


def test_the_api_sets_a_series_and_refuses_an_unknown_one(world: World) -> None:
    client = token_client(world.users["organiser"], "en")
    entry = world.absent
    url = f"/api/v1/tournaments/{world.tournament.pk}/entries/{entry.pk}/"
    response = client.patch(url, {"series": "s3"}, format="json")
    assert response.status_code == 200
    assert response.json()["series"] == "s3"
    entry.refresh_from_db()
    assert entry.series == "s3"

    refused = client.patch(url, {"series": "elite"}, format="json")
    assert refused.status_code == 400
    assert "not a valid choice" in str(messages_of(refused.json())["series"])
    entry.refresh_from_db()
    assert entry.series == "s3"

    cleared = client.patch(url, {"series": ""}, format="json")
    assert cleared.json()["series"] == ""


def test_the_organiser_sets_a_series_on_the_registration_page(world: World) -> None:
    client = world.client("organiser")
    pk, entry = world.tournament.pk, world.absent
    page = client.get(reverse("tournaments:registration", args=[pk])).content.decode()
    assert f'id="series-{entry.pk}"' in page
    url = reverse("tournaments:entry_series", args=[pk, entry.pk])

    response = client.post(url, {"series": "promotion"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.series == "promotion"

    row = client.post(url, {"series": "s2"}, headers=HTMX)
    assert row.status_code == 200
    assert '<option value="s2" selected>' in row.content.decode()

    assert client.post(url, {"series": "elite"}).status_code == 400
    entry.refresh_from_db()
    assert entry.series == "s2"


def test_a_series_change_shows_in_the_cached_standings(world: World) -> None:
    client = Client()
    first = client.get(standings_url(world, "?series=s1"))
    labels = names(world)
    assert labels[3] not in first.content.decode()
    entry = Entry.objects.get(tournament=world.tournament, player__name=labels[3])
    organiser = world.client("organiser")
    organiser.post(
        reverse("tournaments:entry_series", args=[world.tournament.pk, entry.pk]),
        {"series": "s1"},
    )
    second = client.get(standings_url(world, "?series=s1"))
    assert labels[3] in second.content.decode()
    assert second["ETag"] != first["ETag"]
