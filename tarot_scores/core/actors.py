"""Who does something: the account behind a write, or nobody (a table link, a script)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

Actor = AbstractBaseUser | AnonymousUser | None


def signed_in(by: Actor) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None
