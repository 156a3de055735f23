"""Tournament services and reads: registration, rounds seated from the entries, tables entered
deal by deal, standings equal to the sum of the deals, swaps, knockout stages."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest
from django.db import connection

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealChange, DealRevision, Game, ScoreLine
from tests.tournaments.open_rounds import deals_leave_rounds_open
from tournaments import errors as tournament_errors
from tournaments import ranking
from tournaments.models import Round, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return club_services.club_create(name="Club des Tournois", by=None)


def register(tournament: Tournament, count: int) -> list[Player]:
    players = []
    for i in range(count):
        entry = registration_services.entry_add(
            tournament=tournament, name=f"Joueur {i + 1:02d}", checked_in=True
        )
        players.append(entry.player)
    return players


def play_round(round_: Round, rng: random.Random) -> None:
    for state in round_selectors.round_tables(round_=round_):
        game = state.table.game
        ids = [p.pk for p in state.players]
        sitting_out = game.rules.get("five_players") == "sitting_out"
        for number in range(1, round_.tournament.deals_per_round + 1):
            payload = random_tarot_payload(rng, ids, number, sitting_out_dealer=sitting_out)
            game_services.deal_record(
                game=game,
                payload=payload,
                by=None,
                number=number,
                by_label=f"table {state.table.number}",
            )


def make(club: Club, **kw: Any) -> Tournament:
    defaults: dict[str, Any] = {"rounds": 3, "deals_per_round": 4, "seed": 42}
    return registration_services.tournament_create(
        club=club, name="Open de printemps", by=None, **{**defaults, **kw}
    )


def test_thirteen_players_three_rounds(club: Club) -> None:
    tournament = make(club)
    players = register(tournament, 13)
    rng = random.Random(3)
    for number in (1, 2, 3):
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        assert round_.number == number
        states = round_selectors.round_tables(round_=round_)
        assert sorted(len(s.players) for s in states) == [4, 4, 5]
        seated = [p.pk for s in states for p in s.players]
        assert sorted(seated) == sorted(p.pk for p in players)
        with pytest.raises(tournament_errors.TournamentError):
            round_services.round_seat_next(tournament=tournament, by=None)  # round still playing
        play_round(round_, rng)
        assert round_services.round_complete(round_)
        # The last deal closed the round, in its own transaction.
        assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_seat_next(tournament=tournament, by=None)  # all rounds played
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    standings = standings_selectors.standings_for(tournament=tournament)
    assert len(standings) == 13
    for row in standings:
        lines = ScoreLine.objects.filter(player=row.player, deal__deleted_at__isnull=True)
        assert row.total == sum(lines.values_list("points", flat=True))
        assert row.total == sum(r for r in row.rounds if r is not None)
    assert sum(r.total for r in standings) == 0
    assert [r.rank for r in standings][0] == 1


def test_tables_of_five_have_the_dealer_sit_out(club: Club) -> None:
    tournament = make(club)
    register(tournament, 5)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    game = round_.tables.get().game
    assert game.rules["five_players"] == "sitting_out" and game.max_deals == 4
    play_round(round_, random.Random(1))
    with pytest.raises(game_services.GameClosed):  # the table has its four deals
        ids = list(game.seats.values_list("player_id", flat=True))
        payload = random_tarot_payload(random.Random(2), ids, 5, sitting_out_dealer=True)
        game_services.deal_record(game=game, payload=payload, by=None)


def test_late_arrival_withdrawal_and_unchecked_entries(club: Club) -> None:
    tournament = make(club)
    players = register(tournament, 8)
    absent = registration_services.entry_add(tournament=tournament, name="Absent")
    round_services.round_seat_next(tournament=tournament, by=None)
    round_one = tournament.round_set.get(number=1)
    seated = {p.pk for s in round_selectors.round_tables(round_=round_one) for p in s.players}
    assert absent.player_id not in seated and len(seated) == 8
    play_round(round_one, random.Random(5))
    late = registration_services.entry_add(tournament=tournament, name="En retard", checked_in=True)
    assert late.first_round == 2
    leaving = tournament.entries.get(player=players[0])
    registration_services.entry_withdraw(entry=leaving)
    round_two = round_services.round_seat_next(tournament=tournament, by=None)
    seated = {p.pk for s in round_selectors.round_tables(round_=round_two) for p in s.players}
    assert late.player_id in seated and players[0].pk not in seated
    standings = {r.player.pk: r for r in standings_selectors.standings_for(tournament=tournament)}
    assert standings[players[0].pk].rounds[1] is None  # kept their round 1 points
    assert standings[late.player_id].rounds[0] is None


def test_a_swap_needs_two_different_players(club: Club) -> None:
    """The service refuses it (the page's form and the API ask the same rule): nothing moves."""
    tournament = make(club)
    register(tournament, 8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    before = round_selectors.round_tables(round_=round_)
    a = before[0].players[0]
    with pytest.raises(Refusal) as refused:
        round_services.round_swap(round_=round_, first=a, second=a)
    assert refused.value.codes() == {"second": ["same_player"]}
    assert round_selectors.round_tables(round_=round_) == before


def test_swap_before_the_round_starts_only(club: Club) -> None:
    tournament = make(club)
    register(tournament, 8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    first, second = round_selectors.round_tables(round_=round_)
    a, b = first.players[0], second.players[2]
    round_services.round_swap(round_=round_, first=a, second=b)
    first, second = round_selectors.round_tables(round_=round_)
    assert first.players[0] == b and second.players[2] == a
    round_services.round_swap(round_=round_, first=first.players[0], second=first.players[1])
    first, _second = round_selectors.round_tables(round_=round_)
    assert first.players[:2] == [a, b] or first.players[1] == b
    play_round(round_, random.Random(1))
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_swap(round_=round_, first=a, second=b)


def test_teams_never_share_a_table_and_sum_their_members(club: Club) -> None:
    tournament = make(club, team_size=2, rounds=2)
    register(tournament, 8)
    entries = list(tournament.entries.order_by("player_id"))
    for i in range(4):
        registration_services.team_create(
            tournament=tournament, name=f"Équipe {i + 1}", entries=entries[2 * i : 2 * i + 2]
        )
    with pytest.raises(tournament_errors.TournamentError):
        registration_services.team_create(tournament=tournament, name="Trop", entries=entries[:3])
    for _ in range(2):
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        for state in round_selectors.round_tables(round_=round_):
            seated_teams = [tournament.entries.get(player=p).team_id for p in state.players]
            assert len(seated_teams) == len(set(seated_teams))
        play_round(round_, random.Random(round_.number))
    teams = standings_selectors.team_standings_for(tournament=tournament)
    players = {
        r.player.label: r.total for r in standings_selectors.standings_for(tournament=tournament)
    }
    for team in teams:
        assert team.total == sum(players[m] for m in team.members)


def test_knockout_goes_down_to_a_final_table(club: Club) -> None:
    tournament = make(club, format=Tournament.Format.KNOCKOUT, qualifiers_per_table=2)
    register(tournament, 16)
    rng = random.Random(9)
    sizes = []
    while True:
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        states = round_selectors.round_tables(round_=round_)
        sizes.append(sum(len(s.players) for s in states))
        play_round(round_, rng)  # its last deal closes the stage
        if len(states) == 1:
            break
    assert sizes == [16, 8, 4]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    result = round_selectors.bracket(tournament=tournament)
    assert [s.final for s in result.stages] == [False, False, True]
    first = result.stages[0]
    for table in first.tables:  # the best two of each table went through
        assert [s.qualified for s in table.seats] == [True, True, False, False]
    assert len(result.ranking) == 16 and result.ranking[0][0] == 1
    final_order = [s.player for s in result.stages[-1].tables[0].seats]
    assert [p for _rank, p in result.ranking[:4]] == final_order
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_seat_next(tournament=tournament, by=None)


def test_qualify_fills_places_with_the_best_of_the_rest() -> None:
    players = [Player(pk=i, name=f"P{i}") for i in range(13)]
    tables = [
        [(players[0], 50), (players[1], 10), (players[2], -20), (players[3], -40)],
        [(players[4], 90), (players[5], 40), (players[6], 0), (players[7], -130)],
        [
            (players[8], 30),
            (players[9], 25),
            (players[10], 5),
            (players[11], -20),
            (players[12], -40),
        ],
    ]
    chosen = round_selectors.qualify(tables, per_table=2, places=4)
    # One per table (4 places, 3 tables), then the best of the rest: 40 at table 2.
    assert chosen == {0, 4, 8, 5}
    assert (
        round_selectors.next_stage_places(13) == 4 and round_selectors.next_stage_places(40) == 20
    )


def test_games_of_a_tournament_are_ordinary_games(club: Club) -> None:
    tournament = make(club)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    game = round_.tables.get().game
    assert isinstance(game, Game) and game.club == club and game.max_deals == 4
    assert "Open de printemps" in game.label


def test_a_round_closes_when_every_table_has_its_deals(club: Club) -> None:
    tournament = make(club, rounds=2)
    register(tournament, 8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    first, second = round_selectors.round_tables(round_=round_)
    rng = random.Random(4)
    for number in range(1, 5):
        payload = random_tarot_payload(rng, [p.pk for p in first.players], number)
        game_services.deal_record(game=first.table.game, payload=payload, by=None)
    assert round_services.close_if_complete(round_=round_) is False  # the second table still plays
    assert Round.objects.get(pk=round_.pk).status == Round.Status.SEATED
    for number in range(1, 5):
        payload = random_tarot_payload(rng, [p.pk for p in second.players], number)
        game_services.deal_record(game=second.table.game, payload=payload, by=None)
    # The last deal closed the round (any way it is entered: this is the service the game
    # pages and the API call); closing again finds nothing to do.
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert all(
        s.table.game.status == Game.Status.FINISHED
        for s in round_selectors.round_tables(round_=round_)
    )
    assert round_services.close_if_complete(round_=round_) is False  # already closed


def _enter(state: round_selectors.TableState, numbers: range, rng: random.Random) -> None:
    for number in numbers:
        payload = random_tarot_payload(rng, [p.pk for p in state.players], number)
        game_services.deal_record(game=state.table.game, payload=payload, by=None)


def test_restoring_the_last_missing_deal_closes_the_round(club: Club) -> None:
    tournament = make(club, rounds=2)
    register(tournament, 8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    first, second = round_selectors.round_tables(round_=round_)
    rng = random.Random(5)
    _enter(first, range(1, 5), rng)
    _enter(second, range(1, 4), rng)
    # A deal struck in the middle (a struck last deal gives its number to the next one, and
    # could then not come back).
    middle = second.table.game.deals.get(number=2)
    game_services.deal_delete(deal=middle, version=None, by=None)
    _enter(second, range(4, 5), rng)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.SEATED
    game_services.deal_restore(deal=middle, by=None)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_the_round_closes_in_the_deals_transaction(club: Club) -> None:
    """Whatever fails after the round closed undoes the deal and the close together: neither is
    ever stored without the other."""
    tournament = make(club, rounds=2)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    (table,) = round_selectors.round_tables(round_=round_)
    rng = random.Random(7)
    _enter(table, range(1, 4), rng)
    seen: list[str] = []

    def fail_after(*, game: Game, deal: Deal, action: DealChange, **_: Any) -> None:
        seen.append(Round.objects.get(pk=round_.pk).status)
        raise RuntimeError("the next step of the deal failed")

    hooks = game_services.deal_changed
    with hooks.replaced([*hooks, fail_after]), pytest.raises(RuntimeError):
        _enter(table, range(4, 5), rng)
    assert seen == [Round.Status.CLOSED]  # closed inside the deal's transaction...
    round_.refresh_from_db()  # ...and rolled back with it
    assert round_.status == Round.Status.SEATED and round_.closed_at is None
    assert table.table.game.deals.count() == 3
    assert Game.objects.get(pk=table.table.game_id).status == Game.Status.OPEN
    _enter(table, range(4, 5), rng)
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_seating_the_next_round_closes_a_complete_one(club: Club) -> None:
    tournament = make(club, rounds=2)
    register(tournament, 4)
    round_one = round_services.round_seat_next(tournament=tournament, by=None)
    with deals_leave_rounds_open():  # a round completed before deals closed rounds
        play_round(round_one, random.Random(6))
    assert Round.objects.get(pk=round_one.pk).status != Round.Status.CLOSED
    round_services.round_seat_next(tournament=tournament, by=None)
    assert Round.objects.get(pk=round_one.pk).status == Round.Status.CLOSED


def test_a_round_starts_once_and_closes_once(club: Club) -> None:
    tournament = make(club, rounds=1)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    started = Round.objects.get(pk=round_.pk).started_at
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_start(round_=round_)
    assert Round.objects.get(pk=round_.pk).started_at == started  # the countdown keeps running
    with deals_leave_rounds_open():
        play_round(round_, random.Random(2))
    round_services.round_close(round_=round_)
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_close(round_=round_)


def test_a_player_withdraws_once(club: Club) -> None:
    tournament = make(club)
    register(tournament, 4)
    entry = tournament.entries.first()
    assert entry is not None
    registration_services.entry_withdraw(entry=entry)
    with pytest.raises(tournament_errors.TournamentError):
        registration_services.entry_withdraw(entry=entry)


def test_no_round_after_the_last_one_even_before_it_is_closed(club: Club) -> None:
    tournament = make(club, rounds=1)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    assert round_services.next_round_refusal(tournament) is not None  # still being played
    play_round(round_, random.Random(3))
    refusal = round_services.next_round_refusal(tournament)
    assert refusal is not None and "1" in str(refusal)
    assert refusal.code is tournament_errors.Code.ROUNDS_PLAYED
    with pytest.raises(tournament_errors.TournamentError):
        round_services.round_seat_next(tournament=tournament, by=None)
    assert not tournament.round_set.filter(number=2).exists()


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ((50, [20, 30], "Zoé"), (40, [40, 0], "Anne")),  # the higher total first
        ((50, [100, -50], "Zoé"), (50, [25, 25], "Anne")),  # equal totals: the best round
        ((50, [0, 50], "Zoé"), (50, [50, 0], "Anne")),  # equal best: the better last round
        ((50, [25, 25], "Anne"), (50, [25, 25], "Zoé")),  # equal in all three: the name
        ((0, [None, 0], "Bea"), (0, [0, None], "Célia")),  # rounds not played are left out
    ],
)
def test_tie_breaks(
    better: tuple[int, list[int | None], str], worse: tuple[int, list[int | None], str]
) -> None:
    assert ranking.tie_break_key(*better) < ranking.tie_break_key(*worse)


def test_players_level_on_every_tie_break_share_a_rank(club: Club) -> None:
    tournament = make(club, rounds=1, deals_per_round=1)
    players = register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    table = round_selectors.round_tables(round_=round_)[0]
    game_services.deal_record(
        game=table.table.game,
        payload={"taker": players[0].pk, "contract": "garde", "points": 49, "oudlers": 2},
        by=None,
    )
    standings = standings_selectors.standings_for(tournament=tournament)
    assert [(r.rank, r.total) for r in standings] == [(1, 198), (2, -66), (2, -66), (2, -66)]


def test_a_name_typed_again_registers_the_clubs_player(club: Club) -> None:
    chloe = club_services.player_create(club=club, name="Chloé")
    first = make(club)
    entry = registration_services.entry_add(tournament=first, name="  chloé ")
    assert entry.player == chloe
    second = make(club)
    assert registration_services.entry_add(tournament=second, name="Chloé").player == chloe
    assert club.players.filter(name="Chloé").count() == 1
    assert registration_services.entry_add(tournament=second, name="Denis").player.name == "Denis"


@pytest.mark.django_db(transaction=True)
def test_two_organisers_starting_a_round_at_once_start_it_once() -> None:
    """Each holds the round as read before the other's start: the second waits for the first
    and is refused, and the start time is the first one's."""
    tournament = make(club_services.club_create(name="Club des Tournois", by=None), rounds=1)
    register(tournament, 4)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []

    def start() -> None:
        seen = Round.objects.get(pk=round_.pk)  # read while still seated, as a page would be
        try:
            barrier.wait(timeout=10)
            outcomes.append(round_services.round_start(round_=seen).started_at)
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=start) for _n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    started = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(started) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], tournament_errors.TournamentError)
    assert Round.objects.get(pk=round_.pk).started_at == started[0]


def test_a_team_name_typed_in_other_capitals_is_the_same_team(club: Club) -> None:
    tournament = make(club, team_size=2)
    first = registration_services.team_for_name(tournament=tournament, name="les éclairs")
    again = registration_services.team_for_name(tournament=tournament, name="LES ÉCLAIRS")
    assert again.pk == first.pk and tournament.teams.count() == 1


def _last_deals_ready(
    players: int,
) -> tuple[Round, list[round_selectors.TableState], random.Random]:
    """A round of ``players`` (tables of four) whose tables each miss only their last deal."""
    tournament = make(club_services.club_create(name="Club des Tournois", by=None), rounds=2)
    register(tournament, players)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    states = round_selectors.round_tables(round_=round_)
    rng = random.Random(11)
    for state in states:
        _enter(state, range(1, 4), rng)
    return round_, states, rng


def _run_at_once(*jobs: Any) -> list[Any]:
    outcomes: list[Any] = []

    def run(job: Any) -> None:
        try:
            outcomes.append(job())
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_tables_entering_their_last_deals_at_once_close_the_round() -> None:
    """Each locks the round before counting: the second sees the first's deal and closes it."""
    round_, states, rng = _last_deals_ready(8)
    payloads = [random_tarot_payload(rng, [p.pk for p in s.players], 4) for s in states]
    barrier = threading.Barrier(2)

    def last_deal(state: round_selectors.TableState, payload: dict[str, Any]) -> Any:
        barrier.wait(timeout=10)
        return game_services.deal_record(game=state.table.game, payload=payload, by=None)

    outcomes = _run_at_once(
        *(lambda s=s, p=p: last_deal(s, p) for s, p in zip(states, payloads, strict=True))
    )

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    assert set(Game.objects.filter(tournament_table__round=round_).values_list("status")) == {
        (Game.Status.FINISHED,)
    }


@pytest.mark.django_db(transaction=True)
def test_a_correction_while_the_organiser_closes_the_round_never_deadlocks() -> None:
    """The correction holds its game while the organiser closes the (complete) round, which
    finishes every game of it: the close waits for the correction, and both are kept."""
    round_, (first, second), rng = _last_deals_ready(8)
    with deals_leave_rounds_open():  # complete but open: the organiser's close is next
        _enter(first, range(4, 5), rng)
        _enter(second, range(4, 5), rng)
    deal = first.table.game.deals.get(number=2)
    holding = threading.Event()

    def hold_the_game(*, game: Game, deal: Deal, action: DealChange, **_: Any) -> None:
        if action == DealRevision.Action.EDITED:
            holding.set()
            time.sleep(1.0)  # long enough for the close to lock the round and wait on this game

    # A real change (a correction that changes nothing writes nothing, and runs no hook).
    ids = [p.pk for p in first.players]
    changed = random_tarot_payload(rng, ids, 2)
    while changed == deal.payload:
        changed = random_tarot_payload(rng, ids, 2)

    def correct() -> Any:
        return game_services.deal_update(deal=deal, payload=changed, version=deal.version, by=None)

    def close() -> Any:
        assert holding.wait(timeout=10)
        return round_services.round_close(round_=Round.objects.get(pk=round_.pk))

    # Before the tournament's own hook: the correction holds its game, and only then would look
    # at the round, once the organiser's close has locked it and waits for this game.
    hooks = game_services.deal_changed
    with hooks.replaced([hold_the_game, *hooks]):
        outcomes = _run_at_once(correct, close)

    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert Deal.objects.get(pk=deal.pk).version == 2
    assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED


def test_only_a_tables_last_deal_waits_on_the_rounds_lock(club: Club) -> None:
    """A deal that leaves its table short of the round's deals cannot complete the round: it
    does not lock the round (the tables of a round would otherwise enter their deals one at a
    time); the table's last deal locks it and counts every table."""
    from django.test.utils import CaptureQueriesContext

    tournament = make(club, deals_per_round=2)
    register(tournament, 8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    game = round_selectors.round_tables(round_=round_)[0].table.game
    ids = list(game.seats.order_by("position").values_list("player_id", flat=True))
    rng = random.Random(5)
    lock = 'FROM "tournaments_round" WHERE "tournaments_round"."id" ='

    def enter(number: int) -> list[str]:
        payload = random_tarot_payload(rng, ids, number)
        with CaptureQueriesContext(connection) as captured:
            game_services.deal_record(game=game, payload=payload, by=None, number=number)
        return [q["sql"] for q in captured.captured_queries]

    assert not [sql for sql in enter(1) if lock in sql]
    assert [sql for sql in enter(2) if lock in sql]  # the table's last deal: the round is counted
    assert Round.objects.get(pk=round_.pk).status != Round.Status.CLOSED  # table 2 has none yet
