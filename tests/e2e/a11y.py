"""Accessibility checks in the browser tests: axe-core (vendored in ``vendor/``, never served by
the site) runs in the page as it is shown and must report no violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe.min.js"

_RUN = """async () => {
  const result = await window.axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + n.failureSummary),
  }));
}"""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """What axe-core finds on the page as it is now (every rule axe runs by default: WCAG A
    and AA, and its best practices)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated rather than added as a <script>: the site's Content-Security-Policy allows
        # no inline script, and the test's own evaluation is not bound by it.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    violations: list[dict[str, Any]] = page.evaluate(_RUN)
    return violations


def assert_accessible(page: Page) -> None:
    violations = axe_violations(page)
    assert violations == [], "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']}\n  " + "\n  ".join(v["nodes"]) for v in violations
    )
