"""A PDF too big for a request (a round's table sheets): asked for, drawn by the worker, shown
"being prepared since 21:04" on its page, then "ready" with its link, for the one who asked
only. bench/pdfs.py measured why (docs/performance.md, "Heavy PDFs")."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from tarot_scores.core.models import PreparedPdf
from tests.factories import ClubFactory, UserFactory, make_tournament
from tests.queue import database_queue, run_waiting_jobs
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture


def test_table_sheets_are_drawn_by_the_worker_behind_a_ready_page(database_queue: None) -> None:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 12, deals_per_round=4, name="Open de Lyon")
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    organiser = UserFactory.create(username="orga")
    club.memberships.create(user=organiser, role="organiser")
    client = Client()
    client.force_login(organiser)

    asked = client.get(
        reverse("tournaments:table_sheets_pdf", args=[tournament.pk, 1]),
        HTTP_ACCEPT_LANGUAGE="en",
    )

    prepared = PreparedPdf.objects.get()
    page_url = reverse("prepared_pdf", args=[prepared.pk])
    file_url = reverse("prepared_pdf_file", args=[prepared.pk])
    assert asked.status_code == 302 and asked["Location"] == page_url
    at = timezone.localtime(prepared.asked_at).strftime("%H:%M")
    waiting = client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Your PDF is being prepared since {at}" in waiting
    assert f'href="{page_url}"' in waiting  # a real link to look again, htmx or not
    french = client.get(page_url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Votre PDF est en préparation depuis {at}" in french
    assert client.get(file_url)["Location"] == page_url  # not yet

    [drawn] = run_waiting_jobs()
    assert drawn == run_size() > 0  # the job's result: the PDF's size

    ready = client.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your PDF is ready." in ready and f'href="{file_url}"' in ready
    response = client.get(file_url)
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(b"".join(response.streaming_content)))  # type: ignore[attr-defined]
    states = round_selectors.round_tables(round_=round_)
    assert len(reader.pages) == len(states) == 3
    for state, page in zip(states, reader.pages, strict=True):
        text = page.extract_text().replace(" ", "").replace("\n", "")
        # The table's link under its QR code, on the address the organiser asked from.
        assert f"http://testserver/t/{state.table.token}" in text or state.table.token in text
        assert "testserver" in text

    # Only the one who asked sees it.
    other = Client()
    other.force_login(UserFactory.create(username="curieux"))
    assert other.get(page_url).status_code == 404
    assert other.get(file_url).status_code == 404


def run_size() -> int:
    content = PreparedPdf.objects.values_list("content", flat=True).get()
    assert content is not None
    return len(content)
