"""What the API's answers look like to its tests."""

from __future__ import annotations

from typing import Any

PROBLEM = "application/problem+json"


def assert_problem(response: Any, status: int = 400) -> dict[str, Any]:
    """The API's one error shape (RFC 9457 problem details), checked whole; the body."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == PROBLEM, response["Content-Type"]
    body = response.json()
    assert body["type"] == "about:blank" and body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["detail"], str) and body["detail"]
    assert isinstance(body["errors"], list)
    for error in body["errors"]:
        assert set(error) == {"field", "code", "message"}, error
        assert error["field"] is None or (isinstance(error["field"], str) and error["field"])
        assert isinstance(error["code"], str) and error["code"]
        assert isinstance(error["message"], str) and error["message"]
    if body["errors"]:
        assert body["code"] == body["errors"][0]["code"]
    return dict(body)


def messages_of(body: dict[str, Any]) -> dict[str, list[str]]:
    """A problem's messages by field, ``non_field_errors`` for the request as a whole (or the
    problem's detail when it names no field)."""
    found: dict[str, list[str]] = {}
    for error in body["errors"]:
        found.setdefault(error["field"] or "non_field_errors", []).append(error["message"])
    return found or {"non_field_errors": [body["detail"]]}


def codes_of(body: dict[str, Any]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for error in body["errors"]:
        found.setdefault(error["field"] or "non_field_errors", []).append(error["code"])
    return found


def assert_field_errors(response: Any, status: int = 400) -> dict[str, list[str]]:
    """A problem, and its messages per field (``non_field_errors`` for the whole request)."""
    return messages_of(assert_problem(response, status))
