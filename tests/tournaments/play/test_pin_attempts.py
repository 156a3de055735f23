"""Wrong PINs are limited: after ``PIN_ATTEMPTS`` wrong PINs for one entry within
``PIN_ATTEMPTS_MINUTES``, its PIN is refused for ``PIN_LOCK_MINUTES`` on every phone (the page and
the API answer 429 with Retry-After and say until when); the right PIN clears the count; time
unlocks it, and so does a referee. The count is kept in the database, by one UPDATE: phones
trying at the same instant each count (PostgreSQL test)."""

from __future__ import annotations

import datetime
import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone, translation

from tarot_scores.core.errors import Refusal
from tests import factories
from tests.tournaments.play.test_pages_confirmation import Event, enter_at, link, phone
from tests.tournaments.play.test_personal_proof import entry_of, personal_event
from tests.tournaments.views.test_pages_world import deal_post, text_of
from tournaments.errors import PinLocked
from tournaments.models import DealConfirmation, Entry
from tournaments.play import pins
from tournaments.play.confirmations import deal_confirm

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def wrong_pin(entry: Entry) -> str:
    return str((int(entry.pin) + 1) % 10000).zfill(4)


def confirm(client: Client, e: Event, deal_pk: int, pin: str, lang: str = "en") -> Any:
    with translation.override(lang):
        return client.post(
            link(e.tables[0], "table_deal_confirm", deal_pk),
            {"version": "1", "pin": pin},
            headers={"accept-language": lang},
        )


def later(monkeypatch: pytest.MonkeyPatch, minutes: float) -> None:
    """The clock ``minutes`` from now, for the rest of the test (no sleeping)."""
    moved = timezone.now() + datetime.timedelta(minutes=minutes)
    monkeypatch.setattr(timezone, "now", lambda: moved)


def test_five_wrong_pins_lock_the_pin_for_every_phone_with_429() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    entry = entry_of(e, 2)
    for _ in range(4):
        refused = confirm(defender, e, deal.pk, wrong_pin(entry))
        assert refused.status_code == 302  # back to the page, "This PIN is not yours"
    assert Entry.objects.get(pk=entry.pk).pin_misses == 4

    fifth = confirm(defender, e, deal.pk, wrong_pin(entry))
    assert fifth.status_code == 429
    assert 0 < int(fifth["Retry-After"]) <= 15 * 60
    stored = Entry.objects.get(pk=entry.pk)
    assert stored.pin_locked_until is not None
    at = timezone.localtime(stored.pin_locked_until).strftime("%H:%M")
    assert f"this PIN is locked until {at}" in text_of(fifth.content)
    assert "call a referee" in text_of(fifth.content)

    # Locked: the right PIN too, and from another phone naming the same player.
    again = confirm(phone(state, 2), e, deal.pk, entry.pin)
    assert again.status_code == 429
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    # Another player's PIN is not locked.
    other = confirm(phone(state, 1), e, deal.pk, entry_of(e, 1).pin)
    assert other.status_code == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_each_wrong_pin_says_how_many_more_lock_it() -> None:
    # A player who mistyped is told to check his card, and how close the lock is.
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    entry = entry_of(e, 2)
    said = []
    for _ in range(4):
        with translation.override("en"):
            answer = defender.post(
                link(state, "table_deal_confirm", deal.pk),
                {"version": "1", "pin": wrong_pin(entry)},
                follow=True,
                headers={"accept-language": "en"},
            )
        said.append(text_of(answer.content))
    assert all("This PIN is not yours: nothing was changed." in words for words in said)
    assert all("Check the PIN on your player card" in words for words in said)
    assert "4 more wrong PINs and your PIN is locked for 15 minutes." in said[0]
    assert "2 more wrong PINs" in said[2]
    assert "1 more wrong PIN and your PIN is locked for 15 minutes." in said[3]
    with translation.override("fr"):
        words = str(pins.pin_missed(entry_of(e, 1).pk))
    assert "Vérifiez le code PIN de votre carte de joueur" in words
    assert "encore 4 codes PIN erronés et votre code PIN est bloqué 15 minutes." in words


def test_the_lock_in_french() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(5):
        answer = confirm(phone(state, 2), e, deal.pk, wrong_pin(entry), lang="fr")
    assert answer.status_code == 429
    assert "Trop de codes PIN erronés" in text_of(answer.content)
    assert "appelez un arbitre" in text_of(answer.content)


def test_the_locked_page_opened_again_leads_back_to_the_table() -> None:
    # The 429 page stands at the confirm address: a reload or a restored tab opens it with
    # GET, which must lead back to the table's page, not to an empty 405.
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    for _ in range(5):
        answer = confirm(defender, e, deal.pk, wrong_pin(entry_of(e, 2)))
    assert answer.status_code == 429
    again = defender.get(link(state, "table_deal_confirm", deal.pk), follow=True)
    assert again.status_code == 200
    assert again.redirect_chain[0][0] == link(state) + "#to-confirm"
    assert 'id="waiting-1"' in again.content.decode()
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def test_the_lock_ends_after_its_minutes(monkeypatch: pytest.MonkeyPatch) -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    entry = entry_of(e, 2)
    for _ in range(5):
        confirm(defender, e, deal.pk, wrong_pin(entry))
    later(monkeypatch, 14)
    assert confirm(defender, e, deal.pk, entry.pin).status_code == 429
    later(monkeypatch, 15.5)
    assert confirm(defender, e, deal.pk, entry.pin).status_code == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_the_right_pin_clears_the_count() -> None:
    e = personal_event()
    state = e.tables[0]
    first = enter_at(state, phone(state, 0))
    defender = phone(state, 2)
    entry = entry_of(e, 2)
    for _ in range(4):
        confirm(defender, e, first.pk, wrong_pin(entry))
    assert confirm(defender, e, first.pk, entry.pin).status_code == 302
    assert Entry.objects.get(pk=entry.pk).pin_misses == 0
    second = enter_at(state, phone(state, 0))
    for _ in range(4):
        assert confirm(defender, e, second.pk, wrong_pin(entry)).status_code == 302
    assert confirm(defender, e, second.pk, entry.pin).status_code == 302
    assert DealConfirmation.objects.get(deal=second).status == Status.CONFIRMED


def test_misses_older_than_the_window_start_the_count_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(4):
        confirm(phone(state, 2), e, deal.pk, wrong_pin(entry))
    later(monkeypatch, 16)
    assert confirm(phone(state, 2), e, deal.pk, wrong_pin(entry)).status_code == 302
    stored = Entry.objects.get(pk=entry.pk)
    assert stored.pin_misses == 1 and stored.pin_locked_until is None


@override_settings(PIN_ATTEMPTS=2, PIN_LOCK_MINUTES=3)
def test_the_limits_are_settings() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    assert confirm(phone(state, 2), e, deal.pk, wrong_pin(entry)).status_code == 302
    locked = confirm(phone(state, 2), e, deal.pk, wrong_pin(entry))
    assert locked.status_code == 429 and int(locked["Retry-After"]) <= 3 * 60


def test_a_missing_pin_is_not_a_miss() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    for _ in range(6):
        confirm(phone(state, 2), e, deal.pk, "")
    assert Entry.objects.get(pk=entry_of(e, 2).pk).pin_misses == 0


def test_the_dispute_page_counts_and_answers_429() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender = phone(state, 1)
    entry = entry_of(e, 1)
    url = link(state, "table_deal_dispute", deal.pk)
    version = {**deal_post(state.players[0].pk, 1, points="40"), "version": "1"}
    answers = [
        defender.post(url, {**version, "pin": wrong_pin(entry)}).status_code for _ in range(5)
    ]
    assert answers == [409, 409, 409, 409, 429]
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING


def api_confirm(e: Event, deal_pk: int, seat: int, pin: str) -> Any:
    state = e.tables[0]
    return factories.token_client(None, "en").post(
        f"/api/v1/tables/{state.table.token}/deals/{deal_pk}/confirm/",
        {"player": state.players[seat].pk, "version": 1, "pin": pin},
        format="json",
    )


def test_the_api_counts_the_same_misses_and_answers_a_429_problem() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(3):
        wrong = api_confirm(e, deal.pk, 2, wrong_pin(entry))
        assert wrong.status_code == 400 and wrong.json()["code"] == "pin_wrong"
    # The page and the API count together: one entry, whatever the phone.
    confirm(phone(state, 2), e, deal.pk, wrong_pin(entry))
    locked = api_confirm(e, deal.pk, 2, wrong_pin(entry))
    assert locked.status_code == 429
    assert locked["Content-Type"].startswith("application/problem+json")
    body = locked.json()
    assert body["status"] == 429 and body["code"] == "pin_locked"
    assert body["errors"][0]["field"] == "pin" and "call a referee" in body["detail"]
    assert 0 < int(locked["Retry-After"]) <= 15 * 60
    assert api_confirm(e, deal.pk, 2, entry.pin).status_code == 429


def test_the_api_takes_the_right_pin() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    answer = api_confirm(e, deal.pk, 2, entry_of(e, 2).pin)
    assert answer.status_code == 200, answer.content
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_a_referee_lifts_the_lock_from_his_page() -> None:
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(5):
        confirm(phone(state, 2), e, deal.pk, wrong_pin(entry))
    referee = e.client("referee")
    page = referee.get(reverse("tournaments:referee", args=[e.tournament.pk]))
    until = Entry.objects.get(pk=entry.pk).pin_locked_until
    assert until is not None
    at = timezone.localtime(until).strftime("%H:%M")
    assert f"code PIN bloqué jusqu'à {at}" in text_of(page.content)  # French first
    unlock = reverse("tournaments:referee_pin_unlock", args=[e.tournament.pk, entry.pk])
    # Only referees and organisers.
    assert e.client("member").post(unlock).status_code == 403
    assert Entry.objects.get(pk=entry.pk).pin_locked_until is not None
    assert referee.post(unlock).status_code == 302
    assert Entry.objects.get(pk=entry.pk).pin_locked_until is None
    assert confirm(phone(state, 2), e, deal.pk, entry.pin).status_code == 302
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


@pytest.mark.django_db(transaction=True)
@override_settings(PIN_ATTEMPTS=1000)
def test_misses_at_the_same_instant_each_count() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite writes one transaction at a time")
    e = personal_event()
    entry = entry_of(e, 2)
    phones = 8
    start = threading.Barrier(phones)
    errors: list[BaseException] = []

    def miss() -> None:
        try:
            start.wait(30)
            pins.pin_missed(entry.pk)
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
    assert Entry.objects.get(pk=entry.pk).pin_misses == phones


def test_the_service_the_page_and_the_api_refuse_a_locked_pin_alike() -> None:
    """One home: the service's refusal (code and words) is what the page shows and what the
    API's problem says."""
    e = personal_event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    entry = entry_of(e, 2)
    for _ in range(5):
        confirm(phone(state, 2), e, deal.pk, wrong_pin(entry))
    with translation.override("en"), pytest.raises(Refusal) as refused:
        deal_confirm(deal=deal, by=None, player=state.players[2].pk, pin=entry.pin)
    assert isinstance(refused.value, PinLocked)
    assert refused.value.codes() == {"pin": ["pin_locked"]}
    (words,) = refused.value.messages()["pin"]
    page = confirm(phone(state, 2), e, deal.pk, entry.pin)
    assert page.status_code == 429 and words in text_of(page.content)
    answer = api_confirm(e, deal.pk, 2, entry.pin)
    assert answer.status_code == 429 and answer.json()["detail"] == words
