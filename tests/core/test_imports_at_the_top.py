"""No module of the site imports the site's own packages inside a function: an import written
there to dodge a cycle hides a room in the wrong place (docs/architecture.md). The AppConfigs'
``ready`` (apps.py) imports what it registers once the models are loaded; migrations and
management commands are exempt, as Django loads them on its own terms."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = ("tarot_scores", "tournaments")
EXEMPT_PARTS = {"migrations", "management"}


def _own_imports_inside_functions(source: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        if in_function and isinstance(node, ast.Import | ast.ImportFrom):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:  # a relative import names the module's own package
                names = [node.module or ""] if node.level == 0 else [f"{OWN[0]}.<relative>"]
            found.extend((node.lineno, n) for n in names if n.split(".")[0] in OWN)
        inside = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(ast.parse(source), in_function=False)
    return found


def _offenders() -> list[tuple[str, int, str]]:
    offenders = []
    for package in OWN:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if path.name == "apps.py" or EXEMPT_PARTS & set(path.parts):
                continue
            for line, module in _own_imports_inside_functions(path.read_text(encoding="utf-8")):
                offenders.append((relative, line, module))
    return offenders


def test_no_module_imports_its_own_packages_inside_a_function() -> None:
    unexpected = _offenders()
    assert unexpected == [], "move these imports to the top of their module: " + ", ".join(
        f"{path}:{line} imports {module}" for path, line, module in unexpected
    )


def test_the_walk_finds_an_import_inside_a_function_and_passes_one_at_the_top() -> None:
    source = (
        "from tarot_scores.games import services\n"
        "import json\n"
        "def f():\n"
        "    import json\n"
        "    from tarot_scores.stats import services\n"
        "    class Inner:\n"
        "        def g(self):\n"
        "            import tournaments.models\n"
        "async def h():\n"
        "    from . import sibling\n"
    )
    assert _own_imports_inside_functions(source) == [
        (5, "tarot_scores.stats"),
        (8, "tournaments.models"),
        (10, "tarot_scores.<relative>"),
    ]
