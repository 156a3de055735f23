"""One POST of a delivery: the body signed with the webhook's secret, sent to an address
checked by ``addresses`` (connected to as checked: no second DNS lookup), no redirect
followed, a few seconds at most.

The signature: ``X-Tarot-Signature: sha256=<hex>``, the HMAC-SHA256 with the secret of
``"<X-Tarot-Timestamp>.<body>"`` (docs/api.md shows how a receiver checks it).
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import socket
import ssl
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tarot_scores.webhooks.addresses import AddressRefused, Target, url_target

# Seconds to connect, and for each read or write after it.
TIMEOUT = 5
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

    def __init__(self, target: Target, address: str) -> None:
        super().__init__(target.host, target.port, timeout=TIMEOUT)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """The same over TLS: the certificate is checked against the host's name."""

    def __init__(self, target: Target, address: str) -> None:
        super().__init__(
            target.host, target.port, timeout=TIMEOUT, context=ssl.create_default_context()
        )
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post_signed(
    *, url: str, secret: str, event: str, event_id: str, payload: dict[str, Any], timestamp: int
) -> Outcome:
    """POST the event once; never raises for what the network or the receiver does."""
    try:
        target = url_target(url)
    except AddressRefused as refused:
        return Outcome(None, refused.message)
    body = body_bytes(payload)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Tarot-Event": event,
        "X-Tarot-Delivery": event_id,
        "X-Tarot-Timestamp": str(timestamp),
        "X-Tarot-Signature": signature(secret, timestamp, body),
    }
    error = ""
    for address in target.addresses:
        connection: http.client.HTTPConnection = (
            _PinnedHTTPSConnection(target, address)
            if target.scheme == "https"
            else _PinnedHTTPConnection(target, address)
        )
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            answer = connection.getresponse()
            answer.read(65536)
        except ssl.SSLCertVerificationError as failure:
            reason = (failure.verify_message or str(failure))[:200]
            error = _("The server's certificate was refused (%(reason)s).") % {"reason": reason}
            continue
        except (OSError, http.client.HTTPException) as failure:
            reason = (str(failure) or type(failure).__name__)[:200]
            error = _("No answer from the server (%(reason)s).") % {"reason": reason}
            continue
        finally:
            connection.close()
        if 300 <= answer.status < 400:
            return Outcome(answer.status, _("Redirects are not followed."))
        if not 200 <= answer.status < 300:
            answered = _("The server answered %(status)s.") % {"status": answer.status}
            return Outcome(answer.status, answered)
        return Outcome(answer.status, "")
    return Outcome(None, error)
