"""The stored standings follow every change that counts: random entries, corrections,
deletions, restores, confirmations, disputes and settlements, rounds seated and closed, games
reopened. After each step the read equals the full computation from the score lines, and at
the end ``rebuild_standings`` writes exactly the rows kept in step."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from django.core.management import call_command

from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Membership
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tests import factories
from tournaments.models import DealConfirmation, Entry, Penalty, Round, Standing, Tournament
from tournaments.play import confirmations, penalties
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.standings.store import standings_rebuild

pytestmark = pytest.mark.django_db


def stored(tournament: Tournament) -> dict[int, tuple[Any, ...]]:
    return {
        s.player_id: (s.entry_id, s.rounds, s.total, s.best_round, s.last_round, s.penalties)
        for s in Standing.objects.filter(tournament=tournament)
    }


def same_as_score_lines(tournament: Tournament) -> None:
    assert standings_selectors.standings_for(tournament=tournament) == (
        standings_selectors.standings_from_score_lines(tournament=tournament)
    )


class Evening:
    """A tournament played by random steps through the services, as phones and referees do."""

    def __init__(self, seed: int, *, require: bool) -> None:
        self.rng = random.Random(seed)
        club = factories.ClubFactory.create()
        self.tournament = factories.make_tournament(
            club, 9, rounds=3, deals_per_round=3, require_confirmation=require
        )
        self.organiser = factories.MembershipFactory.create(
            club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
        ).user
        self.seat()

    def seat(self) -> None:
        self.round = round_services.round_seat_next(tournament=self.tournament, by=None)

    def games(self) -> list[Game]:
        return list(Game.objects.filter(tournament_table__round__tournament=self.tournament))

    def deals(self, **filters: Any) -> list[Deal]:
        return list(
            Deal.objects.filter(
                game__tournament_table__round__tournament=self.tournament, **filters
            )
        )

    def enter(self) -> None:
        games = [g for g in self.games() if g.status == Game.Status.OPEN]
        if not games:
            return
        game = self.rng.choice(games)
        ids = [s.player_id for s in game.seats.order_by("position")]
        live = game.deals.filter(deleted_at__isnull=True)
        number = (live.order_by("-number").values_list("number", flat=True).first()) or 0
        payload = random_tarot_payload(self.rng, ids, number + 1, sitting_out_dealer=len(ids) == 5)
        game_services.deal_record(game=game, payload=payload, by=None)

    def correct(self) -> None:
        deals = self.deals(deleted_at__isnull=True)
        if deals:
            deal = self.rng.choice(deals)
            ids = [s.player_id for s in deal.game.seats.order_by("position")]
            payload = random_tarot_payload(
                self.rng, ids, deal.number, sitting_out_dealer=len(ids) == 5
            )
            by = self.organiser if self.rng.random() < 0.3 else None
            game_services.deal_update(
                deal=deal, payload=payload, version=deal.version, by=by, reason="fix"
            )

    def delete(self) -> None:
        deals = self.deals(deleted_at__isnull=True)
        if deals:
            deal = self.rng.choice(deals)
            game_services.deal_delete(deal=deal, version=deal.version, by=None, reason="oops")

    def restore(self) -> None:
        # A struck deal whose number was taken again since cannot come back: not asked.
        deals = [
            d
            for d in self.deals(deleted_at__isnull=False)
            if not d.game.deals.filter(number=d.number, deleted_at__isnull=True).exists()
        ]
        if deals:
            game_services.deal_restore(deal=self.rng.choice(deals), by=None, reason="back")

    def confirm(self) -> None:
        waiting = list(
            DealConfirmation.objects.filter(
                deal__game__tournament_table__round__tournament=self.tournament,
                deal__deleted_at__isnull=True,
                status=DealConfirmation.Status.PENDING,
            ).select_related("deal")
        )
        if waiting:
            confirmations.deal_confirm(
                deal=self.rng.choice(waiting).deal, by=self.organiser, reason="Vu à la table"
            )

    def dispute_or_settle(self) -> None:
        states = list(
            DealConfirmation.objects.filter(
                deal__game__tournament_table__round__tournament=self.tournament,
                deal__deleted_at__isnull=True,
            )
            .exclude(status=DealConfirmation.Status.CONFIRMED)
            .select_related("deal__game")
        )
        if not states:
            return
        state = self.rng.choice(states)
        deal = state.deal
        ids = [s.player_id for s in deal.game.seats.order_by("position")]
        if state.status == DealConfirmation.Status.DISPUTED:
            keep = self.rng.choice([confirmations.KEEP_ENTERED, confirmations.KEEP_OTHER])
            confirmations.dispute_settle(
                deal=deal, keep=keep, by=self.organiser, reason="Vu à la table"
            )
            return
        payload = random_tarot_payload(self.rng, ids, deal.number, sitting_out_dealer=len(ids) == 5)
        confirmations.deal_dispute(deal=deal, payload=payload, by=None, player=ids[0])

    def penalise(self) -> None:
        """A referee's penalty on a deal (which may be deleted later) or on a round."""
        rounds = list(self.tournament.round_set.values_list("number", flat=True))
        deal = self.rng.choice(self.deals()) if self.rng.random() < 0.5 and self.deals() else None
        entries = Entry.objects.filter(tournament=self.tournament)
        if deal is not None:  # one of its players, most of the time (else: refused)
            seated = list(deal.game.seats.values_list("player_id", flat=True))
            entries = entries.filter(player_id__in=seated)
        entry = self.rng.choice(list(entries))
        penalties.penalty_give(
            tournament=self.tournament,
            entry=entry,
            points=self.rng.choice([5, 10, 20, 50]),
            reason="Talking during the deal",
            by=self.organiser,
            round_number=None if deal else self.rng.choice(rounds),
            deal_id=deal.pk if deal else None,
        )

    def unpenalise(self) -> None:
        live = list(Penalty.objects.filter(tournament=self.tournament, removed_at__isnull=True))
        if live:
            penalties.penalty_remove(penalty=self.rng.choice(live), by=self.organiser)

    def reopen_or_next(self) -> None:
        """Reopen a closed round's table (an organiser's correction), or seat the next round."""
        finished = [g for g in self.games() if g.status == Game.Status.FINISHED]
        if finished and self.rng.random() < 0.5:
            game_services.game_set_status(game=self.rng.choice(finished), status=Game.Status.OPEN)
            return
        self.round.refresh_from_db()
        closed = self.round.status == Round.Status.CLOSED
        if closed and round_services.next_round_refusal(self.tournament) is None:
            self.seat()

    def step(self) -> None:
        actions = [
            (self.enter, 8),
            (self.correct, 3),
            (self.delete, 2),
            (self.restore, 2),
            (self.reopen_or_next, 2),
            (self.penalise, 3),
            (self.unpenalise, 1),
        ]
        if self.tournament.require_confirmation:
            actions += [(self.confirm, 6), (self.dispute_or_settle, 2)]
        action = self.rng.choices([a for a, _w in actions], weights=[w for _a, w in actions])[0]
        with contextlib.suppress(Refusal):  # a finished game, a full table: the site said no
            action()


@pytest.mark.parametrize("require", [False, True])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_keep_the_stored_standings_equal_to_the_score_lines(
    seed: int, require: bool
) -> None:
    evening = Evening(seed, require=require)
    tournament = evening.tournament
    for _ in range(60):
        evening.step()
        same_as_score_lines(tournament)
    assert Deal.objects.filter(game__tournament_table__round__tournament=tournament).exists()
    incremental = stored(tournament)
    assert any(row[2] for row in incremental.values())  # some points were counted
    assert Penalty.objects.filter(tournament=tournament, removed_at__isnull=True).exists()

    standings_rebuild(tournament=tournament)

    assert stored(tournament) == incremental
    same_as_score_lines(tournament)


def test_the_command_rebuilds_one_tournament_or_all() -> None:
    first, second = Evening(5, require=False), Evening(6, require=True)
    for _ in range(15):
        first.step()
        second.step()
    kept = {e.tournament.pk: stored(e.tournament) for e in (first, second)}
    Standing.objects.filter(tournament=first.tournament).update(total=999, rounds={})
    Standing.objects.filter(tournament=second.tournament).delete()

    call_command("rebuild_standings", "--tournament", str(first.tournament.pk))
    assert stored(first.tournament) == kept[first.tournament.pk]
    assert stored(second.tournament) == {}

    call_command("rebuild_standings")
    assert stored(second.tournament) == kept[second.tournament.pk]


def test_a_swap_and_a_new_round_give_the_seated_their_round_at_zero() -> None:
    evening = Evening(9, require=False)
    tournament = evening.tournament
    first = evening.round.tables.get(number=1).game.seats.first()
    second = evening.round.tables.get(number=2).game.seats.first()
    assert first is not None and second is not None
    round_services.round_swap(round_=evening.round, first=first.player, second=second.player)
    rows = stored(tournament)
    assert len(rows) == 9 and {row[1]["1"] for row in rows.values()} == {0}
    same_as_score_lines(tournament)


@pytest.mark.parametrize(("rounds", "per_round", "deals"), [(1, 5, 10), (2, 25, 100)])
def test_reading_the_standings_costs_the_same_for_10_or_100_deals(
    rounds: int, per_round: int, deals: int, django_assert_max_num_queries: Any
) -> None:
    club = factories.ClubFactory.create()
    tournament = factories.make_tournament(club, 8, rounds=rounds, deals_per_round=per_round)
    for _ in range(rounds):  # two tables of four
        factories.play(round_services.round_seat_next(tournament=tournament, by=None))
    count = Deal.objects.filter(game__tournament_table__round__tournament=tournament).count()
    assert count == deals

    with django_assert_max_num_queries(2):
        rows = standings_selectors.standings_for(tournament=tournament)
    with django_assert_max_num_queries(2):
        standings_selectors.team_standings_for(tournament=tournament)

    assert rows == standings_selectors.standings_from_score_lines(tournament=tournament)
