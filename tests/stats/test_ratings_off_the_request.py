"""Ratings off the request: a deal's save only notes what the ratings lack and asks for the
ratings' job, which runs later in a worker (here: the database queue, its jobs run by the
engine's own code when the test says so). New deals are rated on top, corrections replayed once
from the earliest, the pages and the API say while the ratings are behind, a replay holds
nothing a deal's save waits for, and the result equals a rebuild whatever the order of edits
and jobs."""

from __future__ import annotations

import datetime
import random
import threading
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.utils import timezone

from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tarot_scores.ratings.models import PlayerRating, RatingsBehind, RatingStep
from tarot_scores.ratings.replay import hold_the_scope
from tarot_scores.ratings.services import ratings_rebuild
from tests.factories import ClubFactory, PlayerFactory, build_api_table, make_game
from tests.queue import DATABASE_QUEUE, database_queue, run_waiting_jobs
from tests.stats.test_ratings import _close, _snapshot, prise

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

AUTUMN = datetime.date(2025, 10, 4)


def record(game: Game, payload: dict[str, Any]) -> Deal:
    return services.deal_record(game=game, payload=payload, by=None).deal


def evening(deals: int = 12) -> tuple[Game, list[int], list[Deal]]:
    game = make_game(players=4, date=AUTUMN)
    seated = [s.player_id for s in game.seats.all()]
    made = [record(game, prise(seated[n % 4], 40 + n)) for n in range(deals)]
    return game, seated, made


def correct(deal: Deal, payload: dict[str, Any]) -> None:
    deal.refresh_from_db()
    services.deal_update(deal=deal, payload=payload, version=deal.version, by=None)


def test_a_save_rates_nothing_and_the_job_rates_new_deals_on_top(database_queue: None) -> None:
    game, seated, _deals = evening(3)
    assert not RatingStep.objects.exists()  # the saves only noted the deals
    assert RatingsBehind.objects.count() == 6  # each in the club and in the federation

    results = run_waiting_jobs()

    # The three saves asked for one job (tests/ratings/test_one_job_waiting.py), which took
    # every note.
    assert results == [{"rated": 6, "replays": 0, "replayed": 0}]
    assert not RatingsBehind.objects.exists()
    incremental = _snapshot()
    ratings_rebuild()
    assert _close(incremental, _snapshot())


def test_a_correction_replays_nothing_in_the_save(database_queue: None) -> None:
    game, seated, deals = evening(8)
    run_waiting_jobs()
    before = _snapshot()

    correct(deals[2], prise(seated[1], 20))

    assert _close(_snapshot(), before)  # nothing rated again in the request
    assert RatingsBehind.objects.filter(new=False).count() == 2
    [result] = run_waiting_jobs()
    assert result == {"rated": 0, "replays": 2, "replayed": 12}  # deals 3 to 8, twice
    incremental = _snapshot()
    ratings_rebuild()
    assert _close(incremental, _snapshot())


def test_ten_corrections_are_one_replay_from_the_earliest(database_queue: None) -> None:
    game, seated, deals = evening(14)
    run_waiting_jobs()
    rng = random.Random(7)
    corrected = sorted(rng.sample(range(3, 14), 9)) + [2]  # the earliest corrected last
    for index in corrected:
        correct(deals[index], prise(seated[(index + 1) % 4], 30 + index))

    results = run_waiting_jobs()

    # Ten corrections asked for one job, which replayed once per scope, from deal 3 (index 2):
    # 12 deals, in the club and the federation.
    assert results == [{"rated": 0, "replays": 2, "replayed": 24}]
    incremental = _snapshot()
    ratings_rebuild()
    assert _close(incremental, _snapshot())


def test_a_new_deal_after_a_correction_waits_for_the_one_replay(database_queue: None) -> None:
    game, seated, deals = evening(6)
    run_waiting_jobs()
    correct(deals[1], prise(seated[2], 25))
    record(game, prise(seated[0], 70))

    [first] = run_waiting_jobs()  # the correction and the deal asked for one job

    assert first == {"rated": 0, "replays": 2, "replayed": 12}  # deals 2 to 7, in both scopes
    incremental = _snapshot()
    ratings_rebuild()
    assert _close(incremental, _snapshot())


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_rebuilt_equals_incremental_whatever_the_edits_and_the_jobs_order(
    database_queue: None, seed: int
) -> None:
    rng = random.Random(seed)
    clubs = [ClubFactory.create(), ClubFactory.create()]
    pool = {c.pk: [PlayerFactory.create(clubs=[c]) for _ in range(5)] for c in clubs}
    shared = PlayerFactory.create(clubs=clubs)
    games = [
        make_game(
            club=clubs[i % 2],
            players=rng.sample([*pool[clubs[i % 2].pk], shared], 4),
            date=AUTUMN + datetime.timedelta(days=rng.randrange(0, 60)),
        )
        for i in range(5)
    ]
    for _ in range(45):
        game = rng.choice(games)
        seated = [s.player_id for s in game.seats.all()]
        deals = list(game.deals.all())
        live = [d for d in deals if not d.is_deleted]
        # A struck deal whose number a new deal took again cannot come back (number_reused).
        taken = {d.number for d in live}
        deleted = [d for d in deals if d.is_deleted and d.number not in taken]
        roll = rng.random()
        payload = prise(rng.choice(seated), rng.choice([20, 35, 41, 51, 60, 75]))
        if deleted and roll >= 0.9:
            services.deal_restore(deal=rng.choice(deleted), by=None)
        elif not live or roll < 0.5:
            record(game, payload)
        elif roll < 0.75:
            correct(rng.choice(live), payload)
        else:
            deal = rng.choice(live)
            services.deal_delete(deal=deal, version=deal.version, by=None)
        if rng.random() < 0.2:  # the worker comes by now and then
            run_waiting_jobs()
    run_waiting_jobs()

    assert not RatingsBehind.objects.exists()
    incremental = _snapshot()
    assert incremental[1]
    ratings_rebuild()
    assert _close(incremental, _snapshot())


def test_the_pages_and_the_api_say_the_ratings_are_behind_since_when(
    database_queue: None, client: Client
) -> None:
    table = build_api_table()
    seated = [s.player_id for s in table.game.seats.all()]
    record(table.game, prise(seated[0], 60))
    run_waiting_jobs()
    url = f"/clubs/{table.game.club.slug}/ratings/"
    assert "being updated" not in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    deal = table.game.deals.get()
    RatingsBehind.objects.all().delete()
    correct(deal, prise(seated[1], 30))
    at = timezone.localtime(RatingsBehind.objects.earliest("since").since).strftime("%H:%M")

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Ratings being updated since {at}" in english
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Cotes en cours de mise à jour depuis {at}" in french
    federation = client.get("/ratings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Ratings being updated since {at}" in federation
    api = table.client("member").get(f"/api/v1/clubs/{table.game.club_id}/ratings/").json()
    assert api["ratings_behind_since"] is not None

    run_waiting_jobs()
    assert "being updated" not in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    api = table.client("member").get(f"/api/v1/clubs/{table.game.club_id}/ratings/").json()
    assert api["ratings_behind_since"] is None


def test_a_players_page_says_his_rating_is_being_updated_since_when(
    database_queue: None, client: Client, settings: Any
) -> None:
    """The player's page shows his rating: while a correction waits for the ratings' job, it
    says so (the figures are cached per results version; the note is not), in both languages,
    and no more once the job has run. (Ranked from his first deal here: a page shows no
    rating below RATING_MIN_DEALS.)"""
    settings.RATING_MIN_DEALS = 1
    table = build_api_table()
    seated = [s.player_id for s in table.game.seats.all()]
    record(table.game, prise(seated[0], 60))
    run_waiting_jobs()
    url = f"/clubs/{table.game.club.slug}/players/{seated[0]}/"
    before = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rating " in before
    assert "being updated" not in before

    deal = table.game.deals.get()
    correct(deal, prise(seated[1], 30))
    at = timezone.localtime(RatingsBehind.objects.earliest("since").since).strftime("%H:%M")

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Ratings being updated since {at}: the latest deals" in english
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Cotes en cours de mise à jour depuis {at} : les dernières donnes" in french

    run_waiting_jobs()
    assert "being updated" not in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_ratings_behind_since_an_earlier_day_say_the_day_too(
    database_queue: None, client: Client
) -> None:
    """The worker stopped last night: "since 21:04" alone would read as this evening's; the
    note gives the day before the hour (today's stays the hour alone)."""
    table = build_api_table()
    seated = [s.player_id for s in table.game.seats.all()]
    record(table.game, prise(seated[0], 60))
    yesterday = timezone.now() - datetime.timedelta(days=1)
    RatingsBehind.objects.update(since=yesterday)
    local = timezone.localtime(yesterday)
    hour = local.strftime("%H:%M")
    url = f"/clubs/{table.game.club.slug}/ratings/"
    player = f"/clubs/{table.game.club.slug}/players/{seated[0]}/"

    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Ratings being updated since {local:%m/%d/%Y} {hour}:" in english
    french = client.get(player, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"Cotes en cours de mise à jour depuis {local:%d/%m/%Y} {hour} :" in french


@pytest.mark.django_db(transaction=True)
def test_a_replay_holds_nothing_a_deal_entry_waits_for(settings: Any) -> None:
    """While a ratings job holds its scope and the rating rows it rewrites (in its transaction),
    a table of the same club saves a deal, and a correction: both answer at once. PostgreSQL
    only: SQLite writes one transaction at a time, whatever the site does."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    settings.TASKS_BACKEND = "database"
    settings.TASKS = DATABASE_QUEUE
    club = ClubFactory.create()
    players = [PlayerFactory.create(clubs=[club]) for _ in range(4)]
    game = make_game(club=club, players=players, date=AUTUMN)
    first = record(game, prise(players[0].pk, 50))
    run_waiting_jobs()
    held = threading.Event()
    release = threading.Event()
    errors: list[BaseException] = []

    def replay_in_progress() -> None:
        try:
            with transaction.atomic():
                for scope in (club.pk, None):
                    hold_the_scope(scope)
                # What a replay does to the rows it rewrites: they stay locked until it ends.
                list(PlayerRating.objects.select_for_update().all())
                RatingStep.objects.all().delete()
                held.set()
                release.wait(120)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    replay = threading.Thread(target=replay_in_progress)
    replay.start()
    try:
        assert held.wait(120)

        def enter_and_correct() -> None:
            try:
                record(game, prise(players[1].pk, 60))
                correct(first, prise(players[2].pk, 30))
            finally:
                connection.close()

        saves = threading.Thread(target=enter_and_correct)
        saves.start()
        saves.join(60)  # while the replay still holds: a save waiting on it never ends here
        assert not saves.is_alive(), "a deal's save waited for the ratings' job"
    finally:
        release.set()
        replay.join()
    assert errors == []
    assert Deal.objects.filter(game=game).count() == 2
