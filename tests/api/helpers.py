"""What the API's answers look like to its tests."""

from __future__ import annotations

from typing import Any


def assert_field_errors(response: Any, status: int = 400) -> dict[str, list[str]]:
    """The API's refusal shape: a non-empty list of messages per field."""
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    errors = response.json()
    assert isinstance(errors, dict) and errors
    for key, messages in errors.items():
        assert isinstance(key, str)
        assert isinstance(messages, list) and messages, errors
        assert all(isinstance(m, str) and m for m in messages), errors
    return errors
