"""Tournament evening under load: 25 tables entering deals while 200 viewers refresh the
standings, against gunicorn on PostgreSQL, all on 127.0.0.1.

Run: ``python bench/tournament_load.py [--seconds 40] [--workers 4] [--db postgres]``.
A 100-player tournament is seated (25 tables of 4); each table is a thread that enters a deal
through its private link (the phone's htmx POST, no account) every ``--deal-every`` seconds;
each viewer is a thread that refreshes either the projector (htmx polling) or the standings
page every ``--view-every`` seconds. Think times are shortened about five-fold from an evening
(a deal takes minutes, a projector polls every 10 s), so the run is a real load.

Prints requests per second, p50/p95/max latency per kind, errors (any status other than 200,
or a refused deal), and each gunicorn worker's peak memory. Targets: no error, p95 < 250 ms.
Bounded: every thread stops at the deadline; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
from collections import defaultdict

from harness import Client, bench_database, django_setup, percentile, serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--tables", type=int, default=25)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--deal-every", type=float, default=6.0)
    parser.add_argument("--view-every", type=float, default=2.0)
    args = parser.parse_args()

    url = bench_database(args.db, "tarot_bench_tournament")
    django_setup(url)
    from entry import deal_form

    from tarot_scores.clubs import services as club_services
    from tournaments import selectors, services
    from tournaments.models import Tournament

    club = club_services.club_create(name="Club du Tournoi", by=None)
    tournament = services.tournament_create(
        club=club,
        name="Grand tournoi",
        by=None,
        rounds=1,
        deals_per_round=500,
        seed=1,
        seating_method=Tournament.Seating.MIXING,
    )
    for i in range(args.tables * 4):
        services.entry_add(tournament=tournament, name=f"Joueur {i + 1:03d}", checked_in=True)
    round_ = services.round_seat_next(tournament=tournament, by=None)
    services.round_start(round_=round_)
    tables = [
        (s.table.token, [p.pk for p in s.players]) for s in selectors.round_tables(round_=round_)
    ]
    print(
        f"{len(tables)} tables seated; {args.viewers} viewers; {args.workers} gunicorn workers;"
        f" {args.seconds:.0f} s on {args.db}"
    )

    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    lock = threading.Lock()
    stop_at = 0.0

    def pause(seconds: float) -> None:
        time.sleep(max(0.0, min(seconds, stop_at - time.perf_counter())))

    def record(kind: str, started: float, ok: bool) -> None:
        with lock:
            latencies[kind].append(time.perf_counter() - started)
            if not ok:
                errors[kind] += 1

    def table_loop(port: int, token: str, seats: list[int], seed: int) -> None:
        client = Client(port)
        rng = random.Random(seed)
        number = 1
        time.sleep(rng.uniform(0, args.deal_every))
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            try:
                status, _body = client.request(
                    "POST",
                    f"/tournaments/t/{token}/",
                    form=deal_form(rng, seats, number),
                    headers={"HX-Request": "true"},
                )
                ok = status == 200
            except OSError:
                ok = False
            record("deal entry (table link)", started, ok)
            number += 1 if ok else 0
            pause(args.deal_every * rng.uniform(0.5, 1.5))

    def viewer_loop(port: int, seed: int) -> None:
        client = Client(port)
        rng = random.Random(seed)
        projector = seed % 2 == 0
        path = f"/tournaments/{tournament.pk}/{'projector' if projector else 'standings'}/"
        kind = "projector refresh (htmx)" if projector else "standings page"
        headers = {"HX-Request": "true"} if projector else {}
        time.sleep(rng.uniform(0, args.view_every))
        while time.perf_counter() < stop_at:
            started = time.perf_counter()
            try:
                status, _body = client.request("GET", path, headers=headers)
                ok = status == 200
            except OSError:
                ok = False
            record(kind, started, ok)
            pause(args.view_every * rng.uniform(0.5, 1.5))

    with serving(url, workers=args.workers) as server:
        warm = Client(server.port)
        for path in (
            f"/tournaments/{tournament.pk}/standings/",
            f"/tournaments/{tournament.pk}/projector/",
        ):
            assert warm.request("GET", path)[0] == 200
        threads = [
            threading.Thread(target=table_loop, args=(server.port, token, seats, i), daemon=True)
            for i, (token, seats) in enumerate(tables)
        ]
        threads += [
            threading.Thread(target=viewer_loop, args=(server.port, 1000 + i), daemon=True)
            for i in range(args.viewers)
        ]
        began = time.perf_counter()
        stop_at = began + args.seconds
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.seconds + 60)
        elapsed = time.perf_counter() - began
        memory = server.peak_memory_mb()

    from tarot_scores.games.models import Deal

    total = sum(len(v) for v in latencies.values())
    print(
        f"requests: {total} in {args.seconds:.0f} s = {total / args.seconds:.1f} req/s"
        f" (last answer after {elapsed:.1f} s)"
    )
    print(f"  {'kind':<28} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'errors':>7}")
    everything: list[float] = []
    for kind, values in sorted(latencies.items()):
        everything += values
        print(
            f"  {kind:<28} {len(values):>6} {percentile(values, 50) * 1000:>8.1f}"
            f" {percentile(values, 95) * 1000:>8.1f} {max(values) * 1000:>8.1f}"
            f" {errors[kind]:>7}"
        )
    p95 = percentile(everything, 95) * 1000
    print(
        f"  {'all':<28} {len(everything):>6} {percentile(everything, 50) * 1000:>8.1f}"
        f" {p95:>8.1f} {max(everything) * 1000:>8.1f} {sum(errors.values()):>7}"
    )
    print(f"deals stored: {Deal.objects.filter(game__tournament_table__round=round_).count()}")
    print(
        "peak memory per worker (MB): " + ", ".join(f"{mb:.0f}" for mb in sorted(memory.values()))
    )
    verdict = "ok" if not sum(errors.values()) and p95 < 250 else "MISSED"
    print(f"targets: zero errors, p95 < 250 ms -> {verdict}")


if __name__ == "__main__":
    main()
