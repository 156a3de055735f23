"""Confirmation at the table, on the pages: the phone says who holds it, the other side confirms
or disagrees on the table's link, the referee's page shows both versions and settles, and the
standings, projector, round and tournament pages say how many deals wait."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Membership, Player
from tarot_scores.games.models import Deal, DealRevision
from tests import factories
from tests.tournaments.views.test_pages_world import deal_post, text_of
from tournaments.models import DealConfirmation, Entry, Round, Tournament
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


@dataclass
class Event:
    tournament: Tournament
    round: Round
    tables: list[TableState]
    users: dict[str, Any]

    def client(self, role: str) -> Client:
        return factories.signed_in_client(self.users[role])


def event(*, require: bool = True, public: bool = True) -> Event:
    club = factories.ClubFactory.create(public=public)
    tournament = factories.make_tournament(club, 8, require_confirmation=require)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    referee = factories.UserFactory.create()
    users: dict[str, Any] = {
        "anonymous": None,
        "member": factories.MembershipFactory.create(
            club=club, user=factories.UserFactory.create()
        ).user,
        "organiser": factories.MembershipFactory.create(
            club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
        ).user,
        "referee": referee,
    }
    tournament.referees.add(referee)
    return Event(tournament, round_, round_selectors.round_tables(round_=round_), users)


def link(state: TableState, name: str = "table_entry", *args: Any) -> str:
    return reverse(f"tournaments:{name}", args=[state.table.token, *args])


def phone(state: TableState, seat: int) -> Client:
    """A phone at the table whose holder named himself: the player at ``seat`` (with his PIN,
    which a tournament asking for personal proof wants, and any other ignores)."""
    client = Client()
    player = state.players[seat]
    pin = Entry.objects.get(tournament_id=state.table.round.tournament_id, player=player).pin
    response = client.post(link(state, "table_holder"), {"player": player.pk, "pin": pin})
    assert response.status_code == 302
    return client


def enter_at(state: TableState, client: Client, taker_seat: int = 0, **given: Any) -> Deal:
    number = state.table.game.deals.count() + 1
    response = client.post(link(state), deal_post(state.players[taker_seat].pk, number, **given))
    assert response.status_code == 302, response.content.decode()[:400]
    return Deal.objects.get(game=state.table.game, number=number)


def test_the_phone_says_who_holds_it_before_entering() -> None:
    e = event()
    state = e.tables[0]
    page = Client().get(link(state))
    content = page.content.decode()
    assert 'id="table-holder"' in content and 'id="deal-who-first"' in content
    assert 'id="save-deal"' not in content
    for player in state.players:
        assert f'value="{player.pk}"' in content
    # A deal posted anyway is refused: nothing stored.
    response = Client().post(link(state), deal_post(state.players[0].pk, 1))
    assert response.status_code == 302
    assert not Deal.objects.filter(game=state.table.game).exists()
    # Someone of another table is not a choice.
    other = e.tables[1].players[0]
    client = Client()
    client.post(link(state, "table_holder"), {"player": other.pk})
    assert 'id="deal-who-first"' in client.get(link(state)).content.decode()


def test_a_deal_entered_on_the_link_waits_for_the_other_sides_phone() -> None:
    e = event()
    state = e.tables[0]
    taker_phone = phone(state, 0)
    page = taker_phone.get(link(state))
    assert 'id="save-deal"' in page.content.decode()
    deal = enter_at(state, taker_phone)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING and confirmation.entered_by == state.players[0]
    revision = DealRevision.objects.get(deal=deal)
    assert state.players[0].label in revision.by_label  # the history says who entered it

    # The taker's phone waits; it shows no Confirm for its own side's deal.
    own = taker_phone.get(link(state)).content.decode()
    assert 'data-testid="waiting-1"' in own and 'id="confirm-1"' not in own
    assert 'data-testid="state-1"' in own
    assert "En attente d'un joueur de la défense" in text_of(own.encode())

    defender_phone = phone(state, 2)
    other = defender_phone.get(link(state)).content.decode()
    assert 'id="confirm-1"' in other and 'id="dispute-1"' in other
    # The taker's phone posting a confirmation anyway is refused.
    taker_phone.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING

    response = defender_phone.post(link(state, "table_deal_confirm", deal.pk), {"version": "1"})
    assert response.status_code == 302
    confirmation.refresh_from_db()
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == state.players[2]
    after = defender_phone.get(link(state)).content.decode()
    assert 'id="nothing-to-confirm"' in after and 'data-testid="state-1"' not in after


def test_a_signed_in_player_of_the_table_is_his_account() -> None:
    e = event()
    state = e.tables[0]
    user = factories.UserFactory.create()
    Player.objects.filter(pk=state.players[1].pk).update(user=user)
    client = factories.signed_in_client(user)
    page = client.get(link(state)).content.decode()
    assert f'data-holder="{state.players[1].pk}"' in page and 'id="holder-player"' not in page
    deal = enter_at(state, client)
    assert DealConfirmation.objects.get(deal=deal).entered_by == state.players[1]


def test_the_other_side_disagrees_with_its_version() -> None:
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    defender_phone = phone(state, 1)
    url = link(state, "table_deal_dispute", deal.pk)
    page = defender_phone.get(url)
    assert page.status_code == 200
    assert 'id="entered-version"' in page.content.decode()
    # A version that cannot be scored is refused beside its field.
    bad = defender_phone.post(
        url, {**deal_post(state.players[0].pk, 1, points="95"), "version": "1"}
    )
    assert bad.status_code == 400
    assert DealConfirmation.objects.get(deal=deal).status == Status.PENDING
    response = defender_phone.post(
        url, {**deal_post(state.players[0].pk, 1, points="40"), "version": "1"}
    )
    assert response.status_code == 302
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.DISPUTED
    assert (confirmation.dispute_payload or {})["points"] == 40
    table_page = defender_phone.get(link(state)).content.decode()
    assert 'data-status="disputed"' in table_page and 'id="confirm-1"' not in table_page


def test_the_dispute_page_scores_the_version_it_starts_from() -> None:
    # The form opens holding the deal as entered: its result line scores that version, as the
    # correction page's does, instead of asking every question as if the form were empty.
    e = event()
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    page = phone(state, 1).get(link(state, "table_deal_dispute", deal.pk))
    assert page.status_code == 200
    content = page.content.decode()
    entered = content[content.index('id="entered-version"') : content.index("</section>")]
    preview = content[content.index('id="deal-preview"') :]
    entered_scores = re.findall(r"<li>[^<]* ([+-]?\d+)</li>", entered)
    preview_scores = re.findall(r'data-testid="preview-score-\d"[^>]*>([+-]?\d+)<', preview)
    assert len(entered_scores) == 4 and preview_scores == entered_scores
    assert "Still to answer" not in text_of(page.content)


def disputed_deal(e: Event) -> Deal:
    state = e.tables[0]
    deal = enter_at(state, phone(state, 0))
    phone(state, 1).post(
        link(state, "table_deal_dispute", deal.pk),
        {**deal_post(state.players[0].pk, 1, points="40"), "version": "1"},
    )
    assert DealConfirmation.objects.get(deal=deal).status == Status.DISPUTED
    return deal


def test_the_referee_page_shows_both_versions_and_settles() -> None:
    e = event()
    deal = disputed_deal(e)
    state = e.tables[0]
    url = reverse("tournaments:referee", args=[e.tournament.pk])
    page = e.client("referee").get(url)
    assert page.status_code == 200
    content = page.content.decode()
    assert f'data-testid="dispute-{deal.pk}"' in content
    text = text_of(page.content)
    taker = state.players[0].label
    assert f"{taker} +198" in text  # the version entered: won
    assert f"{taker} -" in text  # the defence's: lost
    response = e.client("referee").post(
        reverse("tournaments:referee_settle", args=[e.tournament.pk, deal.pk]),
        {"keep": "other", "reason": "Recompté"},
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.payload["points"] == 40 and deal.version == 2
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED
    assert DealRevision.objects.get(deal=deal, version=2).by == e.users["referee"]
    assert f'data-testid="dispute-{deal.pk}"' not in e.client("referee").get(url).content.decode()


def test_the_referee_confirms_and_corrects_from_his_page() -> None:
    e = event()
    state = e.tables[0]
    first = enter_at(state, phone(state, 0))
    second = enter_at(state, phone(state, 0), taker_seat=1)
    e.client("organiser").post(
        reverse("tournaments:referee_confirm", args=[e.tournament.pk, first.pk]), {"version": "1"}
    )
    assert DealConfirmation.objects.get(deal=first).status == Status.PENDING  # no reason given
    e.client("organiser").post(
        reverse("tournaments:referee_confirm", args=[e.tournament.pk, first.pk]),
        {"version": "1", "reason": "Le camp adverse est parti"},
    )
    confirmation = DealConfirmation.objects.get(deal=first)
    assert confirmation.status == Status.CONFIRMED
    assert confirmation.referee_reason == "Le camp adverse est parti"
    edit = reverse("tournaments:referee_deal_edit", args=[e.tournament.pk, second.pk])
    assert e.client("referee").get(edit).status_code == 200
    response = e.client("referee").post(
        edit, {**deal_post(state.players[1].pk, 2, points="60"), "version": "1"}
    )
    assert response.status_code == 302
    second.refresh_from_db()
    assert second.payload["points"] == 60
    assert DealConfirmation.objects.get(deal=second).status == Status.CONFIRMED
    e.round.refresh_from_db()
    assert [t.complete for t in round_selectors.round_tables(round_=e.round)][0]


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("member", 403), ("referee", 200), ("organiser", 200)],
)
def test_the_referee_page_is_for_referees_and_organisers(role: str, status: int) -> None:
    e = event()
    deal = disputed_deal(e)
    url = reverse("tournaments:referee", args=[e.tournament.pk])
    assert e.client(role).get(url).status_code == status
    settle = reverse("tournaments:referee_settle", args=[e.tournament.pk, deal.pk])
    e.client(role).post(settle, {"keep": "entered", "reason": "Vu"})
    settled = DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED
    assert settled is (status == 200)


def test_a_referee_from_another_club_settles_in_a_private_club() -> None:
    e = event(public=False)
    deal = disputed_deal(e)
    url = reverse("tournaments:referee", args=[e.tournament.pk])
    assert e.client("referee").get(url).status_code == 200
    outsider = factories.signed_in_client(factories.UserFactory.create())
    assert outsider.get(url).status_code == 404  # a private club's event does not exist for him
    assert e.client("member").get(url).status_code == 403
    settle = reverse("tournaments:referee_settle", args=[e.tournament.pk, deal.pk])
    e.client("referee").post(settle, {"keep": "entered", "reason": "Vu"})
    assert DealConfirmation.objects.get(deal=deal).status == Status.CONFIRMED


def test_no_referee_page_without_confirmation() -> None:
    e = event(require=False)
    url = reverse("tournaments:referee", args=[e.tournament.pk])
    assert e.client("organiser").get(url).status_code == 404
    state = e.tables[0]
    page = Client().get(link(state)).content.decode()
    assert 'id="table-holder"' not in page and 'id="to-confirm"' not in page
    assert 'id="save-deal"' in page
    assert Client().post(link(state, "table_holder"), {"player": "1"}).status_code == 404


def test_results_pages_say_how_many_deals_wait() -> None:
    e = event()
    disputed_deal(e)
    state = e.tables[1]
    enter_at(state, phone(state, 0))
    enter_at(state, phone(state, 0))
    standings = Client().get(reverse("tournaments:standings", args=[e.tournament.pk]))
    content = standings.content.decode()
    assert 'data-pending="2" data-disputed="1"' in content
    assert "Seules les donnes confirmées par le camp adverse comptent." in text_of(
        standings.content
    )
    projector = Client().get(reverse("tournaments:projector", args=[e.tournament.pk]))
    assert 'data-pending="2" data-disputed="1"' in projector.content.decode()
    assert "2 à confirmer" in text_of(projector.content)
    round_page = Client().get(reverse("tournaments:round", args=[e.tournament.pk, 1]))
    assert 'data-testid="pending-2"' in round_page.content.decode()
    assert 'data-testid="disputed-1"' in round_page.content.decode()
    detail = e.client("referee").get(reverse("tournaments:detail", args=[e.tournament.pk]))
    assert 'id="referee-link"' in detail.content.decode()
    assert (
        'id="referee-link"'
        not in Client().get(reverse("tournaments:detail", args=[e.tournament.pk])).content.decode()
    )


def test_english_words_for_the_phone() -> None:
    e = event()
    state = e.tables[0]
    enter_at(state, phone(state, 2))
    page = phone(state, 0).get(link(state), headers={"Accept-Language": "en"})
    text = text_of(page.content)
    # What waits for this phone comes first, before who holds it and the entry form.
    assert "1 deal waits for your confirmation" in text
    assert "Confirm as" in text and "Disagree" in text
    assert text.index("1 deal waits") < text.index("This phone is")


def test_french_words_for_the_phone() -> None:
    e = event()
    state = e.tables[0]
    enter_at(state, phone(state, 0))
    client = phone(state, 2)
    page = client.get(link(state), headers={"Accept-Language": "fr"})
    text = text_of(page.content)
    assert "1 donne attend votre confirmation" in text and "Confirmer (je suis" in text
    assert text.count("Ce téléphone est") == 1


def test_nothing_is_said_about_confirmations_before_a_deal_is_entered() -> None:
    e = event()
    state = e.tables[0]
    page = phone(state, 0).get(link(state), headers={"Accept-Language": "fr"})
    text = text_of(page.content)
    assert "sont confirmées" not in text and "attend votre confirmation" not in text
    assert 'id="to-confirm"' in page.content.decode()  # there to be filled in after a Save


def test_a_phone_with_no_holder_is_pointed_to_the_box_below_the_waiting_deals() -> None:
    """The waiting deals come before the box where the phone says who holds it: the page
    links to the box instead of saying "above"."""
    e = event()
    state = e.tables[0]
    enter_at(state, phone(state, 0))

    page = Client().get(link(state), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    waiting, box = page.index("Dites qui vous êtes"), page.index('id="table-holder"')
    assert waiting < box  # the box is below the line that points to it
    assert '<a href="#table-holder">Dites qui vous êtes</a> pour la confirmer.' in page
    assert "ci-dessus pour la confirmer" not in page
