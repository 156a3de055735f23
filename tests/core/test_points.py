"""Card points as typed (``core.points``): one reading for the calculator, deal entry and the
API; points sent as text are stored as the number they say."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.utils import translation

from tarot_scores.core.errors import Refusal
from tarot_scores.core.points import parse_points, typed_points
from tarot_scores.games import services
from tests.factories import ApiTable, build_api_table, token_client


@pytest.mark.parametrize(
    ("typed", "value"),
    [("41", Decimal(41)), ("40,5", Decimal("40.5")), (" 40.5 ", Decimal("40.5")), ("0", 0)],
)
def test_what_a_phone_types(typed: str, value: Decimal) -> None:
    assert parse_points(typed) == value


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("1e1", "points_invalid"),
        ("+40", "points_invalid"),
        ("١٢", "points_invalid"),  # Arabic-Indic digits
        ("４０", "points_invalid"),  # full-width digits
        ("NaN", "points_invalid"),
        ("-4", "points_invalid"),
        ("", "points_invalid"),
        ("92", "points_range"),
    ],
)
def test_what_is_refused_on_points(typed: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_points(typed)

    assert refused.value.codes() == {"points": [code]}


@pytest.mark.parametrize(("language", "example"), [("en", "40.5"), ("fr", "40,5")])
def test_the_example_uses_the_readers_decimal_mark(language: str, example: str) -> None:
    """English writes 40.5, French 40,5: the refusal's example is in the reader's own way."""
    with translation.override(language), pytest.raises(Refusal) as refused:
        parse_points("quarante")

    message = refused.value.messages()["points"][0]
    assert f"41 or {example}." in message or f"41 ou {example}." in message, message
    assert ("40,5" if example == "40.5" else "40.5") not in message


@pytest.mark.parametrize("value", [49, 40.5, None, True, [1]])
def test_numbers_and_the_rest_are_the_engines_to_judge(value: Any) -> None:
    assert typed_points(value) is value


@pytest.fixture
def table(db: None) -> ApiTable:
    return build_api_table()


def test_points_sent_as_text_are_stored_as_a_number(table: ApiTable) -> None:
    body = {"taker": table.ids[2], "contract": "garde", "oudlers": 2, "points": "49"}

    response = token_client(table.users["organiser"]).post(
        f"/api/v1/games/{table.game.pk}/deals/", body, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["payload"]["points"] == 49
    assert response.json()["scores"][str(table.ids[2])] == 198


def test_a_correction_reads_text_points_the_same_way(table: ApiTable) -> None:
    deal = table.record()

    with pytest.raises(Refusal) as refused:
        services.deal_update(
            deal=deal, payload={**deal.payload, "points": "1e1"}, version=1, by=None
        )

    assert refused.value.codes() == {"points": ["points_invalid"]}
