"""PDFs drawn by a job behind a "your PDF is ready" page: a document that takes longer than a
request may spend (docs/performance.md, "Heavy PDFs": 0.2 s a table for a round's table sheets,
48 s at 250 tables) is asked for, drawn by the worker, and fetched from its page once ready.

A concern registers each such drawing at start-up (``on_prepared_pdf(kind, draw)``: ``draw``
takes the JSON arguments the view gave and returns the PDF's bytes) and its view answers
``pdf_later(request, kind=..., args=..., filename=...)``. When the job has already run by then
(the immediate backend, in tests), the PDF itself is the answer.

A PDF every reader of a page may ask for (a big tournament's standings) is shared instead:
``pdf_shared(kind=..., key=..., args=..., filename=...)``, where ``key`` names what the PDF
shows (the tournament, its results version, the language). The first reader of that key has it
drawn; every later reader gets the same row, waiting or ready, and no second drawing (the
database's unique key settles two readers asking at the same instant). A new results version
is a new key, so a new drawing. Its page is open to anyone with its address (an unguessable
UUID given only to readers of the page it came from).
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from tarot_scores.core.hooks import Hook
from tarot_scores.core.jobs import enqueue, job, worker_heard
from tarot_scores.core.models import PreparedPdf
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.queues import Queue

Draw = Callable[..., bytes]
KEPT = datetime.timedelta(days=1)
# Each kind of PDF the worker draws, and its drawing (registered by the concern that owns it).
prepared_drawings: Hook[tuple[str, Draw]] = Hook("prepared_drawings")


def on_prepared_pdf(kind: str, draw: Draw) -> None:
    prepared_drawings.register((kind, draw))


def _pdf_given_up(pdf_id: str) -> None:
    """Every attempt to draw the PDF failed: its page stops waiting and says so."""
    PreparedPdf.objects.filter(pk=pdf_id, ready_at__isnull=True).update(failed_at=timezone.now())


@job(queue=Queue.DOCUMENTS, attempts=3, backoff=10, given_up=_pdf_given_up)
def pdf_draw(pdf_id: str) -> int:
    """Draw one asked-for PDF (again, if a worker died drawing it: the result is the same)."""
    prepared = PreparedPdf.objects.filter(pk=pdf_id, ready_at__isnull=True).first()
    if prepared is None:
        return 0
    content = dict(prepared_drawings)[prepared.kind](**prepared.args)
    PreparedPdf.objects.filter(pk=pdf_id).update(
        content=content, ready_at=timezone.now(), failed_at=None
    )
    return len(content)


def pdf_later(
    request: HttpRequest, *, kind: str, args: dict[str, Any], filename: str
) -> HttpResponseBase:
    """Ask the worker for the PDF and send the reader to its page (or, drawn already, the PDF)."""
    owner = request.user if request.user.is_authenticated else None
    # A drawn PDF is fetched within minutes: a day later it is only weight in the database.
    PreparedPdf.objects.filter(asked_at__lt=timezone.now() - KEPT).delete()
    prepared = PreparedPdf.objects.create(kind=kind, args=args, filename=filename, owner=owner)
    enqueue(pdf_draw, pdf_id=str(prepared.pk))
    prepared.refresh_from_db()
    if prepared.ready_at is not None and prepared.content is not None:
        if owner is not None:
            return _owned(bytes(prepared.content), filename)
        return pdf_response(bytes(prepared.content), filename)
    return redirect("prepared_pdf", pk=prepared.pk, permanent=False)


def pdf_shared(*, kind: str, key: str, args: dict[str, Any], filename: str) -> HttpResponseBase:
    """The PDF named ``key``, shared by all its readers: the file itself once drawn, else the
    page of the one drawing asked for by its first reader (asked now if none is)."""
    PreparedPdf.objects.filter(asked_at__lt=timezone.now() - KEPT).delete()
    prepared, created = PreparedPdf.objects.get_or_create(
        key=key, defaults={"kind": kind, "args": args, "filename": filename}
    )
    if not created and prepared.ready_at is None and prepared.failed_at is not None:
        # Its drawing gave up: a reader asking again has it drawn again, not the dead row.
        PreparedPdf.objects.filter(pk=prepared.pk, ready_at__isnull=True).delete()
        prepared, created = PreparedPdf.objects.get_or_create(
            key=key, defaults={"kind": kind, "args": args, "filename": filename}
        )
    if created:
        enqueue(pdf_draw, pdf_id=str(prepared.pk))
        prepared.refresh_from_db()
    if prepared.ready_at is not None and prepared.content is not None:
        return pdf_response(bytes(prepared.content), prepared.filename)
    return redirect("prepared_pdf", pk=prepared.pk, permanent=False)


def _mine(request: HttpRequest, pk: uuid.UUID) -> PreparedPdf | HttpResponseBase:
    """The PDF, if this reader may have it: a shared one (no owner), or his own; someone not
    signed in is asked to for an owned one."""
    prepared = PreparedPdf.objects.defer("content").filter(pk=pk).first()
    if prepared is not None and prepared.owner_id is not None:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if prepared.owner_id != request.user.pk:
            prepared = None
    if prepared is None:
        raise Http404
    return prepared


@require_safe
def prepared_pdf(request: HttpRequest, pk: uuid.UUID) -> HttpResponseBase:
    """The PDF's page: "being prepared since 21:04" (it looks again by itself every few
    seconds), then "ready" with its link."""
    prepared = _mine(request, pk)
    if not isinstance(prepared, PreparedPdf):
        return prepared
    waiting = prepared.ready_at is None
    # The drawing failed its every attempt: the reader stops waiting and is told to ask again.
    given_up = waiting and prepared.failed_at is not None
    # Waiting with no worker running: the reader is told the PDF comes once it is back.
    stopped = waiting and not given_up and worker_heard() is False
    context = {
        "prepared": prepared,
        "given_up": given_up,
        "worker_stopped": stopped,
        "refresh_seconds": REFRESH_SECONDS,
    }
    return render(request, "tarot_scores/prepared_pdf.html", context)


# How often the waiting page looks again (htmx; a browser without JavaScript reloads it).
REFRESH_SECONDS = 3


@require_safe
def prepared_pdf_file(request: HttpRequest, pk: uuid.UUID) -> Any:
    prepared = _mine(request, pk)
    if not isinstance(prepared, PreparedPdf):
        return prepared
    if prepared.ready_at is None:
        return redirect("prepared_pdf", pk=pk)
    content = PreparedPdf.objects.values_list("content", flat=True).get(pk=pk)
    if content is None:
        raise Http404
    if prepared.owner_id is not None:
        return _owned(bytes(content), prepared.filename)
    return pdf_response(bytes(content), prepared.filename)


def _owned(content: bytes, filename: str) -> HttpResponseBase:
    """A PDF drawn for its asker alone (players' cards hold their PINs): kept by no shared
    cache, and not stored by the browser either."""
    response = pdf_response(content, filename)
    patch_cache_control(response, private=True, no_store=True)
    return response
