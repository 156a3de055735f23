"""The codes the API answers are listed in its schema: a problem's ``code`` and each field
error's are an ``enum`` of every one (``api.problems.answered_codes``), drawn from their homes,
the club side's ``core.errors.Code``, the tournaments' ``Code`` and the scoring engine's
message codes, with the generic ones of Django REST framework and of HTTP statuses. The
conformance run (test_schema_conformance.py) checks every answer against that list."""

from __future__ import annotations

from typing import Any

import pytest

from tarot_scores.core.errors import Code
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tarot_scores.scoring.messages import CATALOG
from tests.api.helpers import assert_problem, codes_of
from tests.api.test_schema_examples import schema
from tests.factories import ApiTable, garde
from tournaments.errors import Code as TournamentCode

pytestmark = pytest.mark.django_db


__all__ = ["schema"]  # a fixture, the schema's examples' own


def listed(schema: dict[str, Any]) -> list[str]:
    components = schema["components"]["schemas"]
    problem = components["Problem"]["properties"]["code"]["enum"]
    assert components["FieldError"]["properties"]["code"]["enum"] == problem
    return list(problem)


def test_every_code_of_both_homes_and_of_the_engine_is_listed(schema: dict[str, Any]) -> None:
    codes = listed(schema)
    assert len(codes) == len(set(codes)) and codes == sorted(codes)
    for home in (Code, TournamentCode):
        missing = [member.name for member in home if member.value not in codes]
        assert missing == [], home
    assert set(CATALOG) <= set(codes)
    # The generic ones the problem handler makes, from DRF and from a status.
    generic = {"invalid", "required", "null", "invalid_choice", "max_length", "not_found"}
    generic |= {"not_authenticated", "permission_denied", "throttled", "parse_error"}
    generic |= {"method_not_allowed", "unsupported_media_type", "unique", "does_not_exist"}
    assert generic <= set(codes)


def test_a_refusal_the_api_answers_uses_a_listed_code(
    table: ApiTable, schema: dict[str, Any]
) -> None:
    """A deal sent to a finished game: 409 ``game_finished``, a listed code; nothing stored."""
    services.deal_record(game=table.game, payload=garde(table.ids[0]), by=None)
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    client = table.client("organiser", "en")
    answer = client.post(
        f"/api/v1/games/{table.game.pk}/deals/", garde(table.ids[1]), format="json"
    )
    problem = assert_problem(answer, 409)
    assert problem["code"] == "game_finished" == Code.GAME_FINISHED.value
    assert codes_of(problem) == {"non_field_errors": ["game_finished"]}
    assert Deal.objects.filter(game=table.game).count() == 1
    codes = listed(schema)
    assert problem["code"] in codes
    assert all(error["code"] in codes for error in problem["errors"])
