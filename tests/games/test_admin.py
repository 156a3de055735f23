"""The admin shows deals, score lines, revisions and season statistics, and writes none of them:
a change there would skip the scoring, the history, the statistics and the results version."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Model
from django.urls import reverse

from tarot_scores.clubs.models import Club
from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, ScoreLine
from tarot_scores.stats.models import PlayerSeason
from tests import factories
from tests.factories import Table

pytestmark = pytest.mark.django_db


def _url(model: type[Model], view: str, *args: Any) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


def _snapshot(table: Table) -> tuple[Any, ...]:
    deals = list(Deal.objects.values_list("pk", "payload", "version", "deleted_at"))
    lines = sorted(ScoreLine.objects.values_list("deal_id", "player_id", "points"))
    seasons = sorted(PlayerSeason.objects.values_list("player_id", "points", "deals"))
    version = Club.objects.get(pk=table.club.pk).stats_version
    return deals, lines, seasons, DealRevision.objects.count(), version


def test_a_superuser_sees_a_deal_but_cannot_change_it(table: Table) -> None:
    deal = table.record()
    client = table.client("superuser")
    before = _snapshot(table)

    page = client.get(_url(Deal, "change", deal.pk))
    assert page.status_code == 200
    content = page.content.decode()
    assert 'name="_save"' not in content and 'name="payload"' not in content
    assert client.get(_url(Deal, "changelist")).status_code == 200

    posted = {"payload": '{"taker": 1, "contract": "garde_contre"}', "version": "9", "_save": "1"}
    assert client.post(_url(Deal, "change", deal.pk), posted).status_code == 403
    assert client.post(_url(Deal, "delete", deal.pk), {"post": "yes"}).status_code == 403
    assert client.get(_url(Deal, "add")).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [deal.pk], "post": "yes"}
    client.post(_url(Deal, "changelist"), bulk)
    assert _snapshot(table) == before


@pytest.mark.parametrize("model", [ScoreLine, DealRevision, PlayerSeason])
def test_score_lines_revisions_and_seasons_are_read_only(table: Table, model: type[Model]) -> None:
    table.record()
    client = table.client("superuser")
    row = model._default_manager.first()
    assert row is not None
    before = _snapshot(table)

    assert client.get(_url(model, "changelist")).status_code == 200
    assert client.get(_url(model, "change", row.pk)).status_code == 200
    assert client.post(_url(model, "change", row.pk), {"points": "999"}).status_code == 403
    assert client.post(_url(model, "delete", row.pk), {"post": "yes"}).status_code == 403
    assert client.get(_url(model, "add")).status_code == 403
    assert _snapshot(table) == before


def test_a_deals_page_shows_its_score_lines_and_history(table: Table) -> None:
    deal = table.record()
    content = table.client("superuser").get(_url(Deal, "change", deal.pk)).content.decode()
    assert 'id="lines-heading"' in content and 'id="revisions-heading"' in content
    assert "Aurélie" in content  # a score line, shown read-only


def test_a_game_with_deals_keeps_its_date_rules_and_seats_in_the_admin() -> None:
    staff = factories.UserFactory.create(is_staff=True, is_superuser=True)
    client = factories.signed_in_client(staff)
    empty = factories.make_game()
    played = factories.make_game()
    seats = list(played.seats.order_by("position").values_list("player_id", flat=True))
    services.deal_record(game=played, payload=factories.garde(seats[0]), by=None)

    editable = client.get(reverse("admin:tarot_scores_game_change", args=[empty.pk]))
    html = editable.content.decode()
    assert 'name="date"' in html and 'name="variant"' in html and 'name="seats-0-player"' in html

    kept = client.get(reverse("admin:tarot_scores_game_change", args=[played.pk]))
    html = kept.content.decode()
    assert kept.status_code == 200
    assert 'name="date"' not in html and 'name="variant"' not in html
    assert 'name="club"' not in html and 'name="seats-0-player"' not in html
    assert 'name="label"' in html  # what does not score stays editable
