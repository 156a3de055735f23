"""Refusals: the one error type the site's rules raise when they say no.

A rule (a club's name already taken, the last organiser stepping down, card points typed as
"1e1", a table of the wrong size, a finished game...) lives once, in a service or a pure module,
and raises ``Refusal``. Pages and the API never check it a second time: a form puts each reason
beside its field (``add_to_form``), a serializer or API view answers ``messages()`` with HTTP 400
(409 for a conflict). The scoring engine keeps its own ``scoring.ScoringError``: it is pure and
knows nothing of Django; the forms and serializers map that one too.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

# The key of a reason that is about the whole request, not one of its fields (DRF's name for it).
WHOLE = "non_field_errors"


@dataclass(frozen=True)
class Reason:
    """Why a rule said no: a stable ``code`` for programs and tests (``club_name_taken``), and
    ``message``, the sentence a person reads, in the language active when it was raised."""

    code: str
    message: str

    def __str__(self) -> str:
        return self.message


class Refusal(Exception):
    """A rule of the site refused a write or an input; nothing was stored.

    ``reasons`` maps a field (as the form and the API name it: ``name``, ``nickname``, ``role``,
    ``points``, ``players``, ``five_players``, or ``WHOLE``) to its list of ``Reason``
    (code + message in the reader's language). Raise one with ``Refusal.on(field, code, message)``
    or build it from several fields at once; subclasses (``GameSetupError``, ``GameClosed``,
    ``DealConflict``) say which rule it was and may carry more (``DealConflict.current``).
    """

    def __init__(self, reasons: Mapping[str, Sequence[Reason]]) -> None:
        self.reasons: dict[str, list[Reason]] = {
            field: list(items) for field, items in reasons.items() if items
        }
        super().__init__(" ".join(r.message for r in self.all_reasons()))

    @classmethod
    def on(cls, field: str, code: str, message: str) -> Refusal:
        """A refusal of one field, for one reason."""
        return cls({field: [Reason(code, message)]})

    def all_reasons(self) -> Iterator[Reason]:
        for items in self.reasons.values():
            yield from items

    def messages(self) -> dict[str, list[str]]:
        """``{field: [message, ...]}``: what the API answers with its 400 (or 409)."""
        return {field: [r.message for r in items] for field, items in self.reasons.items()}

    def codes(self) -> dict[str, list[str]]:
        return {field: [r.code for r in items] for field, items in self.reasons.items()}

    def __str__(self) -> str:
        return " ".join(r.message for r in self.all_reasons())

    def as_validation_error(self) -> ValidationError:
        """The reasons as Django's ``ValidationError`` (inside a form's ``clean_<field>``)."""
        return ValidationError(
            [ValidationError(r.message, code=r.code) for r in self.all_reasons()]
        )

    def add_to_form(self, form: forms.Form, fields: Mapping[str, str] | None = None) -> None:
        """Put each reason beside its field: ``fields`` renames the refusal's fields to the
        form's (``{"players": "seat_1"}``); a field the form does not have goes above it."""
        for field, items in self.reasons.items():
            name: Any = (fields or {}).get(field, field)
            if name not in form.fields:
                name = None
            for reason in items:
                form.add_error(name, ValidationError(reason.message, code=reason.code))
