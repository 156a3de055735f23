"""A phone that loses the network at the table: deals entered offline wait on the phone ("en
attente du réseau"), go to the site in order when the network is back, and a request sent
again stores nothing new; the service worker keeps the entry screen for the next time."""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import Page, Request, expect
from pytest_django.live_server_helper import LiveServer

from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game, ScoreLine
from tests.e2e.test_game_entry import enter_deal, log_in
from tests.factories import build_table, build_world, garde
from tournaments.rounds import selectors as round_selectors

# Whether the service worker keeps a page (evaluate awaits the promise; wait_for_function
# would take the promise itself for a true value).
KEPT = """async (url) => {
    for (const name of await caches.keys()) {
        if (name.startsWith('tarot-entries-')
            && await (await caches.open(name)).match(url, {ignoreVary: true})) {
            return true;
        }
    }
    return false;
}"""


def scores_of(deal: Deal) -> dict[int, int]:
    return dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))


def test_three_deals_entered_offline_are_stored_in_order_when_the_network_is_back(
    page: Page, live_server: LiveServer
) -> None:
    table = build_table()
    a, b, c, d = table.ids
    url = reverse("games:deal_new", args=[table.game.pk])
    log_in(page, live_server, table.users["seated"])
    page.goto(url)
    posts: list[Request] = []
    page.on(
        "request", lambda r: posts.append(r) if r.method == "POST" and r.url.endswith(url) else None
    )

    page.context.set_offline(True)
    deals = [(c, "garde", 2, "49"), (a, "prise", 1, "40"), (d, "garde_sans", 3, "52")]
    for number, (taker, contract, bouts, points) in enumerate(deals, start=1):
        expect(page.locator("#deal-entry-title")).to_have_text(f"Donne {number}")
        enter_deal(page, taker=taker, contract=contract, bouts=bouts, points=points)
        page.locator("#save-deal").click()
        expect(page.locator("#offline-queue .offline-deal")).to_have_count(number)

    rows = page.locator("#offline-queue .offline-deal")
    for i in range(3):
        expect(rows.nth(i)).to_contain_text(f"Donne {i + 1}")
        expect(rows.nth(i)).to_contain_text("en attente du réseau")
    expect(rows.nth(0)).to_contain_text("Chloé")  # what was entered, in the page's words
    expect(rows.nth(0)).to_contain_text("49")
    # Typed offline, no preview could score it: the scores come when it is sent.
    expect(rows.nth(0).locator(".offline-scores")).to_have_text(
        "Les scores seront comptés à l'envoi."
    )
    expect(page.locator("#deal-entry-title")).to_have_text("Donne 4")
    assert not Deal.objects.filter(game=table.game).exists()
    assert posts == []  # nothing left the phone

    page.context.set_offline(False)

    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.get_by_test_id("deal-count")).to_have_attribute("data-deals", "3")
    stored = list(Deal.objects.filter(game=table.game).order_by("number"))
    assert [(x.number, x.taker_id) for x in stored] == [(1, c), (2, a), (3, d)]
    # Garde 49 with 2 bouts: won by 8, (25 + 8) x 2 = 66 per defender.
    assert scores_of(stored[0]) == {a: -66, b: -66, c: 198, d: -66}
    # Prise 40 with 1 bout: 51 needed, lost by 11, 25 + 11 = 36 to each defender.
    assert scores_of(stored[1]) == {a: -108, b: 36, c: 36, d: 36}
    # Garde sans 52 with 3 bouts: won by 16, (25 + 16) x 4 = 164 per defender.
    assert scores_of(stored[2]) == {a: -164, b: -164, c: -164, d: 492}
    assert len({x.client_id for x in stored}) == 3 and None not in {x.client_id for x in stored}
    expect(page.get_by_test_id("total-3")).to_have_text(str(-66 + 36 + 492))

    # The first deal's request, sent again (an answer lost on the way): nothing new is stored.
    assert len(posts) == 3
    first = posts[0]
    replay = page.request.post(
        first.url,
        data=first.post_data_buffer or b"",
        headers={
            "Content-Type": first.headers["content-type"],
            "X-CSRFToken": first.headers["x-csrftoken"],
            "HX-Request": "true",
        },
    )
    assert replay.status == 200
    assert "Donne 1 enregistrée" in replay.text()
    assert Deal.objects.filter(game=table.game).count() == 3
    assert ScoreLine.objects.filter(deal__game=table.game).count() == 12


def test_a_number_taken_meanwhile_is_shown_to_resolve(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    a, b, c, d = table.ids
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    page.context.set_offline(True)
    enter_deal(page, taker=c, contract="garde", bouts=2, points="49")
    page.locator("#save-deal").click()
    expect(page.locator("#offline-queue .offline-deal")).to_have_count(1)
    # Meanwhile another phone enters deal 1.
    table.record(garde(a))
    page.context.set_offline(False)

    row = page.locator("#offline-queue .offline-deal")
    expect(row.locator(".offline-problem")).to_be_visible()
    expect(row).to_contain_text("La donne 1 vient d'être saisie depuis un autre appareil.")
    assert Deal.objects.filter(game=table.game).count() == 1

    row.get_by_role("button", name="L'enregistrer comme donne 2").click()

    expect(page.locator("#offline-queue")).to_be_hidden()
    second = Deal.objects.get(game=table.game, number=2)
    assert second.taker_id == c
    assert Deal.objects.filter(game=table.game).count() == 2


def test_a_game_finished_meanwhile_is_shown_and_the_deal_kept(
    page: Page, live_server: LiveServer
) -> None:
    table = build_table()
    c = table.ids[2]
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    page.context.set_offline(True)
    enter_deal(page, taker=c, contract="garde", bouts=2, points="49")
    page.locator("#save-deal").click()
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    page.context.set_offline(False)

    row = page.locator("#offline-queue .offline-deal")
    expect(row).to_contain_text("Cette partie est terminée")
    expect(row).to_contain_text("Rouvrez la partie et réessayez, ou abandonnez cette donne.")
    assert not Deal.objects.filter(game=table.game).exists()

    # Reopened, the deal goes on the next try; discarding it would have dropped it.
    services.game_set_status(game=table.game, status=Game.Status.OPEN)
    row.get_by_role("button", name="Réessayer").click()

    expect(page.locator("#offline-queue")).to_be_hidden()
    assert Deal.objects.get(game=table.game).taker_id == c


def test_a_deal_kept_offline_can_be_discarded(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    a, c = table.ids[0], table.ids[2]
    log_in(page, live_server, table.users["seated"])
    page.goto(reverse("games:deal_new", args=[table.game.pk]))

    # Typed while the network was there: the preview scored it, then the network went.
    enter_deal(page, taker=c, contract="garde", bouts=2, points="49")
    expect(page.get_by_test_id("preview-score-2")).to_have_text("+198")
    page.context.set_offline(True)
    # Leaving the field asks for a preview again, which fails offline: the preview on screen
    # still scores what is in the form, so its scores are kept with the deal.
    page.locator("#id_points").dispatch_event("change")
    page.wait_for_timeout(300)
    page.locator("#save-deal").click()
    kept = page.locator("#offline-queue .offline-deal")
    expect(kept.locator(".offline-scores")).to_have_text(
        "Aurélie -66 · Bruno -66 · Chloé +198 · Denis -66"
    )
    table.record(garde(a))  # the same deal, entered by another phone
    page.context.set_offline(False)
    page.locator("#offline-queue").get_by_role("button", name="Abandonner cette donne").click()

    expect(page.locator("#offline-queue")).to_be_hidden()
    page.reload()
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert [d.taker_id for d in Deal.objects.filter(game=table.game)] == [a]


def test_the_entry_screen_opens_offline_from_the_phone(page: Page, live_server: LiveServer) -> None:
    table = build_table()
    c = table.ids[2]
    url = reverse("games:deal_new", args=[table.game.pk])
    log_in(page, live_server, table.users["seated"])
    page.goto(url)
    # The service worker takes the page over and keeps this entry screen.
    # (Polled with evaluate: wait_for_function evaluates its string, which the CSP forbids.)
    for _ in range(100):
        if page.evaluate("() => navigator.serviceWorker.controller !== null"):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the service worker did not take the page over")
    for _ in range(100):
        if page.evaluate(KEPT, url):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError("the entry screen was not kept")

    page.context.set_offline(True)
    page.reload()

    expect(page.locator("#deal-entry-title")).to_have_text("Donne 1")
    enter_deal(page, taker=c, contract="garde", bouts=2, points="49")
    page.locator("#save-deal").click()
    expect(page.locator("#offline-queue .offline-deal")).to_contain_text("en attente du réseau")
    # A page it does not keep: the offline page says why.
    page.goto(reverse("games:detail", args=[table.game.pk]))
    expect(page.locator("h1")).to_have_text("Pas de réseau")

    page.context.set_offline(False)
    page.goto(url)

    # Sent by whichever page saw the network come back (the offline page has the script too).
    expect(page.locator("#offline-queue")).to_be_hidden()
    for _ in range(100):
        if Deal.objects.filter(game=table.game).exists():
            break
        page.wait_for_timeout(100)
    assert Deal.objects.get(game=table.game).taker_id == c


def test_a_tournament_tables_link_keeps_its_deals_offline_too(
    page: Page, live_server: LiveServer
) -> None:
    world = build_world()
    state = round_selectors.round_tables(round_=world.round)[0]
    game = state.table.game
    taker, other = state.players[0].pk, state.players[1].pk
    page.goto(reverse("tournaments:table_entry", args=[state.table.token]))

    page.context.set_offline(True)
    for number, who in enumerate((taker, other), start=1):
        expect(page.locator("#deal-entry-title")).to_have_text(f"Donne {number}")
        enter_deal(page, taker=who, contract="garde", bouts=2, points="49")
        page.locator("#save-deal").click()
        expect(page.locator("#offline-queue .offline-deal")).to_have_count(number)
    assert not Deal.objects.filter(game=game).exists()
    page.context.set_offline(False)

    expect(page.locator("#offline-queue")).to_be_hidden()
    stored = list(Deal.objects.filter(game=game).order_by("number"))
    assert [(d.number, d.taker_id) for d in stored] == [(1, taker), (2, other)]
    # The table had all its deals: the answer says so, and the round's other table waits.
    expect(page.locator("#deal-full")).to_be_visible()
