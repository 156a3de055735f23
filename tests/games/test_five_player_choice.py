"""A table of five whose frozen rules allow either way of playing: the entry page asks, per
deal, "called king" or "the dealer sits out", as the API's ``sitting_out`` does; the preview
and the save use the answer, and the service judges it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tarot_scores import scoring
from tarot_scores.games.models import Deal, ScoreLine
from tarot_scores.scoring.messages import Msg
from tests.factories import Table, build_table
from tests.games.helpers import slot_text, tarot_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def either() -> Table:
    table = build_table(players=5)
    assert table.game.rules["five_players"] == scoring.FivePlayers.EITHER.value
    return table


def new_url(table: Table) -> str:
    return reverse("games:deal_new", args=[table.game.pk])


def lines(deal: Deal) -> dict[int, int]:
    return dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))


def test_the_page_asks_how_the_table_plays_this_deal(either: Table) -> None:
    page = either.client("seated").get(new_url(either)).content.decode()

    # A fieldset of radio buttons with a legend: a screen reader reads the question.
    assert '<fieldset class="chips" id="field-five_players">' in page
    assert "<legend>À cette table de cinq</legend>" in page
    assert 'name="five_players" value="called_king"' in page
    assert 'name="five_players" value="sitting_out"' in page
    assert "Roi appelé" in page and "Le donneur passe son tour" in page
    checked = page.split('value="called_king"', 1)[1].split(">", 1)[0]
    assert "checked" in checked  # unchanged, the table calls a king as before


def test_the_dealer_sits_out_when_the_deal_says_so(either: Table) -> None:
    a, b, c, d, e = either.ids

    response = either.client("seated").post(
        new_url(either), tarot_post(b, five_players="sitting_out")
    )

    assert response.status_code == 302
    deal = Deal.objects.get(game=either.game)
    assert deal.payload["sitting_out"] == a  # deal 1: the first seat deals and sits out
    assert deal.payload["partner"] is None
    assert lines(deal) == {a: 0, b: 198, c: -66, d: -66, e: -66}


def test_called_king_when_the_deal_says_so(either: Table) -> None:
    a, b, c, d, e = either.ids

    either.client("seated").post(
        new_url(either), tarot_post(a, partner=b, five_players="called_king")
    )

    deal = Deal.objects.get(game=either.game)
    assert deal.payload["sitting_out"] is None
    assert lines(deal) == {a: 132, b: 66, c: -66, d: -66, e: -66}


def preview_scores(html: str) -> list[str]:
    return re.findall(r'data-testid="preview-score-\d"[^>]*>([^<]*)</td>', html)


def test_the_preview_scores_the_mode_chosen(either: Table) -> None:
    b = either.ids[1]
    url = reverse("games:deal_preview", args=[either.game.pk])
    client = either.client("seated")

    out = client.post(url, tarot_post(b, five_players="sitting_out")).content.decode()
    alone = client.post(url, tarot_post(b, partner="alone")).content.decode()

    assert preview_scores(out) == ["0", "+198", "-66", "-66", "-66"]
    assert preview_scores(alone) == ["-66", "+264", "-66", "-66", "-66"]


def test_the_dealer_sitting_out_cannot_take(either: Table) -> None:
    a = either.ids[0]

    response = either.client("seated").post(
        new_url(either), tarot_post(a, five_players="sitting_out")
    )

    assert response.status_code == 400
    label = either.players[0].label
    assert slot_text(response.content, "taker") == Msg("sitting_out_plays", name=label).render("fr")
    assert not Deal.objects.exists()


def test_a_mode_that_is_not_one_is_refused_beside_the_question(either: Table) -> None:
    b = either.ids[1]

    response = either.client("seated").post(new_url(either), tarot_post(b, five_players="either"))

    assert response.status_code == 400
    assert slot_text(response.content, "five_players") != ""
    assert not Deal.objects.exists()


def test_a_correction_shows_the_mode_the_deal_was_entered_with(either: Table) -> None:
    b = either.ids[1]
    client = either.client("seated")
    client.post(new_url(either), tarot_post(b, five_players="sitting_out"))
    deal = Deal.objects.get(game=either.game)

    page = client.get(reverse("games:deal_edit", args=[deal.pk])).content.decode()

    checked = page.split('value="sitting_out"', 1)[1].split(">", 1)[0]
    assert "checked" in checked


@pytest.mark.parametrize("mode", ["called_king", "sitting_out"])
def test_rules_that_fix_the_mode_ask_nothing(mode: str) -> None:
    table = build_table(players=5)
    table.game.rules = {**table.game.rules, "five_players": mode}
    table.game.save()

    page = table.client("seated").get(new_url(table)).content.decode()

    assert 'name="five_players"' not in page
