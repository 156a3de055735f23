"""The organiser sees how fair the seating is: the round page and the printed seating list say
it in a sentence (``words.seating_quality``), in French and in English, from the rounds seated
so far (``rounds.selectors.round_seating_quality``)."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.factories import ClubFactory, make_tournament, play
from tests.tournaments.views.test_pages_world import text_of
from tournaments import words
from tournaments.models import Round, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.seating.fairness import Meetings, Quality

pytestmark = pytest.mark.django_db

OPTIMAL = {
    "en": "4 pairs meet twice, none three times; no schedule of these rounds can do better.",
    "fr": "4 paires se rencontrent deux fois, aucune trois fois ; aucun placement de ces "
    "séances ne peut faire mieux.",
}
FIRST = {"en": "No pair meets twice.", "fr": "Aucune paire ne se rencontre deux fois."}


def eight_over_two_rounds() -> tuple[Tournament, Round, Round]:
    """8 players at 2 tables over 2 rounds, mixing: the 4 players of a table meet again two by
    two at the 2 tables of the next round, so 4 pairs meeting twice is the least possible."""
    club = ClubFactory.create(name="Tarot Club de Lyon", public=True)
    tournament = make_tournament(club, 8, seating_method=Tournament.Seating.MIXING, rounds=2)
    first = round_services.round_seat_next(tournament=tournament, by=None)
    play(first)
    second = round_services.round_seat_next(tournament=tournament, by=None)
    return tournament, first, second


def page(tournament: Tournament, number: int, language: str) -> str:
    url = reverse("tournaments:round", args=[tournament.pk, number])
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(url)
    assert response.status_code == 200
    return text_of(response.content)


def seating_list(tournament: Tournament, number: int, language: str) -> str:
    url = reverse("tournaments:seating_pdf", args=[tournament.pk, number])
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(url)
    assert response.status_code == 200
    content = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    reader = PdfReader(io.BytesIO(content))
    return " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_round_page_and_the_seating_list_say_how_fair_the_seating_is(language: str) -> None:
    tournament, _first, _second = eight_over_two_rounds()
    assert FIRST[language] in page(tournament, 1, language)
    assert FIRST[language] in seating_list(tournament, 1, language)
    assert OPTIMAL[language] in page(tournament, 2, language)
    assert OPTIMAL[language] in seating_list(tournament, 2, language)


def test_a_seating_worse_than_possible_says_how_good_it_could_be() -> None:
    """The organiser swaps two players so that round 2 seats round 1's tables again: every pair
    of round 1 meets twice, where 4 was possible."""
    tournament, first, second = eight_over_two_rounds()
    before = [{p.pk for p in state.players} for state in round_selectors.round_tables(round_=first)]
    for _ in range(4):
        now = [
            (state.table.number, [p for p in state.players])
            for state in round_selectors.round_tables(round_=second)
        ]
        # One player at table 1 who belongs with round 1's other table, swapped with one at
        # table 2 who belongs with the first: each swap mends one of each.
        anchor = now[0][1][0].pk
        home = next(group for group in before if anchor in group)
        stray = next((p for p in now[0][1] if p.pk not in home), None)
        if stray is None:
            break
        back = next(p for p in now[1][1] if p.pk in home)
        round_services.round_swap(round_=second, first=stray, second=back)
    expected = {
        "en": "12 pairs meet twice, none three times; no schedule of these rounds can do "
        "better than 4.",
        "fr": "12 paires se rencontrent deux fois, aucune trois fois ; aucun placement de ces "
        "séances ne peut faire mieux que 4.",
    }
    for language in ("en", "fr"):
        assert expected[language] in page(tournament, 2, language)
        assert expected[language] in seating_list(tournament, 2, language)


def test_the_words_for_a_third_meeting_and_a_single_pair() -> None:
    """Plurals and the counts past twice, in both languages (``ngettext``)."""
    quality = Quality(Meetings(3, ((3, 1), (2, 5))), Meetings(2, ((2, 6),)))
    with translation.override("en"):
        assert words.seating_quality(quality) == (
            "1 pair meets three times, none four times; no schedule of these rounds can do "
            "better than 6 pairs meeting twice."
        )
    with translation.override("fr"):
        assert words.seating_quality(quality) == (
            "1 paire se rencontre trois fois, aucune quatre fois ; aucun placement de ces "
            "séances ne peut faire mieux que 6 paires se rencontrant deux fois."
        )
        unproved = Quality(Meetings(2, ((2, 1),)), Meetings(1))
        assert words.seating_quality(unproved) == (
            "1 paire se rencontre deux fois, aucune trois fois ; aucun décompte ne prouve "
            "qu'un placement de ces séances doive répéter une rencontre."
        )
