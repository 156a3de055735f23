"""A player's stored figures (``stats.figures``, kept by ``stats_apply``): what a deal adds, by
hand; the same statistics as ``player_stats`` reads from the deals; and, after a seeded random
run of deals entered, corrected, deleted and restored, rows equal to those the rebuild sums
from the score lines, and the page's games and curve equal to the score lines' reading."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest

from tarot_scores.clubs.demo import random_tarot_payload
from tarot_scores.clubs.models import Club, Player
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tarot_scores.stats import selectors
from tarot_scores.stats.figures import ContractRow, FigureRow, PairingRow, deal_figures
from tarot_scores.stats.models import PlayerContract, PlayerFigures, PlayerGameTotal, PlayerPairing
from tarot_scores.stats.services import stats_rebuild
from tests.factories import ClubFactory, PlayerFactory, garde, make_game
from tests.stats.test_player_stats import CLUB_CASES, World, world  # noqa: F401 (a fixture)

# -- What one deal adds (no database) ------------------------------------------------------


def figure(player: int, points: int, **counts: int) -> FigureRow:
    row = dict.fromkeys(FigureRow._fields, 0)
    row.update(player_id=player, points=points, **counts)
    return FigureRow(**row)


def test_a_four_player_garde_with_petit_and_handful() -> None:
    part = deal_figures(
        payload={"petit_au_bout": "attack", "handfuls": [{"player": 1, "size": "double"}]},
        taker_id=1,
        won=True,
        contract="garde",
        scores={1: 300, 2: -100, 3: -100, 4: -100},
    )
    assert part.figures == [
        figure(1, 300, deals=1, taker_deals=1, taker_points=300, petit_made=1, handfuls_double=1),
        *(
            figure(p, -100, deals=1, defender_deals=1, defender_points=-100, petit_lost=1)
            for p in (2, 3, 4)
        ),
    ]
    assert part.contracts == [ContractRow(1, "garde", 1, 1, 300)]
    # The taker alone in attack: no partner; each defender met him, he met each of them.
    assert sorted(part.pairings) == sorted(
        [PairingRow(1, p, 0, 0, 1, 300) for p in (2, 3, 4)]
        + [PairingRow(p, 1, 0, 0, 1, -100) for p in (2, 3, 4)]
    )


def test_a_called_partner_and_a_slam_against_the_defence() -> None:
    part = deal_figures(
        payload={"partner": 2, "slam": "unannounced_made"},
        taker_id=1,
        won=True,
        contract="prise",
        scores={1: 400, 2: 200, 3: -200, 4: -200, 5: -200},
    )
    rows = {r.player_id: r for r in part.figures}
    assert rows[2] == figure(
        2, 200, deals=1, partner_deals=1, partner_won=1, partner_points=200, slams_made=1
    )
    assert rows[3].slams_against == 1 and rows[3].defender_deals == 1
    assert PairingRow(1, 2, 1, 400, 0, 0) in part.pairings
    assert PairingRow(3, 4, 0, 0, 0, 0) not in part.pairings  # same defence: nothing counted
    assert not [r for r in part.pairings if r.player_id == 3 and r.other_id in (4, 5)]


def test_the_one_sitting_out_plays_no_deal_but_keeps_his_line() -> None:
    part = deal_figures(
        payload={"sitting_out": 5, "slam": "announced_failed"},
        taker_id=1,
        won=False,
        contract="garde",
        scores={1: -300, 2: 100, 3: 100, 4: 100, 5: 0},
    )
    rows = {r.player_id: r for r in part.figures}
    assert rows[5] == figure(5, 0)
    assert rows[1].slams_failed == 1 and rows[2].slams_failed == 0
    assert part.contracts == [ContractRow(1, "garde", 1, 0, -300)]
    assert not [r for r in part.pairings if 5 in (r.player_id, r.other_id)]


def test_the_taker_calling_his_own_king_plays_alone() -> None:
    part = deal_figures(
        payload={"partner": 1},
        taker_id=1,
        won=True,
        contract="garde",
        scores={1: 400, 2: -100, 3: -100, 4: -100, 5: -100},
    )
    assert all(r.partner_deals == 0 for r in part.figures)
    assert all(r.together_deals == 0 for r in part.pairings)


# -- The stored figures against the deals ---------------------------------------------------

pytestmark_db = pytest.mark.django_db


@pytestmark_db
def test_the_stored_figures_are_the_statistics_of_the_deals(world: World) -> None:  # noqa: F811
    stored = selectors.player_figures(player=world.a, club=world.club)
    assert stored == selectors.player_stats(player=world.a, club=world.club)
    for _label, read, expected in CLUB_CASES:
        assert read(stored) == expected, _label
    for player in (world.b, world.c, world.d, world.e):
        assert selectors.player_figures(player=player, club=world.club) == selectors.player_stats(
            player=player, club=world.club
        )


@pytestmark_db
def test_a_player_without_deals_has_empty_figures(club: Club, players: list[Player]) -> None:
    stats = selectors.player_figures(player=players[0], club=club)
    assert stats == selectors.player_stats(player=players[0], club=club)
    assert stats.deals == 0 and stats.contracts == [] and stats.partners == []


def special(rng: random.Random, seats: list[int], number: int, five_out: bool) -> dict[str, Any]:
    """Now and then a deal random_tarot_payload never draws: a slam, a bigger handful."""
    payload = random_tarot_payload(rng, seats, number, sitting_out_dealer=five_out)
    active = [p for p in seats if p != payload["sitting_out"]]
    taker = payload["taker"]
    extra: dict[str, Any] = {
        "taker": taker,
        "partner": payload["partner"],
        "sitting_out": payload["sitting_out"],
    }
    return rng.choice(
        [
            payload,
            {**garde(taker, slam="announced_failed"), **extra},
            {**garde(taker, points=91, oudlers=3, slam="unannounced_made"), **extra},
            {**garde(taker, points=91, oudlers=3, slam="announced_made"), **extra},
            {
                **garde(taker, points=1.5 if len(active) == 5 else 3, oudlers=0, slam="defense"),
                **extra,
            },
            {**garde(taker, handfuls=[{"player": rng.choice(active), "size": "double"}]), **extra},
            {**garde(taker, handfuls=[{"player": rng.choice(active), "size": "triple"}]), **extra},
        ]
    )


def stored_rows(club: Club) -> dict[str, set[tuple[Any, ...]]]:
    """Every figures row of the club with a count left (a deal taken back leaves zeros)."""
    return {
        "figures": {
            r
            for r in PlayerFigures.objects.filter(club=club).values_list(
                "player_id", *FigureRow._fields[1:]
            )
            if any(r[1:])
        },
        "contracts": set(
            PlayerContract.objects.filter(club=club, taken__gt=0).values_list(
                "player_id", "contract", "taken", "won", "points"
            )
        ),
        "pairings": {
            r
            for r in PlayerPairing.objects.filter(club=club).values_list(
                "player_id", "other_id", *PairingRow._fields[2:]
            )
            if any(r[2:])
        },
        "games": set(
            PlayerGameTotal.objects.filter(club=club, deals__gt=0).values_list(
                "player_id", "game_id", "played_on", "kind", "total", "deals"
            )
        ),
    }


@pytestmark_db
@pytest.mark.parametrize("seed", [13, 2026])
def test_after_random_edits_the_rows_are_what_the_rebuild_sums(seed: int) -> None:
    rng = random.Random(seed)
    club = ClubFactory.create()
    players = [PlayerFactory.create(name=f"P{i}", clubs=[club]) for i in range(7)]
    games: list[Game] = []
    for i, (size, mode) in enumerate(
        [
            (4, None),
            (5, "called_king"),
            (5, "sitting_out"),
            (3, None),
            (4, None),
            (5, "called_king"),
        ]
    ):
        seated = rng.sample(players, size)
        games.append(
            make_game(
                club=club,
                players=seated,
                variant="classic" if mode else "fft",
                date=datetime.date(2025, 9, 1) + datetime.timedelta(days=3 * i),
                **({"five_players": mode} if mode else {}),
            )
        )
    nova = make_game(club=club, players=players[:2], variant="novatarok")
    card_points = {str(players[0].pk): 15, str(players[1].pk): 10}
    nova_deal = {"card_points": card_points, "kings": None, "trull": None, "pagat": None}
    services.deal_record(game=nova, payload=nova_deal, by=None)
    # Another club's deal of the same players counts at that club only.
    elsewhere = ClubFactory.create()
    for p in players[:4]:
        p.clubs.add(elsewhere)
    services.deal_record(
        game=make_game(club=elsewhere, players=players[:4]), payload=garde(players[0].pk), by=None
    )

    def payload_for(game: Game, number: int) -> dict[str, Any]:
        seats = list(game.seats.order_by("position").values_list("player_id", flat=True))
        five_out = game.rules.get("five_players") == "sitting_out"
        return special(rng, seats, number, five_out)

    edits = {"record": 0, "update": 0, "delete": 0, "restore": 0}
    for _ in range(70):
        game = rng.choice(games)
        deals = list(game.deals.all())
        live = [d for d in deals if not d.is_deleted]
        deleted = [d for d in deals if d.is_deleted]
        action = rng.choices(["record", "update", "delete", "restore"], [6, 2, 1, 2])[0]
        if action == "update" and live:
            deal = rng.choice(live)
            services.deal_update(
                deal=deal, payload=payload_for(game, deal.number), version=deal.version, by=None
            )
        elif action == "delete" and live:
            deal = rng.choice(live)
            services.deal_delete(deal=deal, version=deal.version, by=None)
        elif action == "restore" and deleted:
            services.deal_restore(deal=rng.choice(deleted), by=None)
        else:
            services.deal_record(game=game, payload=payload_for(game, len(deals) + 1), by=None)
            action = "record"
        edits[action] += 1
    assert all(edits.values()), edits  # every kind of write was exercised

    incremental = stored_rows(club)
    for player in players:
        # The page's figures, games and curve: the same as read from the deals.
        assert selectors.player_figures(player=player, club=club) == selectors.player_stats(
            player=player, club=club
        )
        history = selectors.player_history(club=club, player=player)
        latest = selectors.latest_games(club=club, player=player, most=4)
        assert [(g.game.pk, g.total, g.deals) for g in latest] == [
            (g.game.pk, g.total, g.deals) for g in history[::-1][:4]
        ]
        cumulative, running = [], 0
        for item in history:
            if item.game.kind == "tarot":
                running += item.total
                cumulative.append((item.game.date, running))
        for most in (2, 100):
            curve = selectors.score_curve(club=club, player=player, most=most)
            assert [(p.played_on, p.total) for p in curve] == cumulative[-most:]
    assert Deal.objects.filter(game__club=club, deleted_at__isnull=False).exists()

    stats_rebuild(club=club)
    assert stored_rows(club) == incremental
    # The other club's rows are left as they were.
    assert PlayerFigures.objects.filter(club=elsewhere, deals=1).count() == 4


@pytestmark_db
def test_the_upgrade_fills_the_figures_of_the_deals_already_entered(
    world: World,  # noqa: F811
) -> None:
    """A site upgraded across 0011 has deals and no figures yet: migration 0012 fills them as
    the deals' own save would have."""
    import importlib

    from django.apps import apps

    fill = importlib.import_module("tarot_scores.migrations.0012_fill_player_figures").fill
    kept = sorted(PlayerFigures.objects.values_list("club_id", "player_id", "deals", "points"))
    assert kept  # the world's deals wrote figures as they were saved
    for model in (PlayerFigures, PlayerContract, PlayerPairing, PlayerGameTotal):
        model.objects.all().delete()  # the tables as 0011 leaves them on an upgraded site
    fill(apps, None)
    assert (
        sorted(PlayerFigures.objects.values_list("club_id", "player_id", "deals", "points")) == kept
    )
    assert PlayerGameTotal.objects.exists()
