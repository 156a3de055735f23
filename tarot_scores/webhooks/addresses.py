"""Where a webhook may be sent: an HTTPS address on the public internet, never the site's own
machine or a private network (a webhook must not be a way to reach what only the server sees).

Checked when the organiser registers the address and again at each send, since a name may
resolve elsewhere later. Every address the name resolves to must be public (``is_global``, and
neither multicast, reserved, loopback, link-local nor unspecified); the send then connects to
an address checked here, with no second lookup between the check and the connection.

``WEBHOOKS_TEST_HOSTS`` (settings, empty unless ``WEBHOOKS_ALLOW_LOOPBACK`` is set) names
hosts for which plain ``http://`` and a loopback address are allowed: the tests' receiver on
127.0.0.1. A name must match exactly: ``localhost`` is refused unless it is listed itself.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(Exception):
    """A webhook address the site will not send to: ``code`` (stable) and ``message`` (the
    reader's language)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Target:
    """An address checked: where to connect (``addresses``, each allowed) and what to name
    (``host`` for TLS and the Host header)."""

    scheme: str
    host: str
    port: int
    path: str
    addresses: tuple[str, ...]


def _test_host(host: str) -> bool:
    return host in getattr(settings, "WEBHOOKS_TEST_HOSTS", ())


def address_allowed(address: IPAddress | str) -> bool:
    """Whether a webhook may connect to this IP address: a public one only."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_multicast
        or ip.is_reserved
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_unspecified
        or ip.is_private
    )


def url_shape(url: str) -> tuple[str, str, int, str]:
    """The scheme, host, port and path of a webhook address, or ``AddressRefused`` for an
    address that is not an https URL with a host (no DNS lookup)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        raise AddressRefused("url_invalid", _("Enter a valid address.")) from None
    host = (parts.hostname or "").lower()
    if not host or port == 0:
        raise AddressRefused("url_invalid", _("Enter a valid address."))
    if parts.username or parts.password:
        raise AddressRefused("url_credentials", _("Put no user name or password in the address."))
    allowed_schemes = ("https", "http") if _test_host(host) else ("https",)
    if parts.scheme not in allowed_schemes:
        raise AddressRefused("url_not_https", _("The address must start with https://."))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port or (443 if parts.scheme == "https" else 80), path


def _unknown_host(host: str) -> AddressRefused:
    # Said with the name, and what to look at: most often a typo in it.
    return AddressRefused(
        "url_unknown_host",
        _("No server is known by the name %(host)s: check the address for a typo.")
        % {"host": host},
    )


def url_target(url: str) -> Target:
    """The address checked and resolved, or ``AddressRefused``: not https, a name that does
    not resolve, or any of its addresses not public."""
    scheme, host, port, path = url_shape(url)
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, OSError):
        raise _unknown_host(host) from None
    addresses = tuple(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise _unknown_host(host)
    if not _test_host(host):
        for address in addresses:
            if not address_allowed(address.split("%", 1)[0]):
                raise AddressRefused(
                    "url_not_public",
                    _(
                        "This address leads to a private or local network (%(address)s): "
                        "webhooks only go to public servers."
                    )
                    % {"address": address},
                )
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=addresses)
