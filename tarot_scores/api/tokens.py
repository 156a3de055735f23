"""Issuing and checking API tokens (``ApiToken``): a key is made, shown once and stored as its
SHA-256 digest; a request's key is hashed the same way and looked up.

An account may hold several tokens (one per phone, script or app), at most ``MAX_TOKENS``:
issuing one more revokes the oldest, so a script that asks for a token on every run does not
pile them up. Its holder lists and revokes them (``tokens_of``, ``token_revoke``: the account's
tokens page and ``/api/v1/auth/tokens/``).

A password changed or reset (any way: the account pages, the admin, ``set_password``) revokes
every token of the account (``revoke_tokens_on_password_change``): whoever learnt the old
password and took a token with it is out. Django itself ends the account's other sessions then
(each session keeps a hash of the password it signed in with). What counts is the password, not
its stored hash: Django re-hashes a password at sign-in when the hash is from an older release
(more iterations, another algorithm), and that is no change; a "new" password that is the old
one is none either. A password made unusable counts as a change. An account deactivated, or
reactivated, loses its tokens: it starts again without them.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.contrib.auth.hashers import check_password, is_password_usable
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


def tokens_of(*, user: Any) -> list[ApiToken]:
    """The account's tokens, the newest first (what their holder may see: never a key)."""
    return list(ApiToken.objects.filter(user=user).order_by("-created_at", "-id"))


def token_revoke(*, user: Any, token_id: int) -> bool:
    """Revoke one of the account's own tokens; False if it has no such token (another
    account's token is not its holder's to see, nor to revoke)."""
    deleted, _rows = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return deleted > 0


def password_really_changed(*, old_hash: str, new_hash: str, raw: str | None) -> bool:
    """Whether the account's password changed, judged on the password itself.

    ``raw`` is the password given to ``set_password`` (Django keeps it on the instance until
    the save). Without one, a new hash is Django's re-hash of the same password at sign-in
    (its ``check_password`` clears the raw password before saving the upgrade), unless the
    password was made unusable."""
    if old_hash == new_hash:
        return False
    if raw is not None:
        return not check_password(raw, old_hash)
    return not is_password_usable(new_hash)


def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``pre_save`` of the user model: a password that changes revokes the account's tokens,
    and so does a change of ``is_active`` either way."""
    update_fields = kwargs.get("update_fields")
    if instance.pk is None:
        return
    watched = {"password", "is_active"}
    if update_fields is not None and not watched & set(update_fields):
        return
    before = (
        type(instance).objects.filter(pk=instance.pk).values_list("password", "is_active").first()
    )
    if before is None:
        return
    old_hash, was_active = before
    changed = password_really_changed(
        old_hash=old_hash, new_hash=instance.password, raw=getattr(instance, "_password", None)
    )
    if changed or was_active != instance.is_active:
        ApiToken.objects.filter(user_id=instance.pk).delete()
