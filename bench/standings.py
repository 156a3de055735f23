"""Stored standings: what a standings read costs as the deals pile up, against the full
computation from the score lines, and what keeping them in step adds to each deal.

Run: ``python bench/standings_store.py [--db sqlite|postgres] [--players 100] [--rounds 3]
[--deals 8]``.

A tournament of ``--players`` (tables of four) plays ``--rounds`` rounds of ``--deals`` deals
per table through the deal service, as the phones do. After each round it times (best of 10)
and counts the queries of ``standings_for`` (the stored rows) and of
``standings_from_score_lines`` (every score line) and of ``standings_slice`` (a page of 50
rows, the database paging; each page checked against the whole ranking), and prints each as a
ratio to the first round's. It also times the standings hook inside each deal's transaction
and prints its share of ``deal_record``. In-process, no server; the database is thrown away
first (PostgreSQL: ``tarot_standings`` on 127.0.0.1).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from harness import bench_database, django_setup


def best_of(fn: Callable[[], Any], times: int = 10) -> tuple[float, int]:
    """The best time of ``times`` runs (ms), and the queries of one run."""
    from django.db import connection

    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        fn()
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best * 1000, queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="sqlite")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--deals", type=int, default=8)
    args = parser.parse_args()

    django_setup(bench_database(args.db, "tarot_standings"))
    from tarot_scores.clubs import services as club_services
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services as game_services
    from tournaments.models import Tournament
    from tournaments.registration import services as registration_services
    from tournaments.rounds import selectors as round_selectors
    from tournaments.rounds import services as round_services
    from tournaments.standings import selectors as standings_selectors
    from tournaments.standings import store as standings_store

    club = club_services.club_create(name="Festival national", by=None)
    tournament = registration_services.tournament_create(
        club=club,
        name="Festival",
        by=None,
        rounds=args.rounds,
        deals_per_round=args.deals,
        seed=1,
        seating_method=Tournament.Seating.RANDOM,
    )
    for i in range(args.players):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {i + 1:04d}", checked_in=True
        )

    hook_seconds: list[float] = []
    hooks = game_services._after_deal_change
    timed_index = hooks.index(standings_store.standings_after_deal)

    def timed_hook(**kw: Any) -> None:
        started = time.perf_counter()
        standings_store.standings_after_deal(**kw)
        hook_seconds.append(time.perf_counter() - started)

    hooks[timed_index] = timed_hook
    rng = random.Random(1)
    deal_seconds: list[float] = []
    first: dict[str, tuple[float, int]] = {}
    print(f"{args.db}: {args.players} players, {args.deals} deals per table and round")
    print(
        "deals  stored ms (x1st) q   |  from score lines ms (x1st) q   |  a page of 50 ms (x1st) q"
    )
    deals = 0
    for _ in range(args.rounds):
        round_ = round_services.round_seat_next(tournament=tournament, by=None)
        for state in round_selectors.round_tables(round_=round_):
            ids = [p.pk for p in state.players]
            for number in range(1, args.deals + 1):
                payload = random_tarot_payload(rng, ids, number, sitting_out_dealer=len(ids) == 5)
                started = time.perf_counter()
                game_services.deal_record(game=state.table.game, payload=payload, by=None)
                deal_seconds.append(time.perf_counter() - started)
                deals += 1
        stored = best_of(lambda: standings_selectors.standings_for(tournament=tournament))
        full = best_of(
            lambda: standings_selectors.standings_from_score_lines(tournament=tournament)
        )
        first.setdefault("stored", stored)
        first.setdefault("full", full)
        whole = standings_selectors.standings_for(tournament=tournament)
        assert whole == standings_selectors.standings_from_score_lines(tournament=tournament)
        # The pages the database reads are the pages of the whole ranking (ties and names).
        for start in range(0, len(whole), 50):
            assert (
                standings_selectors.standings_slice(tournament=tournament, first=start, size=50)
                == (whole[start : start + 50])
            )
        paged = best_of(
            lambda: standings_selectors.standings_slice(tournament=tournament, first=0, size=50)
        )
        first.setdefault("paged", paged)
        print(
            f"{deals:5d}  {stored[0]:8.1f} ({stored[0] / first['stored'][0]:4.2f}) {stored[1]}"
            f"   |  {full[0]:8.1f} ({full[0] / first['full'][0]:4.2f}) {full[1]}"
            f"   |  {paged[0]:8.1f} ({paged[0] / first['paged'][0]:4.2f}) {paged[1]}"
        )
    hooks[timed_index] = standings_store.standings_after_deal
    hook = statistics.median(hook_seconds) * 1000
    deal = statistics.median(deal_seconds) * 1000
    print(
        f"per deal (median): deal_record {deal:.1f} ms, of which the standings hook "
        f"{hook:.1f} ms ({hook / deal:.0%})"
    )


if __name__ == "__main__":
    main()
