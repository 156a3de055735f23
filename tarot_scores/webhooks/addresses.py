"""Where a webhook may be sent: an HTTPS address on the public internet, never the site's own
machine or a private network (a webhook must not be a way to reach what only the server sees).

Checked when the organiser registers the address and again at each send, since a name may
resolve elsewhere later. Every address the name resolves to must be public (``is_global``, and
neither multicast, reserved, loopback, link-local nor unspecified); the send then connects to
an address checked here, with no second lookup between the check and the connection. An IPv6
address that carries an IPv4 one (mapped ``::ffff:a.b.c.d``, compatible ``::a.b.c.d``, 6to4
``2002::/16``, Teredo ``2001::/32``, NAT64 ``64:ff9b::/96`` and ``64:ff9b:1::/48``) is judged
by the IPv4 address it leads to: a 6to4 address wrapping 127.0.0.1 reaches the machine itself.

Ports: 443 and those ``WEBHOOKS_PORTS`` lists (``443,8443`` by default, from the environment
variable of the same name); a webhook is no way to knock on a server's SSH or Redis port.

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

from tarot_scores.core.errors import Code

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class AddressRefused(Exception):
    """A webhook address the site will not send to: ``code`` (stable) and ``message`` (the
    reader's language)."""

    def __init__(self, code: Code, message: str) -> None:
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


NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")


def embedded_ipv4(ip: ipaddress.IPv6Address) -> tuple[ipaddress.IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address leads to (Teredo: its server and its client), or
    none for a plain IPv6 address."""
    if ip.ipv4_mapped is not None:
        return (ip.ipv4_mapped,)
    if ip.sixtofour is not None:
        return (ip.sixtofour,)
    if ip.teredo is not None:
        return ip.teredo
    if any(ip in network for network in NAT64) or (
        ip in IPV4_COMPATIBLE and int(ip) > 1  # :: and ::1 are themselves, not IPv4
    ):
        return (ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF),)
    return ()


def address_allowed(address: IPAddress | str) -> bool:
    """Whether a webhook may connect to this IP address: a public one only, judged for an
    IPv6 address that carries an IPv4 one by that IPv4 address."""
    ip = ipaddress.ip_address(address) if isinstance(address, str) else address
    if isinstance(ip, ipaddress.IPv6Address):
        inner = embedded_ipv4(ip)
        if inner:
            return all(address_allowed(v4) for v4 in inner)
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
        raise AddressRefused(Code.URL_INVALID, _("Enter a valid address.")) from None
    host = (parts.hostname or "").lower()
    if not host or port == 0:
        raise AddressRefused(Code.URL_INVALID, _("Enter a valid address."))
    if parts.username or parts.password:
        raise AddressRefused(
            Code.URL_CREDENTIALS, _("Put no user name or password in the address.")
        )
    allowed_schemes = ("https", "http") if _test_host(host) else ("https",)
    if parts.scheme not in allowed_schemes:
        raise AddressRefused(Code.URL_NOT_HTTPS, _("The address must start with https://."))
    port = port or (443 if parts.scheme == "https" else 80)
    if not _test_host(host) and port not in allowed_ports():
        raise AddressRefused(
            Code.URL_PORT,
            _(
                "Webhooks are only sent to these ports: %(ports)s. Remove :%(port)s from the "
                "address."
            )
            % {"ports": ", ".join(str(p) for p in allowed_ports()), "port": port},
        )
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port, path


def allowed_ports() -> tuple[int, ...]:
    """The ports a webhook may be sent to (``WEBHOOKS_PORTS``), 443 always among them."""
    return tuple(sorted({443, *getattr(settings, "WEBHOOKS_PORTS", (443,))}))


def _unknown_host(host: str) -> AddressRefused:
    # Said with the name, and what to look at: most often a typo in it.
    return AddressRefused(
        Code.URL_UNKNOWN_HOST,
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
                    Code.URL_NOT_PUBLIC,
                    _(
                        "This address leads to a private or local network (%(address)s): "
                        "webhooks only go to public servers."
                    )
                    % {"address": address},
                )
    return Target(scheme=scheme, host=host, port=port, path=path, addresses=addresses)
