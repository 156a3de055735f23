"""A contested deal counts nowhere until it is settled, on the club's side too: disputed at a
tournament table, a deal leaves the club's season statistics, the players' figures and game
totals, the leaderboard, the player pages and the ratings; the change feed shows it with
``counted`` false and the webhooks are told (``deal.held``). Settled either way, corrected or
restored at the table, it counts again, exactly once (``deal.released``). Whatever the order of
disputes, corrections and decisions, the stored statistics are what a recount from scratch
(``stats_rebuild``) sums."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from rest_framework.test import APIClient

from tarot_scores.clubs.models import Club
from tarot_scores.core.actors import AtTable
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal
from tarot_scores.games.selectors import game_sheet
from tarot_scores.ratings.models import RatingStep
from tarot_scores.ratings.replay import ratings_scope_catch_up
from tarot_scores.ratings.services import ratings_rebuild
from tarot_scores.stats import selectors as stats_selectors
from tarot_scores.stats.models import PlayerSeason
from tarot_scores.stats.services import stats_rebuild
from tarot_scores.webhooks import services as webhook_services
from tarot_scores.webhooks.models import Webhook
from tests import factories
from tests.queue import database_queue
from tests.stats.test_player_figures import stored_rows
from tests.stats.test_ratings import _close, _snapshot
from tests.tournaments.play.test_confirmations import (
    Event,
    enter,
    event,
    other_version,
    status,
    totals,
)
from tests.webhooks.test_events import PUBLIC
from tournaments.models import DealConfirmation
from tournaments.play.confirmations import (
    KEEP_ENTERED,
    KEEP_OTHER,
    deal_confirm,
    deal_dispute,
    dispute_settle,
)
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db
__all__ = ["database_queue"]  # a fixture
Status = DealConfirmation.Status


def season(club: Club) -> dict[int, tuple[int, int, int, int]]:
    """Each player's season row with something counted: points, deals, taken, won."""
    rows = PlayerSeason.objects.filter(club=club).values_list(
        "player_id", "points", "deals", "taken", "taken_won"
    )
    return {pid: (points, deals, taken, won) for pid, points, deals, taken, won in rows if deals}


def counted_rows(club: Club) -> dict[str, Any]:
    """Everything the club's statistics store, zero rows left out (a deal taken back leaves
    them): to compare with a recount."""
    return {"season": season(club), **stored_rows(club)}


def recounted(club: Club) -> dict[str, Any]:
    """The rows as a recount from the score lines writes them."""
    stats_rebuild(club=club)
    return counted_rows(club)


def disputed_at(e: Event, state: TableState) -> Deal:
    """A garde won by seat 0, entered by the attack, disputed by the defence (lost, 40)."""
    deal = enter(state, taker=0, acting=state.players[0].pk)
    deal_dispute(deal=deal, payload=other_version(state), by=None, player=state.players[1].pk)
    deal.refresh_from_db()
    return deal


def events_of(hook: Webhook) -> Counter[str]:
    """The deal events the webhook was told (waiting in the queue: nothing is sent)."""
    return Counter(
        hook.deliveries.filter(event__startswith="deal.").values_list("event", flat=True)
    )


def rate(club: Club) -> None:
    """What the ratings' job does (``ratings.jobs.ratings_catch_up``), without the queue's other
    jobs (the webhooks' deliveries stay waiting)."""
    ratings_scope_catch_up(club_id=club.pk)
    ratings_scope_catch_up(club_id=None)


def feed_item(e: Event, deal: Deal) -> dict[str, Any]:
    client = APIClient()
    client.force_authenticate(e.organiser)
    body = client.get("/api/v1/deals/", {"club": str(e.tournament.club_id), "updated_since": ""})
    assert body.status_code == 200, body.content
    return next(item for item in body.json()["results"] if item["id"] == deal.pk)


def test_a_disputed_deal_leaves_every_club_count_until_settled(database_queue: None) -> None:
    e = event()
    club = e.tournament.club
    hook = webhook_services.webhook_create(club=club, url=PUBLIC, by=e.organiser)
    state = e.tables[0]
    taker, defender = state.players[0], state.players[1]
    deal = enter(state, taker=0, acting=taker.pk)
    rate(club)
    # Entered (pending), the deal counts on the club's side, as any deal of the club.
    assert season(club)[taker.pk] == (198, 1, 1, 1)
    assert [row.player_id for row in stats_selectors.leaderboard(club=club)][0] == taker.pk
    assert RatingStep.objects.filter(deal_id=deal.pk).count() == 8  # 4 players, club + all
    assert feed_item(e, deal)["counted"] is True

    deal_dispute(deal=deal, payload=other_version(state), by=None, player=defender.pk)

    deal.refresh_from_db()
    assert not deal.counted and deal.version == 1  # the same deal, held out of the counts
    assert season(club) == {}
    assert stats_selectors.leaderboard(club=club) == []
    assert counted_rows(club) == {"season": {}, **{k: set() for k in stored_rows(club)}}
    assert stats_selectors.player_history(club=club, player=taker) == []
    assert stats_selectors.player_stats(player=taker, club=club).deals == 0
    assert stats_selectors.player_figures(player=taker, club=club).deals == 0
    # The sheet shows it, counted for nobody; the standings too.
    sheet = game_sheet(game_id=state.table.game_id)
    assert [row.held for row in sheet.rows] == [True] and set(sheet.totals) == {0}
    assert set(totals(e.tournament).values()) == {0}
    # The feed and the webhooks say so; the ratings, once their job ran, no longer count it.
    item = feed_item(e, deal)
    assert (item["counted"], item["deleted"], item["version"]) == (False, False, 1)
    assert events_of(hook) == {"deal.recorded": 1, "deal.held": 1}
    rate(club)
    assert not RatingStep.objects.filter(deal_id=deal.pk).exists()
    rated = _snapshot()
    ratings_rebuild()
    assert _close(rated, _snapshot())

    dispute_settle(deal=deal, keep=KEEP_ENTERED, by=e.referee, reason="Vu à la table")

    deal.refresh_from_db()
    assert deal.counted and status(deal) == Status.CONFIRMED
    assert season(club)[taker.pk] == (198, 1, 1, 1)  # once
    assert counted_rows(club) == recounted(club)
    assert feed_item(e, deal)["counted"] is True
    assert events_of(hook) == {"deal.recorded": 1, "deal.held": 1, "deal.released": 1}
    rate(club)
    assert RatingStep.objects.filter(deal_id=deal.pk).count() == 8
    rated = _snapshot()
    ratings_rebuild()
    assert _close(rated, _snapshot())


def test_the_other_sides_version_kept_counts_once_with_its_scores() -> None:
    e = event()
    club = e.tournament.club
    state = e.tables[0]
    deal = disputed_at(e, state)
    expected = DealConfirmation.objects.get(deal=deal).dispute_scores or {}

    dispute_settle(deal=deal, keep=KEEP_OTHER, by=e.referee, reason="Vu à la table")

    deal.refresh_from_db()
    assert deal.counted and deal.version == 2 and deal.payload["points"] == 40
    assert status(deal) == Status.CONFIRMED
    assert {pid: row[0] for pid, row in season(club).items()} == {
        int(pid): points for pid, points in expected.items()
    }
    assert all(row[1] == 1 for row in season(club).values())  # one deal each, once
    assert counted_rows(club) == recounted(club)
    assert totals(e.tournament)[state.players[0].pk] == expected[str(state.players[0].pk)]


def test_a_referee_confirming_a_disputed_deal_releases_it() -> None:
    e = event()
    club = e.tournament.club
    state = e.tables[0]
    deal = disputed_at(e, state)
    deal_confirm(deal=deal, by=e.organiser, reason="Vu à la table")
    deal.refresh_from_db()
    assert deal.counted
    assert season(club)[state.players[0].pk] == (198, 1, 1, 1)
    assert counted_rows(club) == recounted(club)


def test_a_disputed_deal_corrected_at_the_table_counts_its_new_scores_once() -> None:
    e = event()
    club = e.tournament.club
    state = e.tables[0]
    deal = disputed_at(e, state)
    # The attack agrees with the defence's version: the deal is pending again, and counts.
    game_services.deal_update(
        deal=deal,
        payload=other_version(state),
        version=1,
        by=None,
        at_table=AtTable(state.players[0].pk),
    )
    deal.refresh_from_db()
    assert deal.counted and status(deal) == Status.PENDING
    taker = season(club)[state.players[0].pk]
    assert taker[0] < 0 and taker[1:] == (1, 1, 0)  # the garde lost, counted once
    assert counted_rows(club) == recounted(club)


def test_a_disputed_deal_deleted_by_a_referee_then_restored_counts_once() -> None:
    e = event()
    club = e.tournament.club
    state = e.tables[0]
    deal = disputed_at(e, state)
    deal = game_services.deal_delete(deal=deal, version=1, by=e.referee)
    assert season(club) == {}  # nothing taken back twice: no negative row
    assert not PlayerSeason.objects.filter(points__lt=0, deals__gt=0).exists()
    assert counted_rows(club) == recounted(club)
    game_services.deal_restore(deal=deal, by=e.referee)
    deal.refresh_from_db()
    assert deal.counted and status(deal) == Status.CONFIRMED
    assert season(club)[state.players[0].pk] == (198, 1, 1, 1)
    assert counted_rows(club) == recounted(club)


def test_a_plain_deal_is_never_held() -> None:
    e = event()
    state = e.tables[0]
    deal = enter(state, taker=0, acting=state.players[0].pk)
    deal_confirm(deal=deal, by=None, player=state.players[1].pk)
    deal.refresh_from_db()
    assert deal.counted and deal.feed_seq > 0
    assert season(e.tournament.club)[state.players[0].pk] == (198, 1, 1, 1)


@pytest.mark.parametrize("seed", [1, 7, 2026])
def test_any_run_of_disputes_and_decisions_keeps_the_stats_a_recount(seed: int) -> None:
    rng = random.Random(seed)
    e = event(deals=6)
    club = e.tournament.club
    made: Counter[str] = Counter()
    for _step in range(24):
        state = rng.choice(e.tables)
        live = list(Deal.objects.filter(game=state.table.game, deleted_at__isnull=True))
        by_status = {s: [d for d in live if status(d) == s] for s in Status}
        moves = ["enter"] if len(live) < 6 else []
        if by_status[Status.PENDING]:
            moves += ["dispute", "dispute", "confirm"]
        if by_status[Status.DISPUTED]:
            moves += ["keep_entered", "keep_other", "correct", "delete"]
        if not moves:
            continue
        move = rng.choice(moves)
        made[move] += 1
        taker = rng.randrange(4)
        if move == "enter":
            enter(state, taker=taker, acting=state.players[taker].pk)
        elif move in ("dispute", "confirm"):
            deal = rng.choice(by_status[Status.PENDING])
            assert deal.taker_id is not None
            other = next(
                p.pk
                for p in state.players
                if p.pk not in (deal.taker_id, deal.payload.get("partner"))
            )
            if move == "confirm":
                deal_confirm(deal=deal, by=None, player=other)
            else:
                version = factories.garde(deal.taker_id, points=rng.choice([30, 40, 60]))
                deal_dispute(deal=deal, payload=version, by=None, player=other)
        else:
            deal = rng.choice(by_status[Status.DISPUTED])
            assert deal.taker_id is not None
            if move == "keep_entered":
                dispute_settle(deal=deal, keep=KEEP_ENTERED, by=e.referee, reason="Vu")
            elif move == "keep_other":
                dispute_settle(deal=deal, keep=KEEP_OTHER, by=e.referee, reason="Vu")
            elif move == "correct":
                game_services.deal_update(
                    deal=deal,
                    payload=factories.garde(deal.taker_id, points=rng.choice([45, 56])),
                    version=deal.version,
                    by=None,
                    at_table=AtTable(deal.taker_id),
                )
            else:
                game_services.deal_delete(deal=deal, version=deal.version, by=e.referee)
        held = set(
            DealConfirmation.objects.filter(
                status=Status.DISPUTED, deal__deleted_at__isnull=True
            ).values_list("deal_id", flat=True)
        )
        assert held == set(
            Deal.objects.filter(counted=False, deleted_at__isnull=True).values_list("pk", flat=True)
        )
        assert counted_rows(club) == recounted(club), (seed, _step, move)
    # The run went through disputes and their endings, not only entries.
    assert made["dispute"] >= 3 and made["enter"] >= 3, made
    assert sum(made[m] for m in ("keep_entered", "keep_other", "correct", "delete")) >= 2, made


def test_the_upgrade_holds_the_deals_contested_before_it() -> None:
    """A site upgraded across tarot_scores 0024 has contested deals its club counts: the
    tournaments' migration 0020 holds them and counts the club's statistics and the ratings
    again without them."""
    import importlib

    from django.apps import apps

    hold = importlib.import_module("tournaments.migrations.0020_contested_deals_held").hold
    e = event()
    club = e.tournament.club
    state = e.tables[0]
    deal = disputed_at(e, state)
    kept = enter(e.tables[1], taker=0, by=e.referee)  # confirmed: it counts, before and after
    # The site as it was before the upgrade: the contested deal counted on the club's side.
    Deal.objects.filter(pk=deal.pk).update(counted=True)
    stats_rebuild(club=club)
    ratings_rebuild()
    assert season(club)[state.players[0].pk] == (198, 1, 1, 1)
    assert RatingStep.objects.filter(deal_id=deal.pk).exists()

    hold(apps, None)

    deal.refresh_from_db()
    assert not deal.counted
    assert state.players[0].pk not in season(club)
    assert season(club)[e.tables[1].players[0].pk] == (198, 1, 1, 1)
    assert not RatingStep.objects.filter(deal_id=deal.pk).exists()
    assert RatingStep.objects.filter(deal_id=kept.pk).count() == 8
    assert counted_rows(club) == recounted(club)
    hold(apps, None)  # run again: nothing more to hold
    assert counted_rows(club) == recounted(club)
