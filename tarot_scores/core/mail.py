"""Mail leaves through the task queue: the site's ``EMAIL_BACKEND`` only asks for a job per
message (after the transaction that wrote it commits, ``core.jobs.enqueue``), and the job sends
it with the backend that talks to the mail server (``EMAIL_SENDING_BACKEND``), retried with
backoff while that server is down. Every sender goes through it: invitations, password
resets, address checks, whatever library sends them, since all call Django's mail API.

A request never waits for the mail server then: with it down, inviting a member answers as
usual, the invitation is stored once, and the mail leaves when the server is back.
"""

from __future__ import annotations

from collections.abc import Sequence
from email.mime.base import MIMEBase
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend

from tarot_scores.core.jobs import enqueue, job
from tarot_scores.core.queues import Queue


def _as_data(message: EmailMessage) -> dict[str, Any]:
    """A message as the job's arguments carry it (JSON): its addresses, text and
    alternatives (an HTML part). Attachments are text only; the site sends none else."""
    attachments = []
    for attachment in message.attachments:
        if isinstance(attachment, MIMEBase):
            raise ValueError("Queued mail carries text attachments only")
        name, content, mimetype = attachment
        if isinstance(content, bytes):
            content = content.decode()
        attachments.append([name, content, mimetype])
    alternatives = getattr(message, "alternatives", [])
    return {
        "subject": message.subject,
        "body": message.body,
        "from_email": message.from_email,
        "to": list(message.to),
        "cc": list(message.cc),
        "bcc": list(message.bcc),
        "reply_to": list(message.reply_to),
        "headers": dict(message.extra_headers),
        "alternatives": [[content, mimetype] for content, mimetype in alternatives],
        "attachments": attachments,
        "content_subtype": message.content_subtype,
    }


def _from_data(data: dict[str, Any]) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    message.content_subtype = data.get("content_subtype", "plain")
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    for name, content, mimetype in data["attachments"]:
        message.attach(name, content, mimetype)
    return message


# The mail server down for an hour is retried for about that long: 1, 2, 4... 64 minutes.
@job(queue=Queue.MAIL, attempts=8, backoff=60)
def mail_send(message: dict[str, Any]) -> int:
    """Send one message with the real backend; raises (and so is retried) when the mail
    server refuses or does not answer within ``EMAIL_TIMEOUT``."""
    connection = get_connection(settings.EMAIL_SENDING_BACKEND, fail_silently=False)
    return connection.send_messages([_from_data(message)])


def mail_outline(message: dict[str, Any]) -> dict[str, Any]:
    """A queued message as staff may read it beside its job: who it goes to and its subject,
    not its text, which may hold a personal link (a password reset, an invitation, an address
    check) that would let its reader act as the addressee."""
    return {
        "to": message.get("to", []),
        "cc": message.get("cc", []),
        "bcc": message.get("bcc", []),
        "subject": message.get("subject", ""),
    }


class QueuedEmailBackend(BaseEmailBackend):
    """``EMAIL_BACKEND``: each message becomes a ``mail_send`` job, sent by a worker."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        count = 0
        for message in email_messages:
            if not message.recipients():
                continue
            enqueue(mail_send, message=_as_data(message))
            count += 1
        return count
