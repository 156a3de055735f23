"""Pages go out gzipped to a browser that takes it, except the one answer that shows a lasting
secret (a webhook's signing secret, shown once: core/compression.py says why the rest is safe);
every page has a description, in the reader's language."""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club
from tarot_scores.core.results import etag_matches
from tarot_scores.webhooks.models import Webhook
from tests.factories import make_tournament
from tests.queue import database_queue

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture


def test_pages_are_gzipped(client: Client, club: Club) -> None:
    plain = client.get(reverse("clubs:detail", args=[club.slug]))
    zipped = client.get(reverse("clubs:detail", args=[club.slug]), HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in plain
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    html = gzip.decompress(zipped.content).decode()
    assert club.name in html
    assert len(zipped.content) < len(plain.content) / 2


def test_the_webhook_secret_is_sent_uncompressed(
    database_queue: None, client: Client, club: Club, organiser: User
) -> None:
    client.force_login(organiser)
    client.post(
        reverse("clubs:webhooks", args=[club.slug]),
        {"url": "https://93.184.216.34/hook", "events": ["deal.recorded"]},
    )
    hook = Webhook.objects.get(club=club)
    page = reverse("clubs:webhook", args=[club.slug, hook.pk])
    shown = client.get(page, HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in shown
    assert hook.secret in shown.content.decode()
    # The same page without the secret is compressed as any other.
    assert client.get(page, HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "Feuilles de marque, tournois et classements"), ("en", "Score sheets, tournaments")],
)
def test_every_page_has_a_description(client: Client, language: str, words: str) -> None:
    for url in (reverse("home"), reverse("clubs:list"), reverse("login")):
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        found = re.search(r'<meta name="description" content="([^"]+)">', html)
        assert found is not None, url
        assert found.group(1).startswith(words)


def test_a_club_page_describes_the_club(client: Client, club: Club) -> None:
    html = client.get(reverse("clubs:detail", args=[club.slug])).content.decode()
    assert f'<meta name="description" content="{club.name} : les parties, les joueurs' in html


def test_a_gzipped_pages_weak_tag_still_answers_304(client: Client, club: Club) -> None:
    assert etag_matches({"If-None-Match": 'W/"v1-fr"'}, '"v1-fr"')
    assert etag_matches({"If-None-Match": '"v1-fr"'}, '"v1-fr"')
    assert not etag_matches({"If-None-Match": 'W/"v2-fr"'}, '"v1-fr"')
    tournament = make_tournament(club, 8)
    url = reverse("tournaments:standings", args=[tournament.pk])
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["ETag"].startswith("W/")  # gzip made the tag weak
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
