"""The deal forms build the scoring contract (players by id) from what a phone sends."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from tarot_scores import scoring
from tarot_scores.core.errors import Refusal
from tarot_scores.core.points import parse_points
from tarot_scores.games.forms import (
    ALL,
    BuracoDealForm,
    NovatarokDealForm,
    TarotDealForm,
)
from tarot_scores.games.seats import table_seats
from tarot_scores.games.words import deal_words
from tests.factories import Table, build_table, garde
from tests.games.helpers import tarot_post

pytestmark = pytest.mark.django_db


def tarot_form(table: Table, data: dict[str, str] | None = None, number: int = 1) -> TarotDealForm:
    return TarotDealForm(data, game=table.game, table=table_seats(table.game), number=number)


@pytest.mark.parametrize(
    ("typed", "value"),
    [("40,5", Decimal("40.5")), ("40.5", Decimal("40.5")), (" 56 ", Decimal(56)), ("0", 0)],
)
def test_points_as_typed_on_a_phone(typed: str, value: Decimal) -> None:
    assert parse_points(typed) == value


@pytest.mark.parametrize(
    "typed", ["abc", "", "4O", "nan", "inf", "1e1", "+40", "-4", "١٢", "40,5,5", "0x10"]
)
def test_points_that_are_not_numbers(typed: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_points(typed)

    assert refused.value.codes() == {"points": ["points_invalid"]}


@pytest.mark.parametrize("typed", ["92", "91,5", "100"])
def test_points_beyond_the_pack(typed: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_points(typed)

    assert refused.value.codes() == {"points": ["points_range"]}


def test_the_payload_names_players_by_id(table: Table) -> None:
    a, b, c, d = table.ids
    data = tarot_post(b, points="35", defence_points="on", slam="unannounced_made")
    data |= {f"handful_{d}": "double", "petit_au_bout": "defense"}
    form = tarot_form(table, data)

    assert form.is_valid(), form.errors
    assert form.payload() == {
        "taker": b,
        "partner": None,
        "contract": "garde",
        "points": 56,
        "oudlers": 2,
        "petit_au_bout": "defense",
        "handfuls": [{"player": d, "size": "double"}],
        "slam": "unannounced_made",
        "miseres": [],
        "sitting_out": None,
    }


def test_points_out_of_range_are_a_form_error(table: Table) -> None:
    form = tarot_form(table, tarot_post(table.ids[0], points="92"))
    assert not form.is_valid()
    assert form.slot_errors()["points"]


def test_engine_errors_go_to_their_slot_and_unknown_ones_to_all(table: Table) -> None:
    form = tarot_form(table, tarot_post(table.ids[0]))
    assert form.is_valid()
    error = scoring.ScoringError(
        {
            "points": [scoring.Msg("points_whole_four")],
            "handfuls": [scoring.Msg("handful_twice", name="X")],
            "partner": [scoring.Msg("partner_five", count=4)],  # no partner question at four
            "sitting_out": [scoring.Msg("sitting_out_five")],
        }
    )

    form.engine_errors(error, "en")

    slots = form.slot_errors()
    assert slots["points"] == [scoring.Msg("points_whole_four").render("en")]
    assert slots["handfuls"] and "partner" not in slots
    assert len(slots[ALL]) == 2


def test_a_stored_deal_fills_the_form_back(table: Table) -> None:
    a, b, c, d = table.ids
    payload = garde(c, points=40.5 + 10, petit_au_bout="attack", handfuls=[])
    payload["handfuls"] = [{"player": a, "size": "triple"}]
    with translation.override("fr"):
        form = TarotDealForm(
            game=table.game,
            table=table_seats(table.game),
            number=1,
            payload=payload,
            version=3,
        )

    assert form["taker"].value() == str(c)
    assert form["points"].value() == "50,5"  # as a French phone shows it
    assert form[f"handful_{a}"].value() == "triple"
    assert form["version"].value() == 3
    assert form.extras_open


def test_deal_words_say_what_happened(table: Table) -> None:
    a, b, c, d = table.ids
    payload = garde(c, petit_au_bout="attack", handfuls=[{"player": c, "size": "simple"}])
    words = deal_words(table.game, table_seats(table.game), payload, 1)

    assert words.taker == "Chloé" and words.won is True and words.margin == 8
    assert "Chloé" in words.summary and "49" in words.summary


def test_novatarok_and_buraco_forms_build_their_payloads() -> None:
    nova = build_table(variant="novatarok")
    a, b, c, d = nova.ids
    data = {"number": "1", f"card_{a}": "40", f"card_{b}": "20", f"card_{c}": "10"}
    data |= {f"card_{d}": "5", "pagat": str(b)}
    form = NovatarokDealForm(data, game=nova.game, table=table_seats(nova.game), number=1)
    assert form.is_valid(), form.errors
    assert form.payload() == {
        "card_points": {str(a): 40, str(b): 20, str(c): 10, str(d): 5},
        "kings": None,
        "trull": None,
        "pagat": b,
    }

    bur = build_table(variant="buraco", players=2, tag="b")
    x, y = bur.ids
    data = {"number": "1", f"side_{x}": "0", f"side_{y}": "1", "s0_table_points": "120"}
    form2 = BuracoDealForm(data, game=bur.game, table=table_seats(bur.game), number=1)
    assert form2.is_valid(), form2.errors
    sides = form2.payload()["sides"]
    assert sides[0]["players"] == [x] and sides[1]["players"] == [y]
    assert sides[0]["table_points"] == 120 and sides[1]["hand_points"] == 0
