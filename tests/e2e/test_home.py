"""The home page in a real phone-sized browser: it loads and switches language without JS tricks."""

from playwright.sync_api import Page, expect

from tests.e2e.screen import choose_language


def test_home_page_shows_the_product(page: Page) -> None:
    page.goto("/")

    expect(page).to_have_title("Tarot Scores")
    expect(page.get_by_role("heading", level=1)).to_have_text("Tarot Scores")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("link", name="Calculateur de score")).to_be_visible()


def test_language_switcher_goes_to_english_and_back(page: Page) -> None:
    page.goto("/")
    expect(page.get_by_text("le site compte les points")).to_be_visible()

    choose_language(page, "English")

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_text("the site counts the points")).to_be_visible()
    expect(page.get_by_role("link", name="Score calculator")).to_be_visible()

    choose_language(page, "Français")

    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("link", name="Calculateur de score")).to_be_visible()
