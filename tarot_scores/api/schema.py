"""The OpenAPI schema a client generator can trust: what drf-spectacular infers, finished with
what the views share but cannot say one by one.

- Reads open to anyone (``ReadAnyoneWriteSignedIn``) are declared so: no token needed.
- Every error is the one problem shape (``tarot_scores.api.problems``): one shared component,
  ``Problem``, served as ``application/problem+json``; examples in the old per-field shape are
  rewritten into it.
- Every operation may answer 400 (a query parameter it does not read: ``api.base``);
  every operation that takes a token may answer 401 (a wrong or revoked token, even on a read);
  every operation may answer 503 (the database busy or unreachable) with ``Retry-After``, and a
  429 carries ``Retry-After`` too.
- A body takes no field it does not declare (``additionalProperties: false``); a write that
  reads no body (no ``requestBody``) says that it refuses one with fields.
- An operation that answers 304 reads ``If-None-Match`` and sends ``ETag``.
- The schema is in English whatever the reader's language (``schema_view``); the answers'
  messages still follow Accept-Language.
- A problem's ``code`` and each field error's are an ``enum`` of every code the API may answer
  (``api.problems.answered_codes``: the club side's ``core.errors.Code``, a tournament's
  ``Code``, the scoring engine's message codes, and the generic ones of Django REST framework
  and of HTTP statuses). Strict rather than a documented list (an ``x-codes`` extension): the
  conformance run (tests/api/test_schema_conformance.py) then fails on any answer whose code
  is not listed, and both generated clients take an enum of this size (a TypeScript union of
  literals, a Python ``Enum``). A code is added by adding a member to one of the enums, which
  puts it here; a client generated before a new code is added reads it as an unknown value of
  the enum (the Python client raises on it: regenerate the client when the schema changes).
"""

from __future__ import annotations

import copy
from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import SAFE_METHODS

from tarot_scores.api.permissions import ReadAnyoneWriteSignedIn
from tarot_scores.api.problems import answered_codes, is_problem, legacy_problem
from tarot_scores.core.problems import PROBLEM_MEDIA_TYPE

PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}

FIELD_ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One reason a request was refused.",
    "properties": {
        "field": {
            "type": "string",
            "nullable": True,
            "description": "The field it is about (`points`, `players`, `handfuls.0.player`); "
            "null for the request as a whole.",
        },
        "code": {
            "type": "string",
            "description": "A stable code for programs: `club_name_taken`, `points_invalid`, "
            "`required`...",
        },
        "message": {"type": "string", "description": "In the reader's language."},
    },
    "required": ["field", "code", "message"],
}
PROBLEM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every error of the API: RFC 9457 problem details "
    "(`application/problem+json`). See docs/api.md, Errors.",
    "properties": {
        "type": {"type": "string", "description": "Always `about:blank`."},
        "title": {"type": "string", "description": "The HTTP status phrase, in English."},
        "status": {"type": "integer", "description": "The HTTP status code."},
        "code": {
            "type": "string",
            "description": "A stable code: the first field error's, or the refusal's own "
            "(`not_authenticated`, `not_found`, `throttled`, `locked_out`, `deal_conflict`, "
            "`database_busy`...).",
        },
        "detail": {"type": "string", "description": "What went wrong, in the reader's language."},
        "errors": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}},
        "current": {
            "type": "object",
            "additionalProperties": {},
            "description": "A conflict over a deal only: the deal as it is now.",
        },
    },
    "required": ["type", "title", "status", "code", "detail", "errors"],
}

RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "Seconds to wait before trying again.",
    }
}
ETAG = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "The version of this answer: send it back in `If-None-Match`.",
    }
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "schema": {"type": "string"},
    "required": False,
    "description": "The `ETag` of an answer read before: 304 with no body while it is current.",
}
BAD_QUERY = (
    "A query parameter this address does not read (`unknown_parameter`), or a value it cannot "
    "take (`page_size` outside 1 to 200...)."
)
UNAVAILABLE = "The database is busy or unreachable: nothing was done, try again after Retry-After."
NO_BODY = (
    "It reads no body: a JSON object with any field is refused (400 `unknown_field` on each); "
    "send none, or `{}`."
)
UNAUTHENTICATED = (
    "The token or session sent is not valid (a wrong or revoked token), or a write was sent "
    "without one."
)


class TarotAutoSchema(AutoSchema):
    """drf-spectacular's inference, knowing that the club endpoints' reads need no sign-in."""

    def get_auth(self) -> list[dict[str, Any]]:
        auths: list[dict[str, Any]] = super().get_auth()
        open_reads = any(
            isinstance(permission, ReadAnyoneWriteSignedIn)
            for permission in self.view.get_permissions()
        )
        if open_reads and self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths

    def _get_paginator(self) -> Any:
        """Only a read answers a page: a write that answers a list (naming a referee answers
        them all) answers it whole, and reads no ``page`` or ``page_size``, as
        ``api.base.declared_query_parameters`` accepts them on GET alone."""
        if self.method != "GET":
            return None
        return super()._get_paginator()  # type: ignore[no-untyped-call]


def _problem_content(content: dict[str, Any], status: int) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": PROBLEM_REF}
    examples: dict[str, Any] = {}
    for body in content.values():
        for name, example in (body.get("examples") or {}).items():
            example = copy.deepcopy(example)
            if not is_problem(example.get("value")):
                example["value"] = legacy_problem(example.get("value") or {}, status)
            examples[name] = example
    if examples:
        media["examples"] = examples
    return {PROBLEM_MEDIA_TYPE: media}


def _one_page(example: dict[str, Any]) -> None:
    """A list's example is one page of it, as it is answered: drf-spectacular wraps the
    example of a list of items once more, and fills the page with a made-up count and
    links."""
    page = example.get("value")
    if not isinstance(page, dict) or not isinstance(page.get("results"), list):
        return
    if page["results"] and all(isinstance(item, list) for item in page["results"]):
        page["results"] = [item for items in page["results"] for item in items]
    if "api.example.org" in str(page.get("next")) + str(page.get("previous")):
        page.update(count=len(page["results"]), next=None, previous=None)


def _closed_body(operation: dict[str, Any], schemas: dict[str, Any]) -> None:
    """A body's object takes no field it does not declare (``api.base.refuse_unknown_fields``
    answers 400 ``unknown_field``): ``additionalProperties: false``."""
    for media in operation.get("requestBody", {}).get("content", {}).values():
        schema = media.get("schema", {})
        ref = schema.get("$ref", "")
        if ref.startswith("#/components/schemas/"):
            schema = schemas[ref.rsplit("/", 1)[1]]
        if schema.get("type") == "object" and "properties" in schema:
            schema["additionalProperties"] = False


def finish_schema(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    codes = answered_codes()
    schemas["Problem"] = copy.deepcopy(PROBLEM_SCHEMA)
    schemas["Problem"]["properties"]["code"]["enum"] = codes
    schemas["FieldError"] = copy.deepcopy(FIELD_ERROR_SCHEMA)
    schemas["FieldError"]["properties"]["code"]["enum"] = codes
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in ("get", "post", "put", "patch", "delete", "head"):
                continue
            responses: dict[str, Any] = operation.setdefault("responses", {})
            takes_token = any(requirement for requirement in operation.get("security", [{}]))
            if takes_token and "401" not in responses:
                responses["401"] = {"description": UNAUTHENTICATED}
            responses.setdefault("400", {"description": BAD_QUERY})
            responses.setdefault("503", {"description": UNAVAILABLE})
            for code, response in responses.items():
                status = int(code)
                if status >= 400:
                    response["content"] = _problem_content(response.get("content", {}), status)
                if status in (429, 503):
                    response.setdefault("headers", {}).update(RETRY_AFTER)
            _closed_body(operation, schemas)
            if method in ("post", "put", "patch") and "requestBody" not in operation:
                operation["description"] = f"{operation.get('description', '')} {NO_BODY}".strip()
            for response in responses.values():
                for media in response.get("content", {}).values():
                    for example in (media.get("examples") or {}).values():
                        _one_page(example)
            if "304" in responses:
                for code in ("200", "304"):
                    if code in responses:
                        responses[code].setdefault("headers", {}).update(ETAG)
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == "If-None-Match" for p in parameters):
                    parameters.append(IF_NONE_MATCH)
    return result
