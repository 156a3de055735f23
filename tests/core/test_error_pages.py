"""The pages shown for a missing page (404) and a failure of the site (500), with DEBUG off,
in both languages; the 500 page renders with no request and no database."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.test import Client
from django.urls import path
from django.utils import translation
from pytest_django import Settings

from tarot_scores.urls import urlpatterns as site_urls


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the site failed")


urlpatterns = [path("boom/", boom), *site_urls]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title", "home"),
    [("en", "Page not found", "Back to the home page"), ("fr", "Page introuvable", "Retour")],
)
def test_a_missing_page_says_so_in_the_readers_language(
    settings: Settings, language: str, title: str, home: str
) -> None:
    settings.DEBUG = False
    response = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 404
    assert title in html and home in html
    assert 'href="/"' in html
    assert 'class="site-header"' in html  # the site's own frame, not Django's bare page


@pytest.mark.django_db
@pytest.mark.urls("tests.core.test_error_pages")
@pytest.mark.parametrize(
    ("language", "title"), [("en", "Something went wrong"), ("fr", "Une erreur est survenue")]
)
def test_a_failure_shows_the_sites_500_page(settings: Settings, language: str, title: str) -> None:
    settings.DEBUG = False
    client = Client(raise_request_exception=False)
    response = client.get("/boom/", HTTP_ACCEPT_LANGUAGE=language)
    html = response.content.decode()
    assert response.status_code == 500
    assert title in html and 'href="/"' in html
    assert "site.css" in html
    assert "the site failed" not in html  # nothing of the error reaches the reader


def test_the_500_page_renders_without_request_or_database() -> None:
    # No django_db mark: a query would fail the test.
    with translation.override("fr"):
        html = loader.get_template("500.html").render()
    assert "Une erreur est survenue" in html and "Retour à l'accueil" in html
    assert 'lang="fr"' in html
