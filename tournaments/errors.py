"""The tournament's refusals: one type, ``TournamentRefusal`` (a ``core.errors.Refusal``), and
``Code``, every reason's code.

A rule of a tournament that says no raises (or a ``*_refusal`` helper returns) a
``TournamentRefusal``: by field, like any ``Refusal``, so a form puts each reason beside its
field and the API answers its messages. Two thin kinds say how pages and the API place it:

- ``TournamentError``: a refusal of the whole request that the page or the API places itself
  (beside the field it was about, or the API's 409 ``non_field_errors``): a round still being
  played, a player already registered, a duplicate movement already drawn...
- ``CutRefused``: the tournament's state refuses a cut now (the API answers 409).
- ``PinLocked``: too many wrong PINs typed on one phone or at one table: refused until a time
  (the page and the API answer 429 with Retry-After).

Codes are the members of ``Code`` (a ``StrEnum``: each is the string programs and tests read),
never string literals written where the rule is.
"""

from __future__ import annotations

import datetime
import math
from enum import StrEnum
from typing import Self

from tarot_scores.core.errors import WHOLE, Reason, Refusal


class Code(StrEnum):
    """Why a tournament's rule said no: the stable code of each reason."""

    # registration
    ALREADY_REGISTERED = "already_registered"
    BAD_NAME = "bad_name"
    NAME_OR_PLAYER = "name_or_player"
    TOO_MANY_AT_ONCE = "too_many_at_once"
    ALREADY_WITHDRAWN = "already_withdrawn"
    TEAM_NAME_TAKEN = "team_name_taken"
    TEAM_SIZE = "team_size"
    TEAM_FULL = "team_full"
    NO_TEAMS = "no_teams"
    FIVE_MODE_FIXED = "five_mode_fixed"
    DUPLICATE_TEAM_SIZE = "duplicate_team_size"
    DUPLICATE_ALLOW_THREES = "duplicate_allow_threes"
    DUPLICATE_ROUNDS = "duplicate_rounds"
    DUPLICATE_DRAWN = "duplicate_drawn"
    DUPLICATE_SEATS = "duplicate_seats"
    DUPLICATE_FIELD = "duplicate_field"
    ALREADY_REFEREE = "already_referee"
    REFEREE_NOT_MEMBER = "referee_not_member"
    # rounds
    ROUND_PLAYING = "round_playing"
    ROUNDS_PLAYED = "rounds_played"
    UNSEATABLE = "unseatable"
    SWAP_STARTED = "swap_started"
    SWAP_NOT_SEATED = "swap_not_seated"
    ALREADY_STARTED = "already_started"
    ALREADY_CLOSED = "already_closed"
    TABLES_UNFINISHED = "tables_unfinished"
    NOT_STARTED = "not_started"
    DEALS_DISPUTED = "deals_disputed"
    # people
    REQUIRED = "required"
    TOO_LONG = "too_long"
    SAME_PLAYER = "same_player"
    UNKNOWN_ENTRY = "unknown_entry"
    ALREADY_APART = "already_apart"
    ROUND_CLOSED = "round_closed"
    NOT_SEATED = "not_seated"
    ALREADY_SEATED = "already_seated"
    # play: penalties, confirmations, a table's boards
    UNKNOWN_DEAL = "unknown_deal"
    UNKNOWN_ROUND = "unknown_round"
    OTHER_ROUND = "other_round"
    OTHER_TABLE = "other_table"
    OUT_OF_RANGE = "out_of_range"
    ALREADY_REMOVED = "already_removed"
    NOT_REQUIRED = "not_required"
    DEAL_DELETED = "deal_deleted"
    ALREADY_CONFIRMED = "already_confirmed"
    NOT_AT_TABLE = "not_at_table"
    SAME_SIDE = "same_side"
    DISPUTED = "disputed"
    NOT_PENDING = "not_pending"
    NOT_REFEREE = "not_referee"
    NOT_DISPUTED = "not_disputed"
    KEEP_INVALID = "keep_invalid"
    SAME_PROOF = "same_proof"
    HOLDER_UNKNOWN = "holder_unknown"
    HOLDER_LINKED = "holder_linked"
    PROOF_NEEDED = "proof_needed"
    CONFIRMED_STANDS = "confirmed_stands"
    PIN_REQUIRED = "pin_required"
    PIN_WRONG = "pin_wrong"
    PIN_LOCKED = "pin_locked"
    REASON_REQUIRED = "reason_required"
    REASON_TOO_LONG = "reason_too_long"
    LINK_REPLACED = "link_replaced"  # a table's link the organisers replaced (410)
    TABLE_CLOSED = "table_closed"
    # cuts
    NOT_ROUNDS = "not_rounds"
    LAST_ROUND = "last_round"
    ROUND_OPEN = "round_open"
    NEXT_SEATED = "next_seated"
    ALREADY_CUT = "already_cut"
    NO_CUT = "no_cut"
    BOTH = "both"
    TOO_FEW = "too_few"
    WHOLE_FIELD = "whole_field"
    ALL_TIED = "all_tied"


class TournamentRefusal(Refusal):
    """A rule of a tournament refused a write or an input; nothing was stored."""

    @classmethod
    def on(cls, field: str, code: StrEnum, message: str) -> Self:
        """A refusal of one field, for one reason (``code``: a ``Code``; typed as the base's,
        which takes the club side's codes too)."""
        return cls({field: [Reason(code, message)]})

    @classmethod
    def whole(cls, code: Code, message: str) -> Self:
        """A refusal of the whole request, for one reason."""
        return cls({WHOLE: [Reason(code, message)]})

    @property
    def code(self) -> Code:
        """The first reason's code."""
        return Code(next(self.all_reasons()).code)


class TournamentError(TournamentRefusal):
    """A refusal of the whole request that the page or the API places itself (a field it
    chooses, or the API's 409): the message says why."""


class CutRefused(TournamentRefusal):
    """The tournament's state refuses a cut now (the round is not closed, the next one is seated,
    players were cut after it already...): nothing was stored. The API answers 409."""


class PinLocked(TournamentRefusal):
    """Too many wrong PINs were typed on this phone (or at its table): PINs typed there are
    refused until ``until`` (``tournaments.play.pins``). The page and the API answer 429, with
    Retry-After."""

    def __init__(self, message: str, *, until: datetime.datetime) -> None:
        super().__init__({"pin": [Reason(Code.PIN_LOCKED, message)]})
        self.until = until

    def retry_after(self, now: datetime.datetime) -> int:
        """Whole seconds until a PIN may be typed again (at least 1)."""
        return max(1, math.ceil((self.until - now).total_seconds()))
