"""One deadline for the whole of a webhook send (``webhooks.sending``): a receiver on 127.0.0.1
that drips its answer a byte at a time is cut off when it passes, whatever each read's own
timeout, and the send has failed; the deadline is 10 s in production and never more."""

import socket
import threading
from collections.abc import Iterator

import pytest
from django.conf import settings as django_settings
from pytest_django import Settings

from tarot_scores.webhooks import sending


@pytest.fixture
def dripping(settings: Settings) -> Iterator[tuple[str, threading.Event]]:
    """A receiver that answers one byte every half second until told to stop: its status
    line alone takes longer than the test's deadline. Yields its URL and whether the sender
    closed the connection before the answer's end."""
    settings.WEBHOOKS_TEST_HOSTS = ["127.0.0.1"]
    server = socket.create_server(("127.0.0.1", 0))
    stop, cut = threading.Event(), threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            try:
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok":
                    if stop.wait(0.5):
                        return
                    conn.sendall(bytes([byte]))
            except OSError:
                cut.set()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/hook", cut
    stop.set()
    server.close()
    thread.join(timeout=30)


def test_a_dripping_answer_is_cut_off_at_the_deadline(
    dripping: tuple[str, threading.Event], settings: Settings
) -> None:
    url, cut = dripping
    settings.WEBHOOKS_DEADLINE_SECONDS = 2  # each byte comes within the 5 s read timeout
    outcome = sending.post_signed(
        url=url, secret="s", event="deal.recorded", delivery_id="d1", payload={}, timestamp=1
    )
    assert not outcome.delivered
    assert outcome.status is None
    assert "2 s" in outcome.error
    # The receiver was still answering when the sender closed: cut, not finished.
    assert cut.wait(30)


def test_the_deadline_is_ten_seconds_and_never_more(settings: Settings) -> None:
    assert django_settings.WEBHOOKS_DEADLINE_SECONDS == 10  # the production default
    settings.WEBHOOKS_DEADLINE_SECONDS = 60
    assert sending.deadline_seconds() == 10
    settings.WEBHOOKS_DEADLINE_SECONDS = 3
    assert sending.deadline_seconds() == 3
