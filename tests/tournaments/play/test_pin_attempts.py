"""Wrong PINs are limited where they are typed, never against their owner: after
``PIN_ATTEMPTS`` wrong PINs on one phone within ``PIN_ATTEMPTS_MINUTES``, that phone types no PIN
for ``PIN_LOCK_MINUTES`` (429 with Retry-After, and no PIN box it would be refused at); after
``TABLE_FACTOR`` times as many at one table, none of its phones does. The player whose PIN was
tried is not locked out (another phone, his card, his account). The right PIN clears the
phone's count; time ends a lock, and so does a referee, from his page. The count is kept in
the database by one UPDATE: phones trying at the same instant each count (PostgreSQL test)."""

from __future__ import annotations

import datetime
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from tests import factories
from tests.tournaments.play.test_pages_confirmation import Event, enter_at, link, phone
from tests.tournaments.play.test_personal_proof import entry_of, personal_event
from tests.tournaments.views.test_pages_world import text_of
from tournaments.models import DealConfirmation, Entry, PinAttempts
from tournaments.play import cards, pins

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def wrong_pin(entry: Entry) -> str:
    return str((int(entry.pin) + 1) % 10000).zfill(4)


def name(client: Client, e: Event, seat: int, pin: str, lang: str = "en") -> Any:
    """The phone names the player at ``seat`` with ``pin`` (personal proof)."""
    state = e.tables[0]
    with translation.override(lang):
        return client.post(
            link(state, "table_holder"),
            {"player": state.players[seat].pk, "pin": pin},
            headers={"accept-language": lang},
        )


def later(monkeypatch: pytest.MonkeyPatch, minutes: float) -> None:
    """The clock ``minutes`` from now, for the rest of the test (no sleeping)."""
    moved = timezone.now() + datetime.timedelta(minutes=minutes)
    monkeypatch.setattr(timezone, "now", lambda: moved)


def holder_of(client: Client, e: Event) -> int | None:
    session = client.session
    kept = session.get(f"tournament-card:{e.tournament.pk}")
    if not isinstance(kept, dict):
        return None
    return Entry.objects.get(pk=kept["entry"]).player_id


def test_five_wrong_pins_stop_that_phone_not_the_player() -> None:
    e = personal_event()
    state = e.tables[0]
    entry = entry_of(e, 2)
    mischief = Client()
    for _ in range(4):
        refused = name(mischief, e, 2, wrong_pin(entry))
        assert refused.status_code == 302  # back to the page, "This PIN is not yours"
    locked = name(mischief, e, 2, wrong_pin(entry))
    assert locked.status_code == 429
    assert 0 < int(locked["Retry-After"]) <= 15 * 60
    assert "no PIN is taken on this phone" in text_of(locked.content)
    # Even the right PIN is refused on that phone now, and it is shown no PIN box.
    assert name(mischief, e, 2, entry.pin).status_code == 429
    assert holder_of(mischief, e) is None
    page = mischief.get(link(state)).content.decode()
    assert 'id="holder-pin"' not in page and 'id="pin-locked"' in page
    # The player himself is not locked: on his own phone his PIN names him.
    own = Client()
    assert name(own, e, 2, entry.pin).status_code == 302
    assert holder_of(own, e) == state.players[2].pk
    assert 'id="holder-pin"' in Client().get(link(state)).content.decode()
    lock = PinAttempts.objects.get(tournament=e.tournament, place__startswith="phone:")
    assert lock.locked_until is not None and lock.tried_id == entry.pk


def test_each_wrong_pin_says_how_many_more_stop_the_phone() -> None:
    e = personal_event()
    entry = entry_of(e, 2)
    client = Client()
    answer = name(client, e, 2, wrong_pin(entry))
    page = client.get(link(e.tables[0])).content.decode()
    assert answer.status_code == 302
    assert "4 more wrong PINs and this phone may type no PIN" in text_of(page.encode()) or (
        "encore 4 codes PIN faux et ce téléphone" in text_of(page.encode())
    )


def test_the_lock_ends_after_its_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    e = personal_event()
    entry = entry_of(e, 2)
    client = Client()
    for _ in range(5):
        name(client, e, 2, wrong_pin(entry))
    assert name(client, e, 2, entry.pin).status_code == 429
    later(monkeypatch, 16)
    assert name(client, e, 2, entry.pin).status_code == 302
    assert holder_of(client, e) == e.tables[0].players[2].pk


def test_the_right_pin_clears_the_phones_count_not_the_tables() -> None:
    e = personal_event()
    entry = entry_of(e, 2)
    client = Client()
    for _ in range(4):
        name(client, e, 2, wrong_pin(entry))
    assert name(client, e, 2, entry.pin).status_code == 302
    phone_count = PinAttempts.objects.get(tournament=e.tournament, place__startswith="phone:")
    table_count = PinAttempts.objects.get(tournament=e.tournament, place__startswith="table:")
    assert phone_count.misses == 0 and table_count.misses == 4


def test_a_missing_pin_is_not_a_miss() -> None:
    e = personal_event()
    client = Client()
    client.post(link(e.tables[0], "table_holder"), {"player": e.tables[0].players[2].pk})
    assert holder_of(client, e) is None
    assert not PinAttempts.objects.filter(tournament=e.tournament).exists()


@override_settings(PIN_ATTEMPTS=2)
def test_a_table_trying_from_many_phones_is_stopped_too() -> None:
    e = personal_event()
    state = e.tables[0]
    entry = entry_of(e, 2)
    # Three phones, two misses each (each phone stops at 2; the table at 6).
    for _ in range(3):
        client = Client()
        name(client, e, 2, wrong_pin(entry))
        name(client, e, 2, wrong_pin(entry))
    fresh = Client()
    assert name(fresh, e, 2, entry.pin).status_code == 429
    assert holder_of(fresh, e) is None
    # His card still proves him: a lock on typing never locks the player.
    carded = Client()
    carded.get(reverse("tournaments:player_card", args=[cards.card_token(entry)]))
    assert holder_of(carded, e) == state.players[2].pk
    # Another table of the tournament is not stopped.
    other = e.tables[1]
    other_entry = Entry.objects.get(tournament=e.tournament, player=other.players[0])
    answer = Client().post(
        link(other, "table_holder"), {"player": other.players[0].pk, "pin": other_entry.pin}
    )
    assert answer.status_code == 302


def api_confirm(e: Event, deal_pk: int, seat: int, pin: str) -> Any:
    state = e.tables[0]
    return factories.token_client(None, "en").post(
        f"/api/v1/tables/{state.table.token}/deals/{deal_pk}/confirm/",
        {"player": state.players[seat].pk, "version": 1, "pin": pin},
        format="json",
    )


def test_the_api_counts_its_misses_apart_and_answers_a_429_problem() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(4):
        wrong = api_confirm(e, deal.pk, 2, wrong_pin(entry))
        assert wrong.status_code == 400 and wrong.json()["code"] == "pin_wrong"
    locked = api_confirm(e, deal.pk, 2, wrong_pin(entry))
    assert locked.status_code == 429
    assert locked["Content-Type"].startswith("application/problem+json")
    body = locked.json()
    assert body["status"] == 429 and body["code"] == "pin_locked"
    assert body["errors"][0]["field"] == "pin" and "call a referee" in body["detail"]
    assert 0 < int(locked["Retry-After"]) <= 15 * 60
    assert api_confirm(e, deal.pk, 2, entry.pin).status_code == 429
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    # The defender's own phone still confirms: the API's lock is the API's.
    defender = phone(state, 2)
    defender.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_the_api_takes_the_right_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    answer = api_confirm(e, deal.pk, 2, entry_of(e, 2).pin)
    assert answer.status_code == 200, answer.content
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]


def test_a_referee_sees_the_locked_phone_and_lifts_the_lock() -> None:
    e = personal_event()
    state = e.tables[0]
    entry = entry_of(e, 2)
    client = Client()
    for _ in range(5):
        name(client, e, 2, wrong_pin(entry))
    referee = e.client("referee")
    page = referee.get(reverse("tournaments:referee", args=[e.tournament.pk]))
    lock = PinAttempts.objects.get(tournament=e.tournament, place__startswith="phone:")
    assert lock.locked_until is not None
    at = timezone.localtime(lock.locked_until).strftime("%H:%M")
    words = text_of(page.content)
    assert f"Un téléphone à la table {state.table.number} : aucun code PIN avant {at}" in words
    unlock = reverse("tournaments:referee_pin_unlock", args=[e.tournament.pk, lock.pk])
    # Only referees and organisers.
    assert e.client("member").post(unlock).status_code == 403
    assert PinAttempts.objects.get(pk=lock.pk).locked_until is not None
    assert referee.post(unlock).status_code == 302
    assert PinAttempts.objects.get(pk=lock.pk).locked_until is None
    assert name(client, e, 2, entry.pin).status_code == 302
    assert holder_of(client, e) == state.players[2].pk


@pytest.mark.django_db(transaction=True)
@override_settings(PIN_ATTEMPTS=1000)
def test_misses_at_the_same_instant_each_count() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    e = personal_event()
    entry = entry_of(e, 2)
    table = e.tables[0].table
    phones = 8
    start = threading.Barrier(phones)
    errors: list[BaseException] = []

    def miss() -> None:
        try:
            start.wait(30)
            pins.pin_missed(pins.PinMissed(entry.pk, pins.typed_at(table, "phone:same")))
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=miss) for _ in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    counted = PinAttempts.objects.get(tournament=e.tournament, place="phone:same")
    assert counted.misses == phones
