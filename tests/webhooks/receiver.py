"""A webhook receiver for the tests: a real HTTP server on 127.0.0.1 in a thread, allowed as a
webhook address only through ``WEBHOOKS_TEST_HOSTS`` (the site refuses loopback otherwise).
It keeps every request and answers the statuses it is told, in order (200 after them)."""

import ssl
import threading
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pytest_django import Settings


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    url: str = ""
    requests: list[Received] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)


@pytest.fixture
def receiver(settings: Settings) -> Iterator[Receiver]:
    settings.WEBHOOKS_TEST_HOSTS = ["127.0.0.1"]
    yield from serve()


def serve(tls: ssl.SSLContext | None = None) -> Generator[Receiver, None, None]:
    """A receiver on 127.0.0.1 (over TLS with ``tls``, the server's context) until the
    generator is closed."""
    got = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            got.requests.append(Received(self.path, {k: v for k, v in self.headers.items()}, body))
            status = got.answers.pop(0) if got.answers else 200
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", "http://127.0.0.1:9/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    scheme = "https" if tls is not None else "http"
    got.url = f"{scheme}://127.0.0.1:{server.server_port}/hook"
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()
