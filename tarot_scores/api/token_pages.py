"""The account's API tokens page: each token the account holds (the key's first characters,
when it was issued), and a button that revokes it at once. The same as ``/api/v1/auth/tokens/``
for people who do not write scripts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tarot_scores.api.tokens import token_revoke, tokens_of
from tarot_scores.core.numbers import whole_number


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_tokens(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        token_id = whole_number(request.POST.get("token"))
        if token_id is None or not token_revoke(user=request.user, token_id=token_id):
            raise Http404
        messages.success(request, _("The token is revoked: it no longer signs anything in."))
        return redirect("account_tokens")
    return render(
        request, "tarot_scores/account/tokens.html", {"tokens": tokens_of(user=request.user)}
    )
