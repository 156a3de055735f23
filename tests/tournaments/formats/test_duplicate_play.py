"""Running a duplicate tournament: creating one (page and API) and what it refuses, seating its
rounds by the movement (movement numbers drawn from the seed, every seat at its direction,
pairs kept apart), and each table entering its boards through its link and the API (the board
select, the dealer from the board, a wrong or repeated board refused, two phones on one board,
corrections keeping the board)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, Membership, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tests.api.helpers import assert_field_errors
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    garde,
    make_game,
    signed_in_client,
    token_client,
)
from tests.tournaments.views.test_pages_world import deal_post, text_of
from tournaments import errors as tournament_errors
from tournaments import rules as tournament_rules
from tournaments.duplicate import DIRECTIONS, board_dealer, movement
from tournaments.formats import duplicate as duplicate_format
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.people import services as people
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.seating.duplicate import draw_clashes, draw_movement_numbers
from tournaments.standings import duplicate as duplicate_results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english() -> Any:
    """The services' messages in English (the site's default is French; one test reads it)."""
    with translation.override("en"):
        yield


def browser_of(user: User) -> Client:
    client = signed_in_client(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


DUPLICATE = Tournament.Format.DUPLICATE


def organiser_of(club: Club) -> User:
    user = UserFactory.create()
    MembershipFactory.create(club=club, user=user, role=Membership.Role.ORGANISER)
    return user


def duplicate_event(
    players: int = 8, *, rounds: int = 2, boards: int = 2, seed: int = 5, club: Club | None = None
) -> Tournament:
    """A duplicate tournament with ``players`` checked in, nothing seated."""
    club = club or ClubFactory.create()
    tournament = registration_services.tournament_create(
        club=club,
        name="Duplicate du jeudi",
        by=None,
        format=DUPLICATE,
        rounds=rounds,
        deals_per_round=boards,
        seed=seed,
    )
    for i in range(players):
        player = PlayerFactory.create(name=f"Joueur {i + 1:02d}", clubs=[club])
        registration_services.entry_add(tournament=tournament, player=player, checked_in=True)
    return tournament


def tables_of(round_: Round) -> list[Table]:
    return list(Table.objects.filter(round=round_).select_related("game").order_by("number"))


def seated_ids(game: Game) -> list[int]:
    return list(game.seats.order_by("position").values_list("player_id", flat=True))


def seated(table: Table) -> list[int]:
    return seated_ids(table.game)


def enter_all(round_: Round) -> None:
    """Every table enters its boards (the first seat takes a garde each time)."""
    for table in tables_of(round_):
        for board in duplicate_format.deal_boards(game=table.game) or ():
            game_services.deal_record(
                game=table.game, payload=garde(seated(table)[0]), by=None, board=board
            )


# --- creation -----------------------------------------------------------------------------------


def _new_page_post(**given: Any) -> dict[str, str]:
    data = {
        "name": "Duplicate de printemps",
        "date": "2026-11-26",
        "rules": "fft",
        "format": "duplicate",
        "duplicate_method": "average",
        "rounds": "3",
        "deals_per_round": "3",
        "round_minutes": "60",
        "seating": "mixing",
        "five_mode": "sitting_out",
        "team_size": "0",
        "qualifiers_per_table": "2",
        "seed": "12",
        **given,
    }
    return {k: str(v) for k, v in data.items() if v is not None}


def test_the_new_tournament_page_creates_a_duplicate_tournament() -> None:
    club = ClubFactory.create()
    browser = browser_of(organiser_of(club))
    url = reverse("tournaments:new", args=[club.slug])
    page = browser.get(url)
    assert page.status_code == 200
    assert 'name="duplicate_method"' in page.content.decode()
    assert 'value="duplicate"' in page.content.decode()

    response = browser.post(url, _new_page_post())
    assert response.status_code == 302
    tournament = Tournament.objects.get(club=club)
    assert tournament.format == DUPLICATE
    assert tournament.duplicate_method == Tournament.DuplicateMethod.AVERAGE
    assert (tournament.rounds, tournament.deals_per_round, tournament.seed) == (3, 3, 12)


def test_the_page_refuses_teams_and_tables_of_three_beside_their_fields() -> None:
    club = ClubFactory.create()
    browser = browser_of(organiser_of(club))
    url = reverse("tournaments:new", args=[club.slug])
    response = browser.post(url, _new_page_post(team_size="2", allow_threes="on"))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"team_size", "allow_threes"}
    assert "individual" in errors["team_size"][0]
    assert "tables of 4" in errors["allow_threes"][0]
    assert "individual" in text_of(response.content)
    assert not Tournament.objects.filter(club=club).exists()
    # The same settings in a rounds tournament are fine: the rule is the duplicate's.
    response = browser.post(url, _new_page_post(format="rounds", team_size="2", allow_threes="on"))
    assert response.status_code == 302


def test_the_service_refuses_them_by_field_too() -> None:
    club = ClubFactory.create()
    with pytest.raises(Refusal) as refused:
        registration_services.tournament_create(
            club=club, name="X", by=None, format=DUPLICATE, team_size=4
        )
    assert set(refused.value.messages()) == {"team_size"}
    assert not Tournament.objects.exists()


def test_the_api_creates_a_duplicate_tournament_and_refuses_per_field() -> None:
    club = ClubFactory.create()
    api = token_client(organiser_of(club), lang="en")
    body = {"club": club.pk, "name": "Duplicate API", "format": "duplicate", "rounds": 2}
    response = api.post("/api/v1/tournaments/", {**body, "duplicate_method": "average"}, "json")
    assert response.status_code == 201, response.content
    assert response.json()["format"] == "duplicate"
    assert response.json()["duplicate_method"] == "average"
    assert Tournament.objects.get(pk=response.json()["id"]).deals_per_round == 8

    refused = api.post(
        "/api/v1/tournaments/", {**body, "team_size": 2, "allow_threes": True}, "json"
    )
    errors = assert_field_errors(refused)
    assert set(errors) == {"team_size", "allow_threes"}
    bad_method = api.post("/api/v1/tournaments/", {**body, "duplicate_method": "best"}, "json")
    assert set(assert_field_errors(bad_method)) == {"duplicate_method"}
    assert Tournament.objects.count() == 1


def test_one_round_is_refused_on_its_field_a_board_needs_a_second_table() -> None:
    club = ClubFactory.create()
    page = browser_of(organiser_of(club)).post(
        reverse("tournaments:new", args=[club.slug]), _new_page_post(rounds="1")
    )
    assert page.status_code == 400
    assert "at least 2 rounds" in page.context["form"].errors["rounds"][0]
    with pytest.raises(Refusal) as refused:
        registration_services.tournament_create(
            club=club, name="X", by=None, format=DUPLICATE, rounds=1
        )
    assert set(refused.value.messages()) == {"rounds"}
    api = token_client(organiser_of(club), lang="en")
    body = {"club": club.pk, "name": "Duplicate API", "format": "duplicate", "rounds": 1}
    assert set(assert_field_errors(api.post("/api/v1/tournaments/", body, "json"))) == {"rounds"}
    assert not Tournament.objects.exists()
    # One round is fine in a rounds tournament.
    registration_services.tournament_create(club=club, name="Y", by=None, rounds=1)


def test_no_swap_and_no_substitute_in_a_duplicate_round() -> None:
    """Each seat is the movement's: a swap or a substitute would move a player's boards."""
    tournament = duplicate_event(8)
    user = organiser_of(tournament.club)
    round_ = round_services.round_seat_next(tournament=tournament, by=user)
    first, second = tables_of(round_)
    a, b = (Player.objects.get(pk=seated(t)[0]) for t in (first, second))
    with pytest.raises(tournament_errors.TournamentError, match="every seat is the movement's"):
        round_services.round_swap(round_=round_, first=a, second=b)
    replaced = Entry.objects.get(tournament=tournament, player=a)
    with pytest.raises(Refusal) as refused:
        people.substitute_seat(round_=round_, replaced=replaced, name="Remplaçant")
    assert set(refused.value.messages()) == {"replaced"}
    assert seated(first)[0] == a.pk and seated(second)[0] == b.pk
    html = browser_of(user).get(reverse("tournaments:round", args=[tournament.pk, 1]))
    assert 'id="swap-form"' not in html.content.decode()
    assert 'id="substitute-heading"' not in html.content.decode()


# --- seating ------------------------------------------------------------------------------------


def test_round_one_draws_movement_numbers_and_every_round_follows_the_movement() -> None:
    tournament = duplicate_event(12, rounds=3, boards=2)
    plan = movement(3, 3, 2)
    for number in (1, 2, 3):
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        assert round_.number == number
        entries = list(Entry.objects.filter(tournament=tournament))
        numbers = sorted(e.movement_number or 0 for e in entries)
        assert numbers == list(range(1, 13))
        player_of = {e.movement_number: e.player_id for e in entries}
        tables = tables_of(round_)
        assert [t.number for t in tables] == [1, 2, 3]
        for table in tables:
            station = plan.station(number, table.number)
            # Seat positions 0 to 3 are North, East, South, West.
            assert seated(table) == [player_of[n] for n in station.players]
            assert table.game.max_deals == 2
            assert set(duplicate_format.deal_boards(game=table.game) or ()) == set(station.boards)
        enter_all(round_)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    refusal = round_services.next_round_refusal(tournament)
    assert refusal is not None and "3 rounds" in str(refusal)
    assert refusal.code is tournament_errors.Code.ROUNDS_PLAYED


def _numbers(tournament: Tournament) -> dict[str, int | None]:
    return {
        e.player.name: e.movement_number
        for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }


def test_the_draw_is_the_seeds() -> None:
    first = duplicate_event(8, seed=41)
    again = duplicate_event(8, seed=41)
    other = duplicate_event(8, seed=42)
    for tournament in (first, again, other):
        round_services.round_seat_next(tournament=tournament, by=None)
    assert _numbers(first) == _numbers(again)
    assert _numbers(first) != _numbers(other)


@pytest.mark.parametrize(
    ("players", "rounds", "said"),
    [
        (9, 2, "multiple of 4"),
        (4, 2, "at least 8"),
        (0, 2, "multiple of 4"),
        (8, 3, "2 tables has at most 2 rounds"),
    ],
)
def test_seating_refuses_what_the_movement_cannot_do(players: int, rounds: int, said: str) -> None:
    tournament = duplicate_event(players, rounds=rounds)
    with pytest.raises(tournament_errors.TournamentError) as refused:
        round_services.round_seat_next(tournament=tournament, by=None)
    assert said in str(refused.value)
    assert not Round.objects.filter(tournament=tournament).exists()
    assert not Entry.objects.filter(tournament=tournament, movement_number__isnull=False).exists()


def test_seating_refusal_reads_in_french() -> None:
    tournament = duplicate_event(8, rounds=3)
    with translation.override("fr"), pytest.raises(tournament_errors.TournamentError) as refused:
        round_services.round_seat_next(tournament=tournament, by=None)
    assert "au plus 2 séances" in str(refused.value)


def test_the_field_is_fixed_once_the_movement_is_drawn() -> None:
    tournament = duplicate_event(8)
    late = registration_services.entry_add(
        tournament=tournament, name="Retardataire"
    )  # before: fine
    registration_services.entry_withdraw(entry=late)
    round_services.round_seat_next(tournament=tournament, by=None)
    entry = Entry.objects.filter(tournament=tournament, movement_number__isnull=False).first()
    assert entry is not None
    changes: list[Callable[[], object]] = [
        lambda: registration_services.entry_add(tournament=tournament, name="Trop tard"),
        lambda: registration_services.entry_check_in(entry=entry, checked_in=False),
        lambda: registration_services.entry_withdraw(entry=entry),
    ]
    for change in changes:
        with pytest.raises(tournament_errors.TournamentError) as refused:
            change()
        assert "movement of this duplicate tournament is drawn" in str(refused.value)
    # Checking in someone already in changes nothing, and is not refused.
    registration_services.entry_check_in(entry=entry, checked_in=True)


def test_once_drawn_the_pages_offer_no_change_of_the_field_and_say_why() -> None:
    tournament = duplicate_event(8)
    user = organiser_of(tournament.club)
    client = browser_of(user)
    url = reverse("tournaments:registration", args=[tournament.pk])
    before = client.get(url).content.decode()
    assert 'id="register"' in before and "check-in-" in before and "withdraw-" in before
    assert 'id="field-fixed"' not in before

    round_services.round_seat_next(tournament=tournament, by=user)
    after = client.get(url).content.decode()
    assert 'id="register"' not in after
    assert "check-in-" not in after and "withdraw-" not in after
    assert "movement of this duplicate tournament is drawn" in text_of(after.encode())

    detail = text_of(client.get(reverse("tournaments:detail", args=[tournament.pk])).content)
    assert "2 boards a table" in detail
    assert "by the movement: each player keeps his direction" in detail
    assert "Mixing" not in detail


def _share_a_table(numbers: dict[int, int], plan: Any, a: int, b: int) -> bool:
    return any(
        numbers[a] in station.players and numbers[b] in station.players for station in plan.stations
    )


def test_the_draw_keeps_pairs_apart_in_every_round_when_it_can() -> None:
    plan = movement(4, 3, 2)
    players = list(range(100, 116))
    apart = {frozenset((100 + i, 101 + i)) for i in range(0, 16, 2)}  # eight pairs
    draw = draw_movement_numbers(players, plan, seed=3, apart=apart)
    assert draw.clashes == ()
    assert sorted(draw.numbers.values()) == list(range(1, 17))
    for pair in apart:
        a, b = sorted(pair)
        assert not _share_a_table(draw.numbers, plan, a, b)
    # Without the pairs, the same seed's first draw does seat some of them together: the
    # redraw is what kept them apart.
    plain = draw_movement_numbers(players, plan, seed=3, tries=1)
    assert draw_clashes(plain.numbers, plan, apart)
    assert draw_movement_numbers(players, plan, seed=3, apart=apart) == draw


def test_the_draw_reports_the_pairs_it_cannot_keep_apart() -> None:
    plan = movement(2, 2, 1)
    players = list(range(1, 9))
    # Player 1 kept apart from everyone: impossible, he has three table-mates.
    apart = {frozenset((1, p)) for p in range(2, 9)}
    draw = draw_movement_numbers(players, plan, seed=9, apart=apart, tries=20)
    assert draw.clashes and draw.tries == 20
    for clash in draw.clashes:
        a, b = clash.players
        station = plan.station(clash.round, clash.table)
        assert draw.numbers[a] in station.players and draw.numbers[b] in station.players
        assert frozenset((a, b)) in apart
    # Three table-mates in each of the two rounds (nobody moves with 2 tables over 2 rounds).
    assert len(draw.clashes) == 6


def test_team_mates_never_share_a_table_and_clashes_are_reported_on_the_round() -> None:
    tournament = duplicate_event(8, rounds=2)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    registration_services.team_create(tournament=tournament, name="Les Étuis", entries=entries[:2])
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    a, b = entries[0].player_id, entries[1].player_id
    for table in tables_of(round_):
        assert not {a, b} <= set(seated(table))
    assert people_selectors.round_clashes(round_=round_) == []
    organiser = organiser_of(tournament.club)
    round_page = reverse("tournaments:round", args=[tournament.pk, round_.number])
    assert 'id="apart-clashes"' not in browser_of(organiser).get(round_page).content.decode()
    # A pair kept apart after the draw, who share table 1: listed by the round's page.
    first = seated(tables_of(round_)[0])
    by_player = {e.player_id: e for e in entries}
    people.apart_pair_add(
        tournament=tournament,
        first=by_player[first[0]],
        second=by_player[first[1]],
        reason="famille",
    )
    clashes = people_selectors.round_clashes(round_=round_)
    assert [(c.table, c.reason) for c in clashes] == [(1, "famille")]
    page = browser_of(organiser).get(round_page)
    assert 'id="apart-clashes"' in page.content.decode()
    assert "1 pair kept apart shares a table" in text_of(page.content)


def test_the_duplicate_draw_keeps_the_registered_pairs_apart_in_every_round() -> None:
    tournament = duplicate_event(8, rounds=2)
    entries = list(tournament_rules.entries_playing(tournament, 1))
    plan = movement(2, 2, tournament.deals_per_round)
    # Two players the plain draw (no pair registered) would seat together.
    plain = draw_movement_numbers([e.player_id for e in entries], plan, seed=tournament.seed)
    first = set(plan.station(1, 1).players)  # the numbers seated at table 1 in round 1
    together = [e for e in entries if plain.numbers[e.player_id] in first][:2]
    people.apart_pair_add(
        tournament=tournament, first=together[0], second=together[1], reason="arbitre"
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    assert people_selectors.round_clashes(round_=round_) == []
    # Every round of the movement, not only the first: their numbers never share a station.
    numbers = dict(
        Entry.objects.filter(tournament=tournament).values_list("player_id", "movement_number")
    )
    pair = {numbers[together[0].player_id], numbers[together[1].player_id]}
    assert all(not pair <= set(station.players) for station in plan.stations)


# --- table entry --------------------------------------------------------------------------------


@pytest.fixture
def seated_event() -> tuple[Tournament, Round]:
    tournament = duplicate_event(8, rounds=2, boards=3)
    return tournament, round_services.round_seat_next(tournament=tournament, by=None)


def link(table: Table) -> str:
    return reverse("tournaments:table_entry", args=[table.token])


def test_the_link_shows_the_boards_directions_and_the_dealer(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[1]
    boards = movement(2, 2, 3).station(1, 2).boards
    assert boards == (4, 5, 6)
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(link(table))
    assert page.status_code == 200
    html = page.content.decode()
    text = text_of(page.content)
    players = Player.objects.in_bulk(seated(table))
    names = [players[pk].label for pk in seated(table)]
    for direction, name in zip(("North", "East", "South", "West"), names, strict=True):
        assert f"{direction}: {name}" in text
    for board in boards:
        assert f'data-board="{board}" data-entered="0"' in html
        assert f'<option value="{board}"' in html
    assert '<option value="4" selected>' in html
    # Board 4 is dealt by West (board 1 North, 2 East, 3 South, 4 West).
    assert board_dealer(4).name == "WEST"
    assert f"West ({names[3]}) deals." in text
    assert 'id="deal-err-board"' in html and '<label for="id_board">' in html


def test_the_page_reads_in_french(seated_event: tuple[Tournament, Round]) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    page = Client(HTTP_ACCEPT_LANGUAGE="fr").get(link(table))
    text = text_of(page.content)
    assert "Nord : " in text
    assert "Étui 1 — donneur Nord" in text


def test_saving_stores_the_board_and_its_dealer(seated_event: tuple[Tournament, Round]) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    seats = seated(table)
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(seats[0], 1, board=3))
    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get(game=table.game)
    assert deal.board == 3
    # Board 3: South deals, seat position 2.
    assert deal.dealer_id == seats[DIRECTIONS.index(board_dealer(3))] == seats[2]
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(link(table))
    html = page.content.decode()
    assert 'data-board="3" data-entered="1"' in html
    assert '<option value="3"' not in html and '<option value="1" selected>' in html
    assert 'data-testid="board-of-1"' in html


def test_a_board_of_another_table_or_already_entered_is_refused_beside_the_select(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    other = Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(taker, 1, board=5))
    assert other.status_code == 400
    assert "Board 5 is not played at this table in this round." in _board_errors(other)
    missing = Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(taker, 1))
    assert "Choose the board" in _board_errors(missing)
    assert not Deal.objects.exists()

    assert (
        Client(HTTP_ACCEPT_LANGUAGE="en")
        .post(link(table), deal_post(taker, 1, board=2))
        .status_code
        == 302
    )
    again = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        link(table), deal_post(taker, 2, board=2), headers={"HX-Request": "1"}
    )
    assert again.status_code == 400
    assert "Board 2 has already been entered." in _board_errors(again)
    assert Deal.objects.filter(game=table.game).count() == 1


def _board_errors(response: Any) -> str:
    html = response.content.decode()
    start = html.index('id="deal-err-board"')
    return text_of(html[start : html.index("</div>", start)].encode())


def test_the_service_refuses_a_board_that_does_not_fit_the_game(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    for board, code in ((None, "board_required"), (4, "board_not_here")):
        with pytest.raises(Refusal) as refused:
            game_services.deal_record(game=table.game, payload=garde(taker), by=None, board=board)
        assert refused.value.codes() == {"board": [code]}
    club_game = make_game()
    club_taker = seated_ids(club_game)[0]
    with pytest.raises(Refusal) as refused:
        game_services.deal_record(game=club_game, payload=garde(club_taker), by=None, board=1)
    assert refused.value.codes() == {"board": ["board_not_played"]}
    assert not Deal.objects.exists()


def _two_phones_on_board_one(table: Table) -> list[Any]:
    barrier = threading.Barrier(2)
    outcomes: list[Any] = []
    taker = seated(table)[0]

    def save() -> None:
        try:
            barrier.wait()
            outcomes.append(
                game_services.deal_record(
                    game=table.game, payload=garde(taker), by=None, number=1, board=1
                ).deal
            )
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_two_phones_entering_the_same_board_at_once_store_one_deal() -> None:
    tournament = duplicate_event(8, rounds=2, boards=3)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    table = tables_of(round_)[0]
    outcomes = _two_phones_on_board_one(table)
    assert Deal.objects.filter(game=table.game).count() == 1
    refused = [o for o in outcomes if not isinstance(o, Deal)]
    assert len(refused) == 1 and isinstance(refused[0], Refusal), outcomes
    assert refused[0].codes() == {"board": ["board_entered"]}
    # The threads speak the site's default language (French): an override is per thread.
    assert str(refused[0]) == "L'étui 1 a déjà été saisi."


def test_the_constraint_catches_a_board_the_check_let_through(
    seated_event: tuple[Tournament, Round], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the check under the lock is passed (two phones at once on a database that lets
    both read before either writes), the one live deal a board constraint refuses the second:
    the same refusal, not a 500."""
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    game_services.deal_record(game=table.game, payload=garde(taker), by=None, board=1)
    monkeypatch.setattr(
        game_services,
        "_check_board",
        lambda game, board: None,  # as if the other phone's deal were not visible yet
    )
    with pytest.raises(Refusal) as refused:
        game_services.deal_record(game=table.game, payload=garde(taker), by=None, board=1)
    assert refused.value.codes() == {"board": ["board_entered"]}
    assert Deal.objects.filter(game=table.game).count() == 1


def test_a_correction_keeps_the_board_and_the_history_shows_it(
    seated_event: tuple[Tournament, Round],
) -> None:
    tournament, round_ = seated_event
    table = tables_of(round_)[0]
    seats = seated(table)
    Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(seats[0], 1, board=2))
    deal = Deal.objects.get(game=table.game)
    edit = reverse("tournaments:table_deal_edit", args=[table.token, deal.pk])
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(edit)
    assert "board 2" in text_of(page.content)
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        edit, {**deal_post(seats[1], 1), "version": "1"}
    )
    assert response.status_code == 302, response.content.decode()
    deal.refresh_from_db()
    assert (deal.board, deal.taker_id, deal.version) == (2, seats[1], 2)
    organiser = organiser_of(tournament.club)
    history = browser_of(organiser).get(reverse("games:deal_history", args=[deal.pk]))
    assert "Played from board 2." in text_of(history.content)


def test_the_table_is_full_after_its_boards(seated_event: tuple[Tournament, Round]) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    for number, board in enumerate((3, 1, 2), start=1):
        response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
            link(table), deal_post(taker, number, board=board)
        )
        assert response.status_code == 302
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(link(table))
    assert 'id="deal-full"' in page.content.decode()
    assert sorted(b or 0 for b in table.game.deals.values_list("board", flat=True)) == [1, 2, 3]


def test_the_link_page_reads_a_bounded_number_of_queries(
    seated_event: tuple[Tournament, Round], django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(taker, 1, board=1))
    Client(HTTP_ACCEPT_LANGUAGE="en").post(link(table), deal_post(taker, 2, board=2))
    # 6 before the table's penalties were read; 8 since its contested deals are (they count for
    # nobody in its totals).
    with django_assert_max_num_queries(8):
        assert Client(HTTP_ACCEPT_LANGUAGE="en").get(link(table)).status_code == 200


# --- API ----------------------------------------------------------------------------------------


def test_the_api_enters_a_board_and_refuses_a_wrong_one_per_field(
    seated_event: tuple[Tournament, Round],
) -> None:
    tournament, round_ = seated_event
    table = tables_of(round_)[1]
    seats = seated(table)
    api = token_client(organiser_of(tournament.club), lang="en")
    url = f"/api/v1/games/{table.game_id}/deals/"
    response = api.post(url, {**garde(seats[0]), "board": 6}, "json")
    assert response.status_code == 201, response.content
    assert response.json()["board"] == 6
    assert response.json()["dealer"] == seats[DIRECTIONS.index(board_dealer(6))]
    for body, said in (
        ({**garde(seats[0]), "board": 6}, "Board 6 has already been entered."),
        ({**garde(seats[0]), "board": 1}, "Board 1 is not played at this table in this round."),
        (garde(seats[0]), "Choose the board this deal was played from."),
        ({**garde(seats[0]), "board": "six"}, None),
        ({**garde(seats[0]), "board": 0}, None),
    ):
        errors = assert_field_errors(api.post(url, body, "json"))
        assert set(errors) == {"board"}, errors
        if said:
            assert errors["board"] == [said]
    assert Deal.objects.filter(game=table.game).count() == 1
    listed = api.get(f"/api/v1/games/{table.game_id}/")
    assert listed.status_code == 200


def test_the_api_refuses_a_board_at_a_club_game() -> None:
    game = make_game()
    organiser = organiser_of(game.club)
    taker = seated_ids(game)[0]
    api = token_client(organiser, lang="en")
    response = api.post(f"/api/v1/games/{game.pk}/deals/", {**garde(taker), "board": 1}, "json")
    assert set(assert_field_errors(response)) == {"board"}
    created = api.post(f"/api/v1/games/{game.pk}/deals/", garde(taker), "json")
    assert created.status_code == 201 and created.json()["board"] is None
    assert Game.objects.get(pk=game.pk).deals.count() == 1


def test_a_deleted_board_deal_cannot_come_back_once_the_board_is_entered_again(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    first = game_services.deal_record(game=table.game, payload=garde(taker), by=None, board=1).deal
    game_services.deal_delete(deal=first, version=1, by=None)
    game_services.deal_record(game=table.game, payload=garde(taker), by=None, board=1)
    with pytest.raises(game_services.GameClosed) as refused:
        game_services.deal_restore(deal=first, by=None)
    assert refused.value.codes() == {"non_field_errors": ["board_entered"]}
    assert table.game.deals.filter(board=1, deleted_at__isnull=True).count() == 1


def test_an_htmx_save_answers_the_boards_and_the_next_board(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    response = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        link(table), deal_post(taker, 1, board=1), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html
    assert 'id="table-boards"' in html and 'data-board="1" data-entered="1"' in html
    assert '<option value="1"' not in html and '<option value="2" selected>' in html
    # Board 2 is dealt by East, the second seat.
    east = Player.objects.get(pk=seated(table)[1]).label
    assert f"East ({east}) deals." in text_of(response.content)


def test_the_pages_and_the_api_refuse_changing_the_field_once_drawn_without_a_500() -> None:
    tournament = duplicate_event(8)
    round_services.round_seat_next(tournament=tournament, by=None)
    entry = Entry.objects.filter(tournament=tournament).first()
    assert entry is not None
    organiser = organiser_of(tournament.club)
    browser = browser_of(organiser)
    registration = reverse("tournaments:registration", args=[tournament.pk])
    check_in = reverse("tournaments:entry_check_in", args=[tournament.pk, entry.pk])
    withdraw = reverse("tournaments:entry_withdraw", args=[tournament.pk, entry.pk])
    response = browser.post(check_in, {"checked_in": "0"})
    assert response.status_code == 302 and response["Location"] == registration
    page = browser.get(registration)
    assert "movement of this duplicate tournament is drawn" in text_of(page.content)
    response = browser.post(withdraw, headers={"HX-Request": "true"})
    assert response.status_code == 200 and response["HX-Redirect"] == registration
    entry.refresh_from_db()
    assert entry.checked_in and entry.withdrawn_after is None

    api = token_client(organiser, lang="en")
    url = f"/api/v1/tournaments/{tournament.pk}/entries/{entry.pk}/"
    assert set(assert_field_errors(api.patch(url, {"checked_in": False}, "json"))) == {"checked_in"}
    assert set(assert_field_errors(api.patch(url, {"withdrawn": True}, "json"))) == {"withdrawn"}
    added = api.post(f"/api/v1/tournaments/{tournament.pk}/entries/", {"name": "Zoé"}, "json")
    assert set(assert_field_errors(added)) == {"name"}
    entry.refresh_from_db()
    assert entry.checked_in and entry.withdrawn_after is None


def test_undoing_a_deal_gives_its_board_back_to_the_select(
    seated_event: tuple[Tournament, Round],
) -> None:
    _tournament, round_ = seated_event
    table = tables_of(round_)[0]
    taker = seated(table)[0]
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert phone.post(link(table), deal_post(taker, 1, board=2)).status_code == 302
    deal = Deal.objects.get(game=table.game)
    undo = reverse("tournaments:table_deal_undo", args=[table.token, deal.pk])
    response = phone.post(undo, {"version": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert '<option value="2" selected>' in html and 'data-board="2" data-entered="0"' in html


# --- a whole session, as the organiser and the tables run it ------------------------------------


def test_an_organiser_runs_a_duplicate_session_from_registration_to_printed_results() -> None:
    """Created on its page, 8 players registered, both rounds seated on the round pages, every
    board entered through the tables' links, then the ranking, a traveller and the papers."""
    from tests.tournaments.printing.test_pdf import read, streamed

    club = ClubFactory.create()
    organiser = organiser_of(club)
    browser = browser_of(organiser)
    post = _new_page_post(duplicate_method="matchpoints", rounds="2", deals_per_round="2")
    assert browser.post(reverse("tournaments:new", args=[club.slug]), post).status_code == 302
    tournament = Tournament.objects.get(club=club)
    for i in range(8):
        player = PlayerFactory.create(name=f"Joueuse {i + 1}", clubs=[club])
        registration_services.entry_add(tournament=tournament, player=player, checked_in=True)
    seat = reverse("tournaments:round_seat", args=[tournament.pk])
    for number in (1, 2):
        assert browser.post(seat).status_code == 302
        round_ = Round.objects.get(tournament=tournament, number=number)
        for table in tables_of(round_):
            phone = Client(HTTP_ACCEPT_LANGUAGE="en")
            boards = sorted(duplicate_format.deal_boards(game=table.game) or ())
            for i, board in enumerate(boards, start=1):
                # Each table plays each board its own way: the taker and the points differ.
                taker = seated(table)[(board + table.number) % 4]
                points = 35 + 7 * ((board * table.number + number) % 5)
                sent = deal_post(taker, i, board=board, points=str(points))
                assert phone.post(link(table), sent).status_code in (200, 302)
        assert Deal.objects.filter(game__tournament_table__round=round_).count() == 4
        assert Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED
    # Every board was played at both tables: on a board, a direction's two players share
    # 2 matchpoints (2 for the better, or 1 each); 4 boards x 4 directions x 2 = 32 in all.
    rows = duplicate_results.duplicate_standings(tournament=tournament)
    assert len(rows) == 8 and sum(r.matchpoints for r in rows) == 32
    assert all(r.boards == 4 and r.maximum == 8 for r in rows)  # 2 rounds of 2 boards
    page = text_of(browser.get(reverse("tournaments:standings", args=[tournament.pk])).content)
    for row in rows:
        assert row.player.label in page
    pages, text = read(
        streamed(browser.get(reverse("tournaments:standings_pdf", args=[tournament.pk])))
    )
    assert pages == 1 and all(row.player.label in text[0] for row in rows)
    traveller = browser.get(reverse("tournaments:board", args=[tournament.pk, 1]))
    assert traveller.status_code == 200 and "Not played yet" not in text_of(traveller.content)
    for name in ("travellers_pdf", "movement_pdf", "board_labels_pdf"):
        pages, text = read(
            streamed(browser.get(reverse(f"tournaments:{name}", args=[tournament.pk])))
        )
        assert pages >= 1 and any(t.strip() for t in text), name


def test_a_duplicate_rounds_sheets_and_page_say_who_deals_each_board() -> None:
    """The printed sheet of a duplicate table lists its boards, each dealt by the direction the
    board names (not by turns), and its seats by direction; so does the round page."""
    from tests.tournaments.printing.test_pdf import read, streamed

    tournament = duplicate_event(8, rounds=2, boards=2)
    organiser = organiser_of(tournament.club)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    browser = browser_of(organiser)
    url = reverse("tournaments:table_sheets_pdf", args=[tournament.pk, round_.number])
    pages, text = read(streamed(browser.get(url)))
    assert pages == 2
    plan = movement(2, 2, 2)
    names = dict(Player.objects.values_list("pk", "name"))
    for table, page in zip(tables_of(round_), text, strict=True):
        station = plan.station(1, table.number)
        players = [names[p] for p in seated(table)]
        assert f"North. {players[0]}" in page and f"West. {players[3]}" in page
        assert "deals first" not in page and "Board" in page
        for board in station.boards:
            dealer = players[DIRECTIONS.index(board_dealer(board))]
            assert f"{board} {dealer}" in page
    html = text_of(browser.get(reverse("tournaments:round", args=[tournament.pk, 1])).content)
    first = names[seated(tables_of(round_)[0])[0]]
    assert f"{first} (North)" in html and "deals first" not in html


def test_the_counts_of_boards_entered_read_right_in_french_and_english() -> None:
    """ "1 donne saisie sur 4", not "1 donnes saisies" (French's plural follows the first number);
    the table's board list puts French's space before its colon."""
    tournament = duplicate_event(8, boards=2)
    user = organiser_of(tournament.club)
    round_ = round_services.round_seat_next(tournament=tournament, by=user)
    first, second = tables_of(round_)
    board = sorted(duplicate_format.deal_boards(game=first.game) or ())[0]
    game_services.deal_record(
        game=first.game, payload=garde(seated(first)[0]), by=None, board=board
    )
    url = reverse("tournaments:round", args=[tournament.pk, 1])

    french = text_of(signed_in_client(user).get(url, HTTP_ACCEPT_LANGUAGE="fr").content)
    assert "1 donne saisie sur 4" in french
    assert "1 donne saisie sur 2" in french and "0 donne saisie sur 2" in french
    assert "donnes saisies" not in french
    english = text_of(browser_of(user).get(url).content)
    assert "1 of 4 deals entered" in english and "0 of 2 deals entered" in english

    link = reverse("tournaments:table_entry", args=[second.token])
    boards = sorted(duplicate_format.deal_boards(game=second.game) or ())
    page = text_of(Client().get(link, HTTP_ACCEPT_LANGUAGE="fr").content)
    assert f"Étui {boards[0]} : à jouer" in page
    assert f"Board {boards[0]}: to play" in text_of(
        Client().get(link, HTTP_ACCEPT_LANGUAGE="en").content
    )
