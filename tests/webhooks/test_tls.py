"""Over https, the receiver's certificate is checked against the address's host: a receiver on
127.0.0.1 with a certificate the machine trusts (``SSL_CERT_FILE``, read by Python's default
context) is delivered to; one whose certificate names another host, or that nobody signed the
machine trusts, is not, and the log says why. The certificates are made here with openssl."""

import shutil
import ssl
import subprocess
from collections.abc import Generator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery
from tests.queue import database_queue, run_waiting_jobs
from tests.webhooks.receiver import Receiver, serve

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed"),
]

__all__ = ["database_queue"]  # a fixture


def _certificate(folder: Path, name: str) -> tuple[Path, Path]:
    key, cert = folder / f"{name}.key", folder / f"{name}.pem"
    san = f"IP:{name}" if name[0].isdigit() else f"DNS:{name}"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", str(key), "-out", str(cert), "-subj", f"/CN={name}",
            "-addext", f"subjectAltName={san}",
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return key, cert


def _tls_receiver(key: Path, cert: Path) -> Generator[Receiver, None, None]:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return serve(context)


@pytest.fixture
def tls(settings: Settings, tmp_path: Path) -> Path:
    settings.WEBHOOKS_TEST_HOSTS = ["127.0.0.1"]
    return tmp_path


def _send(club: Club, organiser: User, url: str) -> Delivery:
    hook = services.webhook_create(club=club, url=url, by=organiser)
    delivery = services.webhook_ping(webhook=hook)
    run_waiting_jobs()
    delivery.refresh_from_db()
    return delivery


def test_a_trusted_certificate_for_the_host_is_delivered_to(
    database_queue: None, tls: Path, monkeypatch: pytest.MonkeyPatch, club: Club, organiser: User
) -> None:
    key, cert = _certificate(tls, "127.0.0.1")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    receiving = _tls_receiver(key, cert)
    receiver = next(receiving)
    try:
        delivery = _send(club, organiser, receiver.url)
    finally:
        receiving.close()
    assert delivery.status == Delivery.Status.DELIVERED
    assert len(receiver.requests) == 1


def test_a_certificate_for_another_host_is_refused(
    database_queue: None, tls: Path, monkeypatch: pytest.MonkeyPatch, club: Club, organiser: User
) -> None:
    key, cert = _certificate(tls, "hooks.example.org")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    receiving = _tls_receiver(key, cert)
    receiver = next(receiving)
    try:
        delivery = _send(club, organiser, receiver.url)
    finally:
        receiving.close()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.last_status_code is None
    assert delivery.last_error.startswith("Le certificat du serveur a été refusé")
    assert receiver.requests == []


def test_a_certificate_nobody_trusted_signed_is_refused(
    database_queue: None, tls: Path, club: Club, organiser: User
) -> None:
    key, cert = _certificate(tls, "127.0.0.1")
    receiving = _tls_receiver(key, cert)
    receiver = next(receiving)
    try:
        delivery = _send(club, organiser, receiver.url)
    finally:
        receiving.close()
    assert delivery.status == Delivery.Status.PENDING
    assert delivery.last_error.startswith("Le certificat du serveur a été refusé")
    assert receiver.requests == []
