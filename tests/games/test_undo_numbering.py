"""Undo and delete free their number: the next deal takes the number and the dealer of a struck
last deal, which stays in the history; a struck deal whose number was taken again cannot be
restored (the reason says so). Through the services, the entry page and the API."""

from __future__ import annotations

import re

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from tarot_scores.games import selectors, services
from tarot_scores.games.models import Deal
from tests.factories import Table, build_api_table, build_table, garde
from tests.games.helpers import page_text, tarot_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def at_five(payload: dict[str, object], table: Table) -> dict[str, object]:
    """A garde at five where the taker calls the next seat; at four the payload as it is."""
    if len(table.players) == 5:
        taker = int(str(payload["taker"]))
        partner = table.ids[(table.ids.index(taker) + 1) % 5]
        return {**payload, "partner": partner}
    return payload


def record(table: Table, seat: int) -> Deal:
    payload = at_five(garde(table.ids[seat]), table)
    return services.deal_record(game=table.game, payload=payload, by=None).deal


@pytest.mark.parametrize("players", [4, 5])
def test_the_deal_after_an_undone_last_deal_takes_its_number_and_dealer(players: int) -> None:
    table = build_table(players=players)
    for seat in range(3):
        record(table, seat)
    third = Deal.objects.get(game=table.game, number=3)
    services.deal_delete(deal=third, version=third.version, by=None)

    sheet = selectors.game_sheet(game_id=table.game.pk)
    assert sheet.next_number == 3 and sheet.next_dealer == table.players[2]
    again = record(table, 1)

    assert again.number == 3 and again.dealer == table.players[2] == third.dealer
    sheet = selectors.game_sheet(game_id=table.game.pk)
    # The struck deal stays on the sheet, just before the deal that took its number.
    assert [(r.deal.number, r.deal.is_deleted) for r in sheet.rows] == [
        (1, False),
        (2, False),
        (3, True),
        (3, False),
    ]
    assert sheet.live_deals == 3 and sheet.next_number == 4
    assert sheet.next_dealer == table.players[3 % players]


def test_deleting_a_deal_in_the_middle_frees_no_number() -> None:
    table = build_table()
    for seat in range(3):
        record(table, seat)
    second = Deal.objects.get(game=table.game, number=2)
    services.deal_delete(deal=second, version=second.version, by=None)

    assert record(table, 0).number == 4


def test_two_live_deals_cannot_share_a_number() -> None:
    table = build_table()
    first = record(table, 0)
    twin = Deal(game=table.game, number=1, payload=first.payload, dealer=first.dealer)

    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save()
    # A struck one may: it is the history of that number.
    twin.deleted_at = timezone.now()
    twin.save()


def test_a_struck_deal_whose_number_was_taken_again_is_not_restored() -> None:
    table = build_table()
    record(table, 0)
    first_try = record(table, 1)
    services.deal_delete(deal=first_try, version=first_try.version, by=None)
    record(table, 2)

    with pytest.raises(services.GameClosed) as refused:
        services.deal_restore(deal=first_try, by=None)

    assert [r.code for r in refused.value.all_reasons()] == ["number_reused"]
    assert str(refused.value) == (
        "La donne 2 a été saisie de nouveau depuis : cette donne ne peut pas revenir. "
        "Corrigez plutôt la nouvelle donne 2."
    )
    assert Deal.objects.get(pk=first_try.pk).is_deleted
    assert Deal.objects.filter(game=table.game, deleted_at__isnull=True).count() == 2


def test_a_struck_deal_whose_number_is_free_comes_back() -> None:
    table = build_table()
    record(table, 0)
    second = record(table, 1)
    services.deal_delete(deal=second, version=second.version, by=None)

    restored = services.deal_restore(deal=second, by=None)

    assert not restored.is_deleted and restored.number == 2
    assert selectors.game_sheet(game_id=table.game.pk).next_number == 3


# --- the entry page ---------------------------------------------------------------------------


def _entry(table: Table) -> str:
    return reverse("games:deal_new", args=[table.game.pk])


@pytest.mark.parametrize("players", [4, 5])
def test_undo_on_the_page_keeps_the_number_dealer_and_shows_the_result(players: int) -> None:
    table = build_table(players=players)
    client = table.client("seated")
    extra = {"partner": table.ids[3]} if players == 5 else {}
    c = table.ids[2]
    for number in (1, 2):
        client.post(_entry(table), tarot_post(c, number=number, **extra), headers=HTMX)
    saved = client.post(
        _entry(table), tarot_post(c, number=3, points="52", oudlers=1, **extra), headers=HTMX
    )
    assert saved.status_code == 200
    third = Deal.objects.get(game=table.game, number=3)

    undone = client.post(
        reverse("games:deal_undo", args=[third.pk]), {"version": third.version}, headers=HTMX
    )

    content = undone.content.decode()
    text = page_text(undone.content)
    assert 'name="number" value="3"' in content and "Donne 3" in text
    assert f"{table.players[2].label} distribue." in text
    # The result line scores what is back in the form: no "still to answer".
    assert "Reste à répondre" not in text
    assert "Gagnée de 1" in text  # 52 with one bout: 51 needed
    assert re.search(r'data-testid="preview-score-2"[^>]*>\+', content)

    fixed = client.post(
        _entry(table), tarot_post(c, number=3, points="53", oudlers=1, **extra), headers=HTMX
    )

    assert fixed.status_code == 200
    again = Deal.objects.get(game=table.game, number=3, deleted_at__isnull=True)
    assert again.pk != third.pk and again.dealer == third.dealer == table.players[2]
    assert "Donne 3 enregistrée." in page_text(fixed.content)
    assert 'name="number" value="4"' in fixed.content.decode()


def test_undo_without_javascript_refills_and_scores_the_form() -> None:
    table = build_table()
    client = table.client("seated")
    client.post(_entry(table), tarot_post(table.ids[2], points="52", oudlers=1))
    deal = Deal.objects.get(game=table.game)

    back = client.post(reverse("games:deal_undo", args=[deal.pk]), {"version": deal.version})
    page = client.get(back["Location"])

    text = page_text(page.content)
    assert 'name="number" value="1"' in page.content.decode()
    assert "Gagnée de 1" in text and "Reste à répondre" not in text


# --- the API ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [4, 5])
def test_through_the_api_a_deleted_last_deal_gives_its_number_back(players: int) -> None:
    table = build_api_table(players=players)
    client = table.client("seated", "en")
    url = f"/api/v1/games/{table.game.pk}/deals/"
    body = at_five(garde(table.ids[2]), table)
    ids = [client.post(url, body, format="json").json()["id"] for _ in range(2)]
    second = Deal.objects.get(pk=ids[1])
    deleted = client.delete(f"/api/v1/deals/{second.pk}/?version={second.version}")
    assert deleted.status_code == 200
    game = client.get(f"/api/v1/games/{table.game.pk}/").json()
    assert game["next_number"] == 2

    again = client.post(url, {**body, "number": 2}, format="json")

    assert again.status_code == 201, again.content
    assert again.json()["number"] == 2 and again.json()["dealer"] == table.ids[1]
    restore = client.post(f"/api/v1/deals/{second.pk}/restore/")
    assert restore.status_code == 409
    assert "Deal 2 has been entered again since" in restore.content.decode()
    assert Deal.objects.get(pk=second.pk).is_deleted


def test_the_sheet_offers_restore_only_for_a_deal_that_can_come_back() -> None:
    """An undone deal entered again has its number taken: the sheet shows it struck with no
    Restore (which could only fail), and names the deal that replaced it; a struck deal whose
    number is free keeps its Restore, and it works."""
    table = build_table(players=4)
    first = record(table, 0)
    services.deal_delete(deal=first, version=first.version, by=None)
    record(table, 0)  # entered afresh: deal 1 again
    second = record(table, 1)
    services.deal_delete(deal=second, version=second.version, by=None)  # number 2 is free
    client = table.client("organiser")
    url = reverse("games:detail", args=[table.game.pk])

    page = client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert page.count('action="' + reverse("games:deal_restore", args=[first.pk])) == 0
    assert "saisie à nouveau comme donne 1" in page
    assert page.count('id="deal-1"') == 1  # the live deal 1 keeps its id, the struck one another
    restore = reverse("games:deal_restore", args=[second.pk])
    assert page.count(f'action="{restore}"') == 1
    client.post(restore, HTTP_ACCEPT_LANGUAGE="fr")
    second.refresh_from_db()
    assert not second.is_deleted
