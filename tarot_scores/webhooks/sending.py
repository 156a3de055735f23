"""One POST of a delivery: the body signed with the webhook's secret, sent to an address
checked by ``addresses`` (connected to as checked: no second DNS lookup), no redirect
followed, within one deadline for the whole send.

The deadline (``WEBHOOKS_DEADLINE_SECONDS``, 10 s, never more) runs from the DNS lookup to the
last byte of the answer: a receiver that drips its status line, headers or body a byte at a
time is cut off when it passes, whatever each read's own timeout (a timer shuts the socket down
under the reads), and the send has failed. At most ``MAX_ANSWER`` bytes of the body are read.

The signature: ``X-Tarot-Signature: sha256=<hex>``, the HMAC-SHA256 with the secret of
``"<X-Tarot-Timestamp>.<body>"`` (docs/api.md shows how a receiver checks it).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import json
import socket
import ssl
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as LookupTimeout
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from tarot_scores.webhooks.addresses import AddressRefused, Target, url_target

# Seconds to connect, and for each read or write after it (the deadline bounds them all).
TIMEOUT = 5
# The most of an answer's body read: a receiver says yes with its status, not its body.
MAX_ANSWER = 65536
# Lookups that outlived their send's deadline finish here, in the background.
_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-dns")
USER_AGENT = "TarotScores-Webhooks/1"


def body_bytes(payload: dict[str, Any]) -> bytes:
    """The JSON body of a delivery: the same bytes at every attempt."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def signature(secret: str, timestamp: int, body: bytes) -> str:
    """The ``X-Tarot-Signature`` header's value for this body sent at ``timestamp``."""
    signed = str(timestamp).encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class Outcome:
    """What the receiver answered (``status``), or why nothing was sent or read (``error``)."""

    status: int | None
    error: str

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """Connects to the address checked, whatever the host name resolves to now."""

    def __init__(self, target: Target, address: str, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = address
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        self.sock = self.raw = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """The same over TLS: the certificate is checked against the host's name."""

    def __init__(self, target: Target, address: str, timeout: float) -> None:
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self._address = address
        self.raw: socket.socket | None = None

    def connect(self) -> None:
        # The plain socket is kept so that the deadline can cut a slow handshake too.
        sock = self.raw = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def deadline_seconds() -> float:
    """The whole send's deadline: the setting, never more than 10 s."""
    return min(float(settings.WEBHOOKS_DEADLINE_SECONDS), 10.0)


class _Cutter:
    """Shuts the connection's socket down when the deadline passes: a read blocked on a
    receiver that drips returns at once, and the send is marked too slow."""

    def __init__(self, connection: _PinnedHTTPConnection | _PinnedHTTPSConnection) -> None:
        self.connection = connection
        self.fired = threading.Event()

    def __call__(self) -> None:
        self.fired.set()
        raw = self.connection.raw
        if raw is not None:
            with contextlib.suppress(OSError):  # closed meanwhile
                raw.shutdown(socket.SHUT_RDWR)


def _too_slow(seconds: float) -> str:
    return _("No complete answer within %(seconds)s s: the send is cut off.") % {
        "seconds": f"{seconds:g}"
    }


def post_signed(
    *, url: str, secret: str, event: str, delivery_id: str, payload: dict[str, Any], timestamp: int
) -> Outcome:
    """POST the event once, within the deadline; never raises for what the network or the
    receiver does. ``delivery_id`` is the delivery's id, sent as ``X-Tarot-Delivery``: one per
    webhook and event (``Delivery.delivery_id``), not the event's own id (the body's ``id``,
    the same for every webhook the event is sent to)."""
    seconds = deadline_seconds()
    deadline = time.monotonic() + seconds
    lookup = _LOOKUPS.submit(url_target, url)
    try:
        target = lookup.result(timeout=seconds)
    except AddressRefused as refused:
        return Outcome(None, refused.message)
    except LookupTimeout:
        return Outcome(None, _too_slow(seconds))
    body = body_bytes(payload)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Tarot-Event": event,
        "X-Tarot-Delivery": delivery_id,
        "X-Tarot-Timestamp": str(timestamp),
        "X-Tarot-Signature": signature(secret, timestamp, body),
    }
    error = ""
    for address in target.addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            return Outcome(None, _too_slow(seconds))
        connection: _PinnedHTTPConnection | _PinnedHTTPSConnection = (
            _PinnedHTTPSConnection(target, address, min(TIMEOUT, left))
            if target.scheme == "https"
            else _PinnedHTTPConnection(target, address, min(TIMEOUT, left))
        )
        cutter = _Cutter(connection)
        timer = threading.Timer(left, cutter)
        timer.daemon = True
        timer.start()
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            answer = connection.getresponse()
            answer.read(MAX_ANSWER)
        except ssl.SSLCertVerificationError as failure:
            if cutter.fired.is_set():
                return Outcome(None, _too_slow(seconds))
            reason = (failure.verify_message or str(failure))[:200]
            error = _("The server's certificate was refused (%(reason)s).") % {"reason": reason}
            continue
        except (OSError, http.client.HTTPException) as failure:
            if cutter.fired.is_set():
                return Outcome(None, _too_slow(seconds))
            reason = (str(failure) or type(failure).__name__)[:200]
            error = _("No answer from the server (%(reason)s).") % {"reason": reason}
            continue
        finally:
            timer.cancel()
            connection.close()
        if cutter.fired.is_set():  # the answer ended by the cut, not by the receiver
            return Outcome(None, _too_slow(seconds))
        if 300 <= answer.status < 400:
            return Outcome(answer.status, _("Redirects are not followed."))
        if not 200 <= answer.status < 300:
            answered = _("The server answered %(status)s.") % {"status": answer.status}
            return Outcome(answer.status, answered)
        return Outcome(answer.status, "")
    return Outcome(None, error)
