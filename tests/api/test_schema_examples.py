"""The schema tells the truth about itself: every example validates against the schema it
illustrates (OpenAPI 3.0's own rules: ``nullable``, ``additionalProperties``), every nullable
choice lists null among its values, and every list says what its items are, so a generated
client (Python, strict TypeScript) can send and read each of them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from openapi_schema_validator import OAS30Validator

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema() -> dict[str, Any]:
    answer = Client().get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    return dict(answer.json())


def examples(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            media_types = list(operation.get("requestBody", {}).get("content", {}).items())
            for code, response in operation.get("responses", {}).items():
                media_types += [(f"{code} {t}", m) for t, m in response.get("content", {}).items()]
            for where, media in media_types:
                for name, example in (media.get("examples") or {}).items():
                    yield f"{method.upper()} {path} {where} {name}", media["schema"], example


def subschemas(node: Any, where: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from subschemas(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from subschemas(value, f"{where}/{index}")


def test_every_example_is_valid_against_its_own_schema(schema: dict[str, Any]) -> None:
    invalid = []
    found = list(examples(schema))
    for where, media_schema, example in found:
        validator = OAS30Validator(
            {**media_schema, "components": schema["components"]},
            format_checker=OAS30Validator.FORMAT_CHECKER,
        )
        for error in validator.iter_errors(example["value"]):
            invalid.append(f"{where}: {list(error.absolute_path)} {error.message[:200]}")
    assert len(found) >= 79
    assert not invalid, "\n".join(invalid)


def test_the_validation_would_see_a_wrong_example(schema: dict[str, Any]) -> None:
    """The check above is not blind: an example with an unknown field fails it."""
    where, media_schema, example = next(
        e for e in examples(schema) if e[0].startswith("PUT /api/v1/deals/{id}/ application")
    )
    validator = OAS30Validator({**media_schema, "components": schema["components"]})
    assert not validator.is_valid({**example["value"], "client_id": "x"}), where


def test_nullable_choices_list_null_and_every_list_types_its_items(
    schema: dict[str, Any],
) -> None:
    problems = []
    for where, node in subschemas(schema):
        if "enum" in node and node.get("nullable") and None not in node["enum"]:
            problems.append(f"{where}: nullable enum without null")
        if node.get("type") == "array" and (not node.get("items") or node["items"] == {}):
            problems.append(f"{where}: a list of untyped items")
        items = node.get("items") if node.get("type") == "array" else None
        if (
            isinstance(items, dict)
            and items.get("type") == "object"
            and not (items.get("properties") or items.get("additionalProperties"))
        ):
            problems.append(f"{where}: a list of bare objects")
    assert not problems, "\n".join(problems)
    deal = schema["paths"]["/api/v1/games/{id}/deals/"]["post"]["requestBody"]["content"]
    fields = deal["application/json"]["schema"]["properties"]
    assert fields["petit_au_bout"]["enum"] == ["attack", "defense", None]
    assert fields["handfuls"]["items"]["properties"]["player"]["type"] == "integer"
    assert fields["sides"]["items"]["properties"]["went_out"]["type"] == "boolean"
