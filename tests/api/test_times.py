"""One time convention: every time an answer of the API writes is in UTC with ``Z``, whatever
the site's time zone (Europe/Paris, for its pages). Every read of the schema is called on a
seeded world, as an organiser, and each answer walked for times."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from tarot_scores.api.tokens import token_issue
from tarot_scores.webhooks.services import event_body
from tests.api.test_schema_conformance import known_path_parameters, seed_world
from tests.queue import database_queue

__all__ = ["database_queue"]  # a fixture

A_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?$")


def times_in(value: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from times_in(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from times_in(item, f"{where}.{index}")
    elif isinstance(value, str) and A_TIME.match(value):
        yield where, value


@pytest.mark.django_db
def test_every_time_an_answer_writes_is_utc_with_z(settings: Any, database_queue: None) -> None:
    settings.TIME_ZONE = "Europe/Paris"
    ids, world = seed_world()
    token = token_issue(user=world.users["organiser"])
    client = Client(headers={"Authorization": f"Token {token}"})
    schema = client.get("/api/schema/", {"format": "json"}).json()
    seen: list[tuple[str, str]] = []
    for path, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        for values in known_path_parameters(path, ids)[:2] or [{}]:
            answer = client.get(path.format(**values))
            if answer.status_code == 200 and answer.content:
                seen.extend((f"{path}{where}", time) for where, time in times_in(answer.json()))
    assert not [(where, time) for where, time in seen if not time.endswith("Z")]
    # Deals, games, tokens, webhooks' deliveries, entries, rounds: many times were read.
    assert len(seen) >= 20, seen
    assert {where.split(".")[-1] for where, _ in seen} >= {"created_at", "registered_at"}


def test_a_webhooks_body_is_stamped_in_utc_too() -> None:
    body = event_body("deal.recorded", uuid.uuid4(), {})
    assert body["created_at"].endswith("Z")
