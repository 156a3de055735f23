"""Two phones saving the same new deal at the same instant: exactly one deal is stored."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection, transaction

from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine
from tests.factories import make_game


@pytest.mark.django_db(transaction=True)
def test_the_same_deal_number_saved_at_once_is_stored_once() -> None:
    game = make_game(players=4)
    a, b = list(game.seats.values_list("player_id", flat=True))[:2]
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def save(taker: int) -> None:
        payload = {"taker": taker, "contract": "garde", "points": 49, "oudlers": 2}
        try:
            barrier.wait()
            outcomes.append(
                services.deal_record(game=game, payload=payload, by=None, number=1).deal
            )
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(taker,)) for taker in (a, b)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert Deal.objects.filter(game=game).count() == 1
    assert ScoreLine.objects.count() == 4 and DealRevision.objects.count() == 1
    saved = [o for o in outcomes if isinstance(o, Deal)]
    refused = [o for o in outcomes if not isinstance(o, Deal)]
    assert len(saved) == 1 and len(refused) == 1
    # SQLite (a file, transaction_mode IMMEDIATE) and PostgreSQL alike: the second phone waits
    # for the first, then finds the deal taken.
    assert isinstance(refused[0], services.DealConflict), refused
    assert refused[0].current.pk == saved[0].pk


@pytest.mark.django_db(transaction=True)
def test_a_correction_waits_for_a_game_being_finished_then_is_refused() -> None:
    """Someone finishes the game while a phone saves a correction: the correction waits for
    the finish and is refused, rather than changing a finished sheet."""
    game = make_game(players=4)
    a = game.seats.values_list("player_id", flat=True).first()
    payload = {"taker": a, "contract": "garde", "points": 49, "oudlers": 2}
    deal = services.deal_record(game=game, payload=payload, by=None).deal
    finishing, release = threading.Event(), threading.Event()
    outcomes: list[Any] = []

    def finish() -> None:
        try:
            with transaction.atomic():
                services.game_set_status(game=game, status=Game.Status.FINISHED)
                finishing.set()
                release.wait(timeout=10)
        finally:
            connection.close()

    def correct() -> None:
        try:
            outcomes.append(
                services.deal_update(
                    deal=deal, payload={**payload, "points": 60}, version=1, by=None
                )
            )
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    finisher = threading.Thread(target=finish)
    finisher.start()
    assert finishing.wait(timeout=10)
    corrector = threading.Thread(target=correct)
    corrector.start()
    corrector.join(timeout=0.5)  # it must be waiting, not done
    release.set()
    finisher.join()
    corrector.join()

    assert len(outcomes) == 1 and isinstance(outcomes[0], services.GameClosed), outcomes
    deal.refresh_from_db()
    assert deal.version == 1 and deal.payload["points"] == 49


# Enough phones to queue on the game's lock, well under PostgreSQL's 100 connections.
PHONES = 24


@pytest.mark.django_db(transaction=True)
def test_deals_sent_without_a_number_at_once_all_get_the_next_numbers() -> None:
    """Many deals posted at the same instant without ``number``: each waits for the game's lock
    and takes the next free number; none is refused as "entered from another device". On
    PostgreSQL a last number read in the statement that waited for the lock was stale."""
    game = make_game(players=4)
    taker = game.seats.values_list("player_id", flat=True).first()
    barrier = threading.Barrier(PHONES)
    outcomes: list[Any] = []

    def save() -> None:
        payload = {"taker": taker, "contract": "garde", "points": 49, "oudlers": 2}
        try:
            barrier.wait()
            outcomes.append(services.deal_record(game=game, payload=payload, by=None).deal)
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save) for _ in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    refused = [o for o in outcomes if not isinstance(o, Deal)]
    assert refused == []
    numbers = sorted(Deal.objects.filter(game=game).values_list("number", flat=True))
    assert numbers == list(range(1, PHONES + 1))
    assert ScoreLine.objects.count() == 4 * PHONES
