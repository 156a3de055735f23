"""The shape of a webhook as an organiser types it, new or changed: the address and the
events. The rules (https, a public server, known events) are ``services.webhook_create``'s and
``services.webhook_update``'s."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tarot_scores.webhooks.models import CHOSEN_EVENTS, Webhook


class WebhookForm(forms.Form):
    url = forms.CharField(
        label=_("Address (https)"),
        max_length=500,
        widget=forms.URLInput(attrs={"placeholder": "https://", "inputmode": "url"}),
    )
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=[(event.value, event.label) for event in CHOSEN_EVENTS],
        initial=[event.value for event in CHOSEN_EVENTS],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("All of them: every event, those the site adds later too."),
    )

    @staticmethod
    def initial_of(webhook: Webhook) -> dict[str, object]:
        """The form as the webhook is now (no event chosen: every one, so all are ticked)."""
        return {
            "url": webhook.url,
            "events": list(webhook.events) or [event.value for event in CHOSEN_EVENTS],
        }
