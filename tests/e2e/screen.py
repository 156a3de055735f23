"""What a person sees on a phone's screen: the header's menu, and whether a thing is inside the
visible part of the page without scrolling (the tap-count tests at 390x844 ask it before every
tap)."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect


def choose_language(page: Page, name: str) -> None:
    """Switch the page's language from the header; on a phone it is behind the Menu button."""
    menu = page.locator(".site-menu > summary")
    if menu.is_visible() and page.locator(".site-menu[open]").count() == 0:
        menu.click()
    page.get_by_role("button", name=name).click()


# htmx marks what it has just swapped in until it settles; the page's own scripts (entry.js
# brings the totals back into view after a Save) run when it settles, a moment after the new
# text is already there to be found.
STILL = ".htmx-swapping, .htmx-settling"


def settled(page: Page) -> None:
    """Wait until no htmx swap is still settling: what the page shows has stopped moving."""
    expect(page.locator(STILL)).to_have_count(0)


def in_viewport(page: Page, locator: Locator) -> bool:
    """The whole of the element is on the screen as it is now scrolled (none of it hidden
    above, below or beside), and nothing painted over its middle (a sticky bar, a menu).
    Asked once the page has stopped moving: no htmx swap is still settling."""
    settled(page)
    box = locator.bounding_box()
    size = page.viewport_size
    assert size is not None
    if box is None:
        return False
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"] + 0.5
        and box["y"] + box["height"] <= size["height"] + 0.5
    )
    if not inside:
        return False
    on_top: bool = locator.evaluate(
        """(el) => {
            const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
            if (hit === null) return false;
            if (el === hit || el.contains(hit) || hit.contains(el)) return true;
            // A chip's radio lies over its text: tapping it is tapping the chip.
            const label = el.closest("label");
            return label !== null && (label.contains(hit) || label.control === hit);
        }"""
    )
    return on_top
