"""Pages sent compressed (gzip): a score sheet or a leaderboard is mostly repeated markup, and
a phone at the table on a weak network gets it several times smaller.

Compression and secrets: an attacker who can make a victim's browser send requests, and who
sees the size of the answers, can guess a secret that a compressed answer carries beside text
he chose (BREACH). What the site sends is safe from that:

- the CSRF token in every form is masked afresh for each answer (Django's CSRF middleware), so
  no two answers carry the same bytes for it;
- Django's ``GZipMiddleware`` pads each compressed answer with a random length of bytes
  ("Heal the Breach"), so that a length no longer tells a guess that matched;
- a password or a PIN typed into a form is never written back into the page;
- the one answer that shows a lasting secret (a webhook's signing secret, shown once) is marked
  with ``secret_inside`` and sent uncompressed.
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

SECRET_INSIDE = "secret_inside"
R = TypeVar("R", bound=HttpResponseBase)


def secret_inside(response: R) -> R:
    """Mark ``response`` as carrying a secret: it is sent uncompressed."""
    setattr(response, SECRET_INSIDE, True)
    return response


class CompressPages(GZipMiddleware):
    """Django's gzip for the pages, except an answer marked ``secret_inside``. The API's
    answers go as they are: a token's answer holds its key beside what the caller sent (what
    BREACH needs), and a gzipped answer's ETag turns weak, which a client comparing tags
    strongly would read as changed."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(response, SECRET_INSIDE, False) or request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)
