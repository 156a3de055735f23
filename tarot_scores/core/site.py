"""The site as its mails name it: ``SITE_NAME`` ("Tarot Scores"), and the host the reader came
by for its links. Django's and allauth's mails would otherwise call the site by its host name
("Bonjour, c'est 127.0.0.1:8000 !"), since the site runs without the sites framework."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest


@dataclass(frozen=True)
class SiteIdentity:
    """What allauth's and Django's mail templates read as ``current_site``/``site_name``."""

    name: str
    domain: str


def site_identity(request: HttpRequest | None) -> SiteIdentity:
    domain = request.get_host() if request is not None else ""
    return SiteIdentity(name=settings.SITE_NAME, domain=domain or settings.SITE_NAME)
