"""A self-hosted integrator's test receiver on this machine: ``WEBHOOKS_ALLOW_LOOPBACK=1``
opens loopback (127.0.0.1, ::1, localhost, plain http, any port) and nothing else; without it,
the site's settings name no such host."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from pytest_django import Settings

from tarot_scores.webhooks.addresses import AddressRefused, url_target


def hosts_with(environment: dict[str, str]) -> list[str]:
    """The site's WEBHOOKS_TEST_HOSTS, read by a fresh Python with this environment."""
    env = {k: v for k, v in os.environ.items() if k != "WEBHOOKS_ALLOW_LOOPBACK"}
    env.update(DJANGO_DEBUG="1", **environment)
    code = "import json, tarot_scores.settings as s; print(json.dumps(s.WEBHOOKS_TEST_HOSTS))"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return list(json.loads(run.stdout.strip().splitlines()[-1]))


def test_loopback_is_closed_unless_the_variable_opens_it() -> None:
    assert hosts_with({}) == []
    assert hosts_with({"WEBHOOKS_ALLOW_LOOPBACK": "0"}) == []
    assert hosts_with({"WEBHOOKS_ALLOW_LOOPBACK": "1"}) == ["127.0.0.1", "::1", "localhost"]


def test_opened_a_local_receiver_is_taken_and_a_private_network_still_refused(
    settings: Settings,
) -> None:
    settings.WEBHOOKS_TEST_HOSTS = ["127.0.0.1", "::1", "localhost"]
    assert url_target("http://127.0.0.1:8000/hook").addresses == ("127.0.0.1",)
    assert url_target("http://[::1]:8000/hook").port == 8000
    for private in ["http://192.168.1.10:8000/hook", "https://10.0.0.1/hook"]:
        with pytest.raises(AddressRefused):
            url_target(private)
