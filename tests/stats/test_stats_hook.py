"""The season statistics follow a deal through the games' ``scores_counted`` hook, which the
site's AppConfig registers: the games never import the stats (docs/architecture.md), and a
deal's entry, correction and deletion still reach the statistics in its transaction."""

from __future__ import annotations

import pytest

from tarot_scores.games import services
from tarot_scores.stats.models import PlayerSeason
from tarot_scores.stats.services import stats_apply
from tests.factories import garde, make_game

pytestmark = pytest.mark.django_db


def _points() -> dict[int, int]:
    return dict(PlayerSeason.objects.values_list("player_id", "points"))


def test_the_site_registers_the_statistics_on_the_games_hook() -> None:
    assert stats_apply in services.scores_counted


def test_entry_correction_and_deletion_reach_the_statistics() -> None:
    game = make_game()
    taker, *defence = [seat.player for seat in game.seats.order_by("position")]
    deal = services.deal_record(game=game, payload=garde(taker.pk), by=None).deal
    assert _points() == {taker.pk: 198, **{p.pk: -66 for p in defence}}
    deal.refresh_from_db()
    services.deal_update(deal=deal, payload=garde(defence[0].pk), version=deal.version, by=None)
    assert _points() == {defence[0].pk: 198, **{p.pk: -66 for p in [taker, *defence[1:]]}}
    deal.refresh_from_db()
    services.deal_delete(deal=deal, version=deal.version, by=None)
    assert set(_points().values()) == {0}


def test_without_the_hook_the_games_write_no_statistics() -> None:
    game = make_game()
    taker = game.seats.order_by("position").first()
    assert taker is not None
    with services.scores_counted.replaced([]):
        services.deal_record(game=game, payload=garde(taker.player_id), by=None)
    assert not PlayerSeason.objects.exists()
    assert game.deals.count() == 1
