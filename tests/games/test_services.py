"""Deal services: scores stored as lines, history kept, conflicts refused, statistics in step."""

from __future__ import annotations

import contextlib
import datetime
import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from pytest_django import DjangoAssertNumQueries

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine, Seat
from tarot_scores.games.setup import GameSetupError
from tarot_scores.stats import selectors as stats_selectors
from tarot_scores.stats import services as stats_services
from tarot_scores.stats.models import PlayerSeason
from tests.factories import ClubFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    club = club_services.club_create(name="Tarot Club de Lyon", by=None)
    return club_services.club_games_set(club=club, other_games=["novatarok", "buraco"])


@pytest.fixture
def user() -> User:
    return User.objects.create_user("marie", password="x")


def players(club: Club, n: int) -> list[Player]:
    names = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]
    # New players each time; a club's labels are unique, so a second "Aurélie" is "Aurélie 2".
    taken = set(club.players.values_list("name", flat=True))
    made = []
    for i in range(n):
        name, k = names[i], 2
        while name in taken:
            name, k = f"{names[i]} {k}", k + 1
        taken.add(name)
        made.append(PlayerFactory.create(name=name, clubs=[club]))
    return made


def game_of(club: Club, n: int, variant: str = "fft", **kw: Any) -> Game:
    return game_services.game_create(
        club=club, players=players(club, n), variant=variant, by=None, **kw
    )


def seat_ids(game: Game) -> list[int]:
    return list(game.seats.values_list("player_id", flat=True))


def garde(taker: int, points: float = 49, oudlers: int = 2, **extra: Any) -> dict[str, Any]:
    return {"taker": taker, "contract": "garde", "points": points, "oudlers": oudlers, **extra}


def test_record_stores_lines_revision_and_stat_columns(club: Club, user: User) -> None:
    game = game_of(club, 4)
    a, b, c, d = seat_ids(game)
    deal = game_services.deal_record(
        game=game, payload=garde(c, petit_au_bout="attack"), by=user
    ).deal
    assert deal.number == 1
    assert deal.dealer_id == a  # the first seat deals first
    lines = dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))
    assert lines == {a: -86, b: -86, c: 258, d: -86}
    assert deal.taker_id == c and deal.contract == "garde" and deal.won is True
    revision = DealRevision.objects.get(deal=deal)
    assert revision.action == "created" and revision.by == user and revision.version == 1
    assert revision.scores == {str(k): v for k, v in lines.items()}


def test_payload_is_stored_as_entered(club: Club) -> None:
    game = game_of(club, 3)
    a, _b, _c = seat_ids(game)
    payload = garde(a, handfuls=[{"player": a, "size": "simple"}])
    deal = game_services.deal_record(game=game, payload=payload, by=None).deal
    deal.refresh_from_db()
    assert deal.payload == payload


def test_impossible_deal_saves_nothing(club: Club) -> None:
    game = game_of(club, 4)
    a = seat_ids(game)[0]
    with pytest.raises(scoring.ScoringError) as caught:
        game_services.deal_record(game=game, payload=garde(a, points=40.5), by=None)
    assert "points" in caught.value.errors
    assert not Deal.objects.exists() and not ScoreLine.objects.exists()
    assert not PlayerSeason.objects.exists() and not DealRevision.objects.exists()


def test_players_must_be_seated(club: Club) -> None:
    game = game_of(club, 4)
    stranger = club_services.player_create(club=club, name="Zoé")
    with pytest.raises(scoring.ScoringError) as caught:
        game_services.deal_record(game=game, payload=garde(stranger.pk), by=None)
    assert "taker" in caught.value.errors


def test_same_number_twice_is_one_deal(club: Club) -> None:
    game = game_of(club, 4)
    a = seat_ids(game)[0]
    first = game_services.deal_record(game=game, payload=garde(a), by=None, number=1).deal
    with pytest.raises(game_services.DealConflict) as caught:
        game_services.deal_record(game=game, payload=garde(a, points=60), by=None, number=1)
    assert caught.value.current.pk == first.pk
    assert Deal.objects.count() == 1


def test_without_number_deals_follow_on(club: Club) -> None:
    game = game_of(club, 4)
    a = seat_ids(game)[0]
    numbers = [
        game_services.deal_record(game=game, payload=garde(a), by=None).deal.number
        for _ in range(3)
    ]
    assert numbers == [1, 2, 3]


def test_stale_edit_is_refused_and_changes_nothing(club: Club, user: User) -> None:
    game = game_of(club, 4)
    a, b, _c, _d = seat_ids(game)
    deal = game_services.deal_record(game=game, payload=garde(a), by=user).deal
    game_services.deal_update(deal=deal, payload=garde(b), version=1, by=user)
    with pytest.raises(game_services.DealConflict) as caught:
        game_services.deal_update(deal=deal, payload=garde(a, points=70), version=1, by=user)
    assert caught.value.current.version == 2
    assert caught.value.current.payload["taker"] == b
    deal.refresh_from_db()
    assert deal.version == 2 and deal.taker_id == b


def test_edit_delete_restore_keep_history_and_totals(club: Club, user: User) -> None:
    game = game_of(club, 4)
    a, b, c, d = seat_ids(game)
    deal = game_services.deal_record(game=game, payload=garde(a), by=user).deal
    deal = game_services.deal_update(deal=deal, payload=garde(b, points=30), version=1, by=user)
    assert dict(deal.lines.values_list("player_id", "points")) == {a: 72, b: -216, c: 72, d: 72}
    deal = game_services.deal_delete(deal=deal, version=2, by=user)
    assert not ScoreLine.objects.filter(deal=deal).exists()
    sheet = game_selectors.game_sheet(game_id=game.pk)
    assert sheet.totals == [0, 0, 0, 0]
    deal = game_services.deal_restore(deal=deal, by=user)
    sheet = game_selectors.game_sheet(game_id=game.pk)
    assert sheet.totals == [72, -216, 72, 72]
    actions = list(DealRevision.objects.filter(deal=deal).values_list("action", "version"))
    assert actions == [("created", 1), ("edited", 2), ("deleted", 3), ("restored", 4)]
    assert [r.payload["taker"] for r in DealRevision.objects.filter(deal=deal)] == [a, b, b, b]


def test_finished_game_refuses_deals(club: Club) -> None:
    game = game_of(club, 4)
    game_services.game_set_status(game=game, status=Game.Status.FINISHED)
    with pytest.raises(game_services.GameClosed):
        game_services.deal_record(game=game, payload=garde(seat_ids(game)[0]), by=None)


def test_dealer_sits_out_at_five(club: Club) -> None:
    game = game_of(club, 5)
    a, b, c, d, e = seat_ids(game)
    # Deal 1 is dealt by the first seat, who sits out.
    with pytest.raises(scoring.ScoringError) as caught:
        game_services.deal_record(game=game, payload=garde(b, sitting_out=c), by=None)
    assert "sitting_out" in caught.value.errors
    deal = game_services.deal_record(game=game, payload=garde(b, sitting_out=a), by=None).deal
    lines = dict(deal.lines.values_list("player_id", "points"))
    assert lines[a] == 0 and sum(lines.values()) == 0 and lines[b] == 3 * 66


def test_rules_are_frozen_into_the_game(club: Club) -> None:
    rules = club.house_rules.create(name="Maison", parameters={"margin_rounding": "10"})
    game = game_services.game_create(
        club=club, players=players(club, 4), variant="fft", by=None, house_rules=rules
    )
    rules.parameters = {}
    rules.save()
    a = seat_ids(game)[0]
    deal = game_services.deal_record(
        game=game, payload=garde(a, points=47), by=None
    ).deal  # margin 6 -> 10
    assert deal.lines.get(player_id=a).points == 3 * (25 + 10) * 2


def test_duplicate_names_get_distinct_labels(club: Club) -> None:
    # A club holds one "Marie" (its labels are unique); two clubs' Maries may share a table
    # (a guest), and the sheet still tells them apart.
    twins = [
        PlayerFactory.create(name="Marie", clubs=[club]),
        PlayerFactory.create(name="Marie", clubs=[ClubFactory.create(), club]),
    ]
    others = players(club, 2)
    game = game_services.game_create(club=club, players=[*twins, *others], variant="fft", by=None)
    deal = game_services.deal_record(game=game, payload=garde(twins[1].pk), by=None).deal
    assert deal.lines.get(player=twins[1]).points == 198


def test_novatarok_and_buraco_games(club: Club) -> None:
    nova = game_of(club, 3, variant="novatarok")
    a, b, c = seat_ids(nova)
    payload = {"card_points": {str(a): 40, str(b): 30, str(c): 21}, "kings": a}
    deal = game_services.deal_record(game=nova, payload=payload, by=None).deal
    assert dict(deal.lines.values_list("player_id", "points")) == {a: 60, b: 30, c: 21}
    buraco = game_services.game_create(
        club=club, players=players(club, 2), variant="buraco", by=None
    )
    x, y = seat_ids(buraco)
    sides = [
        {
            "players": [x],
            "table_points": 300,
            "natural_canastas": 1,
            "went_out": True,
            "took_extra_pile": True,
        },
        {"players": [y], "table_points": 120, "hand_points": 45, "took_extra_pile": False},
    ]
    deal = game_services.deal_record(game=buraco, payload={"sides": sides}, by=None).deal
    assert dict(deal.lines.values_list("player_id", "points")) == {x: 600, y: -25}


def stats_snapshot() -> set[tuple[Any, ...]]:
    return set(
        PlayerSeason.objects.filter(deals__gt=0).values_list(
            "club_id",
            "season",
            "kind",
            "table_size",
            "player_id",
            "points",
            "deals",
            "taken",
            "taken_won",
        )
    )


def test_running_statistics_equal_a_rebuild(club: Club, user: User) -> None:
    """Whatever is entered, corrected, deleted or restored, the statistics kept in step equal
    the ones recomputed from the score lines."""
    rng = random.Random(7)
    games = [game_of(club, n) for n in (3, 4, 5)]
    games.append(
        game_services.game_create(
            club=club,
            players=players(club, 4),
            variant="fft",
            by=None,
            date=datetime.date(2024, 3, 1),
        )
    )
    deals: list[Deal] = []
    for _step in range(80):
        action = rng.random()
        if deals and action < 0.2:
            deal = rng.choice(deals)
            deal.refresh_from_db()
            if deal.is_deleted:
                # A struck deal whose number was taken again stays struck (refused, unchanged).
                with contextlib.suppress(game_services.GameClosed):
                    game_services.deal_restore(deal=deal, by=user)
            else:
                game_services.deal_delete(deal=deal, version=deal.version, by=user)
            continue
        game = rng.choice(games)
        ids = seat_ids(game)
        payload = garde(rng.choice(ids), points=rng.choice([20, 41, 50, 66]), oudlers=2)
        if len(ids) == 5:
            payload["partner"] = rng.choice(ids)
        if deals and action < 0.4:
            deal = rng.choice(deals)
            deal.refresh_from_db()
            if not deal.is_deleted and deal.game_id == game.pk:
                game_services.deal_update(deal=deal, payload=payload, version=deal.version, by=user)
                continue
        deals.append(game_services.deal_record(game=game, payload=payload, by=user).deal)
    kept = stats_snapshot()
    stats_services.stats_rebuild(club=club)
    assert stats_snapshot() == kept
    total = sum(ScoreLine.objects.values_list("points", flat=True))
    assert total == 0  # tarot is zero-sum, so the club's grand total is too
    board = stats_selectors.leaderboard(club=club)
    assert sum(r.points for r in board) == 0
    assert {r.season for r in PlayerSeason.objects.all()} == {club.season_of(g.date) for g in games}


@pytest.mark.parametrize(
    "taker",
    ["Aurélie", True, "1", "²", "9" * 5000, 10**30, 3.0, None],
    ids=[
        "a-name",
        "true",
        "digit-string",
        "superscript",
        "huge-string",
        "huge-int",
        "float",
        "none",
    ],
)
def test_a_player_not_given_by_a_seated_id_is_refused(club: Club, taker: Any) -> None:
    game = game_of(club, 4)
    with pytest.raises(scoring.ScoringError) as caught:
        game_services.deal_record(game=game, payload=garde(taker), by=None)
    assert "taker" in caught.value.errors
    for message in caught.value.messages("en")["taker"]:
        assert len(message) < 120
    assert not Deal.objects.exists()


def test_card_points_keys_must_be_seated_ids(club: Club) -> None:
    nova = game_of(club, 3, variant="novatarok")
    a, b, c = seat_ids(nova)
    for keys in ([str(a), str(b), "Chloé"], [str(a), str(b), "²"], [str(a), str(b), "9" * 5000]):
        payload = {"card_points": dict(zip(keys, (40, 30, 21), strict=True))}
        with pytest.raises(scoring.ScoringError):
            game_services.deal_record(game=nova, payload=payload, by=None)
    assert not Deal.objects.exists()


# --- a game's table ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "count", "errors"),
    [
        ("fft", 2, {"players": ["Tarot is played by 3, 4 or 5 players (here 2)."]}),
        ("novatarok", 1, {"players": ["Novatarok is played by 2 to 5 players (here 1)."]}),
        ("buraco", 3, {"players": ["Buraco is played by 2 or 4 players (here 3)."]}),
    ],
)
def test_game_create_refuses_a_table_of_the_wrong_size_and_stores_nothing(
    club: Club, variant: str, count: int, errors: dict[str, list[str]]
) -> None:
    seated = players(club, count)
    with translation.override("en"), pytest.raises(GameSetupError) as refused:
        game_services.game_create(club=club, players=seated, variant=variant, by=None)
    assert refused.value.errors == errors
    assert str(refused.value) == errors["players"][0]
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_game_create_refuses_a_player_twice_in_the_readers_language(club: Club) -> None:
    a, b, c = players(club, 3)
    with translation.override("fr"), pytest.raises(GameSetupError) as refused:
        game_services.game_create(club=club, players=[a, b, c, b], variant="fft", by=None)
    assert refused.value.errors == {"players": ["Bruno est déjà à la place 2."]}
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_game_create_leaves_an_either_table_of_five_open(club: Club) -> None:
    # The demo and scripts seat five under FFT without choosing: each deal says whether the
    # dealer sits out.
    game = game_of(club, 5)
    assert game.rules["five_players"] == "either"


def test_game_create_takes_a_fixed_mode_from_the_house_rules(club: Club) -> None:
    rules = club.house_rules.create(name="Roi", parameters={"five_players": "called_king"})
    game = game_services.game_create(
        club=club, players=players(club, 5), variant="fft", by=None, house_rules=rules
    )
    assert game.rules["five_players"] == "called_king"


def test_game_create_lets_a_tournament_impose_its_mode_on_house_rules(club: Club) -> None:
    # A tournament's "tables of 5" setting applies to every table, whatever its rule set says.
    rules = club.house_rules.create(name="Roi", parameters={"five_players": "called_king"})
    game = game_services.game_create(
        club=club,
        players=players(club, 5),
        variant="fft",
        by=None,
        house_rules=rules,
        five_players="sitting_out",
    )
    assert game.rules["five_players"] == "sitting_out"


def test_game_create_ignores_the_mode_below_five(club: Club) -> None:
    game = game_of(club, 4, five_players="sitting_out")
    assert game.rules["five_players"] == "either"


def test_a_rebuild_reads_the_same_number_of_queries_for_2_or_6_games(
    club: Club, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    counts = []
    for new_games in (2, 4):  # 2 games, then 6
        for _n in range(new_games):
            game = game_of(club, 4)
            game_services.deal_record(game=game, payload=garde(seat_ids(game)[0]), by=None)
        # A delete and an insert for each of the five tables (season rows, the player figures,
        # contracts, pairings and game totals), and the reads of the deals.
        with django_assert_max_num_queries(16) as captured:
            stats_services.stats_rebuild(club=club)
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1]
