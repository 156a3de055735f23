"""A correction's cost as history grows: correcting a deal in the middle of a club's history
against correcting its newest, at 10,000 and 100,000 deals, and how long the ratings take to
catch up in the worker (PostgreSQL).

Run: ``cd bench && ../.venv/bin/python replay.py [--deals 10000,100000] [--repeat 7]``.

For each size a fresh database (``tarot_i19_replay_<deals>``) gets a club of that many deals
(``harness.seed_club``: 12 players, 4-player tables, three seasons) and its ratings built. Then,
``--repeat`` times each, alternately: the newest deal corrected, a deal in the middle (by play
order) corrected, each through ``games.services.deal_update`` as the page and the API call it,
timed alone; the ratings' job (``ratings.jobs.ratings_catch_up``, what the worker runs) is then
run untimed so that every save starts from ratings that are up to date. Printed: the median
save of each, their ratio (target: at most 2), and, once, the job's time after a correction in
the middle (the ratings converge that long after the save; target 60 s at 100,000 deals).
"Before" is what the same correction cost when the save replayed in the request: the save plus
the job's replay, the baseline this run measures beside it.

1,000,000 deals are not run by default; ``--deals 1000000`` runs it (the seeding writes the
rows with ``COPY``: see ``harness.seed_club``). ``--database`` names the databases
(``<name>_<deals>``).

``--profile``: the ratings' job after a correction in the middle run once more under cProfile
(its top functions by own and by cumulative time printed), and the job's time per deal-scope.

``--during-replay``: another club's deal entry while the worker replays this club's correction.
A second club (12 players) enters deals through ``games.services.deal_record`` in this process,
each save timed alone: first with no replay running, then while a real worker process
(``manage.py worker``, database backend) runs the ratings' job of a correction in the middle of
the big club (until that correction's notes are gone in both scopes), then again with none.
Printed: p50 and p95 of each, and the ratio during / without (target: unchanged within noise),
with the median of each save's own CPU time in this process.
``--worker-nice N`` runs the workers with ``TASKS_WORKER_NICE=N`` (default: the site's, 10):
on a machine the worker shares with the site, its CPU is what a save may wait for.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import statistics
import subprocess
import time
from typing import Any

from harness import PYTHON, ROOT, bench_database, django_setup, percentile, seed_club


def seeded(deals: int) -> tuple[Any, float]:
    from tarot_scores.ratings.services import ratings_rebuild
    from tarot_scores.stats.services import stats_rebuild

    started = time.perf_counter()
    club = seed_club(deals)
    seed_s = time.perf_counter() - started
    print(f"  seeded {deals:,} deals in {seed_s:.1f} s ({deals / seed_s:,.0f} deals/s)", flush=True)
    stats_rebuild(club=club)  # the players' figures, which a correction takes back from
    ratings_rebuild(club=club)
    ratings_rebuild()
    return club, time.perf_counter() - started


def middle_and_newest(club: Any) -> tuple[Any, Any]:
    from django.db.models import F

    from tarot_scores.games.models import Deal, Game

    order = Deal.objects.filter(game__club=club, deleted_at__isnull=True).order_by(
        F("game__date"), "game_id", "number"
    )
    count = order.count()
    newest = order.last()
    middle = order[count // 2]
    assert newest is not None
    # The bench club's games are finished: open the two played again, as a correction needs.
    Game.objects.filter(pk__in=[newest.game_id, middle.game_id]).update(status=Game.Status.OPEN)
    return middle, newest


def correct(deal: Any, flip: int) -> float:
    from tarot_scores.games import services

    deal.refresh_from_db()
    payload = {**deal.payload, "points": 60 if flip % 2 else 30}
    payload.pop("players", None)
    start = time.perf_counter()
    services.deal_update(deal=deal, payload=payload, version=deal.version, by=None)
    return time.perf_counter() - start


def measure(deals: int, repeat: int, profile: bool) -> dict[str, float]:
    from tarot_scores.ratings.jobs import ratings_catch_up

    club, seed_s = seeded(deals)
    middle, newest = middle_and_newest(club)
    replayed = [0]

    def catch_up() -> float:
        start = time.perf_counter()
        replayed[0] = ratings_catch_up.call(club_id=club.pk)["replayed"]
        return time.perf_counter() - start

    saves_new, saves_mid, jobs_mid = [], [], []
    for n in range(repeat):
        saves_new.append(correct(newest, n))
        catch_up()
        saves_mid.append(correct(middle, n))
        jobs_mid.append(catch_up())
    per_deal_ms = statistics.median(jobs_mid) * 1000 / max(1, replayed[0])
    if profile:
        correct(middle, repeat)
        profiler = cProfile.Profile()
        profiler.enable()
        catch_up()
        profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
    return {
        "deals": deals,
        "seed_s": seed_s,
        "newest_ms": statistics.median(saves_new) * 1000,
        "middle_ms": statistics.median(saves_mid) * 1000,
        "converge_s": statistics.median(jobs_mid),
        "replayed": replayed[0],
        "per_deal_scope_ms": per_deal_ms,
    }


def entry_during_replay(deals: int, url: str, saves: int, nice: int | None) -> None:
    """Another club's deal entry without a replay, during one (a real worker), and after.

    Beside each save's time: this process's CPU time for it (the save's own Python work, which
    a replay elsewhere does not change: the rest of a save's time is PostgreSQL's, and waiting
    for a core)."""

    from django.contrib.auth import get_user_model

    from tarot_scores.clubs import services as club_services
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services
    from tarot_scores.games.seats import table_seats
    from tarot_scores.models import Club, Membership
    from tarot_scores.ratings.models import RatingsBehind

    club, _seed_s = seeded(deals)
    middle, _newest = middle_and_newest(club)
    user = get_user_model().objects.create_user("other", password="other")
    other = Club.objects.create(name="Other", slug="other")
    Membership.objects.create(club=other, user=user, role=Membership.Role.ORGANISER)
    roster = [club_services.player_create(club=other, name=f"Autre {i + 1:02d}") for i in range(12)]
    rng = random.Random(7)
    table: dict[str, Any] = {}

    def one_save() -> tuple[float, float]:
        if not table or table["number"] > 24:
            players = rng.sample(roster, 4)
            game = services.game_create(club=other, players=players, variant="fft", by=None)
            table.update(game=game, seats=table_seats(game), ids=[p.pk for p in players], number=1)
        payload = random_tarot_payload(rng, table["ids"], table["number"])
        cpu = time.process_time()
        start = time.perf_counter()
        services.deal_record(
            game=table["game"],
            payload=payload,
            by=None,
            number=table["number"],
            table=table["seats"],
        )
        wall = time.perf_counter() - start
        table["number"] += 1
        return wall, time.process_time() - cpu

    env = {**os.environ, "DATABASE_URL": url, "TASKS_BACKEND": "database"}
    if nice is not None:
        env["TASKS_WORKER_NICE"] = str(nice)

    def worker(batch: bool) -> subprocess.Popen[bytes]:
        args = [PYTHON, "manage.py", "worker", "--interval", "0.2"] + (["--batch"] if batch else [])
        # Its log (a line per job) is not this bench's output.
        return subprocess.Popen(
            args,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def drain() -> None:  # the jobs of the saves so far, so that each phase starts alike
        assert worker(batch=True).wait(timeout=3600) == 0

    for _ in range(20):  # warm-up: the first saves of a process pay for its imports
        one_save()
    drain()
    before = [one_save() for _ in range(saves)]
    drain()
    correct(middle, 1)
    during: list[tuple[float, float]] = []
    loads = [os.getloadavg()[0]]
    running = worker(batch=False)
    started = time.perf_counter()
    try:
        while RatingsBehind.objects.filter(deal_id=middle.pk).exists():
            during.append(one_save())
        replay_s = time.perf_counter() - started
        loads.append(os.getloadavg()[0])
    finally:
        running.terminate()
        running.wait(timeout=600)
    drain()
    after = [one_save() for _ in range(saves)]
    without = before + after

    def row(name: str, saved: list[tuple[float, float]]) -> str:
        times = [wall for wall, _cpu in saved]
        cpu = [cpu for _wall, cpu in saved]
        return (
            f"{name:<22} {len(times):>6} {percentile(times, 50) * 1000:>8.1f} "
            f"{percentile(times, 95) * 1000:>8.1f} {percentile(cpu, 50) * 1000:>11.1f}"
        )

    print(f"\nAnother club's deal entry (deal_record), the big club of {deals:,} deals replayed")
    print(f"{'':<22} {'saves':>6} {'p50 ms':>8} {'p95 ms':>8} {'cpu p50 ms':>11}")
    print(row("no replay (before)", before))
    print(row("during the replay", during))
    print(row("no replay (after)", after))
    print(row("no replay (both)", without))
    if during:
        walls = [wall for wall, _cpu in during]
        alone = [wall for wall, _cpu in without]
        p50 = percentile(walls, 50) / percentile(alone, 50)
        p95 = percentile(walls, 95) / percentile(alone, 95)
        print(f"during / without: p50 {p50:.2f}, p95 {p95:.2f}")
    print(
        f"replay (worker at TASKS_WORKER_NICE={'default' if nice is None else nice}, "
        f"from the correction's save): "
        f"{replay_s:.1f} s; load average {loads}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", default="10000,100000")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database", default="tarot_i19_replay")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--during-replay", action="store_true")
    parser.add_argument("--saves", type=int, default=200, help="saves before and after")
    parser.add_argument(
        "--worker-nice", type=int, default=None, help="the workers' TASKS_WORKER_NICE"
    )
    args = parser.parse_args()
    rows = []
    print(f"load average at the start: {os.getloadavg()}")
    for size in (int(s) for s in args.deals.split(",")):
        url = bench_database("postgres", f"{args.database}_{size}")
        django_setup(url)
        if args.during_replay:
            entry_during_replay(size, url, args.saves, args.worker_nice)
        else:
            rows.append(measure(size, args.repeat, args.profile))
        from django.db import connection

        connection.close()
    print(f"load average at the end: {os.getloadavg()}")
    if not rows:
        return
    print(
        f"{'deals':>9} {'newest ms':>10} {'middle ms':>10} {'ratio':>6} "
        f"{'converge s':>11} {'before ms':>10} {'now/before':>10} {'replayed':>9} "
        f"{'ms/deal-scope':>13}"
    )
    for r in rows:
        before = r["middle_ms"] + r["converge_s"] * 1000  # the save replayed in the request
        print(
            f"{r['deals']:>9,} {r['newest_ms']:>10.1f} {r['middle_ms']:>10.1f} "
            f"{r['middle_ms'] / r['newest_ms']:>6.2f} {r['converge_s']:>11.2f} "
            f"{before:>10.0f} {r['middle_ms'] / before:>10.3f} {r['replayed']:>9,.0f} "
            f"{r['per_deal_scope_ms']:>13.3f}"
        )


if __name__ == "__main__":
    main()
