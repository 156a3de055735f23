"""The organiser's "Table sheets (PDF)" in a real browser: the link opens the page that prepares
the PDF (no ``download`` attribute, which saved that page as a .pdf that would not open); the
page is titled in French with a way back; once the worker has drawn it, its link downloads a
PDF that opens; tapping again asks for no second drawing."""

from __future__ import annotations

from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import Page, expect
from pypdf import PdfReader
from pytest_django.live_server_helper import LiveServer

from tarot_scores.core.models import PreparedPdf
from tests.e2e.test_game_entry import log_in
from tests.factories import ClubFactory, UserFactory, make_tournament
from tests.queue import database_queue, run_waiting_jobs
from tournaments.rounds import services as round_services

__all__ = ["database_queue"]  # a fixture


def test_the_table_sheets_are_prepared_then_downloaded(
    page: Page, live_server: LiveServer, database_queue: None
) -> None:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 8, name="Open de Lyon")
    round_services.round_seat_next(tournament=tournament, by=None)
    organiser = UserFactory.create(username="orga")
    club.memberships.create(user=organiser, role="organiser")
    log_in(page, live_server, organiser)
    round_url = reverse("tournaments:round", args=[tournament.pk, 1])
    page.goto(round_url)

    link = page.locator("#table-sheets")
    assert link.get_attribute("download") is None
    link.click()
    expect(page.locator("h1")).to_have_text("Feuilles de table, Séance 1, Open de Lyon")
    expect(page).to_have_title("Feuilles de table, Séance 1, Open de Lyon · Tarot Scores")
    expect(page.get_by_role("status")).to_contain_text("Votre PDF est en préparation")
    back = page.get_by_role("link", name="Retour à Séance 1")
    assert back.get_attribute("href") == round_url

    # Tapped again (back, then the same button): the same page, no second drawing.
    back.click()
    page.locator("#table-sheets").click()
    expect(page.locator("h1")).to_have_text("Feuilles de table, Séance 1, Open de Lyon")
    assert PreparedPdf.objects.count() == 1
    assert DBTaskResult.objects.filter(task_path__endswith=".pdf_draw").count() == 1

    run_waiting_jobs()  # the worker draws it; the page looks again by itself
    download_link = page.get_by_role("link", name="Télécharger le PDF")
    expect(download_link).to_be_visible(timeout=15_000)
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename == f"tournament-{tournament.pk}-round-1-tables.pdf"
    with open(download.value.path(), "rb") as pdf:
        reader = PdfReader(pdf)
        assert len(reader.pages) == 2  # one page per table
        assert "Open de Lyon" in reader.pages[0].extract_text()
