"""The frame every page shares (``base.html``): each reader sees their own name, CSRF tokens,
page to come back to and language, even when readers take turns in one process."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, language: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def header(html: str) -> str:
    return html.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]


def csrf_tokens(html: str) -> list[str]:
    """The page's CSRF tokens: the htmx header's, then each form's."""
    pattern = r'"x-csrftoken": "([^"]*)"|name="csrfmiddlewaretoken" value="([^"]*)"'
    return [header or field for header, field in re.findall(pattern, html)]


def test_each_reader_sees_their_own_header(
    club: Club, organiser: User, member: User, client: Client
) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    olga, marc = Client(), Client()
    olga.force_login(organiser)
    marc.force_login(member)
    # In turns, on the same page and in one process: nothing of one reader reaches another.
    for _ in range(2):
        mine = header(page(olga, url))
        assert '<span class="site-user">Olga</span>' in mine and "marc" not in mine
        mine = header(page(marc, url))
        assert '<span class="site-user">marc</span>' in mine and "Olga" not in mine
        anonymous = header(page(client, url + "?sort=name"))
        assert "site-user" not in anonymous and "Log out" not in anonymous
        assert f'href="{reverse("login")}?next={url}%3Fsort%3Dname">Log in</a>' in anonymous
        assert f'name="next" value="{url}?sort=name"' in anonymous


def test_csrf_tokens_are_each_readers_own(club: Club, organiser: User, member: User) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    readers = [Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)]
    readers[0].force_login(organiser)
    readers[1].force_login(member)
    tokens = {}
    for reader in readers * 2:
        found = csrf_tokens(page(reader, url))
        # The htmx header, the log-out form and the language switcher each carry one.
        assert len(found) == 3 and all(found)
        tokens[reader] = found
    switch = {"language": "en", "next": url}
    for reader in readers:
        for token in tokens[reader]:
            answer = reader.post(reverse("set_language"), switch, HTTP_X_CSRFTOKEN=token)
            assert answer.status_code == 302
    olgas = tokens[readers[0]][0]
    refused = readers[1].post(reverse("set_language"), switch, HTTP_X_CSRFTOKEN=olgas)
    assert refused.status_code == 403


@pytest.mark.parametrize("languages", [("fr", "en", "fr"), ("en", "fr", "en")])
def test_the_frame_follows_the_readers_language(
    club: Club, member: User, languages: tuple[str, ...]
) -> None:
    url = reverse("clubs:leaderboard", args=[club.slug])
    reader = Client()
    reader.force_login(member)
    words = {
        "fr": ["Aller au contenu", "Menu principal", "Langue", "Se déconnecter", "Classement"],
        "en": ["Skip to content", "Main menu", "Language", "Log out", "Leaderboard"],
    }
    for language in languages:
        html = page(reader, url, language)
        assert f'<html lang="{language}">' in html
        assert all(word in html for word in words[language])
        other = "en" if language == "fr" else "fr"
        assert not any(word in html for word in words[other] if word not in words[language])
        pressed = re.findall(r'value="(\w+)" lang="\w+"\s+class="btn" aria-pressed="true"', html)
        assert pressed == [language]
        assert f'href="{static("css/site.css")}"' in html
        assert f'href="{reverse("clubs:list")}"' in html
