"""Site-wide pages answer: home, health check, API schema and docs, language switch."""

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries


@pytest.mark.django_db
def test_home_page(client: Client, django_assert_max_num_queries: DjangoAssertNumQueries) -> None:
    with django_assert_max_num_queries(2):
        response = client.get(reverse("home"))

    assert response.status_code == 200
    assert "Tarot Scores" in response.content.decode()
    assert '<html lang="fr">' in response.content.decode()


def test_healthz(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"


@pytest.mark.django_db
def test_api_schema_generates(client: Client) -> None:
    response = client.get(reverse("api-schema"), {"format": "json"})

    assert response.status_code == 200
    assert "openapi" in response.json()


@pytest.mark.django_db
def test_api_docs_use_local_assets(client: Client) -> None:
    response = client.get(reverse("api-docs"))

    assert response.status_code == 200
    assert "cdn.jsdelivr.net" not in response.content.decode()


@pytest.mark.django_db
def test_language_switch_to_english(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"}, follow=True)

    assert response.redirect_chain == [("/", 302)]
    assert '<html lang="en">' in response.content.decode()
    assert "Score calculator" in response.content.decode()
