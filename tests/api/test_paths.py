"""Ids in API paths: anything that is not an id we could have (letters, a sign, a fraction,
0, a 40-digit number) answers the API's JSON 404, never the site's HTML page nor a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import Settings

from tests.api.helpers import assert_field_errors
from tests.factories import ApiTable

BAD_IDS = ["abc", "-1", "1.5", "0", "9" * 18, "9" * 19, "9" * 40, "1e3"]
# Every path of the API that names an object and is read with GET, {} where the id goes.
PATHS = [
    "/api/v1/clubs/{}/",
    "/api/v1/clubs/{}/ratings/",
    "/api/v1/players/{}/stats/",
    "/api/v1/games/{}/",
    "/api/v1/deals/{}/",
    "/api/v1/deals/{}/history/",
    "/api/v1/tournaments/{}/",
    "/api/v1/tournaments/{}/entries/",
    "/api/v1/tournaments/{}/rounds/",
    "/api/v1/tournaments/{}/standings/",
    "/api/v1/tournaments/{}/teams/standings/",
    "/api/v1/tournaments/{}/bracket/",
]


def assert_json_404(response: object) -> None:
    errors = assert_field_errors(response, 404)
    assert list(errors) == ["non_field_errors"]


@pytest.mark.django_db
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("bad", BAD_IDS)
def test_an_id_that_cannot_exist_is_a_json_404(path: str, bad: str) -> None:
    response = Client().get(path.format(bad))

    assert_json_404(response)


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["post", "patch", "put", "delete"])
def test_writes_to_impossible_ids_are_json_404_too(table: ApiTable, method: str) -> None:
    client = table.client("organiser")
    paths = ["/api/v1/deals/x/", "/api/v1/deals/0/", f"/api/v1/deals/{'9' * 30}/"]
    if method == "post":
        paths = ["/api/v1/games/x/deals/", "/api/v1/games/0/finish/", "/api/v1/deals/-2/restore/"]
    for path in paths:
        response = getattr(client, method)(path, {}, format="json")

        assert_json_404(response)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/tournaments/1/entries/abc/",
        "/api/v1/tournaments/abc/entries/1/",
        f"/api/v1/tournaments/1/rounds/{'9' * 25}/start/",
        "/api/v1/tournaments/1/rounds/-1/close/",
        "/api/v1/nothing-here/",
        "/api/v2/clubs/",
    ],
)
def test_other_unknown_api_paths_are_json_404(path: str) -> None:
    assert_json_404(Client().get(path))


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "message"), [("fr", "Non trouvé."), ("en", "Not found.")])
def test_the_404_is_the_one_of_an_unknown_id_in_the_readers_language(
    lang: str, message: str
) -> None:
    client = Client(headers={"accept-language": lang})

    no_route = client.get("/api/v1/clubs/abc/")
    unknown_id = client.get("/api/v1/clubs/424242/")

    assert no_route.json() == unknown_id.json()
    assert unknown_id.json()["code"] == "not_found" and unknown_id.json()["detail"] == message


@pytest.mark.django_db
def test_pages_outside_the_api_keep_the_html_404() -> None:
    response = Client().get("/games/abc/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_ids_that_fit_still_reverse() -> None:
    assert reverse("api:deal", args=[123]) == "/api/v1/deals/123/"
    assert (
        reverse("tournaments_api:round-start", args=[4, 2])
        == "/api/v1/tournaments/4/rounds/2/start/"
    )


@pytest.mark.django_db
@pytest.mark.parametrize("path", PATHS)
def test_a_nul_in_an_id_is_refused_in_json_before_any_lookup(path: str) -> None:
    """A NUL character is refused by the site's door (core.nul) before the API reads the id:
    400, still JSON, never HTML nor a 500."""
    response = Client().get(path.format("%00"), headers={"Accept-Language": "en"})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert "NUL character" in str(response.json())


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/nothing-here/", "/api/v1/clubs/abc/"])
def test_with_debug_on_the_api_404_is_still_a_problem(settings: Settings, path: str) -> None:
    """Django answers its technical HTML page with DEBUG on; the API keeps its one shape."""
    settings.DEBUG = True

    assert_json_404(Client().get(path))
    page = Client().get("/games/abc/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
