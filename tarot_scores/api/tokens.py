"""Issuing and checking API tokens (``ApiToken``): a key is made, shown once and stored as its
SHA-256 digest; a request's key is hashed the same way and looked up.

An account may hold several tokens (one per phone, script or app), at most ``MAX_TOKENS``:
issuing one more revokes the oldest, so a script that asks for a token on every run does not
pile them up.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from tarot_scores.api.models import ApiToken

MAX_TOKENS = 20


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def token_issue(*, user: User) -> str:
    """A new key for ``user``; only its digest is kept, so this is the one time it is seen."""
    key = secrets.token_hex(20)
    ApiToken.objects.create(user=user, digest=token_digest(key), prefix=key[:8])
    kept = ApiToken.objects.filter(user=user).order_by("-created_at", "-id")
    stale = list(kept.values_list("pk", flat=True)[MAX_TOKENS:])
    if stale:
        ApiToken.objects.filter(pk__in=stale).delete()
    return key


class HashedTokenAuthentication(TokenAuthentication):
    """DRF's ``Authorization: Token <key>``, the key looked up by its digest."""

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        # DRF's own messages, in its catalogue's languages.
        if token is None:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
