"""The printed papers, opened with pypdf: table sheets (one page per table, whatever the
number of deals), the seating list, the standings and the bracket."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader
from pytest_django import DjangoAssertNumQueries

from tarot_scores.core.collation import name_key
from tests.factories import ClubFactory, World, build_world, make_tournament, play
from tournaments.models import Tournament
from tournaments.printing import pdf
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db


def read(content: bytes) -> tuple[int, list[str]]:
    reader = PdfReader(io.BytesIO(content))
    return len(reader.pages), [re.sub(r"\s+", " ", p.extract_text()) for p in reader.pages]


def streamed(response: object) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_table_sheets_have_one_page_per_table_with_its_players_and_link() -> None:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 13, deals_per_round=6, name="Open de Lyon")
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    world_organiser = build_world(tag="X").users["organiser"]
    assert world_organiser is not None
    tournament.club.memberships.create(user=world_organiser, role="organiser")
    client = Client()
    client.force_login(world_organiser)
    response = client.get(reverse("tournaments:table_sheets_pdf", args=[tournament.pk, 1]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pages, texts = read(streamed(response))
    states = round_selectors.round_tables(round_=round_)
    assert pages == len(states) == 3
    for state, text in zip(states, texts, strict=True):
        assert "Open de Lyon" in text and "Tarot Club de Lyon" in text
        assert f"Table {state.table.number}" in text
        for player in state.players:
            assert player.label in text
        assert state.table.token in text.replace(" ", "")  # the link under the QR code
        # The grid's deal numbers, 1 to 6, each with its dealer printed already.
        for number in range(1, 7):
            dealer = state.players[(number - 1) % len(state.players)].label
            assert f"{number} {dealer}" in text
    five = [t for s, t in zip(states, texts, strict=True) if len(s.players) == 5]
    assert len(five) == 1


@pytest.mark.parametrize("deals", [1, 12, 40])
def test_many_deals_still_fit_one_page_per_table(deals: int) -> None:
    tournament = Tournament(
        name="Marathon", deals_per_round=deals, club=ClubFactory.build(name="Club")
    )
    tables = [
        pdf.SheetTable(
            number=n,
            players=[f"Joueuse au très long nom numéro {n}-{i}" for i in range(5)],
            entry_url=f"https://tarot.example/tournaments/t/{'x' * 24}{n}/",
        )
        for n in range(1, 4)
    ]
    data = pdf.render_table_sheets(tournament=tournament, round_name="Round 1", tables=tables)
    pages, texts = read(data)
    assert pages == 3
    assert all(f"{deals} " in text for text in texts)


def test_the_renderers_make_no_query(django_assert_num_queries: DjangoAssertNumQueries) -> None:
    world = build_world()
    play(world.round)
    states = round_selectors.round_tables(round_=world.round)
    rows = standings_selectors.standings_for(tournament=world.tournament)
    tournament = Tournament.objects.select_related("club").get(pk=world.tournament.pk)
    tables = [
        pdf.SheetTable(s.table.number, [p.label for p in s.players], "http://x/t/y/")
        for s in states
    ]
    lines = [pdf.SeatingLine(p.label, s.table.number, 1) for s in states for p in s.players]
    with django_assert_num_queries(0):
        pdf.render_table_sheets(tournament=tournament, round_name="R1", tables=tables)
        pdf.render_seating_list(tournament=tournament, round_name="R1", lines=lines)
        pdf.render_standings(tournament=tournament, rows=rows, round_names=["R1"])


def test_the_seating_list_is_alphabetical_with_table_and_seat() -> None:
    world = build_world()
    response = Client().get(reverse("tournaments:seating_pdf", args=[world.tournament.pk, 1]))
    assert response.status_code == 200
    pages, texts = read(streamed(response))
    assert pages == 1
    text = texts[0]
    seats = {
        p.label: (s.table.number, i)
        for s in round_selectors.round_tables(round_=world.round)
        for i, p in enumerate(s.players, start=1)
    }
    for name, (table, seat) in seats.items():
        assert f"{name} {table} {seat}" in text
    order = [text.index(name) for name in sorted(seats, key=name_key)]
    assert order == sorted(order)
    assert text.index("Denis") < text.index("Émile") < text.index("Fanny")


def test_the_standings_pdf_has_every_player_and_total() -> None:
    world = build_world()
    play(world.round, seed=8)
    response = Client().get(reverse("tournaments:standings_pdf", args=[world.tournament.pk]))
    assert response.status_code == 200
    _pages, texts = read(streamed(response))
    text = " ".join(texts)
    assert world.tournament.name in text
    for row in standings_selectors.standings_for(tournament=world.tournament):
        assert f"{row.rank}. {row.player.label}" in text
        assert f"{row.rounds[0]} {row.total}" in text


def test_the_standings_pdf_says_when_it_is_the_final_ranking() -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 4, rounds=1)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    url = reverse("tournaments:standings_pdf", args=[tournament.pk])
    play(round_, deals=1)

    _pages, texts = read(streamed(Client().get(url, HTTP_ACCEPT_LANGUAGE="fr")))
    assert "Classement" in texts[0] and "Classement final" not in texts[0]  # still playing

    play(round_, seed=2)  # the last deal closes the last round: the tournament is finished
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    _pages, texts = read(streamed(Client().get(url, HTTP_ACCEPT_LANGUAGE="fr")))
    assert "Classement final" in texts[0]
    _pages, texts = read(streamed(Client().get(url, HTTP_ACCEPT_LANGUAGE="en")))
    assert "Final ranking" in texts[0]


def test_the_bracket_pdf_shows_every_stage_and_the_final_ranking() -> None:
    world: World = build_world()
    knockout = world.knockout
    round_ = knockout.round_set.get()
    while True:
        play(round_, seed=round_.number)  # its last deal closes the stage
        if round_.tables.count() == 1:
            break
        round_ = round_services.round_seat_next(tournament=knockout, by=None)
    response = Client().get(reverse("tournaments:bracket_pdf", args=[knockout.pk]))
    assert response.status_code == 200
    _pages, texts = read(streamed(response))
    text = " ".join(texts)
    result = round_selectors.bracket(tournament=knockout)
    assert len(result.stages) == 2
    for stage in result.stages:
        for table in stage.tables:
            for seat in table.seats:
                assert f"{seat.player.label} {seat.points}" in text
    ranking = text[text.rindex(result.ranking[0][1].label) - 4 :]
    for rank, player in result.ranking:
        assert f"{rank}. {player.label}" in ranking


@pytest.mark.parametrize(
    ("language", "headers"),
    [("en", ["Deal", "Dealer", "Points", "Bouts", "Total"]), ("fr", ["Donne", "Bouts", "Total"])],
)
def test_the_table_sheet_headers_are_whole_words(language: str, headers: list[str]) -> None:
    tournament = Tournament(name="Open", deals_per_round=4, club=ClubFactory.build(name="Club"))
    tables = [pdf.SheetTable(1, ["Aurélie", "Bruno", "Chloé", "Denis"], "https://t.example/t/x/")]
    with translation.override(language):
        data = pdf.render_table_sheets(tournament=tournament, round_name="R1", tables=tables)
    _pages, texts = read(data)
    words = set(texts[0].split())
    assert set(headers) <= words  # "Bout/s" before: the column was narrower than the word


@pytest.mark.parametrize(
    ("language", "headers"), [("en", ["Rank", "Total"]), ("fr", ["Rang", "Total"])]
)
def test_the_standings_headers_are_whole_words_with_many_rounds(
    language: str, headers: list[str]
) -> None:
    world = build_world()
    play(world.round)
    rows = standings_selectors.standings_for(tournament=world.tournament)
    tournament = Tournament.objects.select_related("club").get(pk=world.tournament.pk)
    names = [f"R{n}" for n in range(1, 21)]  # twenty rounds: narrow number columns
    rows = [dataclasses.replace(r, rounds=[0] * 20) for r in rows]
    with translation.override(language):
        data = pdf.render_standings(tournament=tournament, rows=rows, round_names=names)
    _pages, texts = read(data)
    assert set(headers) <= set(" ".join(texts).split())
