"""API tokens: the keys scripts and apps send as ``Authorization: Token <key>``.

Only a key's SHA-256 digest is stored, never the key: whoever reads the database (a backup, a
dump) cannot sign in with what is there. The key is shown once, when it is issued
(``tarot_scores.api.tokens``). A plain digest is enough: a key is 40 random hexadecimal
characters (160 bits), not a password a person chose, so nothing can be guessed from it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("account"),
    )
    digest = models.CharField(_("SHA-256 of the key"), max_length=64, unique=True)
    # The key's first characters: enough to tell an account's tokens apart, useless to sign in.
    prefix = models.CharField(_("start of the key"), max_length=8)
    created_at = models.DateTimeField(_("issued"), auto_now_add=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"
