"""What one request to a tournament's results pages costs in the server's own process: the
standings page, the projector's board (htmx) and the standings API, at 100 and 1,000 players.

Run: ``python bench/results_pages.py [--db postgres|sqlite] [--players 100,1000]
[--times 15]``.

For each size, a tournament of that many players (tables of four, random seating) has its first
round seated and two deals entered at every table through the deal service. Then each page is
asked ``--times`` times through Django's test client (no server, no network) in three states:

- cold: the cache emptied before each request (everything drawn);
- warm: nothing changed since the last request (the cached answer);
- burst: the club's results version moved before each request, as at a festival where a deal
  lands every quarter of a second (the state issue 13's load test is in most of the time).

It prints the median wall time and the median CPU time of this process in ms, and the
queries of one request. In-process, so the
figures are the application's cost without gunicorn, HTTP or the client threads of
``tournament_load.py``; the database is thrown away first (PostgreSQL:
``tarot_results_pages`` on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from harness import bench_database, django_setup

PAGES = ("standings page", "projector board", "standings API")
STATES = ("cold", "warm", "burst")


def load_average() -> str:
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def measure(
    ask: Callable[[], int], before: Callable[[], None], times: int
) -> tuple[float, float, int]:
    """Median ms of ``times`` requests in wall time and in this process's CPU time (what a
    busy machine inflates least; PostgreSQL's time is not in it), ``before`` running ahead of
    each, untimed; and the queries of one."""
    from django.db import connection

    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    before()
    with connection.execute_wrapper(count):
        assert ask() == 200
    wall, cpu = [], []
    for _ in range(times):
        before()
        started, used = time.perf_counter(), time.process_time()
        assert ask() == 200
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, queries


def festival(players: int, rng: random.Random) -> Any:
    from tarot_scores.clubs import services as club_services
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services as game_services
    from tournaments.models import Tournament
    from tournaments.registration import services as registration_services
    from tournaments.rounds import selectors as round_selectors
    from tournaments.rounds import services as round_services

    club = club_services.club_create(name=f"Festival {players}", by=None)
    tournament = registration_services.tournament_create(
        club=club,
        name=f"Festival de {players}",
        by=None,
        rounds=2,
        deals_per_round=5,
        seed=1,
        seating_method=Tournament.Seating.RANDOM,
    )
    for i in range(players):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {i + 1:04d}", checked_in=True
        )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    round_services.round_start(round_=round_)
    for state in round_selectors.round_tables(round_=round_):
        ids = [p.pk for p in state.players]
        for number in (1, 2):
            payload = random_tarot_payload(rng, ids, number, sitting_out_dealer=len(ids) == 5)
            game_services.deal_record(game=state.table.game, payload=payload, by=None)
    return tournament


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--players", default="100,1000")
    parser.add_argument("--times", type=int, default=15)
    args = parser.parse_args()

    os.environ.pop("REDIS_URL", None)  # the process's own memory: no network in the figures
    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    django_setup(bench_database(args.db, "tarot_results_pages"))
    from django.core.cache import cache
    from django.test import Client

    from tarot_scores.core.results import results_changed

    rng = random.Random(13)
    print(
        f"{args.db}; median ms of {args.times} requests, wall / this process's CPU;"
        " queries of one; (load average)"
    )
    print(f"{'players':>7}  {'page':<16} " + "  ".join(f"{s:>20}" for s in STATES))
    for players in [int(n) for n in args.players.split(",")]:
        tournament = festival(players, rng)
        client = Client()
        paths: dict[str, tuple[str, dict[str, str]]] = {
            "standings page": (f"/tournaments/{tournament.pk}/standings/", {}),
            "projector board": (
                f"/tournaments/{tournament.pk}/projector/",
                {"HX-Request": "true"},
            ),
            "standings API": (f"/api/v1/tournaments/{tournament.pk}/standings/", {}),
        }
        club_id = tournament.club_id
        befores: dict[str, Callable[[], None]] = {
            "cold": cache.clear,
            "warm": lambda: None,
            "burst": lambda club_id=club_id: results_changed(club_id=club_id),
        }
        for page in PAGES:
            path, headers = paths[page]

            def ask(
                path: str = path, headers: dict[str, str] = headers, client: Client = client
            ) -> int:
                return int(client.get(path, headers=headers).status_code)

            cells = []
            for state in STATES:
                wall, cpu, queries = measure(ask, befores[state], args.times)
                cells.append(f"{wall:7.1f} / {cpu:5.1f} / {queries:2d}q")
            print(
                f"{players:>7}  {page:<16} "
                + "  ".join(f"{c:>20}" for c in cells)
                + f"  ({load_average()})"
            )


if __name__ == "__main__":
    main()
