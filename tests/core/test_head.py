"""HEAD wherever GET is allowed (uptime monitors and link checkers ask with HEAD): every route
of the URL configuration, asked by an anonymous reader and a superuser, answers HEAD as it
answers GET, without a body."""

from __future__ import annotations

import pytest

from tests.core.test_no_500 import Place, clients, place, routes

pytestmark = pytest.mark.django_db

__all__ = ["place"]  # the fixture, used by name


def test_head_answers_wherever_get_does(place: Place) -> None:
    differ = []
    for who, client in clients(place):
        for route in routes():
            if route.route.startswith("admin/"):
                continue
            path = place.path(route.route)
            got = client.get(path)
            if got.status_code == 405:
                continue
            head = client.head(path)
            body = b"".join(head.streaming_content) if head.streaming else head.content  # type: ignore[attr-defined]
            if head.status_code != got.status_code or body:
                differ.append((who, path, got.status_code, head.status_code))
    assert differ == []


def test_healthz_answers_head() -> None:
    from django.test import Client

    response = Client().head("/healthz")
    assert response.status_code == 200
    assert response.content == b""
