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

And it times a floor for the save, in the same loop: one raw-SQL transaction on the same
connection (psycopg, no ORM, no engine: the scores are worked out beforehand) that locks the
game, reads its last number and writes the same rows as the save: the deal, its score lines,
the revision, the season statistics, the players' figures and game totals (an upsert a table),
the club's results version and the ratings (the players' rows read under the federation's lock,
a log row each, the rows rewritten). It is timed with the ratings' rows and without, beside
the save with the ratings and without. Target: the save within 3x of the floor. Deal entry's
latency (p50, p95) is printed with its rate.
"""

from __future__ import annotations

import argparse
import random
import re
import time
from typing import Any

from harness import (
    Client,
    bench_database,
    django_setup,
    percentile,
    rate,
    seed_club,
    serving,
    session_for,
)


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


FLOOR_DEAL = """
INSERT INTO tarot_scores_deal (game_id, number, dealer_id, payload, version, taker_id, contract,
                               won, margin, created_at, updated_at)
VALUES (%s, %s, %s, %s, 1, %s, %s, %s, %s, now(), now()) RETURNING id
"""
FLOOR_REVISION = """
INSERT INTO tarot_scores_dealrevision (deal_id, version, action, payload, scores, by_label,
                                       reason, at)
VALUES (%s, 1, 'created', %s, %s, '', '', now())
"""
FLOOR_STATS = """
INSERT INTO tarot_scores_playerseason (club_id, season, kind, table_size, player_id, points,
                                       deals, taken, taken_won)
SELECT %s, %s, 'tarot', 4, * FROM unnest(%s::bigint[], %s::int[], %s::int[], %s::int[], %s::int[])
ON CONFLICT (club_id, season, kind, table_size, player_id) DO UPDATE SET
    points = tarot_scores_playerseason.points + excluded.points,
    deals = tarot_scores_playerseason.deals + excluded.deals,
    taken = tarot_scores_playerseason.taken + excluded.taken,
    taken_won = tarot_scores_playerseason.taken_won + excluded.taken_won
"""


def figure_rows(game: Any, payload: Any, result: Any, scores: dict[int, int]) -> list[Any]:
    """The rows the save adds to its players' figures and game totals (worked out beforehand,
    like the scores), each table's upsert statement with its parameters."""
    from tarot_scores.games.models import Deal
    from tarot_scores.stats import services as stats

    deal = Deal(
        payload=payload, taker_id=payload["taker"], won=result.won, contract=payload["contract"]
    )
    return [
        (stats._upsert_sql(table, len(rows)), [value for row in rows for value in row])
        for table, rows in stats._figures_rows(game, deal, scores).items()
    ]


FLOOR_RATINGS_READ = """
SELECT id, club_id, player_id, mu, sigma, deals FROM tarot_scores_playerrating
WHERE (club_id = %s OR club_id IS NULL) AND player_id = ANY(%s) FOR UPDATE
"""
FLOOR_STEP = """
INSERT INTO tarot_scores_ratingstep (club_id, game_id, deal_id, player_id, season, played_on,
                                     number, mu, sigma, deals)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
"""
FLOOR_RATING = """
UPDATE tarot_scores_playerrating SET mu = %s, sigma = %s, deals = %s, last_played_on = %s,
       last_game = %s, last_number = %s WHERE id = %s
"""
FLOOR_RATING_NEW = """
INSERT INTO tarot_scores_playerrating (club_id, player_id, mu, sigma, deals, last_played_on,
                                       last_game, last_number)
VALUES (%s, %s, 25.0, 8.333, 1, %s, %s, %s)
"""


def floor_save(
    game: Any,
    season: int,
    number: int,
    dealer: int,
    payload: Any,
    result: Any,
    scores: dict[int, int],
    figures: list[Any],
    rated: bool,
) -> None:
    """The save's rows written by hand: one transaction, bound parameters, the statements
    sent together where the save sends them together (psycopg pipelines): the game's lock,
    its last number, the deal, its score lines, its revision, the season statistics and the
    players' figures and game totals (``figures``: their upserts, worked out beforehand like
    the scores), the club's results version and, ``rated``, the ratings: the federation's lock
    and the players' rating rows read (club and federation), a log row each and the rows
    rewritten. The new ratings' arithmetic (the engine's work, like the scores) is left out:
    the rows are written with the values read."""
    from django.db import connection
    from psycopg.types.json import Jsonb

    connection.ensure_connection()
    raw = connection.connection
    ids = list(scores)
    taken = [1 if pid == payload["taker"] else 0 for pid in ids]
    with raw.transaction(), raw.cursor() as cur:
        cur.execute("SELECT id FROM tarot_scores_game WHERE id = %s FOR UPDATE", [game.pk])
        cur.execute(
            "SELECT number FROM tarot_scores_deal WHERE game_id = %s ORDER BY number DESC LIMIT 1",
            [game.pk],
        )
        cur.fetchone()
        cur.execute(
            FLOOR_DEAL,
            [
                game.pk,
                number,
                dealer,
                Jsonb(payload),
                payload["taker"],
                payload["contract"],
                result.won,
                result.margin,
            ],
        )
        row = cur.fetchone()
        assert row is not None
        deal_id = row[0]
        with raw.pipeline():
            cur.execute(
                "INSERT INTO tarot_scores_scoreline (deal_id, player_id, points)"
                " SELECT %s, * FROM unnest(%s::bigint[], %s::int[])",
                [deal_id, ids, [scores[pid] for pid in ids]],
            )
            cur.execute(
                FLOOR_REVISION,
                [deal_id, Jsonb(payload), Jsonb({str(k): v for k, v in scores.items()})],
            )
            cur.execute(
                FLOOR_STATS,
                [
                    game.club_id,
                    season,
                    ids,
                    [scores[pid] for pid in ids],
                    [1] * len(ids),
                    taken,
                    [t if result.won else 0 for t in taken],
                ],
            )
            for sql, params in figures:
                cur.execute(sql, params)
            cur.execute(
                "UPDATE tarot_scores_club SET stats_version = stats_version + 1 WHERE id = %s",
                [game.club_id],
            )
        if not rated:
            return
        with raw.pipeline():
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [0x7A207A])
            cur.execute(FLOOR_RATINGS_READ, [game.club_id, ids])
        # (club or None, player) -> (row id, mu, sigma, deals)
        found = {(r[1], r[2]): (r[0], r[3], r[4], r[5]) for r in cur.fetchall()}
        where = (game.date, game.pk, number)
        scopes = [(club_id, pid) for club_id in (game.club_id, None) for pid in ids]
        with raw.pipeline():
            steps = []
            for club_id, pid in scopes:
                _id, mu, sigma, deals = found.get((club_id, pid), (None, 25.0, 8.333, 0))
                steps.append(
                    [
                        club_id,
                        game.pk,
                        deal_id,
                        pid,
                        season,
                        game.date,
                        number,
                        mu,
                        sigma,
                        deals + 1,
                    ]
                )
            cur.executemany(FLOOR_STEP, steps)
            rewritten = [
                [mu, sigma, deals + 1, *where, row_id]
                for row_id, mu, sigma, deals in (found[key] for key in scopes if key in found)
            ]
            if rewritten:
                cur.executemany(FLOOR_RATING, rewritten)
            for club_id, pid in scopes:
                if (club_id, pid) not in found:
                    cur.execute(FLOOR_RATING_NEW, [club_id, pid, *where])


def time_the_save(
    club: Any, players: list[Any], rng: random.Random, seconds: float
) -> tuple[float, float, float, float]:
    """Milliseconds per ``games.services.deal_record`` call, with the ratings kept in step and
    without (the ratings' hook taken out), and per floor transaction (``floor_save``), with the
    ratings' rows and without, games of 24 deals as in the web test. The four kinds of game
    alternate, so that all see the same machine and the same database size."""
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games import services
    from tarot_scores.games.seats import table_seats
    from tarot_scores.ratings.services import ratings_after_deal

    hooks = services.deal_changed
    unrated = [hook for hook in hooks if hook is not ratings_after_deal]
    saved = [0, 0, 0, 0]
    spent = [0.0, 0.0, 0.0, 0.0]
    ids = [p.pk for p in players]
    while min(spent) < seconds / 4:
        for kind in (1, 0, 2, 3):  # rated save, unrated save, rated floor, unrated floor
            with hooks.replaced(unrated if kind == 0 else hooks):
                game = services.game_create(club=club, players=players, variant="fft", by=None)
                table = table_seats(game)
                season = club.season_of(game.date)
                for number in range(1, 25):
                    payload = random_tarot_payload(rng, ids, number)
                    if kind >= 2:
                        payload = services.as_entered(game, payload)
                        result, view = services.deal_score(
                            game=game, payload=payload, number=number, table=table
                        )
                        scores = view.scores_by_id(result)
                        dealer = view.dealer(number).pk
                        figures = figure_rows(game, payload, result, scores)
                        started = time.perf_counter()
                        floor_save(
                            game,
                            season,
                            number,
                            dealer,
                            payload,
                            result,
                            scores,
                            figures,
                            rated=kind == 2,
                        )
                    else:
                        started = time.perf_counter()
                        services.deal_record(
                            game=game, payload=payload, by=None, number=number, table=table
                        )
                    spent[kind] += time.perf_counter() - started
                    saved[kind] += 1
    return tuple(spent[k] / saved[k] * 1000 for k in (1, 0, 2, 3))  # type: ignore[return-value]


def time_the_rebuild(club: Any) -> float:
    """Seconds to rebuild every rating (the club's and the federation's) from the deals."""
    from tarot_scores.ratings.services import ratings_rebuild

    started = time.perf_counter()
    ratings_rebuild()
    return time.perf_counter() - started


def measure(
    label: str,
    work: Any,
    seconds: float,
    at_most: int = 100_000,
    latencies: list[float] | None = None,
) -> float:
    work()  # warm up: connections, caches, first template compile
    start = time.perf_counter()
    runs = 0
    times = latencies if latencies is not None else []
    while runs < at_most and time.perf_counter() - start < seconds:
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
        runs += 1
    per_second = rate(runs, time.perf_counter() - start)
    print(
        f"  {label:<44} {per_second:>9.1f} req/s  ({runs} requests;"
        f" p50 {percentile(times, 50) * 1000:.1f} ms, p95 {percentile(times, 95) * 1000:.1f} ms)"
    )
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
        entry_times: list[float] = []
        entered = measure(
            "deal entry (htmx POST + updated sheet)", entry, args.seconds, latencies=entry_times
        )
        small_latest = measure("leaderboard, latest season", board(""), args.seconds)
        small_all = measure("leaderboard, all seasons", board("all"), args.seconds)

    rebuild_small = time_the_rebuild(club)
    print(f"  {f'ratings rebuilt from {args.small:,} deals':<44} {rebuild_small:>9.1f} s")
    save_ms, unrated_ms, floor_ms, floor_unrated_ms = time_the_save(
        club, players, rng, args.seconds
    )
    print(f"  {'the save alone, in process (no HTTP)':<44} {save_ms:>9.2f} ms/deal")
    print(f"  {'the save without the ratings':<44} {unrated_ms:>9.2f} ms/deal")
    print(f"  {'floor: the same rows in one raw-SQL transaction':<44} {floor_ms:>9.2f} ms/deal")
    print(f"  {'the floor without the ratings rows':<44} {floor_unrated_ms:>9.2f} ms/deal")

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
    print(f"  the save / the raw-SQL floor                  {save_ms / floor_ms:6.2f}x  (<= 3)")
    print(f"    without the ratings / the floor without them {unrated_ms / floor_unrated_ms:5.2f}x")
    print(
        f"  deal entry latency p50 / p95                  {percentile(entry_times, 50) * 1000:6.1f}"
        f" / {percentile(entry_times, 95) * 1000:.1f} ms"
    )
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
