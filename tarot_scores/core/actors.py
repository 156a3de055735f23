"""Who does something: the account behind a write, or nobody (a table link, a script); and, at
a table whose phones are shared, who among the seated players made a change (``AtTable``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

Actor = AbstractBaseUser | AnonymousUser | None


def signed_in(by: Actor) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


@dataclass(frozen=True)
class AtTable:
    """Who at the table made a deal change, where the account alone does not say: the seated
    player the phone's holder named (``player_id``, None when he named nobody) and what proves
    it was him (``proof``: the account, the phone, a personal card...; opaque here).

    The deal services take it as an argument and hand it to the deal hooks untouched: the club
    side neither reads nor checks it. A write with none (a game page, the organisers' API, a
    script) is the account's alone."""

    player_id: int | None
    proof: str = ""
