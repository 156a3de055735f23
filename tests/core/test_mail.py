"""Mail through the task queue: a request asks for a job and answers; the job sends with the
real backend, after the transaction commits, and is retried while the mail server is down (a
real SMTP port where nothing listens). One invitation, however often the server refuses."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.mail import send_mail
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from pytest_django import Settings

from tarot_scores import settings as site_settings
from tarot_scores.clubs.models import Club, Invitation
from tests.queue import database_queue, run_waiting_jobs

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


def closed_port() -> int:
    """A local port where nothing listens: connecting is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def mail_server_down(settings: Settings, database_queue: None) -> Iterator[None]:
    settings.EMAIL_BACKEND = "tarot_scores.core.mail.QueuedEmailBackend"
    settings.EMAIL_SENDING_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = closed_port()
    settings.EMAIL_TIMEOUT = 5
    yield


def invite(client: Client, club: Club, email: str) -> int:
    data = {"action": "add", "add-identifier": email, "add-role": "member"}
    response = client.post(reverse("clubs:members", args=[club.slug]), data)
    return int(response.status_code)


def test_the_site_sends_mail_through_the_queue_with_a_timeout() -> None:
    assert site_settings.EMAIL_BACKEND == "tarot_scores.core.mail.QueuedEmailBackend"
    assert site_settings.EMAIL_TIMEOUT == 10


def test_with_the_mail_server_down_an_invitation_answers_and_is_stored_once(
    client: Client, club: Club, organiser: User, settings: Settings, mail_server_down: None
) -> None:
    client.force_login(organiser)

    assert invite(client, club, "zoe@example.org") == 302  # the usual answer, no 500

    assert Invitation.objects.filter(email="zoe@example.org").count() == 1
    [result] = run_waiting_jobs()  # the worker tries: refused
    assert result is None
    failed = DBTaskResult.objects.get(status=TaskResultStatus.FAILED)
    assert "ConnectionRefusedError" in failed.traceback
    retry = DBTaskResult.objects.get(status=TaskResultStatus.READY)
    assert failed.finished_at is not None
    assert retry.run_after > failed.finished_at  # later, with backoff
    assert Invitation.objects.filter(email="zoe@example.org").count() == 1
    assert mail.outbox == []

    # The mail server is back: the retry, once due, sends the invitation.
    settings.EMAIL_SENDING_BACKEND = LOCMEM
    [sent] = run_waiting_jobs(due_now=True)
    assert sent == 1
    assert [m.to for m in mail.outbox] == [["zoe@example.org"]]
    assert "/accounts/invitations/" in str(mail.outbox[0].body)
    assert club.name in mail.outbox[0].subject


def test_a_password_reset_mail_leaves_through_the_queue(
    client: Client, member: User, settings: Settings, mail_server_down: None
) -> None:
    response = client.post(reverse("password_reset"), {"email": member.email})
    assert response.status_code == 302
    assert mail.outbox == []
    settings.EMAIL_SENDING_BACKEND = LOCMEM
    assert run_waiting_jobs() == [1]
    assert mail.outbox[0].to == [member.email]
    assert "/accounts/reset/" in str(mail.outbox[0].body)


def test_a_mail_asked_for_in_a_transaction_that_rolls_back_never_leaves(
    settings: Settings, mail_server_down: None
) -> None:
    settings.EMAIL_SENDING_BACKEND = LOCMEM
    with pytest.raises(RuntimeError), transaction.atomic():
        send_mail("Invitation", "Rejoignez le club", None, ["zoe@example.org"])
        raise RuntimeError("the invitation was not stored")
    assert run_waiting_jobs() == []
    assert mail.outbox == []


def test_a_queued_message_keeps_its_parts(settings: Settings, mail_server_down: None) -> None:
    from django.core.mail import EmailMultiAlternatives

    settings.EMAIL_SENDING_BACKEND = LOCMEM
    message = EmailMultiAlternatives(
        "Sujet", "Texte", "club@example.org", ["a@example.org"], cc=["b@example.org"]
    )
    message.attach_alternative("<p>Texte</p>", "text/html")
    message.send()
    run_waiting_jobs()
    [sent] = mail.outbox
    assert (sent.subject, sent.body, sent.from_email) == ("Sujet", "Texte", "club@example.org")
    assert sent.to == ["a@example.org"] and sent.cc == ["b@example.org"]
    assert sent.alternatives == [("<p>Texte</p>", "text/html")]  # type: ignore[attr-defined]


def test_staff_read_a_waiting_mails_addressee_and_subject_not_its_personal_link(
    client: Client, member: User, superuser: User, mail_server_down: None
) -> None:
    """A password reset waits for the mail server: staff see the job, whom it goes to and
    its subject, but not the link inside it, which would let them set the member's
    password."""
    client.post(reverse("password_reset"), {"email": member.email})
    [job] = DBTaskResult.objects.all()
    assert "/accounts/reset/" in str(job.args_kwargs)  # the link is in the job, as it must be

    client.force_login(superuser)
    page = client.get(
        reverse("admin:django_tasks_database_dbtaskresult_change", args=[job.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert member.email in page
    assert "mail_send" in page
    assert "/accounts/reset/" not in page
