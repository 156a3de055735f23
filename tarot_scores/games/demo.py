"""The demo club a fresh ``make run`` shows: its people (``clubs.demo``), finished games of 3,
4 and 5 players and one open game, all entered through the same services as real play (so
every score is real)."""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.db import transaction

from tarot_scores import scoring
from tarot_scores.clubs.demo import demo_people, random_tarot_payload
from tarot_scores.clubs.models import Club
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Game


def _play(rng: random.Random, game: Game, deals: int, by: Any) -> None:
    seat_ids = list(game.seats.values_list("player_id", flat=True))
    five_out = game.rules.get("five_players") == scoring.FivePlayers.SITTING_OUT
    for number in range(1, deals + 1):
        payload = random_tarot_payload(rng, seat_ids, number, sitting_out_dealer=five_out)
        game_services.deal_record(game=game, payload=payload, by=by, number=number)


@transaction.atomic
def demo_load(*, seed: int = 1789) -> Club:
    rng = random.Random(seed)
    club, organiser, players = demo_people()

    today = datetime.date.today()
    tables = [(4, 12, 21), (3, 10, 14), (5, 14, 7), (4, 16, 7), (5, 10, 3)]
    for size, deals, days_ago in tables:
        seated = rng.sample(players, size)
        game = game_services.game_create(
            club=club,
            players=seated,
            variant="fft",
            by=organiser,
            date=today - datetime.timedelta(days=days_ago),
        )
        _play(rng, game, deals, organiser)
        game_services.game_set_status(game=game, status=Game.Status.FINISHED)
    open_game = game_services.game_create(
        club=club,
        players=players[:4],
        variant="fft",
        by=organiser,
        date=today,
        label="Table 1",
    )
    _play(rng, open_game, 3, organiser)
    return club
