"""Accounts a person makes alone (django-allauth): sign-up, the link that confirms the e-mail
address, the e-mail change, sign-in by user name or address.

allauth does the work; this module says what the site adds: the client address its rate limits
count (the same ``DJANGO_NUM_PROXIES`` rule as django-axes and the API throttle, so a made-up
``X-Forwarded-For`` does not escape the sign-up limit), and the rule that an account made by
sign-up starts a club only once its address is confirmed. Accounts an administrator made
(``createsuperuser``, the admin) or made from a club's invitation (the invitation's e-mail proved
the address) have no allauth address to confirm and are trusted as they are.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tarot_scores.core.errors import WHOLE, Refusal
from tarot_scores.core.signin import client_address


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def get_client_ip(self, request: HttpRequest) -> str:
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine the client address")
        return address


def email_confirmed(user: Any) -> bool:
    """Whether this account may act as someone whose address is known: true unless it signed up
    and has not yet opened the link sent to its address."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    addresses = list(EmailAddress.objects.filter(user=user).values_list("verified", flat=True))
    return not addresses or any(addresses)


def check_email_confirmed(user: Any) -> None:
    """``Refusal`` (``email_unconfirmed``) for an account whose address is not confirmed yet."""
    if user is not None and not email_confirmed(user):
        raise Refusal.on(
            WHOLE,
            "email_unconfirmed",
            _(
                "Confirm your e-mail address first: open the link we sent you "
                "(your account page sends it again)."
            ),
        )


class SignInForm(AuthenticationForm):
    """Django's sign-in form, whose first field takes a user name or an e-mail address
    (allauth's backend finds the account either way)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("User name or e-mail address")
