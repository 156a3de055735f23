"""Closing a round early ("Close the round now", docs/tournaments.md): the organiser confirms
it; deals waiting for the other side are confirmed as entered, deals not entered score nothing,
a dispute must be settled first, a round not started cannot be closed this way; and the next
round can be seated after it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from tarot_scores.games.models import Game
from tests import factories
from tests.tournaments.play.test_confirmations import Event, enter, event, other_version, totals
from tournaments.errors import TournamentError
from tournaments.models import DealConfirmation, Round, Tournament
from tournaments.play.confirmations import deal_dispute
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


def test_close_now_confirms_what_waits_and_scores_nothing_for_deals_not_entered() -> None:
    e = event(deals=3)
    round_services.round_start(round_=e.round)
    first, second = e.tables
    waiting = enter(first, taker=0, acting=first.players[0].pk)  # pending: not counted yet
    assert set(totals(e.tournament).values()) == {0}

    round_services.round_close_now(round_=e.round, by=e.organiser)

    e.refresh()
    assert e.round.status == Round.Status.CLOSED and e.round.closed_at is not None
    confirmation = DealConfirmation.objects.get(deal=waiting)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by_user == e.organiser
    assert confirmation.referee_reason  # why it counts, kept with it
    scores = totals(e.tournament)
    assert scores[first.players[0].pk] == 198  # the deal entered counts, as entered
    assert {scores[p.pk] for p in second.players} == {0}  # a table with no deal scores nothing
    games = Game.objects.filter(tournament_table__round=e.round)
    assert set(games.values_list("status", flat=True)) == {Game.Status.FINISHED}
    # The next round can be seated after a round closed early.
    assert round_services.next_round_refusal(e.tournament) is None
    round_services.round_seat_next(tournament=e.tournament, by=None)


def test_a_disputed_deal_keeps_the_round_open_until_a_referee_settles_it() -> None:
    e = event()
    round_services.round_start(round_=e.round)
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    deal_dispute(deal=deal, payload=other_version(table), by=None, player=table.players[2].pk)

    with pytest.raises(TournamentError) as refused, translation.override("en"):
        round_services.round_close_now(round_=e.round, by=e.organiser)

    assert refused.value.codes() == {"non_field_errors": ["deals_disputed"]}
    assert "1 deal is disputed" in str(refused.value)
    e.refresh()
    assert e.round.status == Round.Status.PLAYING


def test_a_round_not_started_or_already_closed_is_refused() -> None:
    e = event()
    with pytest.raises(TournamentError) as refused:
        round_services.round_close_now(round_=e.round, by=e.organiser)
    assert refused.value.codes() == {"non_field_errors": ["not_started"]}
    round_services.round_start(round_=e.round)
    round_services.round_close_now(round_=e.round, by=e.organiser)
    with pytest.raises(TournamentError) as refused:
        round_services.round_close_now(round_=e.round, by=e.organiser)
    assert refused.value.codes() == {"non_field_errors": ["already_closed"]}


def test_closing_the_last_round_early_finishes_the_tournament() -> None:
    e = event()
    Tournament.objects.filter(pk=e.tournament.pk).update(rounds=1)
    round_ = Round.objects.get(pk=e.round.pk)
    round_services.round_start(round_=round_)
    round_services.round_close_now(round_=round_, by=e.organiser)
    e.tournament.refresh_from_db()
    assert e.tournament.status == Tournament.Status.FINISHED


# --- the round's page -------------------------------------------------------------------------


def _page(e: Event, language: str = "fr") -> str:
    client = factories.signed_in_client(e.organiser)
    url = reverse("tournaments:round", args=[e.tournament.pk, e.round.number])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


def test_the_page_says_what_closing_now_does_and_asks_to_confirm() -> None:
    e = event(deals=3)
    assert 'id="close-now"' not in _page(e)  # not started: nothing to close early
    round_services.round_start(round_=e.round)
    first = e.tables[0]
    enter(first, taker=0, acting=first.players[0].pk)

    french = _page(e)
    english = _page(e, "en")

    assert 'id="close-now"' in french and 'id="close-now-confirm"' in french
    assert "5 donnes non saisies ne rapportent rien" in french
    assert "1 donne en attente de l'autre camp est confirmée telle que saisie" in french
    assert "5 deals not entered score nothing" in english
    assert "1 deal waiting for the other side is confirmed as entered" in english


def test_the_button_closes_the_round_and_a_post_without_the_confirmation_does_not() -> None:
    e = event(deals=3)
    round_services.round_start(round_=e.round)
    client = factories.signed_in_client(e.organiser)
    url = reverse("tournaments:round_close_now", args=[e.tournament.pk, e.round.number])

    client.post(url)  # no confirmation: nothing happens
    e.refresh()
    assert e.round.status == Round.Status.PLAYING

    response = client.post(url, {"confirm": "yes"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    e.refresh()
    assert e.round.status == Round.Status.CLOSED
    assert "Round 1 is closed." in response.content.decode()
    assert 'id="close-now"' not in _page(e)


def test_a_dispute_is_named_instead_of_the_button() -> None:
    e = event()
    round_services.round_start(round_=e.round)
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    deal_dispute(deal=deal, payload=other_version(table), by=None, player=table.players[2].pk)

    page = _page(e, "en")

    assert 'id="close-now-disputed"' in page and 'id="close-now-confirm"' not in page
    assert "1 deal is disputed: a referee settles it before the round can close." in page


def test_only_organisers_close_a_round_now() -> None:
    e = event()
    round_services.round_start(round_=e.round)
    url = reverse("tournaments:round_close_now", args=[e.tournament.pk, e.round.number])
    response = factories.signed_in_client(e.member).post(url, {"confirm": "yes"})
    assert response.status_code in (403, 404)
    e.refresh()
    assert e.round.status == Round.Status.PLAYING


def test_a_closed_round_says_so_in_french() -> None:
    e = event()
    round_services.round_start(round_=e.round)
    round_services.round_close_now(round_=e.round, by=e.organiser)

    page = _page(e)

    status = page.split('id="round-status"', 1)[1].split("</span>", 1)[0]
    assert "Terminée" in status and "Close" not in status


def test_the_refereeing_page_names_each_dispute_with_its_link() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    url = reverse("tournaments:referees", args=[e.tournament.pk])
    client = factories.signed_in_client(e.referee)
    assert "0 disputed deals" in client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    deal_dispute(deal=deal, payload=other_version(table), by=None, player=table.players[2].pk)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "1 disputed deal" in page
    desk = reverse("tournaments:referee", args=[e.tournament.pk])
    assert f'href="{desk}#dispute-{deal.pk}"' in page
    assert "Round 1, table 1, deal 1" in page
    assert "1 disputed</a>" in page  # beside its table too
