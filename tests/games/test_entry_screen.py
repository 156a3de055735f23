"""The entry screen after a Save and after a refusal: the "saved" notice with the next dealer
and an Undo (a plain form, with or without htmx), Undo as a deletion the history keeps, and a
live result line that names what is missing or at fault instead of pointing elsewhere."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision
from tarot_scores.scoring.messages import Msg
from tests.factories import Table, garde
from tests.games.helpers import page_text, tarot_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def new_url(table: Table) -> str:
    return reverse("games:deal_new", args=[table.game.pk])


def undo_url(deal: Deal) -> str:
    return reverse("games:deal_undo", args=[deal.pk])


def notice(content: bytes) -> str:
    found = re.search(rb'<div class="notice notice-success deal-saved".*?</div>', content, re.S)
    assert found, "no saved notice"
    return page_text(found.group(0))


def test_an_htmx_save_names_the_next_dealer_and_offers_undo(table: Table) -> None:
    c = table.ids[2]

    response = table.client("seated").post(new_url(table), tarot_post(c), headers=HTMX)

    deal = Deal.objects.get(game=table.game)
    said = notice(response.content)
    assert "Donne 1 enregistrée." in said
    assert f"{table.players[1].label} distribue la suivante." in said
    content = response.content.decode()
    assert f'action="{undo_url(deal)}"' in content and f'hx-post="{undo_url(deal)}"' in content
    assert f'name="version" value="{deal.version}"' in content
    # The totals swapped in mark the new row.
    assert 'id="strip-last-deal" class="just-saved"' in content


def test_without_htmx_the_entry_screen_shows_the_notice_of_its_last_deal(table: Table) -> None:
    c = table.ids[2]
    client = table.client("seated")
    saved = client.post(new_url(table), tarot_post(c))
    assert saved["Location"] == new_url(table) + "?saved=1"

    page = client.get(saved["Location"])

    deal = Deal.objects.get(game=table.game)
    assert "Donne 1 enregistrée." in notice(page.content)
    assert f'action="{undo_url(deal)}"' in page.content.decode()
    assert 'name="number" value="2"' in page.content.decode()  # ready for the next deal
    # Once another deal follows, deal 1 is no longer undone from the entry screen.
    table.record(garde(c))
    later = client.get(new_url(table) + "?saved=1").content.decode()
    assert 'id="deal-saved"' not in later and undo_url(deal) not in later
    # Nothing to say for a number that is not a deal.
    assert 'id="deal-saved"' not in client.get(new_url(table) + "?saved=x").content.decode()


def test_undo_deletes_the_deal_keeps_its_history_and_refills_the_form(table: Table) -> None:
    a, b, c, d = table.ids
    client = table.client("seated")
    client.post(new_url(table), tarot_post(c, points="52", oudlers=1), headers=HTMX)
    deal = Deal.objects.get(game=table.game)

    response = client.post(undo_url(deal), {"version": deal.version}, headers=HTMX)

    assert response.status_code == 200
    deal.refresh_from_db()
    assert deal.is_deleted and not deal.lines.exists()
    actions = list(deal.revisions.order_by("version").values_list("action", "by"))
    user = table.users["seated"]
    assert user is not None
    assert actions == [
        (DealRevision.Action.CREATED, user.pk),
        (DealRevision.Action.DELETED, user.pk),
    ]
    content = response.content.decode()
    assert "Donne 1 annulée" in page_text(response.content)
    # What was entered comes back, under the number it frees (deal 1 stays in the history).
    assert re.search(rf'name="taker" value="{c}"[^>]* checked', content)
    assert 'name="points" value="52"' in content
    assert 'name="number" value="1"' in content
    assert 'data-deals="0"' in content


def test_undo_without_htmx_comes_back_to_the_entry_screen(table: Table) -> None:
    c = table.ids[2]
    client = table.client("seated")
    client.post(new_url(table), tarot_post(c, points="52"))
    deal = Deal.objects.get(game=table.game)

    response = client.post(undo_url(deal), {"version": deal.version})

    assert response.status_code == 302
    assert response["Location"] == new_url(table) + "?undone=1"
    page = client.get(response["Location"]).content.decode()
    assert 'id="deal-undone"' in page and 'name="points" value="52"' in page
    assert Deal.objects.get(pk=deal.pk).is_deleted


def test_undo_of_a_deal_changed_meanwhile_is_refused(table: Table) -> None:
    c = table.ids[2]
    client = table.client("seated")
    client.post(new_url(table), tarot_post(c), headers=HTMX)
    deal = Deal.objects.get(game=table.game)
    services.deal_update(deal=deal, payload=garde(c, points=60), version=deal.version, by=None)

    stale = client.post(undo_url(deal), {"version": 1}, headers=HTMX)
    missing = client.post(undo_url(deal), {}, headers=HTMX)

    assert stale.status_code == 409 and 'id="deal-conflict"' in stale.content.decode()
    assert missing.status_code == 400
    assert not Deal.objects.get(pk=deal.pk).is_deleted


@pytest.mark.parametrize(("role", "status"), [("anonymous", 302), ("member", 403)])
def test_undo_is_for_those_who_enter_the_deals(table: Table, role: str, status: int) -> None:
    deal = table.record()

    response = table.client(role).post(undo_url(deal), {"version": deal.version})

    assert response.status_code == status
    assert not Deal.objects.get(pk=deal.pk).is_deleted


def test_the_live_line_lists_what_is_still_to_answer(table: Table) -> None:
    a = table.ids[0]
    client = table.client("seated")

    blank = client.get(new_url(table))
    partial = client.post(
        reverse("games:deal_preview", args=[table.game.pk]),
        {"number": "1", "taker": str(a)},
        headers=HTMX,
    )

    assert "Reste à répondre : Preneur, Contrat, Bouts, Points." in page_text(blank.content)
    assert "Reste à répondre : Contrat, Bouts, Points." in page_text(partial.content)


def test_the_live_line_names_the_question_at_fault_even_in_the_folded_extras(
    table: Table,
) -> None:
    a = table.ids[0]
    client = table.client("seated")
    data = tarot_post(a, contract="prise", oudlers=3, points="91")

    preview = client.post(reverse("games:deal_preview", args=[table.game.pk]), data, headers=HTMX)
    refused = client.post(new_url(table), data, headers=HTMX)

    message = Msg("slam_missing", points=91).render("fr")
    for response in (preview, refused):
        text = page_text(response.content)
        assert f"Chelem : {message}" in text
        assert "ci-dessus" not in text and "above" not in text
        assert 'href="#field-slam"' in response.content.decode()
    assert refused.status_code == 400
    # The refusal opens the extras, where the slam's question and its message are.
    assert re.search(r'<details class="extras" open>', refused.content.decode())
    assert not Deal.objects.exists()
