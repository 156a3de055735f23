"""The tournaments' one deal hook (``tournaments.play.deal``): the table read once, then
confirmation, standings and the round's closing, in that order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club
from tarot_scores.games import services as game_services
from tarot_scores.games.models import DealRevision
from tests.tournaments.rounds.test_services import make, register
from tournaments.models import DealConfirmation, Round, Standing
from tournaments.play import confirmations
from tournaments.play.deal import table_deal_changed
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import store

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_services.club_create(name="Club du Crochet", by=None)


def _enter(state: Any, number: int, rng: random.Random) -> None:
    ids = [p.pk for p in state.players]
    payload = random_tarot_payload(rng, ids, number)
    game_services.deal_record(game=state.table.game, payload=payload, by=None, number=number)


def test_one_hook_runs_confirmation_standings_then_the_round(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = make(club, rounds=1, deals_per_round=1, require_confirmation=False)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    [state] = round_selectors.round_tables(round_=round_)
    seen: list[str] = []

    def spy(name: str, module: Any, attribute: str) -> None:
        real = getattr(module, attribute)

        def recorded(**kw: Any) -> None:
            seen.append(name)
            # What each step finds when it runs: the round still open until the last step.
            seen.append(str(Round.objects.get(pk=round_.pk).status))
            real(**kw)

        monkeypatch.setattr(module, attribute, recorded)

    spy("confirmation", confirmations, "confirmation_after_deal")
    spy("standings", store, "standings_after_deal")
    spy("round", round_services, "round_after_deal")
    _enter(state, 1, random.Random(1))

    assert seen[::2] == ["confirmation", "standings", "round"]
    assert set(seen[1::2]) == {Round.Status.SEATED}
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    assert Standing.objects.filter(tournament=tournament).count() == 4


def test_the_table_is_read_once_for_a_deal(club: Club) -> None:
    tournament = make(club, rounds=2, deals_per_round=2, require_confirmation=True)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    [state] = round_selectors.round_tables(round_=round_)
    with CaptureQueriesContext(connection) as queries:
        _enter(state, 1, random.Random(2))
    reads = [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "tournaments_table"' in q["sql"]
    ]
    # The deal hook's one read, and the boards' hook (asked before the deal is written).
    assert len(reads) == 2
    assert DealConfirmation.objects.filter(deal__game=state.table.game).count() == 1


def test_a_club_game_costs_the_hook_no_query(club: Club, django_assert_num_queries: Any) -> None:
    players = [club_services.player_create(club=club, name=f"Joueur {i}") for i in range(4)]
    game = game_services.game_create(club=club, players=players, variant="fft", by=None)
    payload = random_tarot_payload(random.Random(3), [p.pk for p in players], 1)
    deal = game_services.deal_record(game=game, payload=payload, by=None, number=1).deal
    with django_assert_num_queries(0):
        table_deal_changed(
            game=game, deal=deal, action=DealRevision.Action.CREATED, seated=[p.pk for p in players]
        )
