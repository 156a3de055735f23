"""After a round closes, its tables are the referees': the correction page asks for a written
reason, refuses without one (nothing changes) and keeps it in the deal's history; a club's own
games never ask for one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tarot_scores.games.models import DealRevision
from tests.factories import build_table, signed_in_client
from tests.games.helpers import slot_text, tarot_post
from tests.permission_world import build_permission_world

pytestmark = pytest.mark.django_db


def test_a_closed_rounds_correction_needs_a_reason_on_the_page() -> None:
    w = build_permission_world()
    deal = w.deals["closed"]
    referee = signed_in_client(w.users["referee"])
    game = w.games["closed"]
    referee.post(reverse("games:status", args=[game.pk]), {"status": "open"})
    url = reverse("games:deal_edit", args=[deal.pk])
    taker = deal.payload["taker"]
    sent = tarot_post(taker, number=deal.number, version=deal.version, points="60")

    refused = referee.post(url, sent, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 400
    assert "motif écrit" in slot_text(refused.content, "all")
    assert 'name="reason"' in refused.content.decode()
    deal.refresh_from_db()
    assert deal.version == 1

    done = referee.post(url, {**sent, "reason": "Feuille signée : 60 points."})
    assert done.status_code == 302
    last = DealRevision.objects.filter(deal=deal).latest("version")
    assert (last.action, last.reason) == ("edited", "Feuille signée : 60 points.")
    history = referee.get(reverse("games:deal_history", args=[deal.pk])).content.decode()
    assert "Feuille signée : 60 points." in history


def test_a_club_game_asks_for_no_reason() -> None:
    table = build_table()
    deal = table.record()
    page = table.client("seated")
    url = reverse("games:deal_edit", args=[deal.pk])
    assert 'name="reason"' not in page.get(url).content.decode()
    sent = tarot_post(table.ids[0], number=1, version=1, points="60")
    assert page.post(url, sent).status_code == 302
