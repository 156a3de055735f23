"""Accounts a person makes alone (django-allauth): sign-up, the link that confirms the e-mail
address, the e-mail change, sign-in by user name or address.

allauth does the work; this module says what the site adds: the client address its rate limits
count (the same ``DJANGO_NUM_PROXIES`` rule as django-axes and the API throttle, so a made-up
``X-Forwarded-For`` does not escape the sign-up limit), and the rule that an account made by
sign-up starts a club only once its address is confirmed. Accounts an administrator made
(``createsuperuser``, the admin) have no allauth address to confirm and are trusted as they are;
one made from a club's invitation has its address recorded as confirmed (the invitation's e-mail
proved it). The last address of an account stays, and the e-mail page says why a link asked
again within allauth's few minutes was not sent.
"""

from __future__ import annotations

from typing import Any

from allauth.account import views as allauth_views
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from allauth.core import context as allauth_context
from django.contrib import messages
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores.core.errors import WHOLE, Code, Refusal
from tarot_scores.core.signin import client_address
from tarot_scores.core.site import site_identity


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # allauth names the site by the request's host: its mails say the site's name.
        named = {"current_site": site_identity(allauth_context.request), **context}
        super().send_mail(template_prefix, email, named)

    def get_client_ip(self, request: HttpRequest) -> str:
        address = client_address(request)
        if not address:
            raise PermissionDenied("Unable to determine the client address")
        return address

    def can_delete_email(self, email_address: EmailAddress) -> bool:
        # The last address stays: the password reset and the clubs' mail need one (allauth
        # lets it go when the user name also signs in). Its refusal says so on the page.
        others = EmailAddress.objects.filter(user_id=email_address.user_id).exclude(
            pk=email_address.pk
        )
        if email_address.pk and not others.exists():
            return False
        return bool(super().can_delete_email(email_address))


class EmailView(allauth_views.EmailView):  # type: ignore[misc]
    """allauth's e-mail page, which says why a link asked again was not sent: within a few
    minutes of the last one, allauth sends nothing and used to say nothing either."""

    def _action_send(self, request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        response = super()._action_send(request, *args, **kwargs)
        chosen = str(request.POST.get("email", "")).strip()
        waiting = EmailAddress.objects.filter(
            user_id=request.user.pk, email__iexact=chosen, verified=False
        ).exists()
        if waiting and not self._did_send_verification_email:
            messages.warning(
                request,
                _(
                    "A link was sent to %(email)s a few minutes ago: open that one (look in "
                    "your spam folder too), or ask again in a few minutes."
                )
                % {"email": chosen},
            )
        return response


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
            Code.EMAIL_UNCONFIRMED,
            _(
                "Confirm your e-mail address first: open the link we sent you "
                "(your account page sends it again)."
            ),
        )


def address_proved(*, user: Any, email: str) -> None:
    """Record ``email`` as ``user``'s confirmed address, for an account made from a mail sent to
    it (a club's invitation): allauth's sign-in by address and its e-mail page then know it, in
    any case the organiser typed it. Not when another account has confirmed it already (one
    confirmed address, one account)."""
    email = email.strip().lower()
    if not email or EmailAddress.objects.filter(email__iexact=email, verified=True).exists():
        return
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)


class SignInForm(AuthenticationForm):
    """Django's sign-in form, whose first field takes a user name or an e-mail address
    (allauth's backend finds the account either way), and whose refusal says so (Django's
    names the user name alone) and what to do next."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": gettext_lazy(
            "No account matches this user name or e-mail address with this password. Check "
            'them (capitals count in the password), or use "Forgotten your password?".'
        ),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("User name or e-mail address")
