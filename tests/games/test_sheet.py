"""The score sheet: every deal in words, each player's score and running total, the ranking,
who deals next, in a number of queries that does not grow with the deals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores import scoring
from tarot_scores.games import selectors, services
from tarot_scores.games.models import Game
from tests.factories import ROLES, Table, build_table, garde
from tests.games.helpers import page_text

pytestmark = pytest.mark.django_db


def detail_url(table: Table) -> str:
    return reverse("games:detail", args=[table.game.pk])


def test_the_sheet_shows_deals_totals_ranking_and_next_dealer(table: Table) -> None:
    a, b, c, d = table.ids
    first = table.record(
        garde(c, petit_au_bout="attack", handfuls=[{"player": c, "size": "simple"}])
    )
    table.record(garde(a, points=30))

    response = table.client("seated").get(detail_url(table), headers={"Accept-Language": "en"})

    content = response.content.decode()
    text = page_text(response.content)
    assert response.status_code == 200
    assert reverse("clubs:detail", args=[table.club.slug]) in content
    assert table.club.name in text
    assert "FFT" in text
    assert re.search(r"Aurélie\s*</th>\s*<th scope=\"col\">Bruno", content)
    assert "Chloé · Garde · 2 bouts" in text
    assert "won by 8" in text and "lost by 11" in text
    assert "petit au bout attack" in text and "single handful Chloé" in text
    assert "dealt by Aurélie" in text and "dealt by Bruno" in text
    # Deal 2: Aurélie's garde lost by 11 -> (25 + 11) x 2 = 72 per defender.
    assert 'data-testid="total-0">-322<' in content  # -106 - 216
    assert 'data-testid="total-2">390<' in content  # 318 + 72
    assert "Next: deal 3, dealt by Chloé." in text
    assert reverse("games:deal_new", args=[table.game.pk]) in content
    assert reverse("games:deal_edit", args=[first.pk]) in content
    assert reverse("games:deal_history", args=[first.pk]) in content
    assert reverse("games:csv", args=[table.game.pk]) in content
    assert reverse("games:pdf", args=[table.game.pk]) in content
    ranking = content[content.index('class="ranking"') :]
    assert ranking.index("Chloé") < ranking.index("Bruno") < ranking.index("Aurélie")


@pytest.mark.parametrize("role", ROLES)
def test_only_those_who_may_enter_see_the_entry_buttons(table: Table, role: str) -> None:
    deal = table.record()
    services.deal_delete(deal=deal, version=1, by=None)

    content = table.client(role).get(detail_url(table)).content.decode()

    may = role in ("seated", "organiser", "superuser")
    assert (reverse("games:deal_new", args=[table.game.pk]) in content) is may
    assert (reverse("games:status", args=[table.game.pk]) in content) is may
    assert (reverse("games:deal_restore", args=[deal.pk]) in content) is may
    assert reverse("games:deal_history", args=[deal.pk]) in content


def test_a_finished_game_can_be_reopened(table: Table) -> None:
    table.record()
    client = table.client("seated")

    client.post(reverse("games:status", args=[table.game.pk]), {"status": "finished"})
    finished = client.get(detail_url(table)).content.decode()
    client.post(reverse("games:status", args=[table.game.pk]), {"status": "open"})

    assert 'id="reopen-game"' in finished and 'id="new-deal"' not in finished
    assert "Final ranking" in page_text(finished.encode()) or 'class="ranking"' in finished
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.OPEN


def test_an_unknown_status_is_a_bad_request(table: Table) -> None:
    response = table.client("seated").post(
        reverse("games:status", args=[table.game.pk]), {"status": "paused"}
    )
    assert response.status_code == 400


def test_with_htmx_the_sheet_is_a_fragment(table: Table) -> None:
    table.record()

    response = table.client("anonymous").get(detail_url(table), headers={"HX-Request": "true"})

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content and content.lstrip().startswith('<section id="game-sheet"')


@pytest.mark.parametrize("role", ["anonymous", "seated"])
def test_the_sheet_costs_the_same_queries_for_5_or_40_deals(
    role: str, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    counts = []
    for deals, tag in ((5, "a"), (40, "b")):
        table = build_table(public=role != "seated", tag=tag)
        for n in range(deals):
            table.record(garde(table.ids[n % 4], points=30 + n % 30))
        services.deal_delete(deal=table.game.deals.get(number=2), version=1, by=None)
        client = table.client(role)
        client.get("/healthz")
        with django_assert_max_num_queries(10) as captured:
            response = client.get(detail_url(table))
        assert response.status_code == 200
        assert response.content.decode().count('<tbody id="deal-') == deals
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]


def test_the_sheet_reads_stored_results_without_scoring_again(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = table.ids[0]
    deals = [table.record(garde(a, points=p)) for p in (49, 30, 60)]
    assert [d.margin for d in deals] == [8, -11, 19]
    calls: list[object] = []
    real = scoring.score

    def counted(*args: Any, **kwargs: Any) -> scoring.Result:
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(scoring, "score", counted)
    response = table.client("seated").get(detail_url(table), headers={"Accept-Language": "en"})
    assert response.status_code == 200
    assert "won by 8" in page_text(response.content) and "lost by 11" in page_text(response.content)
    assert calls == []


def _sheet_facts(sheet: selectors.GameSheet) -> dict[str, Any]:
    return {
        "rows": [(r.deal.number, r.deal.is_deleted, r.scores, r.totals) for r in sheet.rows],
        "totals": sheet.totals,
        "ranking": [(r.rank, r.player.pk, r.total) for r in sheet.ranking],
        "next": (sheet.next_number, sheet.next_dealer.pk),
        "winners": [p.pk for p in sheet.winners],
        "live": sheet.live_deals,
    }


@pytest.mark.parametrize("players", [4, 5])
def test_the_sheet_after_a_save_is_the_sheet_read_again(players: int) -> None:
    """The entry screens answer a save with the sheet they read plus the new deal; it must be
    exactly what reading the game again gives, deleted deals and all."""
    table = build_table(players=players)
    ids = table.ids
    for n in range(4):
        table.record(garde(ids[n % players], points=30 + 7 * n))
    services.deal_delete(deal=table.game.deals.get(number=2), version=1, by=None)
    sheet = selectors.game_sheet(game_id=table.game.pk)
    payload = garde(ids[1], points=61)

    recorded = services.deal_record(
        game=sheet.game, payload=payload, by=None, number=sheet.next_number, table=sheet.table
    )
    deal = recorded.deal

    assert deal.number == 5
    after = _sheet_facts(sheet.after(deal, recorded.scores))
    assert after == _sheet_facts(selectors.game_sheet(game_id=table.game.pk))
    assert after["live"] == 4 and after["next"][0] == 6


def test_the_sheet_after_a_save_names_the_novatarok_winner() -> None:
    table = build_table(variant="novatarok")
    a, b, c, d = table.ids
    cards = {str(a): 60, str(b): 10, str(c): 5, str(d): 5}
    for _n in range(7):
        services.deal_record(game=table.game, payload={"card_points": cards, "kings": a}, by=None)
    sheet = selectors.game_sheet(game_id=table.game.pk)
    assert sheet.winners == []

    recorded = services.deal_record(
        game=sheet.game, payload={"card_points": cards, "kings": a}, by=None, table=sheet.table
    )

    after = sheet.after(recorded.deal, recorded.scores)
    assert [p.pk for p in after.winners] == [a]
    assert _sheet_facts(after) == _sheet_facts(selectors.game_sheet(game_id=table.game.pk))
