"""Where a webhook may go: public https servers only, checked for every address a name
resolves to; the tests' receiver only through the setting that names it."""

import socket
from typing import Any

import pytest
from pytest_django import Settings

from tarot_scores import settings as site_settings
from tarot_scores.webhooks.addresses import AddressRefused, address_allowed, url_target


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "127.8.9.10",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "239.255.255.250",
        "255.255.255.255",
        "240.0.0.1",
        "192.0.2.1",
        "::1",
        "::",
        "fc00::1",
        "fd12:3456::1",
        "fe80::1",
        "ff02::1",
        "::ffff:127.0.0.1",
        "::ffff:10.0.0.1",
        "2001:db8::1",
        # IPv6 forms that carry an IPv4 address lead to it: 6to4 (2002:AABB:CCDD::),
        # Teredo (2001:0::, the client's address inverted in the last 32 bits), NAT64
        # (64:ff9b::/96 and the local-use 64:ff9b:1::/48), IPv4-compatible (::a.b.c.d).
        "2002:7f00:1::1",
        "2002:a9fe:a9fe::",
        "2002:0a00:0001::5",
        "2001:0:5db8:4d2a:0:f227:80ff:fffe",  # Teredo, client 127.0.0.1
        "2001:0:7f00:1:0:f227:56ff:f0cc",  # Teredo, server 127.0.0.1, client public
        "64:ff9b::7f00:1",
        "64:ff9b::a9fe:a9fe",
        "64:ff9b:1::a00:1",
        "::7f00:1",
        "::a9fe:a9fe",
    ],
)
def test_private_local_and_reserved_addresses_are_refused(address: str) -> None:
    assert not address_allowed(address)


@pytest.mark.parametrize(
    "address",
    [
        "93.184.216.34",
        "1.1.1.1",
        "2606:4700:4700::1111",
        # The same forms wrapping a public IPv4 address are judged by it.
        "2002:5db8:d822::1",
        "64:ff9b::5db8:d822",
    ],
)
def test_public_addresses_are_allowed(address: str) -> None:
    assert address_allowed(address)


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://127.0.0.1/hook", "url_not_public"),
        ("https://10.0.0.1/hook", "url_not_public"),
        ("https://192.168.1.1/hook", "url_not_public"),
        ("https://169.254.169.254/latest/meta-data/", "url_not_public"),
        ("https://[::1]/hook", "url_not_public"),
        ("https://[fc00::1]/hook", "url_not_public"),
        ("https://0.0.0.0/hook", "url_not_public"),
        # A name is refused for what it resolves to: localhost is the machine itself.
        ("https://localhost/hook", "url_not_public"),
        ("http://93.184.216.34/hook", "url_not_https"),
        ("ftp://93.184.216.34/hook", "url_not_https"),
        ("https://user:pass@93.184.216.34/hook", "url_credentials"),
        ("https:///hook", "url_invalid"),
        ("not a url", "url_invalid"),
        ("https://93.184.216.34:99999/", "url_invalid"),
        # Port 0 is no port a server listens on: every send would fail.
        ("https://93.184.216.34:0/hook", "url_invalid"),
        # A webhook is no way to knock on a server's other services.
        ("https://93.184.216.34:22/hook", "url_port"),
        ("https://93.184.216.34:6379/hook", "url_port"),
        ("https://93.184.216.34:80/hook", "url_port"),
        ("https://[2002:7f00:1::1]/hook", "url_not_public"),
        ("https://[64:ff9b::a9fe:a9fe]/latest/meta-data/", "url_not_public"),
    ],
)
def test_refused_urls_say_why(url: str, code: str) -> None:
    with pytest.raises(AddressRefused) as refused:
        url_target(url)
    assert refused.value.code == code
    assert refused.value.message


def test_a_public_https_address_is_resolved_to_where_the_send_connects() -> None:
    target = url_target("https://93.184.216.34:8443/tarot/hook?club=3")
    assert (target.scheme, target.host, target.port) == ("https", "93.184.216.34", 8443)
    assert target.path == "/tarot/hook?club=3"
    assert target.addresses == ("93.184.216.34",)


def test_the_test_receiver_is_allowed_only_when_named(settings: Settings) -> None:
    with pytest.raises(AddressRefused):
        url_target("http://127.0.0.1:8123/hook")
    settings.WEBHOOKS_TEST_HOSTS = ["127.0.0.1"]
    assert url_target("http://127.0.0.1:8123/hook").addresses == ("127.0.0.1",)
    # Named exactly: another loopback name stays refused.
    with pytest.raises(AddressRefused):
        url_target("https://localhost:8123/hook")


def test_production_settings_name_no_test_host() -> None:
    assert site_settings.WEBHOOKS_TEST_HOSTS == []


# A name's answers from DNS, without asking a server off this machine: the resolver's answer is
# what the check reads, so the tests give it the answer.
def _resolves_to(monkeypatch: pytest.MonkeyPatch, *ips: str) -> None:
    def answer(host: str, port: int, *args: Any, **kwargs: Any) -> list[Any]:
        if not ips:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, port)) for ip in ips]

    monkeypatch.setattr(socket, "getaddrinfo", answer)


def test_a_name_with_one_private_address_among_public_ones_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolves_to(monkeypatch, "93.184.216.34", "10.1.2.3")
    with pytest.raises(AddressRefused) as refused:
        url_target("https://hooks.example.org/x")
    assert refused.value.code == "url_not_public"
    assert "10.1.2.3" in refused.value.message


def test_a_name_that_does_not_resolve_is_refused_with_the_name_to_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolves_to(monkeypatch)
    with pytest.raises(AddressRefused) as refused:
        url_target("https://nowhere.example.org/x")
    assert refused.value.code == "url_unknown_host"
    assert refused.value.message == (
        "Aucun serveur ne porte le nom nowhere.example.org : vérifiez l'adresse (une faute de "
        "frappe ?)."
    )


def test_a_name_of_public_addresses_keeps_them_all_for_the_send(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _resolves_to(monkeypatch, "93.184.216.34", "93.184.216.35")
    target = url_target("https://hooks.example.org/x")
    assert target.host == "hooks.example.org"
    assert target.addresses == ("93.184.216.34", "93.184.216.35")
