"""What the tournament pages do for an organiser, and what everyone reads on them: creating a
tournament, registration and check-in, seating and swapping, starting and closing rounds,
standings (equal to the sum of the deals), the projector, the bracket and the CSV export.
Standings and projector read a fixed number of queries, whatever the number of deals."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import ScoreLine
from tarot_scores.stats.models import PlayerSeason
from tests.csv_reading import csv_rows
from tests.factories import ClubFactory, UserFactory, World, build_world, make_tournament, play
from tests.tournaments.open_rounds import deals_leave_rounds_open
from tests.tournaments.views.test_pages_world import deal_post, live_deals, text_of
from tournaments.api.serializers import TournamentCreateSerializer
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Round, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world()


def organiser(world: World) -> Client:
    return world.client("organiser")


# --- a new tournament --------------------------------------------------------------------------


def test_the_new_tournament_form_creates_it_with_every_setting(world: World) -> None:
    rules = HouseRules.objects.create(club=world.club, name="Règles du jeudi", based_on="fft")
    page = organiser(world).get(reverse("tournaments:new", args=[world.club.slug]))
    assert page.status_code == 200
    seed = page.context["form"].initial["seed"]
    assert 0 < seed < 1_000_000  # drawn at random, shown in the form
    response = organiser(world).post(
        reverse("tournaments:new", args=[world.club.slug]),
        {
            "name": "  Coupe de Noël ",
            "date": "2026-12-20",
            "rules": f"house:{rules.pk}",
            "format": "knockout",
            "rounds": "3",
            "deals_per_round": "5",
            "round_minutes": "45",
            "seating": "swiss",
            "five_mode": "called_king",
            "allow_threes": "on",
            "team_size": "2",
            "qualifiers_per_table": "1",
            "seed": "4242",
            "require_confirmation": "on",
        },
    )
    tournament = Tournament.objects.get(name="Coupe de Noël")
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:registration", args=[tournament.pk])
    assert tournament.club == world.club and tournament.house_rules == rules
    assert tournament.variant == "house" and tournament.rules["five_players"] == "called_king"
    assert (tournament.format, tournament.deals_per_round, tournament.round_minutes) == (
        "knockout",
        5,
        45,
    )
    assert tournament.seating == "swiss" and tournament.allow_threes
    assert (tournament.team_size, tournament.qualifiers_per_table, tournament.seed) == (2, 1, 4242)
    assert str(tournament.date) == "2026-12-20"
    assert tournament.require_confirmation


def test_the_new_tournament_form_refuses_nonsense(world: World) -> None:
    response = organiser(world).post(
        reverse("tournaments:new", args=[world.club.slug]),
        {"name": "", "date": "2026-12-20", "rules": "fft", "format": "rounds", "rounds": "0"},
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert {"name", "rounds", "deals_per_round", "seating"} <= set(form.errors)
    assert not Tournament.objects.filter(date="2026-12-20").exists()


def test_the_club_page_links_its_tournaments(world: World) -> None:
    page = Client().get(reverse("clubs:detail", args=[world.club.slug]))
    assert reverse("tournaments:list", args=[world.club.slug]) in page.content.decode()
    listing = Client().get(reverse("tournaments:list", args=[world.club.slug]))
    assert world.tournament.name in text_of(listing.content)
    assert reverse("tournaments:new", args=[world.club.slug]) not in listing.content.decode()
    listing = organiser(world).get(reverse("tournaments:list", args=[world.club.slug]))
    assert reverse("tournaments:new", args=[world.club.slug]) in listing.content.decode()


# --- registration ------------------------------------------------------------------------------


@pytest.fixture
def fresh() -> tuple[Club, Tournament, Client]:
    """A club with five players, an organiser and a tournament nobody has registered for."""
    world = build_world(tag="B")
    club = world.club
    tournament = registration_services.tournament_create(club=club, name="Open", by=None, seed=3)
    return club, tournament, world.client("organiser")


def test_registration_adds_club_players_and_newcomers(
    fresh: tuple[Club, Tournament, Client],
) -> None:
    club, tournament, client = fresh
    regulars = list(Player.objects.filter(clubs=club).order_by("pk")[:3])
    url = reverse("tournaments:registration", args=[tournament.pk])
    response = client.post(
        url,
        {
            "players": [str(p.pk) for p in regulars],
            "new_names": "Zoé Martin\n\n  Yves  \nzoé martin\n",
            "checked_in": "on",
        },
    )
    assert response.status_code == 302
    entries = Entry.objects.filter(tournament=tournament)
    assert {e.player.name for e in entries} == {*(p.name for p in regulars), "Zoé Martin", "Yves"}
    assert all(e.checked_in for e in entries)
    assert Player.objects.get(name="Yves").clubs.filter(pk=club.pk).exists()
    page = client.get(url)
    # Registered players leave the list of club players to add.
    choices = {str(v) for v, _label in page.context["add_form"].fields["players"].choices}
    assert not choices & {str(p.pk) for p in regulars}


def test_registration_says_what_is_missing(fresh: tuple[Club, Tournament, Client]) -> None:
    _club, tournament, client = fresh
    url = reverse("tournaments:registration", args=[tournament.pk])
    response = client.post(url, {"new_names": "", "checked_in": "on"})
    assert response.status_code == 400 and response.context["add_form"].non_field_errors()
    assert not tournament.entries.exists()


def test_the_search_narrows_the_club_players_and_keeps_the_ticked_ones(
    fresh: tuple[Club, Tournament, Client],
) -> None:
    club, tournament, client = fresh
    chloe = Player.objects.get(clubs=club, name="Chloé")
    bruno = Player.objects.get(clubs=club, name="Bruno")
    url = reverse("tournaments:registration", args=[tournament.pk])
    response = client.get(
        url,
        {"q": "chl", "players": [str(bruno.pk)]},
        headers={"HX-Request": "true", "HX-Target": "player-picker"},
    )
    content = response.content.decode()
    assert "<html" not in content and 'id="player-picker"' in content
    offered = set(re.findall(r'name="players" value="(\d+)"', content))
    assert offered == {str(chloe.pk), str(bruno.pk)}
    assert re.search(rf'value="{bruno.pk}"[^>]*checked', content)


def test_check_in_is_one_tap_and_updates_the_table_plan(world: World) -> None:
    client = organiser(world)
    tournament = make_tournament(world.club, 12, name="Plan")
    absent = registration_services.entry_add(tournament=tournament, name="Retardataire")
    url = reverse("tournaments:entry_check_in", args=[tournament.pk, absent.pk])
    response = client.post(url, {"checked_in": "1"}, headers={"HX-Request": "true"})
    content = response.content.decode()
    assert response.status_code == 200 and "<html" not in content
    assert f'id="entry-{absent.pk}"' in content and 'aria-pressed="true"' in content
    # The plan for 13 players, in the seating package's own words, swapped in out of band.
    assert 'id="table-plan"' in content and 'hx-swap-oob="true"' in content
    assert "13 joueurs : 2 tables de 4 et 1 table de 5" in text_of(response.content)
    absent.refresh_from_db()
    assert absent.checked_in
    response = client.post(url, {"checked_in": "0"})
    assert response.status_code == 302
    absent.refresh_from_db()
    assert not absent.checked_in


def test_an_impossible_head_count_says_why(world: World) -> None:
    tournament = make_tournament(world.club, 6, name="Six")
    client = organiser(world)
    page = client.get(reverse("tournaments:registration", args=[tournament.pk]))
    text = text_of(page.content)
    assert "Impossible d'asseoir 6 joueurs" in text
    assert 'id="seat-next" disabled' in page.content.decode()
    response = client.post(reverse("tournaments:round_seat", args=[tournament.pk]))
    assert response.status_code == 302 and not tournament.round_set.exists()
    followed = client.get(response["Location"])
    assert "Impossible d'asseoir 6 joueurs" in text_of(followed.content)


def test_a_late_arrival_plays_from_the_next_round(world: World) -> None:
    client = organiser(world)
    url = reverse("tournaments:registration", args=[world.tournament.pk])
    client.post(url, {"new_names": "Tardif", "checked_in": "on"})
    late = Entry.objects.get(tournament=world.tournament, player__name="Tardif")
    assert late.first_round == 2
    page = client.get(url)
    assert f'id="entry-{late.pk}"' in page.content.decode()
    play(world.round)
    client.post(reverse("tournaments:round_seat", args=[world.tournament.pk]))
    round_two = world.tournament.round_set.get(number=2)
    seated = {p.pk for s in round_selectors.round_tables(round_=round_two) for p in s.players}
    assert late.player_id in seated


def test_a_withdrawn_player_is_not_seated_again(world: World) -> None:
    leaving = world.tournament.entries.filter(checked_in=True).first()
    assert leaving is not None
    client = organiser(world)
    url = reverse("tournaments:entry_withdraw", args=[world.tournament.pk, leaving.pk])
    response = client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "entry-withdrawn" in response.content.decode()
    leaving.refresh_from_db()
    assert leaving.withdrawn_after == 1


def test_teams_are_made_of_the_tournaments_size(world: World) -> None:
    tournament = make_tournament(world.club, 8, name="Par équipes", team_size=2)
    a, b, c = tournament.entries.order_by("pk")[:3]
    url = reverse("tournaments:team_new", args=[tournament.pk])
    client = organiser(world)
    refused = client.post(url, {"name": "Trio", "members": [str(a.pk), str(b.pk), str(c.pk)]})
    assert refused.status_code == 400 and not tournament.teams.exists()
    assert "members" in refused.context["team_form"].errors
    response = client.post(url, {"name": "Duo", "members": [str(a.pk), str(b.pk)]})
    assert response.status_code == 302
    team = tournament.teams.get()
    assert set(team.members.values_list("pk", flat=True)) == {a.pk, b.pk}
    taken = client.post(url, {"name": "duo", "members": [str(c.pk)]})
    assert taken.status_code == 400 and "name" in taken.context["team_form"].errors


# --- rounds ------------------------------------------------------------------------------------


def test_seating_the_next_round_while_one_is_played_says_why(world: World) -> None:
    client = organiser(world)
    response = client.post(reverse("tournaments:round_seat", args=[world.tournament.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("tournaments:detail", args=[world.tournament.pk])
    assert not world.tournament.round_set.filter(number=2).exists()
    page = client.get(response["Location"])
    assert "message-error" in page.content.decode()


def test_the_round_page_shows_the_tables_in_seat_order_and_their_progress(world: World) -> None:
    play(world.round, deals=1)
    page = Client().get(reverse("tournaments:round", args=[world.tournament.pk, 1]))
    content = page.content.decode()
    text = text_of(page.content)
    for state in round_selectors.round_tables(round_=world.round):
        names = [p.label for p in state.players]
        positions = [text.index(name) for name in names]
        assert positions == sorted(positions)  # seat order
        assert reverse("games:detail", args=[state.table.game_id]) in content
    assert content.count('data-entered="1"') == 2
    assert 'id="start-round"' not in content  # not an organiser


def test_swap_then_start_then_close(world: World) -> None:
    client = organiser(world)
    first, second = round_selectors.round_tables(round_=world.round)
    a, b = first.players[0], second.players[3]
    url = reverse("tournaments:round_swap", args=[world.tournament.pk, 1])
    assert client.post(url, {"first": a.pk, "second": a.pk}).status_code == 400
    assert client.post(url, {"first": a.pk, "second": b.pk}).status_code == 302
    first, second = round_selectors.round_tables(round_=world.round)
    assert first.players[0] == b and second.players[3] == a

    start = reverse("tournaments:round_start", args=[world.tournament.pk, 1])
    assert client.post(start).status_code == 302
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.PLAYING and world.round.started_at is not None
    started_at = world.round.started_at
    client.post(start)  # a second tap does not restart the countdown
    world.round.refresh_from_db()
    assert world.round.started_at == started_at
    page = client.get(reverse("tournaments:round", args=[world.tournament.pk, 1]))
    assert 'id="swap-form"' not in page.content.decode()  # swaps are over
    assert 'data-testid="countdown"' in page.content.decode()

    close = reverse("tournaments:round_close", args=[world.tournament.pk, 1])
    client.post(close)  # incomplete: refused
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.PLAYING
    play(world.round)
    assert client.post(close).status_code == 302
    world.round.refresh_from_db()
    assert world.round.status == Round.Status.CLOSED
    page = client.get(reverse("tournaments:round", args=[world.tournament.pk, 1]))
    assert 'id="seat-next"' in page.content.decode()


def test_a_swap_after_the_first_deal_is_refused(world: World) -> None:
    play(world.round, deals=1)
    first, second = round_selectors.round_tables(round_=world.round)
    url = reverse("tournaments:round_swap", args=[world.tournament.pk, 1])
    organiser(world).post(url, {"first": first.players[0].pk, "second": second.players[0].pk})
    assert round_selectors.round_tables(round_=world.round)[0].players == first.players


def test_the_repeats_the_seating_could_not_avoid_are_listed() -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 4, rounds=2)  # four players: they meet again
    round_services.round_seat_next(tournament=tournament, by=None)
    play(tournament.round_set.get())
    round_two = round_services.round_seat_next(tournament=tournament, by=None)
    repeats = round_selectors.round_repeats(round_=round_two)
    assert len(repeats) == 6 and all(r.rounds == [1] for r in repeats)
    page = Client().get(reverse("tournaments:round", args=[tournament.pk, 2]))
    assert 'id="repeats-heading"' in page.content.decode()


@pytest.mark.parametrize(
    ("language", "words"),
    [("fr", "déjà rencontrés en séances 1 et 2"), ("en", "already met in rounds 1 and 2")],
)
def test_the_earlier_rounds_of_a_repeat_read_as_a_list(language: str, words: str) -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 4, rounds=3)  # four players meet again every round
    for _number in (1, 2):
        play(round_services.round_seat_next(tournament=tournament, by=None))
    round_services.round_seat_next(tournament=tournament, by=None)

    page = Client().get(
        reverse("tournaments:round", args=[tournament.pk, 3]), HTTP_ACCEPT_LANGUAGE=language
    )

    assert words in page.content.decode()


def test_closing_the_last_round_shows_the_final_ranking(world: World) -> None:
    client = organiser(world)
    for number in (1, 2):
        round_ = world.tournament.round_set.get(number=number)
        with deals_leave_rounds_open():  # the organiser's button closes it
            play(round_, seed=number)
        response = client.post(
            reverse("tournaments:round_close", args=[world.tournament.pk, number])
        )
        if number == 1:
            client.post(reverse("tournaments:round_seat", args=[world.tournament.pk]))
    assert response["Location"] == reverse("tournaments:standings", args=[world.tournament.pk])
    world.tournament.refresh_from_db()
    assert world.tournament.status == Tournament.Status.FINISHED
    detail = client.get(reverse("tournaments:detail", args=[world.tournament.pk]))
    assert 'id="seat-next"' not in detail.content.decode()


# --- standings, projector, bracket -------------------------------------------------------------


def test_standings_are_the_sum_of_the_deals(world: World) -> None:
    play(world.round, seed=4)
    page = Client().get(reverse("tournaments:standings", args=[world.tournament.pk]))
    assert page.status_code == 200
    content = page.content.decode()
    rows = standings_selectors.standings_for(tournament=world.tournament)
    assert len(rows) == 8
    for row in rows:
        total = sum(
            ScoreLine.objects.filter(
                player=row.player, deal__game__tournament_table__round__tournament=world.tournament
            ).values_list("points", flat=True)
        )
        assert row.total == total
        assert f'data-player="{row.player.pk}" data-total="{total}"' in content
    assert 'id="tie-breaks"' in content


def test_team_standings_show_when_there_are_teams(world: World) -> None:
    tournament = make_tournament(world.club, 8, name="Équipes", team_size=2)
    entries = list(tournament.entries.order_by("pk"))
    for i in range(4):
        registration_services.team_create(
            tournament=tournament, name=f"Équipe {i + 1}", entries=entries[2 * i : 2 * i + 2]
        )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    play(round_)
    page = Client().get(reverse("tournaments:standings", args=[tournament.pk]))
    assert 'id="team-standings"' in page.content.decode()
    for team in standings_selectors.team_standings_for(tournament=tournament):
        assert team.name in text_of(page.content)


def test_the_standings_csv_matches_the_standings(world: World) -> None:
    play(world.round, seed=5)
    response = Client().get(reverse("tournaments:standings_csv", args=[world.tournament.pk]))
    assert response["Content-Type"].startswith("text/csv")
    rows = csv_rows(response)
    assert len(rows[0]) == 4  # rank, player, round 1, total
    standings = standings_selectors.standings_for(tournament=world.tournament)
    assert [r[1] for r in rows[1:]] == [s.player.label for s in standings]
    assert [int(r[3]) for r in rows[1:]] == [s.total for s in standings]
    assert [int(r[0]) for r in rows[1:]] == [s.rank for s in standings]
    assert sum(int(r[2]) for r in rows[1:]) == 0


def test_the_projector_polls_every_ten_seconds_and_falls_back_without_javascript(
    world: World,
) -> None:
    round_services.round_start(round_=world.round)
    play(world.round, deals=1)
    page = Client().get(reverse("tournaments:projector", args=[world.tournament.pk]))
    content = page.content.decode()
    assert 'hx-trigger="every 10s"' in content
    assert '<noscript><meta http-equiv="refresh" content="10"></noscript>' in content
    assert 'data-testid="countdown"' in content
    assert content.count("data-table=") == 2  # both tables still playing, 1 of 2
    polled = Client().get(
        reverse("tournaments:projector", args=[world.tournament.pk]), headers={"HX-Request": "true"}
    )
    assert "<html" not in polled.content.decode() and 'id="board"' in polled.content.decode()


def test_the_countdown_runs_from_the_start_of_the_round(world: World) -> None:
    round_services.round_start(round_=world.round)
    Round.objects.filter(pk=world.round.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=world.tournament.round_minutes - 10)
    )
    page = Client().get(reverse("tournaments:projector", args=[world.tournament.pk]))
    seconds = int(page.content.decode().split('data-seconds="')[1].split('"')[0])
    assert 9 * 60 < seconds <= 10 * 60
    Round.objects.filter(pk=world.round.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=world.tournament.round_minutes + 3)
    )
    # Thirteen minutes later the projector asks in another 10-second period: not the cached one.
    cache.clear()
    page = Client().get(reverse("tournaments:projector", args=[world.tournament.pk]))
    assert "countdown-over" in page.content.decode()


def test_the_bracket_shows_who_went_through_and_the_final_ranking() -> None:
    club = ClubFactory.create()
    tournament = make_tournament(
        club, 8, name="KO", format=Tournament.Format.KNOCKOUT, qualifiers_per_table=2
    )
    while True:
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        play(round_, seed=round_.number)  # its last deal closes the stage
        if round_.tables.count() == 1:
            break
    page = Client().get(reverse("tournaments:bracket", args=[tournament.pk]))
    content = page.content.decode()
    result = round_selectors.bracket(tournament=tournament)
    assert content.count('class="qualified"') == len(result.stages[0].qualified) == 4
    assert 'id="final-ranking"' in content
    ranking = text_of(content.split('id="final-ranking"')[1].encode())
    positions = [ranking.index(p.label) for _rank, p in result.ranking]
    assert positions == sorted(positions)
    boss = UserFactory.create(username="boss-ko", is_superuser=True)
    client = Client()
    client.force_login(boss)
    detail = client.get(reverse("tournaments:detail", args=[tournament.pk]))
    assert 'id="seat-next"' not in detail.content.decode()  # the final is played
    rounds_only = make_tournament(club, 4, name="Pas un KO")
    assert Client().get(reverse("tournaments:bracket", args=[rounds_only.pk])).status_code == 404


# --- query counts ------------------------------------------------------------------------------


def _count(client: Client, url: str, headers: dict[str, str] | None = None) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, headers=headers or {}).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    ("name", "most"), [("standings", 8), ("projector", 10), ("detail", 6), ("standings_csv", 8)]
)
def test_reads_do_not_grow_with_the_deals(
    name: str, most: int, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    counts = []
    for deals, size in ((1, 8), (10, 13)):
        club = ClubFactory.create()
        tournament = make_tournament(club, size, deals_per_round=deals, rounds=3)
        for number in (1, 2):
            round_ = round_services.round_seat_next(tournament=tournament, by=None)
            play(round_, seed=number)  # each round closes with its last deal
        url = reverse(f"tournaments:{name}", args=[tournament.pk])
        counts.append(_count(Client(), url))
        with django_assert_max_num_queries(most):
            Client().get(url)
    assert counts[0] == counts[1], counts


def test_the_projector_poll_is_bounded(
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 13, deals_per_round=12, rounds=2)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    play(round_, deals=11)
    url = reverse("tournaments:projector", args=[tournament.pk])
    with django_assert_max_num_queries(12):
        Client().get(url, headers={"HX-Request": "true"})


def test_cached_results_follow_every_change_at_once(world: World) -> None:
    """Standings and projector are cached under the club's results version: a deal entered
    through a table link, a correction and a round starting each show on the next request."""
    standings_url = reverse("tournaments:standings", args=[world.tournament.pk])
    projector_url = reverse("tournaments:projector", args=[world.tournament.pk])
    viewer = Client()

    def totals() -> dict[str, str]:
        content = viewer.get(standings_url).content.decode()
        return dict(re.findall(r'data-player="(\d+)" data-total="(-?\d+)"', content))

    assert set(totals().values()) == {"0"}
    state = round_selectors.round_tables(round_=world.round)[0]
    taker = state.players[0]
    phone = Client()
    saved = phone.post(
        reverse("tournaments:table_entry", args=[state.table.token]),
        deal_post(taker.pk, 1),
        headers={"HX-Request": "true"},
    )
    assert saved.status_code == 200
    assert totals()[str(taker.pk)] == "198"  # garde, 49 points, 2 bouts: 3 x 66
    deal = live_deals(world.round)[0]
    game_services.deal_update(
        deal=deal, payload={**deal.payload, "points": 30}, version=deal.version, by=None
    )
    assert totals()[str(taker.pk)] == "-216"  # lost by 11: 3 x -(25 + 11) x 2
    assert 'data-testid="countdown"' not in viewer.get(projector_url).content.decode()
    round_services.round_start(round_=world.round)
    assert 'data-testid="countdown"' in viewer.get(projector_url).content.decode()


@pytest.mark.parametrize(
    ("field", "refused", "kept"),
    [("rounds", 21, 20), ("deals_per_round", 41, 40), ("round_minutes", 4, 5), ("seed", -1, 0)],
)
def test_the_page_and_the_api_keep_a_tournament_within_the_same_limits(
    field: str, refused: int, kept: int
) -> None:
    club = ClubFactory.create()
    base = {
        "name": "Open",
        "date": "2026-11-21",
        "rules": "fft",
        "format": "rounds",
        "rounds": 3,
        "deals_per_round": 8,
        "round_minutes": 75,
        "seating": "mixing",
        "five_mode": "sitting_out",
        "team_size": 0,
        "qualifiers_per_table": 2,
        "seed": 7,
    }
    for value, valid in ((refused, False), (kept, True)):
        form = TournamentForm({**base, field: value}, club=club, house_rules=[])
        api = TournamentCreateSerializer(data={"name": "Open", "club": club.pk, field: value})
        api.is_valid()
        assert form.is_valid() is valid, form.errors
        assert (field in api.errors) is not valid, api.errors


def test_a_tournament_cannot_play_tables_of_five_against_its_house_rules(world: World) -> None:
    """House rules that fix how a table of five plays: the tournament's setting must agree."""
    rules = HouseRules.objects.create(
        club=world.club,
        name="Roi appelé",
        based_on="fft",
        parameters={"five_players": "called_king"},
    )
    message = "These rules play tables of five with: called king."
    post = {
        "name": "Coupe du roi",
        "date": "2026-12-20",
        "rules": f"house:{rules.pk}",
        "format": "rounds",
        "rounds": "3",
        "deals_per_round": "5",
        "round_minutes": "45",
        "seating": "mixing",
        "five_mode": "sitting_out",
        "team_size": "0",
        "qualifiers_per_table": "2",
        "seed": "7",
    }
    url = reverse("tournaments:new", args=[world.club.slug])

    page = organiser(world).post(url, post, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 400
    assert page.context["form"].errors["five_mode"] == [message]
    api = TournamentCreateSerializer(
        data={"club": world.club.pk, "name": "Coupe du roi", "variant": rules.pk}
    )
    with translation.override("en"):
        assert not api.is_valid() and api.errors["five_mode"] == [message]
        with pytest.raises(Refusal) as refused:
            registration_services.tournament_create(
                club=world.club, name="Coupe du roi", by=None, house_rules=rules
            )
        assert refused.value.messages() == {"five_mode": [message]}
    assert not Tournament.objects.filter(name="Coupe du roi").exists()

    assert organiser(world).post(url, {**post, "five_mode": "called_king"}).status_code == 302
    assert Tournament.objects.get(name="Coupe du roi").rules["five_players"] == "called_king"


def test_an_empty_tournament_opens_its_registration_without_an_error(world: World) -> None:
    tournament = make_tournament(world.club, 0, name="Open vide")
    url = reverse("tournaments:registration", args=[tournament.pk])

    page = organiser(world).get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "notice-error" not in page and "au moins" not in page
    assert "Inscrivez et pointez les joueurs" in page
    # Once someone is checked in, too few to seat is said where the organiser acts.
    registration_services.entry_add(tournament=tournament, name="Zoé", checked_in=True)
    page = organiser(world).get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert 'class="notice notice-error" id="plan-words"' in page


def test_the_tournament_says_its_deals_count_in_the_clubs_statistics(world: World) -> None:
    """A decision, not a setting (docs/tournaments.md, "The club's statistics"): the pages say
    it, and it is so."""
    detail = reverse("tournaments:detail", args=[world.tournament.pk])
    new = reverse("tournaments:new", args=[world.club.slug])

    page = organiser(world).get(detail, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    form = organiser(world).get(new, HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "ses donnes comptent dans les statistiques de saison et les cotes du club" in page
    assert "Ses donnes comptent aussi dans les statistiques de saison et les cotes" in form
    play(world.round, deals=1)
    seated = [p.pk for s in round_selectors.round_tables(round_=world.round) for p in s.players]
    counted = PlayerSeason.objects.filter(player_id__in=seated).values_list("deals", flat=True)
    assert len(counted) == len(seated) and set(counted) == {1}
