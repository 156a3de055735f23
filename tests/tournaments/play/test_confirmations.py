"""Confirmation at the table: a deal counts once the other side (or a referee) agrees to it.

Each rule of ``tournaments.play.confirmations`` has its test: a pending deal is not counted, the
other side confirms it, the side that entered it cannot, organisers and referees may (not at
their own table), a disagreement goes to the referee with both versions, the referee settles
it, a round closes only once every deal is confirmed, a correction makes a deal pending again,
and a tournament without the setting behaves as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import translation

from tarot_scores.clubs.models import Membership, Player
from tarot_scores.core.actors import AtTable
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealRevision
from tarot_scores.scoring import ScoringError
from tests import factories
from tournaments import errors as tournament_errors
from tournaments.models import DealConfirmation, Round, Tournament
from tournaments.play.confirmations import (
    KEEP_ENTERED,
    KEEP_OTHER,
    deal_confirm,
    deal_dispute,
    dispute_settle,
)
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db
Status = DealConfirmation.Status


@dataclass
class Event:
    tournament: Tournament
    round: Round
    tables: list[TableState]
    organiser: Any
    referee: Any
    member: Any

    def refresh(self) -> None:
        self.round.refresh_from_db()
        self.tables = round_selectors.round_tables(round_=self.round)


def event(*, require: bool = True, deals: int = 2) -> Event:
    club = factories.ClubFactory.create()
    tournament = factories.make_tournament(
        club, 8, require_confirmation=require, deals_per_round=deals
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    organiser = factories.MembershipFactory.create(
        club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    member = factories.MembershipFactory.create(club=club, user=factories.UserFactory.create()).user
    referee = factories.UserFactory.create()
    tournament.referees.add(referee)
    return Event(
        tournament,
        round_,
        round_selectors.round_tables(round_=round_),
        organiser,
        referee,
        member,
    )


def enter(state: TableState, *, taker: int, by: Any = None, acting: int | None = None) -> Deal:
    """The next deal at the table: a garde won by the player at seat ``taker``."""
    payload = factories.garde(state.players[taker].pk)
    at_table = AtTable(acting) if acting is not None else None
    return game_services.deal_record(
        game=state.table.game, payload=payload, by=by, at_table=at_table
    ).deal


def status(deal: Deal) -> str:
    return DealConfirmation.objects.get(deal=deal).status


def totals(tournament: Tournament) -> dict[int, int]:
    return {
        row.player.pk: row.total for row in standings_selectors.standings_for(tournament=tournament)
    }


def code_of(refusal: Refusal) -> str:
    return refusal.codes()["non_field_errors"][0]


def test_an_entered_deal_is_pending_and_not_counted() -> None:
    e = event()
    table = e.tables[0]
    taker = table.players[0]
    deal = enter(table, taker=0, acting=taker.pk)
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING
    assert confirmation.entered_by == taker and confirmation.entered_side == "attack"
    assert set(totals(e.tournament).values()) == {0}
    assert round_selectors.deals_waiting_count(tournament=e.tournament).pending == 1
    assert [c.deal for c in round_selectors.deals_waiting(tournament=e.tournament)] == [deal]


def test_a_player_of_the_other_side_confirms_and_the_deal_counts() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    defender = table.players[2]
    confirmation = deal_confirm(deal=deal, by=None, player=defender.pk, version=deal.version)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by == defender
    assert confirmation.confirmed_at is not None
    scores = totals(e.tournament)
    assert scores[table.players[0].pk] == 198 and scores[defender.pk] == -66
    assert not round_selectors.deals_waiting_count(tournament=e.tournament)
    # Confirming again changes nothing.
    assert deal_confirm(deal=deal, by=None, player=table.players[1].pk).confirmed_by == defender


def test_the_side_that_entered_the_deal_cannot_confirm_it() -> None:
    e = event()
    table = e.tables[0]
    # Entered by a defender: the other defenders cannot confirm it, the taker can.
    deal = enter(table, taker=0, acting=table.players[1].pk)
    for same_side in table.players[1:]:
        with pytest.raises(Refusal) as refused, translation.override("en"):
            deal_confirm(deal=deal, by=None, player=same_side.pk)
        assert code_of(refused.value) == "same_side"
        assert "defence" in str(refused.value)
    assert status(deal) == Status.PENDING
    deal_confirm(deal=deal, by=None, player=table.players[0].pk)
    assert status(deal) == Status.CONFIRMED


def test_a_player_of_another_table_or_nobody_cannot_confirm() -> None:
    e = event()
    table, other = e.tables
    deal = enter(table, taker=0, acting=table.players[0].pk)
    for who in ({"player": other.players[0].pk}, {"by": e.member}, {}):
        with pytest.raises(Refusal) as refused:
            deal_confirm(deal=deal, **{"by": None, **who})
        assert code_of(refused.value) == "not_at_table"
    assert status(deal) == Status.PENDING


def test_a_seated_member_is_his_accounts_player() -> None:
    e = event()
    table = e.tables[0]
    taker, defender = table.players[0], table.players[3]
    taker_user, defender_user = factories.UserFactory.create(), factories.UserFactory.create()
    Player.objects.filter(pk=taker.pk).update(user=taker_user)
    Player.objects.filter(pk=defender.pk).update(user=defender_user)
    deal = enter(table, taker=0, by=taker_user)  # through the game page or the API
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.entered_by == taker and confirmation.entered_side == "attack"
    with pytest.raises(Refusal):
        deal_confirm(deal=deal, by=taker_user)
    deal_confirm(deal=deal, by=defender_user)
    confirmation.refresh_from_db()
    assert confirmation.confirmed_by == defender and confirmation.confirmed_by_user == defender_user


@pytest.mark.parametrize("role", ["organiser", "referee"])
def test_organisers_and_referees_confirm_any_deal(role: str) -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    user = getattr(e, role)
    confirmation = deal_confirm(deal=deal, by=user, reason="Vu à la table")
    assert confirmation.status == Status.CONFIRMED
    assert confirmation.confirmed_by_user == user and confirmation.confirmed_by is None


def test_an_organiser_playing_at_the_table_is_a_player_there() -> None:
    e = event()
    table = e.tables[0]
    Player.objects.filter(pk=table.players[0].pk).update(user=e.organiser)
    deal = enter(table, taker=0, by=e.organiser)
    assert status(deal) == Status.PENDING  # not confirmed at once: he plays here
    with pytest.raises(Refusal) as refused:
        deal_confirm(deal=deal, by=e.organiser, reason="Vu à la table")
    assert code_of(refused.value) == "same_side"
    # At another table he is the organiser.
    elsewhere = enter(e.tables[1], taker=0, acting=e.tables[1].players[0].pk)
    deal_confirm(deal=elsewhere, by=e.organiser, reason="Vu à la table")
    assert status(elsewhere) == Status.CONFIRMED


@pytest.mark.parametrize("role", ["organiser", "referee"])
def test_a_deal_entered_by_an_organiser_or_referee_is_confirmed_at_once(role: str) -> None:
    e = event()
    deal = enter(e.tables[0], taker=0, by=getattr(e, role))
    assert status(deal) == Status.CONFIRMED
    assert totals(e.tournament)[e.tables[0].players[0].pk] == 198


def test_a_stale_page_cannot_confirm_a_corrected_deal() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    with pytest.raises(game_services.DealConflict):
        deal_confirm(deal=deal, by=None, player=table.players[2].pk, version=deal.version + 1)
    assert status(deal) == Status.PENDING


def other_version(state: TableState) -> dict[str, Any]:
    """The defence's version: the same garde, but lost (40 points)."""
    return factories.garde(state.players[0].pk, points=40)


def test_a_disagreement_goes_to_the_referee_with_both_versions() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    defender = table.players[1]
    with pytest.raises(Refusal) as refused:  # the side that entered it does not disagree
        deal_dispute(deal=deal, payload=other_version(table), by=None, player=table.players[0].pk)
    assert code_of(refused.value) == "same_side"
    confirmation = deal_dispute(
        deal=deal, payload=other_version(table), by=None, player=defender.pk, version=1
    )
    assert confirmation.status == Status.DISPUTED and confirmation.disputed_by == defender
    assert (confirmation.dispute_payload or {})["points"] == 40
    scores = confirmation.dispute_scores or {}
    assert scores[str(table.players[0].pk)] < 0 and sum(scores.values()) == 0
    deal.refresh_from_db()
    assert deal.payload["points"] == 49 and deal.version == 1  # the deal itself is unchanged
    waiting = round_selectors.deals_waiting_count(tournament=e.tournament)
    assert (waiting.pending, waiting.disputed) == (0, 1)
    assert set(totals(e.tournament).values()) == {0}
    # Players no longer confirm it; it waits for a referee.
    with pytest.raises(Refusal) as refused:
        deal_confirm(deal=deal, by=None, player=table.players[2].pk)
    assert code_of(refused.value) == "disputed"
    with pytest.raises(Refusal) as refused:
        deal_dispute(deal=deal, payload=other_version(table), by=None, player=defender.pk)
    assert code_of(refused.value) == "not_pending"


def test_a_version_that_cannot_be_scored_is_refused() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    bad = factories.garde(table.players[0].pk, points=95)
    with pytest.raises(ScoringError) as refused:
        deal_dispute(deal=deal, payload=bad, by=None, player=table.players[1].pk)
    assert "points" in refused.value.errors
    assert status(deal) == Status.PENDING


def disputed(e: Event, table: TableState) -> Deal:
    deal = enter(table, taker=0, acting=table.players[0].pk)
    deal_dispute(deal=deal, payload=other_version(table), by=None, player=table.players[1].pk)
    return deal


def test_the_referee_keeps_the_version_entered() -> None:
    e = event()
    deal = disputed(e, e.tables[0])
    dispute_settle(deal=deal, keep=KEEP_ENTERED, by=e.referee, reason="Vu à la table")
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by_user == e.referee
    deal.refresh_from_db()
    assert deal.payload["points"] == 49 and deal.version == 1


def test_the_referee_keeps_the_other_sides_version_and_the_history_says_so() -> None:
    e = event()
    table = e.tables[0]
    deal = disputed(e, table)
    dispute_settle(deal=deal, keep=KEEP_OTHER, by=e.organiser, reason="Vu à la table")
    deal.refresh_from_db()
    assert deal.payload["points"] == 40 and deal.version == 2 and deal.won is False
    revision = DealRevision.objects.get(deal=deal, version=2)
    assert revision.action == DealRevision.Action.EDITED and revision.by == e.organiser
    assert status(deal) == Status.CONFIRMED
    assert totals(e.tournament)[table.players[0].pk] < 0


def test_the_other_sides_version_that_is_the_deal_as_entered_confirms_it() -> None:
    """A side may send back the very deal entered as its version: keeping it corrects nothing
    (no new version), and the referee's decision still ends the dispute."""
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    same = factories.garde(table.players[0].pk)
    deal_dispute(deal=deal, payload=same, by=None, player=table.players[1].pk)
    assert status(deal) == Status.DISPUTED

    dispute_settle(deal=deal, keep=KEEP_OTHER, by=e.referee, reason="Même donne")

    deal.refresh_from_db()
    assert deal.version == 1
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.CONFIRMED and confirmation.confirmed_by_user == e.referee
    assert totals(e.tournament)[table.players[0].pk] > 0


def test_only_a_referee_not_playing_there_settles() -> None:
    e = event()
    table = e.tables[0]
    deal = disputed(e, table)
    Player.objects.filter(pk=table.players[3].pk).update(user=e.referee)
    for user in (e.member, e.referee, None):
        with pytest.raises(Refusal) as refused:
            dispute_settle(deal=deal, keep=KEEP_ENTERED, by=user)
        assert code_of(refused.value) == "not_referee"
    assert status(deal) == Status.DISPUTED
    pending = enter(e.tables[1], taker=0, acting=e.tables[1].players[0].pk)
    with pytest.raises(Refusal) as refused:
        dispute_settle(deal=pending, keep=KEEP_ENTERED, by=e.organiser, reason="Vu à la table")
    assert code_of(refused.value) == "not_disputed"


def test_the_round_closes_only_when_every_deal_is_confirmed() -> None:
    e = event()
    deals = []
    for table in e.tables:
        for _number in range(2):
            deals.append(enter(table, taker=0, acting=table.players[0].pk))
    e.refresh()
    assert e.round.status != Round.Status.CLOSED
    assert all(t.entered == 2 and t.pending == 2 and not t.complete for t in e.tables)
    assert not round_services.round_complete(e.round)
    assert round_services.next_round_refusal(e.tournament) is not None
    with pytest.raises(tournament_errors.TournamentError) as refused, translation.override("en"):
        round_services.round_close(round_=e.round)
    assert "confirmed" in str(refused.value)
    for deal in deals[:-1]:
        deal_confirm(deal=deal, by=e.referee, reason="Vu à la table")
    e.refresh()
    assert e.round.status != Round.Status.CLOSED
    assert [t.complete for t in e.tables] == [True, False]
    deal_confirm(deal=deals[-1], by=None, player=e.tables[1].players[1].pk)
    e.refresh()
    assert e.round.status == Round.Status.CLOSED


def test_the_referees_decision_on_the_last_deal_closes_the_round() -> None:
    e = event(deals=1)
    first = enter(e.tables[0], taker=0, by=e.referee)
    last = disputed(e, e.tables[1])
    assert status(first) == Status.CONFIRMED
    e.refresh()
    assert e.round.status != Round.Status.CLOSED
    dispute_settle(deal=last, keep=KEEP_OTHER, by=e.referee, reason="Vu à la table")
    e.refresh()
    assert e.round.status == Round.Status.CLOSED


def test_a_correction_makes_a_confirmed_deal_pending_again() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    deal_confirm(deal=deal, by=None, player=table.players[1].pk)
    corrector = table.players[2]
    deal = game_services.deal_update(
        deal=deal, payload=other_version(table), version=1, by=None, at_table=AtTable(corrector.pk)
    )
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING and confirmation.version == 2
    assert confirmation.entered_by == corrector and confirmation.entered_side == "defence"
    assert confirmation.confirmed_by is None and confirmation.confirmed_at is None
    assert set(totals(e.tournament).values()) == {0}
    # Corrected by a referee, a deal stays confirmed.
    deal_confirm(deal=deal, by=None, player=table.players[0].pk)
    game_services.deal_update(
        deal=deal, payload=factories.garde(table.players[0].pk), version=2, by=e.referee
    )
    assert status(deal) == Status.CONFIRMED


def test_a_correction_of_a_disputed_deal_at_the_table_reopens_it() -> None:
    e = event()
    table = e.tables[0]
    deal = disputed(e, table)
    # The attack agrees with the defence's version.
    attack = AtTable(table.players[0].pk)
    game_services.deal_update(
        deal=deal, payload=other_version(table), version=1, by=None, at_table=attack
    )
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.status == Status.PENDING and confirmation.dispute_payload is None
    deal_confirm(deal=deal, by=None, player=table.players[1].pk)
    assert status(deal) == Status.CONFIRMED


def test_a_deleted_deal_waits_for_nothing() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    game_services.deal_delete(deal=deal, version=1, by=e.organiser)
    assert not round_selectors.deals_waiting_count(tournament=e.tournament)
    with pytest.raises(Refusal) as refused:
        deal_confirm(deal=deal, by=e.organiser, reason="Vu à la table")
    assert code_of(refused.value) == "deal_deleted"


def test_without_the_setting_nothing_changes() -> None:
    e = event(require=False)
    for table in e.tables:
        for _number in range(2):
            enter(table, taker=0, acting=table.players[0].pk)
    assert not DealConfirmation.objects.exists()
    e.refresh()
    assert e.round.status == Round.Status.CLOSED
    assert all(t.complete and not t.pending for t in e.tables)
    assert totals(e.tournament)[e.tables[0].players[0].pk] == 2 * 198
    assert not round_selectors.deals_waiting_count(tournament=e.tournament)
    deal = Deal.objects.filter(game=e.tables[0].table.game).first()
    assert deal is not None
    with pytest.raises(Refusal) as refused:
        deal_confirm(deal=deal, by=e.organiser, reason="Vu à la table")
    assert code_of(refused.value) == "not_required"


def test_a_referee_overriding_the_other_side_gives_a_reason_kept_with_the_deal() -> None:
    e = event()
    table = e.tables[0]
    deal = enter(table, taker=0, acting=table.players[0].pk)
    for blank in ("", "   "):
        with pytest.raises(Refusal) as refused:
            deal_confirm(deal=deal, by=e.referee, reason=blank)
        assert refused.value.codes()["reason"] == ["reason_required"]
    assert status(deal) == Status.PENDING
    confirmation = deal_confirm(deal=deal, by=e.referee, reason="  Le camp adverse  est parti ")
    assert confirmation.referee_reason == "Le camp adverse est parti"

    disputed_deal = disputed(e, e.tables[1])
    with pytest.raises(Refusal) as refused:
        dispute_settle(deal=disputed_deal, keep=KEEP_OTHER, by=e.referee)
    assert refused.value.codes()["reason"] == ["reason_required"]
    assert status(disputed_deal) == Status.DISPUTED
    disputed_deal.refresh_from_db()
    assert disputed_deal.version == 1
    dispute_settle(deal=disputed_deal, keep=KEEP_OTHER, by=e.referee, reason="Recompté")
    assert DealConfirmation.objects.get(deal=disputed_deal).referee_reason == "Recompté"
    assert DealRevision.objects.get(deal=disputed_deal, version=2).reason == "Recompté"


def test_a_deal_written_with_no_one_at_the_table_is_the_accounts_alone() -> None:
    """Who acts at the table is an argument of the deal services: a write that gives none (a
    script, the game pages, the API) records the account's own seated player, or nobody, and
    never the player an earlier write named."""
    e = event(deals=4)
    table = e.tables[0]
    named = enter(table, taker=0, acting=table.players[0].pk)
    first = DealConfirmation.objects.get(deal=named)
    assert first.entered_by == table.players[0] and first.entered_side == "attack"

    anonymous = enter(table, taker=1)
    confirmation = DealConfirmation.objects.get(deal=anonymous)
    assert confirmation.status == Status.PENDING
    assert confirmation.entered_by is None and confirmation.entered_side == ""
    assert confirmation.entered_proof == ""

    owner = factories.UserFactory.create()
    Player.objects.filter(pk=table.players[2].pk).update(user=owner)
    own = enter(table, taker=2, by=owner)
    confirmation = DealConfirmation.objects.get(deal=own)
    assert confirmation.entered_by == table.players[2] and confirmation.entered_side == "attack"
    assert confirmation.entered_proof == f"user:{owner.pk}"

    # Someone named who does not sit at this table is nobody here: the account speaks.
    elsewhere = e.tables[1].players[0].pk
    deal = game_services.deal_record(
        game=table.table.game,
        payload=factories.garde(table.players[3].pk),
        by=None,
        at_table=AtTable(elsewhere, "phone:elsewhere"),
    ).deal
    confirmation = DealConfirmation.objects.get(deal=deal)
    assert confirmation.entered_by is None and confirmation.entered_proof == "phone:elsewhere"
