"""One home for the refusal codes: the club side's ``core.errors.Code`` and the tournaments'
``tournaments.errors.Code``. A rule raises a member, never the code written as text where it
says no, so a code is named once, listed in the API's schema, and a typo is an error at import
rather than a new code a client has never heard of. The scoring engine keeps its own message
codes (``scoring.messages``): it is pure and is not walked here."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The calls that take a code as a positional argument: (name, index of the code).
CODE_ARGUMENT = {
    "on": 1,  # Refusal.on, TournamentRefusal.on, GameSetupError.on...: (field, code, message)
    "whole": 0,  # TournamentRefusal.whole(code, message)
    "Reason": 0,
    "GameClosed": 0,
    "AddressRefused": 0,
}


def _called(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    if isinstance(node.func, ast.Name):
        return node.func.id
    return None


def _text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def literal_codes(source: str, name: str = "<source>") -> list[str]:
    """Where a code is written as text: the code argument of a refusal (``Refusal.on``,
    ``Reason``, ``GameClosed``...), any ``code=`` (``ErrorDetail``, ``problem_body``,
    ``SetupProblem``, ``ValidationError``...), a problem's ``errors=`` entries
    ``(field, code, message)`` and an API exception's ``default_code``."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source, name)):
        spots: list[ast.expr] = []
        if isinstance(node, ast.Call):
            called = _called(node)
            index = CODE_ARGUMENT.get(called or "")
            if index is not None and len(node.args) > index and len(node.args) >= 2:
                spots.append(node.args[index])
            for keyword in node.keywords:
                if keyword.arg == "code":
                    spots.append(keyword.value)
                elif keyword.arg == "errors":
                    for item in ast.walk(keyword.value):
                        if isinstance(item, ast.Tuple) and len(item.elts) == 3:
                            spots.append(item.elts[1])
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "default_code" for t in node.targets
        ):
            spots.append(node.value)
        found += [spot.lineno for spot in spots if _text(spot)]
    return [f"{name}:{line}" for line in sorted(found)]


def site_sources() -> list[Path]:
    """The site's code: both apps, without their migrations and the scoring engine."""
    paths = []
    for folder in ("tarot_scores", "tournaments"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "migrations" in parts or "scoring" in parts or "tests" in parts:
                continue
            paths.append(path)
    return paths


def test_no_refusal_code_is_written_as_text() -> None:
    found = [
        spot
        for path in site_sources()
        for spot in literal_codes(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_walk_finds_a_code_written_as_text() -> None:
    """What the test above looks for, written the old way, is found (each line once)."""
    source = """
raise Refusal.on("name", "club_name_taken", _("Taken."))
raise TournamentRefusal.on("pin", Code.PIN_WRONG, _("Wrong."))
raise GameClosed("game_finished", _("Finished."))
Refusal({WHOLE: [Reason("deal_conflict", message)]})
ErrorDetail(message, code="unknown_field")
problem_body(status=400, code=Code.INVALID, errors=[(None, "locked_out", message)])
raise PermissionDenied(detail=message, code="table_closed")
class Busy(APIException):
    default_code = "database_busy"
penalties.on(deal, player)
"""
    assert literal_codes(source) == [f"<source>:{line}" for line in (2, 4, 5, 6, 7, 8, 10)]
