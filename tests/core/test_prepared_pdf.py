"""A PDF too big for a request (a round's table sheets): asked for, drawn by the worker, shown
"being prepared since 21:04" on its page, then "ready" with its link, for the one who asked
only. A big tournament's standings PDF is drawn the same way but shared: once per results
version and language, for all its readers. bench/pdfs.py measured why (docs/performance.md,
"Heavy PDFs")."""

from __future__ import annotations

import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from pypdf import PdfReader
from pytest_django import DjangoAssertNumQueries

from tarot_scores.core.models import PreparedPdf, WorkerBeat
from tarot_scores.core.prepared import pdf_shared
from tests.factories import ClubFactory, UserFactory, build_world, make_tournament, play
from tests.queue import database_queue, run_waiting_jobs
from tournaments.rounds import selectors, services
from tournaments.standings import selectors as standings_selectors
from tournaments.views import results as results_views

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture


def test_table_sheets_are_drawn_by_the_worker_behind_a_ready_page(database_queue: None) -> None:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 12, deals_per_round=4, name="Open de Lyon")
    round_ = services.round_seat_next(tournament=tournament, by=None)
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
    states = selectors.round_tables(round_=round_)
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
    # Someone not signed in is asked to sign in first.
    assert "login" in Client().get(page_url)["Location"]


def run_size() -> int:
    content = PreparedPdf.objects.values_list("content", flat=True).get()
    assert content is not None
    return len(content)


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return " ".join(re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages)


def drawings_asked() -> int:
    return DBTaskResult.objects.filter(task_path__endswith=".pdf_draw").count()


def streamed(response: object) -> bytes:
    return b"".join(response.streaming_content)  # type: ignore[attr-defined]


def test_a_big_tournaments_standings_pdf_is_drawn_once_per_version_for_all_its_readers(
    database_queue: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = build_world()  # a public club: anyone reads its standings
    tournament = world.tournament
    play(world.round, seed=8, deals=1)
    run_waiting_jobs()  # the deals' ratings
    # Its 8 players make it "big" here (the site's threshold is measured: bench/pdfs.py).
    monkeypatch.setattr(results_views, "STANDINGS_PDF_IN_REQUEST", 4)
    url = reverse("tournaments:standings_pdf", args=[tournament.pk])
    first, second = Client(), Client()
    member = world.users["member"]
    assert member is not None
    second.force_login(member)

    asked = first.get(url, HTTP_ACCEPT_LANGUAGE="en")
    again = second.get(url, HTTP_ACCEPT_LANGUAGE="en")

    prepared = PreparedPdf.objects.get()  # one drawing asked for, by the first reader only
    page_url = reverse("prepared_pdf", args=[prepared.pk])
    file_url = reverse("prepared_pdf_file", args=[prepared.pk])
    assert asked.status_code == again.status_code == 302
    assert asked["Location"] == again["Location"] == page_url
    assert prepared.owner is None and drawings_asked() == 1
    waiting = first.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your PDF is being prepared since" in waiting

    assert run_waiting_jobs() == [run_size()]

    # Drawn: every reader of this version, signed in or not, gets that same file.
    assert "Your PDF is ready." in first.get(page_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    drawn = streamed(first.get(file_url))
    third = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert third.status_code == 200 and third["Content-Type"] == "application/pdf"
    assert streamed(third) == drawn == streamed(second.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert PreparedPdf.objects.count() == 1 and drawings_asked() == 1
    text = pdf_text(drawn)
    assert "Standings" in text and "Classement" not in text
    for row in standings_selectors.standings_for(tournament=tournament):
        assert f"{row.rank}. {row.player.label}" in text

    # A new deal is a new results version: a new drawing, with the new totals.
    play(world.round, seed=8, deals=2)
    run_waiting_jobs()
    after = first.get(url, HTTP_ACCEPT_LANGUAGE="en")
    newer = PreparedPdf.objects.exclude(pk=prepared.pk).get()
    assert after["Location"] == reverse("prepared_pdf", args=[newer.pk])
    run_waiting_jobs()
    text = pdf_text(streamed(first.get(url, HTTP_ACCEPT_LANGUAGE="en")))
    for row in standings_selectors.standings_for(tournament=tournament):
        assert f"{row.rank}. {row.player.label}" in text
        assert f"{row.rounds[0]} {row.total}" in text
    # Another language is another file, drawn in that language.
    french = first.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 302 and PreparedPdf.objects.count() == 3
    run_waiting_jobs()
    assert drawings_asked() == 3
    assert "Classement" in pdf_text(streamed(first.get(url, HTTP_ACCEPT_LANGUAGE="fr")))


def test_a_small_tournaments_standings_pdf_is_still_drawn_in_the_request(
    database_queue: None, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    world = build_world()
    play(world.round, seed=8)
    url = reverse("tournaments:standings_pdf", args=[world.tournament.pk])
    with django_assert_max_num_queries(15):
        response = Client().get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert world.tournament.name in pdf_text(streamed(response))
    assert not PreparedPdf.objects.exists() and drawings_asked() == 0


def test_the_waiting_page_reloads_itself_without_javascript_and_says_when_no_worker_runs(
    database_queue: None,
) -> None:
    """A reader without JavaScript has no htmx to look again: the waiting page reloads itself
    (a refresh inside <noscript>, so htmx readers are not reloaded too), and not once ready.
    With no worker heard from, the page says the PDF waits for it, in both languages."""
    prepared = PreparedPdf.objects.create(
        kind="tournament_table_sheets", args={}, filename="tables.pdf", key="a-shared-pdf"
    )
    url = reverse("prepared_pdf", args=[prepared.pk])
    client = Client()
    refresh = '<noscript><meta http-equiv="refresh" content="3"></noscript>'

    waiting = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert refresh in waiting
    assert 'hx-trigger="every 3s"' in waiting
    assert "The site's background worker is stopped just now" in waiting
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Le programme de fond du site est arrêté pour l'instant" in french

    WorkerBeat.objects.create(worker_id="a-worker", seen_at=timezone.now())
    running = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert refresh in running
    assert "worker is stopped" not in running

    PreparedPdf.objects.filter(pk=prepared.pk).update(content=b"%PDF", ready_at=timezone.now())
    ready = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your PDF is ready." in ready
    assert 'http-equiv="refresh"' not in ready


def test_a_drawing_that_gave_up_says_so_and_a_shared_one_is_drawn_again_when_asked(
    database_queue: None,
) -> None:
    """The drawing fails its every attempt (here: a kind no concern registered): its page
    stops saying "being prepared" and tells the reader to ask again, in both languages; asking
    again for a shared PDF has it drawn anew instead of answering the dead row."""
    asked = pdf_shared(kind="no_such_drawing", key="k", args={}, filename="broken.pdf")
    prepared = PreparedPdf.objects.get()
    url = reverse("prepared_pdf", args=[prepared.pk])
    assert asked["Location"] == url
    client = Client()
    assert "being prepared" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert run_waiting_jobs(due_now=True) == [None, None, None]  # 3 attempts, all failed

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Your PDF could not be drawn. Go back to the page" in english
    assert "being prepared" not in english
    assert 'http-equiv="refresh"' not in english and "hx-trigger" not in english
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Votre PDF n'a pas pu être préparé" in french

    again = pdf_shared(kind="no_such_drawing", key="k", args={}, filename="broken.pdf")
    fresh = PreparedPdf.objects.get()
    assert fresh.pk != prepared.pk
    assert again["Location"] == reverse("prepared_pdf", args=[fresh.pk])
    assert DBTaskResult.objects.filter(status="READY").count() == 1  # drawn again
    fresh_page = client.get(again["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "being prepared" in fresh_page


def test_table_sheets_asked_again_reuse_the_drawing_until_the_seating_changes(
    database_queue: None,
) -> None:
    """Each tap on "Table sheets (PDF)" used to queue a new drawing: the same reader asking
    again for the same seating gets the same row and its page, and no new job."""
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 8, deals_per_round=4, name="Open de Lyon")
    round_ = services.round_seat_next(tournament=tournament, by=None)
    organiser = UserFactory.create(username="orga")
    club.memberships.create(user=organiser, role="organiser")
    client = Client()
    client.force_login(organiser)
    url = reverse("tournaments:table_sheets_pdf", args=[tournament.pk, 1])

    answers = [client.get(url, HTTP_ACCEPT_LANGUAGE="fr")["Location"] for _tap in range(3)]

    prepared = PreparedPdf.objects.get()
    assert answers == [reverse("prepared_pdf", args=[prepared.pk])] * 3
    assert drawings_asked() == 1
    run_waiting_jobs()
    # Ready, it is the file itself (no drawing again).
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="fr")["Content-Type"] == "application/pdf"
    assert drawings_asked() == 1
    # Another language, or a swap before the first deal, prints other sheets: a new drawing.
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert drawings_asked() == 2
    first, second = selectors.round_tables(round_=round_)
    services.round_swap(round_=round_, first=first.players[0], second=second.players[0])
    client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert drawings_asked() == 3 and PreparedPdf.objects.count() == 3
    # Another organiser has his own (the sheets carry the tables' private links).
    other = UserFactory.create(username="orga2")
    club.memberships.create(user=other, role="organiser")
    Client().force_login(other)
    second_client = Client()
    second_client.force_login(other)
    assert second_client.get(url, HTTP_ACCEPT_LANGUAGE="fr")["Location"] != answers[0]


@pytest.mark.parametrize(
    ("language", "title", "back"),
    [
        ("fr", "Feuilles de table, Séance 1, Open de Lyon", "Retour à Séance 1"),
        ("en", "Table sheets, Round 1, Open de Lyon", "Back to Round 1"),
    ],
)
def test_the_waiting_page_names_the_pdf_and_leads_back(
    database_queue: None, language: str, title: str, back: str
) -> None:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    tournament = make_tournament(club, 8, name="Open de Lyon")
    services.round_seat_next(tournament=tournament, by=None)
    organiser = UserFactory.create(username="orga")
    club.memberships.create(user=organiser, role="organiser")
    client = Client()
    client.force_login(organiser)
    asked = client.get(reverse("tournaments:table_sheets_pdf", args=[tournament.pk, 1]))

    page = client.get(asked["Location"], HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert f"<title>{title} · " in page and f"<h1>{title}</h1>" in page
    assert ".pdf" not in page.split("<title>", 1)[1].split("</title>", 1)[0]
    round_url = reverse("tournaments:round", args=[tournament.pk, 1])
    assert f'<a href="{round_url}" id="prepared-back">{back}</a>' in page


def test_the_pdf_links_that_may_lead_to_a_waiting_page_do_not_say_download() -> None:
    """A ``download`` link saves the "being prepared" page as a .pdf that will not open."""
    world = build_world()
    client = Client()
    client.force_login(world.users["organiser"])  # type: ignore[arg-type]
    round_page = client.get(reverse("tournaments:round", args=[world.tournament.pk, 1])).text
    standings = client.get(reverse("tournaments:standings", args=[world.tournament.pk])).text

    assert re.search(r'<a [^>]*id="table-sheets"[^>]*>', round_page)
    assert not re.search(r'<a [^>]*id="table-sheets"[^>]*download', round_page)
    assert not re.search(r'<a [^>]*id="standings-pdf"[^>]*download', standings)
