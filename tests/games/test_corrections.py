"""Correcting, deleting and restoring a deal: stale pages are refused, nothing is ever lost."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine
from tests.factories import Table, garde
from tests.games.helpers import page_text, slot_text, tarot_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def edit_url(deal: Deal) -> str:
    return reverse("games:deal_edit", args=[deal.pk])


def lines(deal: Deal) -> dict[int, int]:
    return dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))


def test_the_correction_page_is_filled_in_with_the_deal(table: Table) -> None:
    a, b, c, d = table.ids
    deal = table.record(garde(c, points=40.5 + 0.5, petit_au_bout="attack"))

    content = table.client("seated").get(edit_url(deal)).content.decode()

    assert f'name="taker" value="{c}" id="id_taker_2" required checked' in content
    assert 'name="contract" value="garde" id="id_contract_1" required checked' in content
    assert 'name="points" value="41"' in content
    assert 'name="petit_au_bout" value="attack" id="id_petit_au_bout_1" checked' in content
    assert '<details class="extras" open>' in content  # it holds something
    assert 'name="version" value="1"' in content
    assert 'data-testid="preview-score-2"' in content  # its scores, previewed


def test_a_correction_rescores_the_deal_and_keeps_the_old_version(table: Table) -> None:
    a, b, c, d = table.ids
    deal = table.record(garde(a))

    response = table.client("seated").post(
        edit_url(deal), tarot_post(d, points="60", oudlers=1, version=1)
    )

    assert response.status_code == 302
    assert response["Location"].endswith("#deal-1")
    deal.refresh_from_db()
    assert deal.version == 2 and deal.taker_id == d and deal.payload["points"] == 60
    assert lines(deal) == {a: -68, b: -68, c: -68, d: 204}  # (25 + 9) x 2
    actions = list(deal.revisions.order_by("version").values_list("action", "version"))
    assert actions == [("created", 1), ("edited", 2)]


def test_a_correction_that_changes_nothing_adds_no_version(table: Table) -> None:
    """Saved as it was (the page opened, then Save): the history does not gain a "corrected"
    version identical to the one before, and the page says nothing changed."""
    a, b, c, d = table.ids
    deal = table.record(garde(a))
    before = lines(deal)
    client = table.client("seated")

    response = client.post(
        edit_url(deal), tarot_post(a, version=1), headers={"Accept-Language": "en"}, follow=True
    )

    assert response.status_code == 200
    assert "Deal 1 is unchanged: nothing to correct." in page_text(response.content)
    assert "Deal 1 corrected." not in page_text(response.content)
    deal.refresh_from_db()
    assert deal.version == 1 and lines(deal) == before
    assert list(deal.revisions.values_list("action", flat=True)) == ["created"]
    # In French as well.
    response = client.post(
        edit_url(deal), tarot_post(a, version=1), headers={"Accept-Language": "fr"}, follow=True
    )
    assert "La donne 1 est inchangée : rien à corriger." in page_text(response.content)


def test_a_stale_correction_is_refused_and_shows_what_the_deal_is_now(table: Table) -> None:
    a, b, c, d = table.ids
    deal = table.record(garde(a))
    # Someone else corrected it first: Chloé's garde sans.
    services.deal_update(
        deal=deal, payload=garde(c, contract="garde_sans", points=70), version=1, by=None
    )

    response = table.client("seated").post(
        edit_url(deal),
        tarot_post(d, points="60", version=1),
        headers={"Accept-Language": "en"},
    )

    assert response.status_code == 409
    text = page_text(response.content)
    assert "This deal was changed by someone else (now version 2)" in text
    assert "Chloé, Garde sans, 2 bouts, 70 pts" in text
    content = response.content.decode()
    assert 'name="version" value="2"' in content  # the form now starts from version 2
    assert f'name="taker" value="{c}" id="id_taker_2" required checked' in content
    deal.refresh_from_db()
    assert deal.version == 2 and deal.taker_id == c  # nothing saved


def test_an_impossible_correction_is_refused_beside_the_field(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))

    response = table.client("seated").post(
        edit_url(deal), tarot_post(table.ids[0], points="40,5", version=1)
    )

    assert response.status_code == 400
    assert slot_text(response.content, "points")
    deal.refresh_from_db()
    assert deal.version == 1


def test_a_correction_without_its_version_is_refused(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))

    response = table.client("seated").post(edit_url(deal), tarot_post(table.ids[3]))

    assert response.status_code == 400
    assert slot_text(response.content, "all")
    deal.refresh_from_db()
    assert deal.version == 1


def test_delete_and_restore_strike_the_deal_off_and_back(table: Table) -> None:
    a, b, c, d = table.ids
    deal = table.record(garde(a))
    table.record(garde(b))
    client = table.client("organiser")

    deleted = client.post(reverse("games:deal_delete", args=[deal.pk]), {"version": "1"})
    sheet = client.get(reverse("games:detail", args=[table.game.pk])).content.decode()

    assert deleted.status_code == 302
    deal.refresh_from_db()
    assert deal.is_deleted and not ScoreLine.objects.filter(deal=deal).exists()
    assert '<tbody id="deal-1" class="deal deleted">' in sheet and "<s>" in sheet
    assert reverse("games:deal_restore", args=[deal.pk]) in sheet
    assert 'data-testid="total-0">-66<' in sheet  # deal 1 no longer counts

    restored = client.post(reverse("games:deal_restore", args=[deal.pk]), headers=HTMX)

    assert restored.status_code == 200
    assert "<html" not in restored.content.decode()
    assert 'data-testid="total-0">132<' in restored.content.decode()
    deal.refresh_from_db()
    assert not deal.is_deleted and lines(deal)[a] == 198
    actions = list(deal.revisions.order_by("version").values_list("action", flat=True))
    assert actions == ["created", "deleted", "restored"]


def test_a_stale_delete_is_refused(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))
    services.deal_update(deal=deal, payload=garde(table.ids[1]), version=1, by=None)

    response = table.client("seated").post(
        reverse("games:deal_delete", args=[deal.pk]), {"version": "1"}, follow=True
    )

    deal.refresh_from_db()
    assert not deal.is_deleted
    assert "version 2" in page_text(response.content) or "version 2" in str(
        list(response.context["messages"])
    )


def test_a_delete_without_version_is_a_bad_request(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))

    response = table.client("seated").post(reverse("games:deal_delete", args=[deal.pk]))

    assert response.status_code == 400
    deal.refresh_from_db()
    assert not deal.is_deleted


def test_the_history_lists_every_version_with_who_and_when(table: Table) -> None:
    a, b, c, d = table.ids
    organiser = table.users["organiser"]
    deal = services.deal_record(game=table.game, payload=garde(a), by=organiser).deal
    services.deal_update(deal=deal, payload=garde(c, points=60), version=1, by=organiser)
    services.deal_delete(deal=deal, version=2, by=None)
    DealRevision.objects.filter(deal=deal, version=3).update(by_label="Table 4")
    services.deal_restore(deal=deal, by=organiser)

    response = table.client("anonymous").get(
        reverse("games:deal_history", args=[deal.pk]), headers={"Accept-Language": "en"}
    )

    assert response.status_code == 200
    text = page_text(response.content)
    for version, action in [(1, "Entered"), (2, "Corrected"), (3, "Deleted"), (4, "Restored")]:
        assert f"Version {version} · {action}" in text
    assert "by organiser" in text and "by Table 4" in text
    assert "Aurélie, Garde, 2 bouts, 49 pts" in text
    assert "won by 8" in text and "+198" in text  # version 1 in words, and its scores
    at = DealRevision.objects.get(deal=deal, version=1).at
    local = timezone.localtime(at)
    assert str(local.year) in text
    assert f'datetime="{local.isoformat()}' in response.content.decode()


def test_the_history_says_what_each_correction_changed(table: Table) -> None:
    """Who changed what and when: a correction's version names the answers it changed, so
    staff need not compare two lines of the deal word by word."""
    a, b, c, d = table.ids
    organiser = table.users["organiser"]
    deal = services.deal_record(game=table.game, payload=garde(a), by=organiser).deal
    services.deal_update(
        deal=deal,
        payload=garde(a, contract="garde_sans", points=60, petit_au_bout=None, handfuls=[]),
        version=1,
        by=organiser,
    )
    services.deal_update(
        deal=deal, payload=garde(c, contract="garde_sans", points=60), version=2, by=organiser
    )
    url = reverse("games:deal_history", args=[deal.pk])

    content = table.client("anonymous").get(url, headers={"Accept-Language": "en"}).content
    changed = re.findall(r'<p class="revision-changed">(.*?)</p>', content.decode(), re.S)
    assert [page_text(line.encode()).strip() for line in changed] == [
        "Changed: Taker",  # version 3, shown first
        "Changed: Contract, Points",  # an extra left blank is no change
    ]
    french = table.client("anonymous").get(url, headers={"Accept-Language": "fr"}).content
    assert "Modifié : Contrat, Points" in page_text(french)


def test_corrections_are_refused_when_the_game_is_finished(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    client = table.client("seated")

    page = client.get(edit_url(deal)).content.decode()

    assert 'id="deal-closed"' in page and 'name="taker"' not in page


def test_a_finished_games_deals_cannot_be_corrected_deleted_or_restored(table: Table) -> None:
    deal = table.record(garde(table.ids[0]))
    gone = table.record(garde(table.ids[1]))
    services.deal_delete(deal=gone, version=1, by=None)
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    client = table.client("organiser")

    edit = client.post(edit_url(deal), tarot_post(table.ids[3], version=1))
    client.post(reverse("games:deal_delete", args=[deal.pk]), {"version": "1"})
    client.post(reverse("games:deal_restore", args=[gone.pk]))

    assert edit.status_code == 409 and 'id="deal-closed"' in edit.content.decode()
    deal.refresh_from_db()
    gone.refresh_from_db()
    assert deal.version == 1 and not deal.is_deleted and deal.taker_id == table.ids[0]
    assert gone.is_deleted
