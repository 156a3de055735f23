"""The tournaments package keeps its rooms apart without tricks: no module imports another of the
package inside a function to dodge an import cycle (``apps.py`` aside, which registers the hooks
once the models are loaded). The directions between the rooms are the import-linter contracts in
``pyproject.toml`` (``lint-imports``); this test catches what they cannot see."""

from __future__ import annotations

import ast
from pathlib import Path

import tournaments

PACKAGE = Path(tournaments.__file__).parent


def _imports_inside_functions(source: str) -> list[int]:
    """The lines where a function imports the tournaments package."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom) and inner.level == 0:
                names = [inner.module or ""]
            elif isinstance(inner, ast.ImportFrom):
                names = ["tournaments"]  # a relative import is always the package's own
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            else:
                continue
            if any(n == "tournaments" or n.startswith("tournaments.") for n in names):
                found.append(inner.lineno)
    return found


def test_no_module_imports_its_own_package_inside_a_function() -> None:
    modules = [
        p for p in PACKAGE.rglob("*.py") if p.name != "apps.py" and "migrations" not in p.parts
    ]
    assert len(modules) > 50  # the walk found the package
    offenders = [
        f"{p.relative_to(PACKAGE.parent)}:{line}"
        for p in modules
        for line in _imports_inside_functions(p.read_text())
    ]
    assert offenders == []


def test_the_check_sees_an_import_inside_a_function() -> None:
    late = "import os\n\n\ndef late():\n    from tournaments.models import Round\n"
    relative = "def late():\n    from . import models\n    return models\n"
    other = "def late():\n    from tarot_scores.games import models\n    return models\n"
    assert _imports_inside_functions(late) == [5]
    assert _imports_inside_functions(relative) == [2]
    assert _imports_inside_functions(other) == []
