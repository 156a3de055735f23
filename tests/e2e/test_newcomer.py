"""A newcomer, alone, on a 390x844 phone in French: from the home page to the first deal saved,
with no administrator and no shell. Sign-up, the link of the confirmation e-mail (read from the
test outbox), the club, eight players pasted, the rules, a game of five, the first deal.

Taps and keystrokes are counted (a paste counts apart) and printed; after the e-mail's link the
whole start takes at most 25 taps. Each step's screen is saved under test-results/ and checked by
axe-core. A target out of sight is scrolled to first: scrolling is not a tap."""

from __future__ import annotations

import re
from pathlib import Path

from django.core import mail
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.clubs.models import Club, Membership
from tarot_scores.games.models import Deal, Game
from tests.e2e.a11y import assert_accessible
from tests.e2e.screen import in_viewport

SHOTS = Path(__file__).resolve().parents[2] / "test-results"
TAP_BUDGET = 25

PLAYERS = """Aurélie Martin
Bruno Petit, Bruno
Chloé Durand
Denis Moreau, , 0712345
Éric Bonnet
Françoise Roux
Gilles Faure
Hélène Blanc
"""


class Newcomer:
    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.keys = 0
        self.pastes = 0
        self.step = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console",
            lambda message: self.errors.append(message.text) if message.type == "error" else None,
        )

    def tap(self, target: Locator) -> None:
        expect(target).to_be_visible()
        if not in_viewport(self.page, target):
            target.scroll_into_view_if_needed()
        assert in_viewport(self.page, target), f"covered: {target}"
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1

    def type_into(self, target: Locator, text: str) -> None:
        self.tap(target)
        self.page.keyboard.type(text)
        self.keys += len(text)

    def paste_into(self, target: Locator, text: str) -> None:
        self.tap(target)
        target.fill(text)  # what a paste leaves in the box
        self.pastes += 1

    def chip(self, question: str, value: int | str) -> Locator:
        return self.page.locator(f"#field-{question} label:has(input[value='{value}']) span")

    def shoot(self, name: str, *, accessible: bool = True) -> None:
        self.step += 1
        SHOTS.mkdir(exist_ok=True)
        # caret="initial": Playwright hides the caret with a style of its own, which the site's
        # Content-Security-Policy would then report on the next htmx swap.
        path = SHOTS / f"newcomer-{self.step:02d}-{name}.png"
        self.page.screenshot(path=str(path), caret="initial")
        if accessible:
            assert_accessible(self.page)


def test_a_newcomer_starts_a_club_and_saves_the_first_deal(
    page: Page, live_server: LiveServer
) -> None:
    you = Newcomer(page)
    page.goto("/")
    you.shoot("home")
    you.tap(page.get_by_role("link", name="Lancez votre club"))

    # Sign-up.
    expect(page.locator("h1")).to_have_text("Créer un compte")
    you.shoot("signup")
    you.type_into(page.locator("#id_username"), "sophie")
    you.type_into(page.locator("#id_email"), "sophie@example.org")
    you.type_into(page.locator("#id_password1"), "tarot-du-jeudi-42")
    you.type_into(page.locator("#id_password2"), "tarot-du-jeudi-42")
    you.tap(page.get_by_role("button", name="Créer mon compte"))
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/$"))
    you.shoot("link-sent")
    before_link = (you.taps, you.keys)

    # The e-mail's link.
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["sophie@example.org"]
    link = re.search(r"https?://\S+/accounts/confirm-email/[-:\w]+/", str(mail.outbox[0].body))
    assert link is not None
    you.taps = you.keys = 0
    page.goto(link.group(0))
    you.shoot("confirm")
    you.tap(page.get_by_role("button", name="Confirmer"))

    # The club: signed in now, starting one comes first.
    expect(page.locator("#new-club")).to_be_visible()
    you.shoot("clubs")
    you.type_into(page.locator("#id_name"), "Les Excuses de Brest")
    you.tap(page.get_by_role("button", name="Créer le club"))

    # Eight players pasted: checked first, then added.
    expect(page.locator("h1")).to_have_text("Ajouter des joueurs")
    you.shoot("paste")
    you.paste_into(page.locator("#id_players"), PLAYERS)
    you.tap(page.get_by_role("button", name="Vérifier la liste"))
    expect(page.locator("#roster-heading")).to_have_text("8 joueurs à ajouter")
    you.shoot("paste-checked")
    you.tap(page.get_by_role("button", name="Ajouter ces 8 joueurs"))

    # The first game: five players tapped in seat order, FFT rules already chosen, the king
    # called at five.
    expect(page.locator("h1")).to_have_text("Nouvelle partie")
    expect(page.locator("#id_rules_0")).to_be_checked()
    you.shoot("game-new")
    club = Club.objects.get()
    seated = ["Chloé Durand", "Aurélie Martin", "Bruno", "Éric Bonnet", "Denis Moreau"]
    ids = [club.players.get(name=name).pk if " " in name else 0 for name in seated]
    ids[2] = club.players.get(nickname="Bruno").pk
    for pk in ids:
        you.tap(you.chip("players", pk))
    players_chosen = you.taps
    expect(page.locator("#seat-order-line")).to_have_text(
        "Chloé Durand → Aurélie Martin → Bruno → Éric Bonnet → Denis Moreau"
    )
    you.tap(you.chip("five_players", "called_king"))
    you.shoot("game-new-chosen")
    you.tap(page.get_by_role("button", name="Commencer la partie"))
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    assert you.taps - players_chosen <= 4  # a new game, once its players are chosen

    game = Game.objects.get()
    assert [seat.player_id for seat in game.seats.order_by("position")] == ids
    assert game.variant == "fft" and game.rules["five_players"] == "called_king"

    # The first deal: Aurélie takes a garde, calls Bruno, two bouts, 49 points.
    you.tap(page.locator("#new-deal"))
    expect(page.locator("#deal-entry-title")).to_be_visible()
    you.shoot("entry", accessible=False)  # the entry screen is I18B's (axe: test_accessibility)
    you.tap(you.chip("taker", ids[1]))
    you.tap(you.chip("contract", "garde"))
    you.tap(you.chip("partner", ids[2]))
    you.tap(you.chip("oudlers", 2))
    you.type_into(page.locator("#id_points"), "49")
    you.tap(page.locator("#save-deal"))
    expect(page.locator("#deal-saved")).to_contain_text("Donne 1 enregistrée.")
    you.shoot("first-deal-saved", accessible=False)

    print(
        f"\nnewcomer: before the e-mail link {before_link[0]} taps, {before_link[1]} keys; "
        f"after it {you.taps} taps, {you.keys} keys, {you.pastes} paste"
    )
    assert you.taps <= TAP_BUDGET
    assert Deal.objects.filter(game=game).count() == 1
    assert Membership.objects.get(club=club).role == Membership.Role.ORGANISER
    assert you.errors == []
