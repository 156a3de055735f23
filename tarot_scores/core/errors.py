"""Refusals: the one error type the site's rules raise when they say no.

A rule (a club's name already taken, the last organiser stepping down, card points typed as
"1e1", a table of the wrong size, a finished game...) lives once, in a service or a pure module,
and raises ``Refusal``. Pages and the API never check it a second time: a form puts each reason
beside its field (``add_to_form``), a serializer or API view answers ``messages()`` with HTTP 400
(409 for a conflict). The scoring engine keeps its own ``scoring.ScoringError``: it is pure and
knows nothing of Django; the forms and serializers map that one too.

Codes are the members of ``Code`` (a ``StrEnum``: each is the string programs and tests read),
never string literals written where the rule is; a tournament's rules have their own
(``tournaments.errors.Code``), the scoring engine its message codes (``scoring.messages``).
The API's schema lists all three (``api.schema``), and a test fails on a code written as text
(tests/core/test_codes_one_home.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from tarot_scores.core.hooks import Hook

# The key of a reason that is about the whole request, not one of its fields (DRF's name for it).
WHOLE = "non_field_errors"


class Code(StrEnum):
    """Why a rule of the club side said no: the stable code of each reason (and of the API's own
    refusals), as programs and tests read it."""

    # clubs: names, members, invitations, players, rule sets
    CLUB_NAME_TAKEN = "club_name_taken"
    GAME_UNKNOWN = "game_unknown"
    PLAYER_LABEL_TAKEN = "player_label_taken"
    LAST_ORGANISER = "last_organiser"
    NOT_OWN_PLAYER = "not_own_player"
    PLAYER_HAS_ACCOUNT = "player_has_account"
    ALREADY_MEMBER = "already_member"
    EMAIL_MISSING = "email_missing"
    INVITATION_EXPIRED = "invitation_expired"
    INVITATION_ANSWERED = "invitation_answered"
    INVITATION_OTHER_ACCOUNT = "invitation_other_account"
    SIGN_IN_FIRST = "sign_in_first"
    RULE_SET_NAME_TAKEN = "rule_set_name_taken"
    PASTE_TOO_LONG = "paste_too_long"
    PASTE_EMPTY = "paste_empty"
    PASTE_LINE = "paste_line"
    # accounts and the names people type
    EMAIL_UNCONFIRMED = "email_unconfirmed"
    NAME_CONTROL_CHARACTER = "name_control_character"
    NAME_INVISIBLE = "name_invisible"
    # a game's table: who sits, how many, which game
    GAME_NOT_OFFERED = "game_not_offered"
    SEATED_TWICE = "seated_twice"
    TABLE_SIZE = "table_size"
    FIVE_PLAYERS_REQUIRED = "five_players_required"
    FIVE_PLAYERS_FIXED = "five_players_fixed"
    # deals: points typed, a closed game, a conflict, boards, a reason for a change
    POINTS_INVALID = "points_invalid"
    POINTS_RANGE = "points_range"
    GAME_FINISHED = "game_finished"
    TABLE_FULL = "table_full"
    DEAL_DELETED = "deal_deleted"
    DEAL_CONFLICT = "deal_conflict"
    NUMBER_REUSED = "number_reused"
    CLIENT_ID_OTHER_GAME = "client_id_other_game"
    BOARD_NOT_PLAYED = "board_not_played"
    BOARD_REQUIRED = "board_required"
    BOARD_NOT_HERE = "board_not_here"
    BOARD_ENTERED = "board_entered"
    REASON_REQUIRED = "reason_required"
    REASON_TOO_LONG = "reason_too_long"
    # the change feed
    CURSOR_INVALID = "cursor_invalid"
    PAGE_WITH_CURSOR = "page_with_cursor"
    # webhooks: the address, the events, the log
    URL_INVALID = "url_invalid"
    URL_CREDENTIALS = "url_credentials"
    URL_NOT_HTTPS = "url_not_https"
    URL_PORT = "url_port"
    URL_UNKNOWN_HOST = "url_unknown_host"
    URL_NOT_PUBLIC = "url_not_public"
    EVENT_UNKNOWN = "event_unknown"
    WEBHOOKS_TOO_MANY = "webhooks_too_many"
    DELIVERY_NOT_FAILED = "delivery_not_failed"
    # the API's own: a request it cannot read, the site busy or down, a sign-in locked
    INVALID = "invalid"
    NOT_FOUND = "not_found"
    UNKNOWN_FIELD = "unknown_field"
    UNKNOWN_PARAMETER = "unknown_parameter"
    PAGE_SIZE_INVALID = "page_size_invalid"
    BODY_TOO_LARGE = "body_too_large"
    NUL_CHARACTER = "nul_character"
    LOCKED_OUT = "locked_out"
    AUTHORIZATION = "authorization"  # a token asked for with a wrong user name or password
    DATABASE_BUSY = "database_busy"
    DATABASE_UNAVAILABLE = "database_unavailable"
    SERVER_ERROR = "server_error"


# The codes of the rules above the club side (a tournament's ``Code``), registered at start-up
# from their AppConfig's ``ready``: the API's schema lists them with the club side's.
code_homes: Hook[type[StrEnum]] = Hook("core.errors.code_homes")
on_codes = code_homes.register


def refusal_codes() -> frozenset[str]:
    """Every code a ``Refusal`` may carry: ``Code``'s members and those of each enum
    registered with ``on_codes``."""
    return frozenset(str(code) for home in (Code, *code_homes) for code in home)


@dataclass(frozen=True)
class Reason:
    """Why a rule said no: a stable ``code`` for programs and tests (a member of ``Code``, or of
    a tournament's ``Code``: ``club_name_taken``), and ``message``, the sentence a person reads,
    in the language active when it was raised."""

    code: StrEnum
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
    def on(cls, field: str, code: StrEnum, message: str) -> Refusal:
        """A refusal of one field, for one reason."""
        return cls({field: [Reason(code, message)]})

    def all_reasons(self) -> Iterator[Reason]:
        for items in self.reasons.values():
            yield from items

    def messages(self) -> dict[str, list[str]]:
        """``{field: [message, ...]}``: what the API answers with its 400 (or 409)."""
        return {field: [r.message for r in items] for field, items in self.reasons.items()}

    def codes(self) -> dict[str, list[str]]:
        return {field: [str(r.code) for r in items] for field, items in self.reasons.items()}

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
