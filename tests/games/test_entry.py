"""Entering a deal from the table: saved with its score lines and revision, refused with the
engine's reason beside the field (in French and in English), never saved twice."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from tarot_scores import scoring
from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine
from tarot_scores.scoring.messages import Msg
from tests.factories import Table, build_table
from tests.games.helpers import page_text, slot_text, tarot_post
from tests.queue import database_queue

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture
HTMX = {"HX-Request": "true"}


def new_url(table: Table) -> str:
    return reverse("games:deal_new", args=[table.game.pk])


def preview_url(table: Table) -> str:
    return reverse("games:deal_preview", args=[table.game.pk])


def lines(deal: Deal) -> dict[int, int]:
    return dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))


def test_the_entry_page_is_made_for_a_phone(table: Table) -> None:
    response = table.client("seated").get(new_url(table))

    content = response.content.decode()
    assert response.status_code == 200
    assert 'inputmode="decimal"' in content
    for player in table.players:
        assert f'name="taker" value="{player.pk}"' in content
    for contract in ("prise", "garde", "garde_sans", "garde_contre"):
        assert f'name="contract" value="{contract}"' in content
    assert 'name="partner"' not in content  # four players: nobody is called
    assert 'name="misere_' not in content  # FFT rules: no misères
    assert 'name="number" value="1"' in content
    assert 'hx-trigger="input changed delay:250ms' in content
    assert "<details" in content  # the extras stay folded away


def test_a_valid_deal_is_saved_with_its_score_lines_and_revision(table: Table) -> None:
    a, b, c, d = table.ids
    data = tarot_post(c, points="49", petit_au_bout="attack", **{f"handful_{c}": "simple"})

    response = table.client("seated").post(new_url(table), data)

    # Back to the entry screen for the next deal, which says deal 1 was saved.
    assert response.status_code == 302
    assert response["Location"] == new_url(table) + "?saved=1"
    deal = Deal.objects.get(game=table.game)
    assert deal.number == 1 and deal.taker_id == c and deal.contract == "garde" and deal.won
    assert deal.payload == {
        "taker": c,
        "partner": None,
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
        "petit_au_bout": "attack",
        "handfuls": [{"player": c, "size": "simple"}],
        "slam": None,
        "miseres": [],
        "sitting_out": None,
    }
    # (25 + 8) x 2 + 10 x 2 petit au bout + 20 handful = 106 per defender.
    assert lines(deal) == {a: -106, b: -106, c: 318, d: -106}
    revision = DealRevision.objects.get(deal=deal)
    assert revision.action == "created" and revision.by == table.users["seated"]


def test_with_htmx_the_answer_is_the_fresh_form_and_the_new_totals(table: Table) -> None:
    a, b, c, d = table.ids

    response = table.client("seated").post(new_url(table), tarot_post(a), headers=HTMX)

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'id="deal-saved"' in content
    assert 'name="number" value="2"' in content  # ready for the next deal
    assert (
        'id="game-totals" class="totals strip" aria-labelledby="game-totals-title"'
        ' hx-swap-oob="true"' in content
    )
    assert 'data-testid="total-0">198<' in content
    assert table.players[1].label in slot_free_header(content)  # deal 2 is dealt by seat 2


def test_with_htmx_the_answer_does_not_read_the_new_deal_back(
    table: Table, database_queue: None
) -> None:
    """The saved deal and the new totals come from what deal_record wrote and returned (the
    ratings' job that reads it runs later, in a worker, as in production)."""
    a = table.ids[0]
    client = table.client("seated")
    client.get(new_url(table))  # the session exists, as on a phone that opened the page

    with CaptureQueriesContext(connection) as queries:
        response = client.post(new_url(table), tarot_post(a), headers=HTMX)

    assert response.status_code == 200 and 'id="deal-saved"' in response.content.decode()
    sql = [q["sql"] for q in queries]
    written = next(i for i, q in enumerate(sql) if q.startswith('INSERT INTO "tarot_scores_deal"'))
    # Reads whose main table is the deal's or its lines', once the deal is written.
    reads = [q for q in sql[written:] if re.match(r'SELECT "tarot_scores_(deal|scoreline)"\.', q)]
    assert reads == []


def slot_free_header(content: str) -> str:
    start = content.index('id="deal-dealer"')
    return content[start : content.index("</p>", start)]


def test_defence_points_count_for_the_attack_as_the_rest_of_91(table: Table) -> None:
    a = table.ids[0]
    data = tarot_post(a, points="35", defence_points="on")

    table.client("seated").post(new_url(table), data)

    deal = Deal.objects.get(game=table.game)
    assert deal.payload["points"] == 56


def test_a_decimal_comma_is_read_as_a_half_point() -> None:
    table = build_table(players=3)
    a = table.ids[0]
    # At three players a half point can happen (here 40.5 of the 41 needed).
    response = table.client("seated").post(new_url(table), tarot_post(a, points="40,5", oudlers=2))

    assert response.status_code == 302
    assert Deal.objects.get(game=table.game).payload["points"] == 40.5


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_impossible_deal_shows_the_reason_beside_points_and_saves_nothing(
    table: Table, lang: str
) -> None:
    a = table.ids[0]

    response = table.client("seated").post(
        new_url(table), tarot_post(a, points="40,5"), headers={"Accept-Language": lang}
    )

    assert response.status_code == 400
    assert slot_text(response.content, "points") == Msg("points_whole_four").render(lang)
    assert slot_text(response.content, "taker") == ""
    assert 'value="40,5"' in response.content.decode()  # what was typed stays
    assert not Deal.objects.exists() and not ScoreLine.objects.exists()
    assert not DealRevision.objects.exists()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_three_bouts_and_ten_points_is_refused_in_the_readers_language(
    table: Table, lang: str
) -> None:
    a = table.ids[0]
    payload: dict[str, Any] = {"variant": "fft", "players": ["A", "B", "C", "D"], "taker": "A"}
    payload |= {"contract": "garde", "points": 10, "oudlers": 3}
    with pytest.raises(scoring.ScoringError) as engine:
        scoring.score(payload)

    response = table.client("organiser").post(
        new_url(table),
        tarot_post(a, points="10", oudlers=3),
        headers={"Accept-Language": lang, **HTMX},
    )

    assert response.status_code == 400
    assert "<html" not in response.content.decode()
    for field, messages in engine.value.messages(lang).items():
        assert slot_text(response.content, field) == " ".join(messages)
    assert not Deal.objects.exists()


def test_missing_answers_are_reported_beside_their_questions(table: Table) -> None:
    response = table.client("seated").post(new_url(table), {"number": "1", "points": "abc"})

    assert response.status_code == 400
    assert slot_text(response.content, "taker")
    assert slot_text(response.content, "contract")
    assert slot_text(response.content, "points")
    assert not Deal.objects.exists()


def test_the_same_new_deal_saved_twice_is_stored_once(table: Table) -> None:
    a, b, c, d = table.ids
    first = table.client("seated")
    second = table.client("organiser")

    one = first.post(new_url(table), tarot_post(a, number=1))
    two = second.post(
        new_url(table), tarot_post(b, number=1), headers={"Accept-Language": "en", **HTMX}
    )

    assert one.status_code == 302
    assert two.status_code == 409
    text = page_text(two.content)
    assert "Deal 1 was just entered from another device." in text
    assert table.players[0].label in text  # the deal that is there: Aurélie's garde
    assert Deal.objects.filter(game=table.game).count() == 1
    assert Deal.objects.get(game=table.game).taker_id == a
    assert 'name="number" value="2"' in two.content.decode()


def test_a_finished_game_takes_no_deal(table: Table) -> None:
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    client = table.client("seated")

    page = client.get(new_url(table))
    response = client.post(new_url(table), tarot_post(table.ids[0]))

    assert 'id="deal-closed"' in page.content.decode()
    assert 'name="taker"' not in page.content.decode()
    assert response.status_code == 409
    assert 'id="deal-closed"' in response.content.decode()
    assert not Deal.objects.exists()


def test_preview_scores_and_stores_nothing(
    table: Table, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    a, b, c, d = table.ids
    client = table.client("seated")
    client.get(new_url(table))  # the session exists, as on a phone that opened the page

    with CaptureQueriesContext(connection) as queries, django_assert_max_num_queries(7):
        response = client.post(preview_url(table), tarot_post(c), headers=HTMX)

    content = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in content
    assert 'data-testid="preview-score-2"' in content and "+198" in content
    assert "−66" in content or "-66" in content
    assert "(25 + 8) × 2" in content  # the engine's breakdown
    assert 'hx-swap-oob="true"' in content  # clears the error slots
    writes = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert writes == []
    assert not Deal.objects.exists()


def test_preview_puts_engine_errors_beside_fields_but_not_unanswered_questions(
    table: Table,
) -> None:
    a = table.ids[0]
    client = table.client("seated")

    partial = client.post(preview_url(table), {"number": "1", "taker": str(a)}, headers=HTMX)
    wrong = client.post(preview_url(table), tarot_post(a, points="40,5"), headers=HTMX)

    assert slot_text(partial.content, "contract") == ""  # not answered yet: no scolding
    assert slot_text(wrong.content, "points") == Msg("points_whole_four").render("fr")
    assert not Deal.objects.exists()


def test_five_players_call_a_partner() -> None:
    table = build_table(players=5)
    a, b, c, d, e = table.ids
    client = table.client("seated")
    page = client.get(new_url(table)).content.decode()
    assert f'name="partner" value="{b}"' in page and 'name="partner" value="alone"' in page

    client.post(new_url(table), tarot_post(a, partner=b))
    client.post(new_url(table), tarot_post(c, number=2, partner="alone"))

    first, second = Deal.objects.filter(game=table.game).order_by("number")
    assert lines(first) == {a: 132, b: 66, c: -66, d: -66, e: -66}
    assert first.payload["partner"] == b
    assert lines(second) == {a: -66, b: -66, c: 264, d: -66, e: -66}  # alone: 4 units
    assert second.payload["partner"] is None


def test_at_a_dealer_sits_out_table_the_dealer_sits_out_by_himself() -> None:
    table = build_table(players=5)
    table.game.rules = {**table.game.rules, "five_players": "sitting_out"}
    table.game.save()
    a, b, c, d, e = table.ids
    client = table.client("seated")

    page = client.get(new_url(table)).content.decode()
    client.post(new_url(table), tarot_post(b))

    assert 'id="sitting-out"' in page and table.players[0].label in page
    assert 'name="partner"' not in page
    assert f'name="taker" value="{a}"' not in page  # the dealer cannot take
    deal = Deal.objects.get(game=table.game)
    assert deal.payload["sitting_out"] == a
    assert lines(deal) == {a: 0, b: 198, c: -66, d: -66, e: -66}


def test_miseres_are_offered_only_where_the_rules_allow_them() -> None:
    table = build_table(variant="classic")
    a, b, c, d = table.ids
    client = table.client("seated")
    page = client.get(new_url(table)).content.decode()
    assert f'name="misere_{b}"' in page

    client.post(new_url(table), tarot_post(a, **{f"misere_{b}": "trump"}))

    deal = Deal.objects.get(game=table.game)
    assert deal.payload["miseres"] == [{"player": b, "kind": "trump"}]


def test_novatarok_round_and_game_over() -> None:
    table = build_table(variant="novatarok")
    a, b, c, d = table.ids
    client = table.client("seated")
    page = client.get(new_url(table)).content.decode()
    assert f'name="card_{a}"' in page and 'name="kings"' in page and 'name="pagat"' in page

    data = {"number": "1", f"card_{a}": "60", f"card_{b}": "10", f"card_{c}": "5", f"card_{d}": "5"}
    response = client.post(new_url(table), {**data, "kings": str(a)})

    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get(game=table.game)
    assert lines(deal) == {a: 80, b: 10, c: 5, d: 5}
    for number in range(2, 10):
        response = client.post(new_url(table), {**data, "number": str(number), "kings": str(a)})
    detail = client.get(reverse("games:detail", args=[table.game.pk])).content.decode()
    entry = client.get(new_url(table)).content.decode()
    assert 'id="game-over"' in entry and table.players[0].label in entry
    assert "720" in detail


def test_novatarok_card_points_that_cannot_add_up_are_refused() -> None:
    table = build_table(variant="novatarok")
    a, b, c, d = table.ids
    data = {"number": "1", f"card_{a}": "1", f"card_{b}": "0", f"card_{c}": "0", f"card_{d}": "0"}

    response = table.client("seated").post(new_url(table), data)

    assert response.status_code == 400
    assert slot_text(response.content, "card_points")
    assert not Deal.objects.exists()


def test_buraco_hand_scores_each_side() -> None:
    table = build_table(variant="buraco")
    a, b, c, d = table.ids
    client = table.client("seated")
    page = client.get(new_url(table)).content.decode()
    # Partners sit opposite: seats 1 and 3 against 2 and 4.
    assert f'name="side_{a}" value="0" id="id_side_{a}_0" required checked' in page
    assert f'name="side_{b}" value="1" id="id_side_{b}_1" required checked' in page

    data = {
        "number": "1",
        f"side_{a}": "0",
        f"side_{b}": "1",
        f"side_{c}": "0",
        f"side_{d}": "1",
        "s0_table_points": "300",
        "s0_natural_canastas": "1",
        "s0_went_out": "on",
        "s0_took_extra_pile": "on",
        "s1_table_points": "150",
        "s1_hand_points": "40",
        "s1_took_extra_pile": "on",
    }
    response = client.post(new_url(table), data)

    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get(game=table.game)
    assert lines(deal) == {a: 600, b: 110, c: 600, d: 110}


def test_buraco_refusal_shows_with_the_sides() -> None:
    table = build_table(variant="buraco")
    a, b, c, d = table.ids
    data = {
        "number": "1",
        f"side_{a}": "0",
        f"side_{b}": "1",
        f"side_{c}": "0",
        f"side_{d}": "1",
        "s0_went_out": "on",
        "s1_went_out": "on",
    }

    response = table.client("seated").post(new_url(table), data)

    assert response.status_code == 400
    assert slot_text(response.content, "sides")
    assert not Deal.objects.exists()


def test_a_table_of_a_set_length_takes_no_deal_beyond_it() -> None:
    table = build_table()
    table.game.max_deals = 1
    table.game.save()
    client = table.client("seated")
    client.post(new_url(table), tarot_post(table.ids[0]))

    page = client.get(new_url(table)).content.decode()
    sheet = client.get(reverse("games:detail", args=[table.game.pk])).content.decode()
    refused = client.post(new_url(table), tarot_post(table.ids[1], number=2))

    assert 'id="deal-full"' in page and 'name="taker"' not in page
    assert 'id="new-deal"' not in sheet
    assert refused.status_code == 409 and 'id="deal-full"' in refused.content.decode()
    assert Deal.objects.filter(game=table.game).count() == 1


def test_saving_a_deal_costs_the_same_queries_for_5_or_40_deals(
    django_assert_max_num_queries: DjangoAssertNumQueries, database_queue: None
) -> None:
    """The htmx save answers with the sheet it read plus the new deal: no second read, and a
    number of queries that does not grow with the game."""
    counts = []
    for deals, tag in ((5, "a"), (40, "b")):
        table = build_table(tag=tag)
        for _n in range(deals):
            table.record()
        client = table.client("seated")
        client.get("/healthz")
        post = tarot_post(table.ids[0], number=deals + 1)
        # 15 for the deal and its page, 4 to keep its players' figures (one upsert a table,
        # sent with the season rows' in one round trip on PostgreSQL), 2 for the ratings
        # (noted behind, and the club's job asked for unless one waits already: ratings.waiting,
        # its lock and its check one statement on PostgreSQL; it rates the deal in a worker),
        # 1 savepoint,
        # 1 for the deal's place in the change feed (core.feed), 1 for the club's webhooks
        # listening (none here: nothing more).
        with django_assert_max_num_queries(24) as captured:
            response = client.post(new_url(table), post, headers=HTMX)
        assert response.status_code == 200
        assert f'data-deals="{deals + 1}"' in response.content.decode()
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
