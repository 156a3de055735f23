"""A correction's cost as history grows: correcting a deal in the middle of a club's history
against correcting its newest, at 10,000 and 100,000 deals, and how long the ratings take to
catch up in the worker (PostgreSQL).

Run: ``cd bench && ../.venv/bin/python replay.py [--deals 10000,100000] [--repeat 7]``.

For each size a fresh database (``tarot_i19_replay_<deals>``) gets a club of that many deals
(``harness.seed_club``: 12 players, 4-player tables, three seasons) and its ratings built. Then,
``--repeat`` times each, alternately: the newest deal corrected, a deal in the middle (by play
order) corrected, each through ``games.services.deal_update`` as the page and the API call it,
timed alone; the ratings' job (``stats.services.ratings_catch_up``, what the worker runs) is then
run untimed so that every save starts from ratings that are up to date. Printed: the median
save of each, their ratio (target: at most 2), and, once, the job's time after a correction in
the middle (the ratings converge that long after the save; target 60 s at 100,000 deals).
"Before" is what the same correction cost when the save replayed in the request: the save plus
the job's replay, the baseline this run measures beside it.

1,000,000 deals are not run by default: seeding them takes this machine about 10 x the 100,000
run; ``--deals 1000000`` runs it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from harness import bench_database, django_setup, seed_club


def measure(deals: int, repeat: int) -> dict[str, float]:
    from django.db.models import F

    from tarot_scores.games import services
    from tarot_scores.games.models import Deal, Game
    from tarot_scores.stats.services import ratings_catch_up, ratings_rebuild, stats_rebuild

    started = time.perf_counter()
    club = seed_club(deals)
    stats_rebuild(club=club)  # the players' figures, which a correction takes back from
    ratings_rebuild(club=club)
    ratings_rebuild()
    seeded = time.perf_counter() - started
    order = Deal.objects.filter(game__club=club, deleted_at__isnull=True).order_by(
        F("game__date"), "game_id", "number"
    )
    count = order.count()
    newest = order.last()
    middle = order[count // 2]
    assert newest is not None
    # The bench club's games are finished: open the two played again, as a correction needs.
    Game.objects.filter(pk__in=[newest.game_id, middle.game_id]).update(status=Game.Status.OPEN)

    def correct(deal: Deal, flip: int) -> float:
        deal.refresh_from_db()
        payload = {**deal.payload, "points": 60 if flip % 2 else 30}
        payload.pop("players", None)
        start = time.perf_counter()
        services.deal_update(deal=deal, payload=payload, version=deal.version, by=None)
        return time.perf_counter() - start

    def catch_up() -> float:
        start = time.perf_counter()
        ratings_catch_up.call(club_id=club.pk)
        return time.perf_counter() - start

    saves_new, saves_mid, jobs_mid = [], [], []
    for n in range(repeat):
        saves_new.append(correct(newest, n))
        catch_up()
        saves_mid.append(correct(middle, n))
        jobs_mid.append(catch_up())
    return {
        "deals": count,
        "seed_s": seeded,
        "newest_ms": statistics.median(saves_new) * 1000,
        "middle_ms": statistics.median(saves_mid) * 1000,
        "converge_s": statistics.median(jobs_mid),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", default="10000,100000")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows = []
    for size in (int(s) for s in args.deals.split(",")):
        url = bench_database("postgres", f"tarot_i19_replay_{size}")
        django_setup(url)
        rows.append(measure(size, args.repeat))
        from django.db import connection

        connection.close()
    print(
        f"{'deals':>9} {'newest ms':>10} {'middle ms':>10} {'ratio':>6} "
        f"{'converge s':>11} {'before ms':>10} {'now/before':>10}"
    )
    for r in rows:
        before = r["middle_ms"] + r["converge_s"] * 1000  # the save replayed in the request
        print(
            f"{r['deals']:>9,} {r['newest_ms']:>10.1f} {r['middle_ms']:>10.1f} "
            f"{r['middle_ms'] / r['newest_ms']:>6.2f} {r['converge_s']:>11.2f} "
            f"{before:>10.0f} {r['middle_ms'] / before:>10.3f}"
        )


if __name__ == "__main__":
    main()
