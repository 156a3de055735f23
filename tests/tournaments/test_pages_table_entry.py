"""A table's private link: no account needed, that table's game only, while its round is open.

The link enters the next deal and corrects that table's deals of that round; it cannot reach
another table's deal, a closed round, or a table that has all its deals; a wrong token is 404.
"""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from tarot_scores.games.models import Deal, DealRevision, Game
from tests.factories import World, build_world, play
from tests.tournaments.test_pages_world import deal_post, text_of
from tournaments.models import Round
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db


def tables(world: World) -> list[TableState]:
    return round_selectors.round_tables(round_=world.round)


def entry(state: TableState) -> str:
    return reverse("tournaments:table_entry", args=[state.table.token])


@pytest.mark.parametrize("public", [True, False], ids=["public club", "private club"])
def test_the_link_enters_that_tables_deals_without_an_account(public: bool) -> None:
    world = build_world(public=public)
    first, second = tables(world)
    anonymous = Client()
    page = anonymous.get(entry(first))
    assert page.status_code == 200
    text = text_of(page.content)
    for player in first.players:
        assert player.label in text
    assert 'data-deals="0" data-goal="2"' in page.content.decode()
    # The game page of a private club is for its members: no link to it then.
    game_url = reverse("games:detail", args=[first.table.game_id])
    assert (game_url in page.content.decode()) is public

    taker = first.players[1].pk
    response = anonymous.post(entry(first), deal_post(taker, 1))
    assert response.status_code == 302 and response["Location"] == entry(first) + "?saved=1"
    deal = Deal.objects.get(game=first.table.game)
    assert deal.number == 1 and deal.taker_id == taker
    revision = DealRevision.objects.get(deal=deal)
    assert revision.by is None and str(first.table.number) in revision.by_label
    assert not Deal.objects.filter(game=second.table.game).exists()


def test_htmx_saves_answer_the_form_and_the_sheet_without_a_reload() -> None:
    world = build_world()
    first, _second = tables(world)
    response = Client().post(
        entry(first), deal_post(first.players[0].pk, 1), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    content = response.content.decode()
    assert "<html" not in content
    assert 'id="deal-saved"' in content and 'hx-swap-oob="true"' in content
    assert 'data-deals="1"' in content
    # The second deal fills the table: the answer says so instead of offering a third.
    response = Client().post(
        entry(first), deal_post(first.players[1].pk, 2), headers={"HX-Request": "true"}
    )
    assert 'id="deal-full"' in response.content.decode()
    assert 'id="save-deal"' not in response.content.decode()


def test_the_preview_scores_without_saving() -> None:
    world = build_world()
    first, _second = tables(world)
    url = reverse("tournaments:table_preview", args=[first.table.token])
    response = Client().post(url, deal_post(first.players[0].pk, 1))
    assert response.status_code == 200
    assert 'data-testid="preview-score-0"' in response.content.decode()
    assert not Deal.objects.filter(game=first.table.game).exists()


def test_a_wrong_token_is_a_404() -> None:
    world = build_world()
    first, _second = tables(world)
    client = Client()
    for url in (
        reverse("tournaments:table_entry", args=["not-a-token"]),
        reverse("tournaments:table_entry", args=[first.table.token[:-1]]),
        reverse("tournaments:table_preview", args=["not-a-token"]),
    ):
        assert client.get(url).status_code in (404, 405)
        assert client.post(url, deal_post(first.players[0].pk, 1)).status_code == 404
    assert not Deal.objects.exists()


def test_a_full_table_takes_no_more_deals() -> None:
    world = build_world()
    first, _second = tables(world)
    for number in (1, 2):  # the other table still plays: the round stays open
        assert (
            Client().post(entry(first), deal_post(first.players[0].pk, number)).status_code == 302
        )
    page = Client().get(entry(first))
    assert page.status_code == 200
    assert 'id="deal-full"' in page.content.decode()
    assert 'id="save-deal"' not in page.content.decode()
    response = Client().post(entry(first), deal_post(first.players[0].pk, 3))
    assert response.status_code == 409
    assert Deal.objects.filter(game=first.table.game).count() == 2


def test_a_closed_round_refuses_the_link() -> None:
    world = build_world()
    play(world.round)  # its last deal closes the round
    first, _second = tables(world)
    deal = Deal.objects.filter(game=first.table.game).first()
    assert deal is not None
    client = Client()
    page = client.get(entry(first))
    assert page.status_code == 403 and 'id="round-closed"' in page.content.decode()
    assert client.post(entry(first), deal_post(first.players[0].pk, 3)).status_code == 403
    preview = reverse("tournaments:table_preview", args=[first.table.token])
    assert client.post(preview, deal_post(first.players[0].pk, 1)).status_code == 403
    edit = reverse("tournaments:table_deal_edit", args=[first.table.token, deal.pk])
    assert client.get(edit).status_code == 403
    data = deal_post(first.players[0].pk, deal.number, version=deal.version, points="70")
    assert client.post(edit, data).status_code == 403
    deal.refresh_from_db()
    assert deal.version == 1 and Deal.objects.filter(game=first.table.game).count() == 2


def test_the_link_corrects_its_own_tables_deals() -> None:
    world = build_world()
    play(world.round, deals=1)
    first, _second = tables(world)
    deal = Deal.objects.get(game=first.table.game)
    edit = reverse("tournaments:table_deal_edit", args=[first.table.token, deal.pk])
    client = Client()
    page = client.get(edit)
    assert page.status_code == 200 and 'id="save-deal"' in page.content.decode()
    taker = first.players[2].pk
    data = deal_post(taker, deal.number, version=deal.version, points="61", oudlers=1)
    response = client.post(edit, data)
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.version == 2 and deal.payload["points"] == 61
    revision = deal.revisions.get(version=2)
    assert revision.by is None and str(first.table.number) in revision.by_label
    # A stale version is refused and shows the deal as it is now.
    stale = client.post(edit, {**data, "version": "1", "points": "45"})
    assert stale.status_code == 409
    deal.refresh_from_db()
    assert deal.payload["points"] == 61


def test_a_token_cannot_touch_another_tables_deal() -> None:
    world = build_world()
    play(world.round, deals=1)
    first, second = tables(world)
    theirs = Deal.objects.get(game=second.table.game)
    edit = reverse("tournaments:table_deal_edit", args=[first.table.token, theirs.pk])
    client = Client()
    assert client.get(edit).status_code == 404
    data = deal_post(second.players[0].pk, theirs.number, version=theirs.version, points="80")
    assert client.post(edit, data).status_code == 404
    theirs.refresh_from_db()
    assert theirs.version == 1
    # Nor a deal of the same table in another event: the link names its own game only.
    other = round_selectors.round_tables(round_=world.knockout.round_set.get())[0]
    play(world.knockout.round_set.get(), deals=1)
    foreign = Deal.objects.filter(game=other.table.game).first()
    assert foreign is not None
    url = reverse("tournaments:table_deal_edit", args=[first.table.token, foreign.pk])
    assert client.get(url).status_code == 404


def test_a_deal_saved_from_another_phone_first_is_shown_not_overwritten() -> None:
    world = build_world()
    first, _second = tables(world)
    phone_a, phone_b = Client(), Client()
    assert phone_a.post(entry(first), deal_post(first.players[0].pk, 1)).status_code == 302
    late = phone_b.post(entry(first), deal_post(first.players[1].pk, 1))
    assert late.status_code == 409 and 'id="deal-conflict"' in late.content.decode()
    deal = Deal.objects.get(game=first.table.game)
    assert deal.taker_id == first.players[0].pk


def test_an_invalid_deal_is_refused_with_the_reason_beside_the_field() -> None:
    world = build_world()
    first, _second = tables(world)
    response = Client().post(entry(first), deal_post(first.players[0].pk, 1, points="95"))
    assert response.status_code == 400
    assert 'id="deal-err-points"' in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.parametrize("role", ["anonymous", "outsider", "member", "organiser", "superuser"])
@pytest.mark.parametrize("public", [True, False], ids=["public club", "private club"])
def test_the_link_works_the_same_for_every_role(role: str, public: bool) -> None:
    """The token is the key: an account neither helps nor hinders, even in a private club."""
    world = build_world(public=public)
    first, _second = tables(world)
    client = world.client(role)
    assert client.get(entry(first)).status_code == 200
    assert client.post(entry(first), deal_post(first.players[0].pk, 1)).status_code == 302
    deal = Deal.objects.get(game=first.table.game)
    revision = deal.revisions.get()
    assert revision.by is None and str(first.table.number) in revision.by_label
    assert client.get(reverse("tournaments:table_entry", args=["nope"])).status_code == 404


def test_the_last_deal_through_the_link_closes_the_round() -> None:
    world = build_world()
    first, second = tables(world)
    play(world.round, deals=1)
    client = Client()
    client.post(entry(first), deal_post(first.players[0].pk, 2))
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.SEATED
    response = client.post(entry(second), deal_post(second.players[0].pk, 2))
    assert response.status_code == 302
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.CLOSED
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("la séance est close" in m for m in said), said


def test_the_last_deal_through_the_game_page_closes_the_round_too() -> None:
    """An organiser entering a table's last deal on the club's game page closes the round as
    the table's link would: the rule lives in the deal's service, not in a page."""
    world = build_world()
    first, second = tables(world)
    play(world.round, deals=1)
    Client().post(entry(first), deal_post(first.players[0].pk, 2))
    client = Client()
    organiser = world.users["organiser"]
    assert organiser is not None
    client.force_login(organiser)
    game = second.table.game
    url = reverse("games:deal_new", args=[game.pk])
    assert client.post(url, deal_post(second.players[0].pk, 2)).status_code == 302
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.CLOSED
    assert all(s.table.game.status == Game.Status.FINISHED for s in tables(world))


def test_the_link_undoes_its_own_last_deal_under_its_label() -> None:
    world = build_world()
    first, second = tables(world)
    client = Client()
    client.post(entry(first), deal_post(first.players[0].pk, 1), headers={"HX-Request": "true"})
    deal = Deal.objects.get(game=first.table.game)
    undo = reverse("tournaments:table_deal_undo", args=[first.table.token, deal.pk])
    # Another table's link cannot reach it.
    elsewhere = reverse("tournaments:table_deal_undo", args=[second.table.token, deal.pk])
    assert client.post(elsewhere, {"version": deal.version}).status_code == 404

    response = client.post(undo, {"version": deal.version}, headers={"HX-Request": "true"})

    assert response.status_code == 200 and 'id="deal-undone"' in response.content.decode()
    deal.refresh_from_db()
    assert deal.is_deleted
    deleted = deal.revisions.get(action=DealRevision.Action.DELETED)
    assert deleted.by is None and str(first.table.number) in deleted.by_label


def test_the_deal_that_closes_the_round_offers_no_undo() -> None:
    world = build_world()
    first, second = tables(world)
    play(world.round, deals=1)
    Client().post(entry(first), deal_post(first.players[0].pk, 2))
    client = Client()

    response = client.post(
        entry(second), deal_post(second.players[0].pk, 2), headers={"HX-Request": "true"}
    )

    content = response.content.decode()
    assert Round.objects.get(pk=world.round.pk).status == Round.Status.CLOSED
    assert 'id="deal-saved"' in content and 'id="undo-deal"' not in content
    deal = Deal.objects.get(game=second.table.game, number=2)
    undo = reverse("tournaments:table_deal_undo", args=[second.table.token, deal.pk])
    assert client.post(undo, {"version": deal.version}).status_code == 403
    assert not Deal.objects.get(pk=deal.pk).is_deleted
