"""Browser tests: Debian's Chromium, driven by Playwright, against pytest-django's live_server."""

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from pytest_django.live_server_helper import LiveServer

# Playwright's sync API keeps an asyncio loop running in the main thread for the whole session,
# so Django would raise SynchronousOnlyOperation on every ORM call made afterwards, even from
# tests that are not browser tests (pytest-randomly mixes them). The tests never run Django code
# concurrently with that loop, so Django's guard is safe to lift here.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
E2E_DIR = os.path.dirname(__file__)
CSP_WORDS = "Content Security Policy"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if str(item.path).startswith(E2E_DIR + os.sep):
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    """A phone-sized French page whose relative URLs go to the live server."""
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fr-FR",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    # Chromium enforces the site's Content-Security-Policy and says so on the console for
    # anything it blocks: any such message fails the test, so that a page that only works
    # with an inline script or style is caught here.
    violations: list[str] = []
    page.on(
        "console",
        lambda message: violations.append(message.text) if CSP_WORDS in message.text else None,
    )
    yield page
    context.close()
    assert violations == [], f"Content-Security-Policy violations: {violations}"
