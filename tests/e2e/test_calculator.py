"""The calculator in a phone-sized Chromium: live scores while typing, errors beside the field,
English, and a plain submit with JavaScript off."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.e2e.screen import choose_language, in_viewport


def fill_four_player_garde(page: Page) -> None:
    for seat, name in enumerate(["Aurélie", "Bruno", "Chloé", "Denis"], start=1):
        page.get_by_role("textbox", name=f"Joueur {seat}").fill(name)
    # The names typed are already offered as the taker.
    page.get_by_label("Preneur").select_option(label="Chloé")
    page.get_by_label("Garde", exact=True).check()
    page.get_by_label("Points", exact=True).fill("49")
    page.get_by_role("group", name="Bouts de l'attaque").get_by_label("2").check()
    page.get_by_role("group", name="Petit au bout").get_by_label("Pour l'attaque").check()
    page.get_by_role("combobox", name="Chloé").select_option("simple")


def test_scores_follow_the_deal_as_it_is_typed(page: Page) -> None:
    page.goto("/calculator/")
    page.evaluate("window.stillTheSamePage = true")
    result = page.locator("#result")
    expect(result).to_contain_text("Les scores s'affichent ici")

    fill_four_player_garde(page)

    expect(result).to_contain_text("Contrat réussi de 8 points.")
    expect(result.locator(".score-positive")).to_contain_text("Chloé")
    expect(result.locator(".score-positive .score-points")).to_have_text("+318")
    expect(result.locator(".score-negative .score-points")).to_have_text(["-106"] * 3)
    expect(result).to_contain_text("Chloé (preneur) : 3 × 106 = 318.")
    # Live: no submit, no page load.
    assert page.evaluate("window.stillTheSamePage") is True

    page.get_by_label("Points", exact=True).fill("50")

    expect(result.locator(".score-positive .score-points")).to_have_text("+324")


def test_on_a_phone_the_scores_start_near_the_top_and_stay_in_view(page: Page) -> None:
    page.goto("/calculator/")
    # Before anything is typed, the scores' box is on the first screen.
    result_box = page.locator("section.result")
    assert in_viewport(page, result_box)
    box = result_box.bounding_box()
    assert box is not None and box["y"] < 300

    fill_four_player_garde(page)
    # The points are typed far down the form, and the scores are still on screen.
    points = page.locator(".score-positive .score-points")
    expect(points).to_have_text("+318")
    assert page.evaluate("window.scrollY") > 300
    assert in_viewport(page, points)
    assert in_viewport(page, page.get_by_label("Points", exact=True))


def test_an_impossible_deal_shows_the_reason_beside_the_points(page: Page) -> None:
    page.goto("/calculator/")
    fill_four_player_garde(page)
    expect(page.locator("#result")).to_contain_text("+318")

    points = page.get_by_label("Points", exact=True)
    points.fill("40,5")

    expect(page.locator("#errors-points")).to_have_text(
        "À quatre joueurs, les points de l'attaque sont toujours entiers : "
        "chaque camp a un nombre pair de cartes."
    )
    expect(points).to_have_attribute("aria-describedby", "errors-points")
    expect(page.locator("#result")).to_contain_text("Cette donne ne peut pas être comptée")
    expect(page.locator("#result .score")).to_have_count(0)

    points.fill("41")

    expect(page.locator("#errors-points")).to_be_empty()
    expect(page.locator("#result")).to_contain_text("Contrat réussi de 0 point.")


def test_five_players_by_link_then_english(page: Page) -> None:
    page.goto("/calculator/")
    expect(page.get_by_label("Partenaire appelé")).to_have_count(0)

    page.get_by_role("link", name="5 joueurs").click()

    expect(page.get_by_label("Partenaire appelé")).to_be_visible()
    expect(page.get_by_label("Mort (passe son tour)")).to_be_visible()

    choose_language(page, "English")

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Score calculator")
    expect(page.get_by_label("Taker (preneur)")).to_be_visible()
    expect(page.get_by_label("Called partner")).to_be_visible()
    expect(page.get_by_label("Guard without (garde sans)")).to_be_visible()
    expect(page.get_by_role("textbox", name="Player 5")).to_have_value("Player 5")


def test_tap_targets_are_big_enough_on_a_phone(page: Page) -> None:
    page.goto("/calculator/")

    for control in [
        page.locator("label.choice").first,
        page.get_by_label("Preneur"),
        page.get_by_label("Points", exact=True),
        page.get_by_role("button", name="Calculer les scores"),
        page.get_by_role("link", name="5 joueurs"),
    ]:
        box = control.bounding_box()
        assert box is not None and box["height"] >= 44, control
    # Nothing is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.fixture
def page_without_js(browser: Browser, live_server: LiveServer) -> Iterator[Page]:
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": 390, "height": 844},
        locale="fr-FR",
        java_script_enabled=False,
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def test_without_javascript_the_submit_button_shows_the_scores(page_without_js: Page) -> None:
    page = page_without_js
    page.goto("/calculator/")
    for seat, name in enumerate(["Aurélie", "Bruno", "Chloé", "Denis"], start=1):
        page.get_by_role("textbox", name=f"Joueur {seat}").fill(name)
    page.get_by_label("Preneur").select_option("3")  # the names follow on submit only
    page.get_by_label("Garde", exact=True).check()
    page.get_by_label("Points", exact=True).fill("42")
    page.get_by_label("Ce sont les points de la défense").check()
    page.get_by_role("group", name="Bouts de l'attaque").get_by_label("2").check()

    page.get_by_role("button", name="Calculer les scores").click()

    result = page.locator("#result")
    expect(result).to_contain_text("Contrat réussi de 8 points.")
    expect(result.locator(".score-positive .score-points")).to_have_text("+198")
    expect(page.get_by_label("Preneur")).to_have_value("3")
