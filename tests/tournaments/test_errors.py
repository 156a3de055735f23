"""The tournament's refusals: one type, and codes that are members of ``Code``.

The scan reads the package's source: a refusal written with a string literal as its code (the
way codes used to be scattered) fails here, as does a ``*_refusal`` helper answering anything
but a ``TournamentRefusal``."""

from __future__ import annotations

import ast
import inspect
import pathlib
import typing

import pytest

import tournaments
from tarot_scores.core.errors import WHOLE, Refusal
from tournaments import errors
from tournaments import rules as tournament_rules
from tournaments.errors import Code, CutRefused, TournamentError, TournamentRefusal
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats.duplicate import DuplicateFormat
from tournaments.formats.rounds import KnockoutFormat, RoundsFormat
from tournaments.people import services as people_services
from tournaments.play import lifecycle
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import cuts

PACKAGE = pathlib.Path(tournaments.__file__).parent
# The calls that build a reason, and the position of their code.
BUILDERS = {
    "on": 1,
    "whole": 0,
    "Reason": 0,
    "_refuse": 0,
    "_state": 0,
    "_refusal": 1,
    "_reason": 0,
}


def _sources() -> list[pathlib.Path]:
    return [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]


def test_the_kinds_are_one_refusal_type() -> None:
    for kind in (TournamentError, CutRefused):
        assert issubclass(kind, TournamentRefusal)
    assert issubclass(TournamentRefusal, Refusal)
    refusal = TournamentError.whole(Code.ALREADY_CLOSED, "This round is already closed.")
    assert isinstance(refusal, TournamentError)
    assert refusal.code is Code.ALREADY_CLOSED
    assert refusal.messages() == {WHOLE: ["This round is already closed."]}
    assert refusal.codes() == {WHOLE: ["already_closed"]}
    assert TournamentRefusal.on("keep", Code.TOO_FEW, "…").codes() == {"keep": ["too_few"]}


def test_no_code_is_a_string_literal() -> None:
    literals = []
    for path in _sources():
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            at = BUILDERS.get(name)
            if at is None or len(node.args) <= at:
                continue
            code = node.args[at]
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                literals.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {code.value!r}")
            if isinstance(code, ast.BinOp | ast.JoinedStr):
                literals.append(f"{path.relative_to(PACKAGE)}:{node.lineno} (built)")
    assert literals == []


def test_codes_are_unique_strings() -> None:
    values = [code.value for code in Code]
    assert len(values) == len(set(values))
    assert all(value == value.lower() and " " not in value for value in values)


@pytest.mark.parametrize(
    "helper",
    [
        registration_services.five_mode_refusal,
        registration_services.creation_refusal,
        registration_services.registration_size_refusal,
        duplicate_format.creation_refusal,
        duplicate_format.seating_refusal,
        duplicate_format.seated_refusal,
        duplicate_format.seats_fixed_refusal,
        round_services.next_round_refusal,
        people_services.seating_refusal,
        cuts.cut_state_refusal,
        cuts.cut_undo_refusal,
        tournament_rules.different_players_refusal,
        lifecycle.deletion_refusal,
        lifecycle.entry_refusal,
        RoundsFormat.over_refusal,
        KnockoutFormat.over_refusal,
        DuplicateFormat.over_refusal,
    ],
)
def test_refusal_helpers_answer_the_one_type(helper: typing.Any) -> None:
    hints = typing.get_type_hints(helper, vars(inspect.getmodule(helper)) | vars(errors))
    answer = [
        t for t in typing.get_args(hints["return"]) or [hints["return"]] if t is not type(None)
    ]
    assert len(answer) == 1 and issubclass(answer[0], TournamentRefusal)


def test_helpers_named_refusal_are_all_checked() -> None:
    """Every public ``*_refusal`` helper of the package is in the list above."""
    named = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text())):
            name = node.name if isinstance(node, ast.FunctionDef) else ""
            if name.endswith("_refusal") and not name.startswith("_"):
                named.add(name)
    assert named == {
        "five_mode_refusal",
        "creation_refusal",
        "registration_size_refusal",
        "seating_refusal",
        "seated_refusal",
        "seats_fixed_refusal",
        "next_round_refusal",
        "cut_state_refusal",
        "cut_undo_refusal",
        "different_players_refusal",
        "deletion_refusal",
        "entry_refusal",
        "over_refusal",  # of each Format
    }
