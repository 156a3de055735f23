"""Deal entry and the club leaderboard, served by gunicorn, against a trivial Django view.

Run: ``python bench/entry.py [--db postgres|sqlite] [--seconds S]``. Builds a throwaway database
with a club of 10,000 deals, serves it with gunicorn on 127.0.0.1 (one worker, so the figures
are per request path, not parallelism) and measures, with one keep-alive client logged in
through a real session:

- the trivial view (``/healthz``: Django's request cycle and no query), the baseline;
- deal entry: the phone's htmx POST of a new deal, answered with the updated sheet;
- the leaderboard (latest season, and all seasons);

then grows the club to 100,000 deals and measures the leaderboard again. It prints requests
per second and the ratios the targets speak of: entry and leaderboard at least 0.3x the
trivial view, and the leaderboard no more than 1.5x slower at 100,000 deals than at 10,000.

It times the ratings' rebuild at both sizes (target: under a minute at 100,000 deals), and the
save alone with the ratings kept in step against the same save without them (target: the
ratings add at most 30%).

It also times the save alone (``games.services.deal_record`` called in this process: the deal, its
score lines, revision and statistics in one transaction, no HTTP, form or page) and prints the
ratio entry would reach if everything else it does cost nothing: the trivial view's time plus
the save's, against the trivial view's.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from typing import Any

from harness import Client, bench_database, django_setup, rate, seed_club, serving, session_for


def deal_form(rng: random.Random, seat_ids: list[int], number: int) -> dict[str, Any]:
    """What the entry screen posts: taker, contract, bouts, points, the expected number."""
    from tarot_scores.clubs.demo import random_tarot_payload

    payload = random_tarot_payload(rng, seat_ids, number)
    form: dict[str, Any] = {
        "number": number,
        "taker": payload["taker"],
        "contract": payload["contract"],
        "oudlers": payload["oudlers"],
        "points": str(payload["points"]).replace(".", ","),
        "petit_au_bout": payload["petit_au_bout"] or "",
        "slam": "",
    }
    return form


def time_the_save(
    club: Any, players: list[Any], rng: random.Random, seconds: float
) -> tuple[float, float]:
    """Milliseconds per ``games.services.deal_record`` call, with the ratings kept in step and
    without (the ratings' hook taken out), games of 24 deals as in the web test. The two kinds
    of game alternate, so that both see the same machine and the same database size."""
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services
    from tarot_scores.games.seats import table_seats
    from tarot_scores.stats.services import ratings_after_deal

    hooks = services._after_deal_change
    saved = [0, 0]
    spent = [0.0, 0.0]
    ids = [p.pk for p in players]
    while min(spent) < seconds / 2:
        for rated in (1, 0):
            if not rated:
                hooks.remove(ratings_after_deal)
            try:
                game = services.game_create(club=club, players=players, variant="fft", by=None)
                table = table_seats(game)
                for number in range(1, 25):
                    payload = random_tarot_payload(rng, ids, number)
                    started = time.perf_counter()
                    services.deal_record(
                        game=game, payload=payload, by=None, number=number, table=table
                    )
                    spent[rated] += time.perf_counter() - started
                    saved[rated] += 1
            finally:
                if not rated:
                    hooks.append(ratings_after_deal)
    return spent[1] / saved[1] * 1000, spent[0] / saved[0] * 1000


def time_the_rebuild(club: Any) -> float:
    """Seconds to rebuild every rating (the club's and the federation's) from the deals."""
    from tarot_scores.stats.services import ratings_rebuild

    started = time.perf_counter()
    ratings_rebuild()
    return time.perf_counter() - started


def measure(label: str, work: Any, seconds: float, at_most: int = 100_000) -> float:
    work()  # warm up: connections, caches, first template compile
    start = time.perf_counter()
    runs = 0
    while runs < at_most and time.perf_counter() - start < seconds:
        work()
        runs += 1
    per_second = rate(runs, time.perf_counter() - start)
    print(f"  {label:<44} {per_second:>9.1f} req/s  ({runs} requests)")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()

    url = bench_database(args.db, "tarot_bench_entry")
    django_setup(url)
    from tarot_scores.games import services

    started = time.perf_counter()
    club = seed_club(args.small)
    print(
        f"database: {args.db}; seeded {args.small:,} deals in {time.perf_counter() - started:.0f} s"
    )
    session = session_for("bench")
    players = list(club.players.all()[:4])
    rng = random.Random(7)

    def new_game() -> tuple[int, list[int]]:
        game = services.game_create(club=club, players=players, variant="fft", by=None)
        return game.pk, [p.pk for p in players]

    with serving(url, workers=1) as server:
        client = Client(server.port, session)
        # A real evening's game: about 24 deals, then a new table.
        state: dict[str, Any] = {"number": 25}

        def trivial() -> None:
            status, _ = client.request("GET", "/healthz")
            assert status == 200

        def entry() -> None:
            if state["number"] > 24:
                state["game"], state["seats"] = new_game()
                state["number"] = 1
            form = deal_form(rng, state["seats"], state["number"])
            status, body = client.request(
                "POST",
                f"/games/{state['game']}/deals/new/",
                form=form,
                headers={"HX-Request": "true"},
            )
            if status != 200 or b"<html" in body[:200]:
                raise SystemExit(f"deal entry answered {status}: {body[:300]!r}")
            state["number"] += 1

        def board(season: str) -> Any:
            def run() -> None:
                status, body = client.request(
                    "GET", f"/clubs/{club.slug}/leaderboard/?season={season}"
                )
                assert status == 200 and re.search(rb"Joueur \d\d", body)

            return run

        print(f"club of {args.small:,} deals")
        base = measure("trivial view (/healthz)", trivial, args.seconds)
        entered = measure("deal entry (htmx POST + updated sheet)", entry, args.seconds)
        small_latest = measure("leaderboard, latest season", board(""), args.seconds)
        small_all = measure("leaderboard, all seasons", board("all"), args.seconds)

    rebuild_small = time_the_rebuild(club)
    print(f"  {f'ratings rebuilt from {args.small:,} deals':<44} {rebuild_small:>9.1f} s")
    save_ms, unrated_ms = time_the_save(club, players, rng, args.seconds)
    print(f"  {'the save alone, in process (no HTTP)':<44} {save_ms:>9.2f} ms/deal")
    print(f"  {'the save without the ratings':<44} {unrated_ms:>9.2f} ms/deal")

    started = time.perf_counter()
    seed_club(args.large - args.small, seed=2)
    print(f"grown to {args.large:,} deals in {time.perf_counter() - started:.0f} s")
    rebuild_large = time_the_rebuild(club)
    print(f"  {f'ratings rebuilt from {args.large:,} deals':<44} {rebuild_large:>9.1f} s")
    with serving(url, workers=1) as server:
        client = Client(server.port, session)
        print(f"club of {args.large:,} deals")
        base_large = measure("trivial view (/healthz)", trivial, args.seconds)
        large_latest = measure("leaderboard, latest season", board(""), args.seconds)
        large_all = measure("leaderboard, all seasons", board("all"), args.seconds)

    print("ratios (target)")
    print(f"  save with ratings / save without              {save_ms / unrated_ms:6.2f}x  (<= 1.3)")
    print(f"  ratings rebuilt from {args.large:,} deals           {rebuild_large:6.1f} s   (< 60)")
    print(f"  deal entry / trivial view                     {entered / base:6.2f}x  (>= 0.3)")
    bound = (1000 / base) / (1000 / base + save_ms)
    print(f"    at best, were all but the save free         {bound:6.2f}x")
    print(f"  leaderboard / trivial view, latest season     {small_latest / base:6.2f}x  (>= 0.3)")
    print(f"  leaderboard / trivial view, all seasons       {small_all / base:6.2f}x  (>= 0.3)")
    print(
        f"  leaderboard time at {args.large:,} / at {args.small:,}, latest season"
        f"  {(small_latest / base) / (large_latest / base_large):6.2f}x  (<= 1.5)"
    )
    print(
        f"  leaderboard time at {args.large:,} / at {args.small:,}, all seasons"
        f"    {(small_all / base) / (large_all / base_large):6.2f}x  (<= 1.5)"
    )


if __name__ == "__main__":
    main()
