"""The clock of the tournaments' shared results drawings (``core.results.clock``), held still
by the tests that move it by hand, with the lag at its default of 2 s."""

import pytest
from pytest_django import Settings

from tarot_scores.core import results


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> Clock:
    settings.RESULTS_LAG_SECONDS = 2
    ticking = Clock()
    monkeypatch.setattr(results, "clock", ticking)
    return ticking
