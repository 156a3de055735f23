"""Federation scale: a club leaderboard and a player page against millions of deals.

Run: ``python bench/federation.py [--deals N | --quick] [--players N] [--requests N]``.
Builds a fresh PostgreSQL database (``tarot_fed_<deals>``), migrates it and fills it fast:
clubs of about 100 players, 4- and 5-player games of 12 to 24 deals spread over nine seasons,
each deal with its score lines and revision, written with PostgreSQL's ``COPY``. Deals are
not scored one by one: a pool of deals is scored once by the site's own engine
(``games.services.deal_score``) on a table of seat positions, and each generated deal is one of
them with the seated players' ids put in; the statistics rows (``PlayerSeason``) are summed
as the deal services write them. The run checks both against the site: a sample of deals is
scored again through ``deal_score`` on its real game, and one club's statistics are rebuilt
with ``stats.services.stats_rebuild`` and compared row for row. The ratings are rebuilt with
``ratings.services.ratings_rebuild`` for the measured club (the player page shows the club's
rating and its curve), and so are its players' figures and game totals
(``stats_rebuild``: what the player page reads); the federation's ratings and the other
clubs' figures, which no measured page reads, are not built. The busiest players' figures,
latest games and score curve are then compared with what ``player_stats`` and
``player_history`` read from their deals: they must be equal.

It then measures, in this process through Django's test client signed in as a member, the
measured club's leaderboard (latest season, the default page) and the page of its busiest
players, ``--requests`` times each, and prints p50/p95 against the 50 ms target:

- leaderboard cold: the cache cleared before each request, so the table is drawn from the
  statistics every time;
- leaderboard warm: the cached table (the page a second visitor gets);
- player page cold and warm: the same, for the busiest players' pages in turn (their figures
  are cached under the club's results version like the table).

Every page is visited once before the timings, so PostgreSQL's buffers hold its rows. Beside
the wall times the table gives this process's CPU time per request, which a busy machine
inflates less, and the load average while measuring.

Each run's row is kept in ``/tmp/tarot_fed_results.json`` and the table printed at the end
shows every size run so far, so a 5,000,000-deal run prints beside the 100,000-deal one.
``--reuse`` measures an existing database again (after a fix) without generating it (the
measured club's figures are rebuilt first if it has none: a database made before they
existed).
``--drop`` drops the database at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from harness import bench_database, percentile

TARGET_MS = 50.0
RESULTS = Path("/tmp/tarot_fed_results.json")
FIRST_DAY = datetime.date(2017, 9, 1)
LAST_DAY = datetime.date(2026, 11, 20)
TEMPLATES_PER_SIZE = 4000
CHUNK = 20000  # deals between two flushes of the COPY buffers


def copy_text(value: Any) -> str:
    r"""A value in COPY's text format (our strings carry no tab, newline or backslash)."""
    if value is None:
        return r"\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    return str(value)


def templates(rng: random.Random, club: Any) -> dict[int, list[dict[str, Any]]]:
    """Deals scored once by the site's engine at a table of 4 and of 5 of the club's players.

    Each is the stored payload (those players' ids), where each of them sits (``position``),
    the points of each seat, the taker's seat, the contract, won and margin: a generated deal
    is one of them with another table's players put in their seats (``seated_payload``)."""
    from tarot_scores.clubs.demo import random_tarot_payload
    from tarot_scores.games.models import Game, Seat
    from tarot_scores.games.seats import TableSeats
    from tarot_scores.games.services import as_entered, deal_score
    from tarot_scores.games.setup import frozen_rules_for

    players = list(club.players.order_by("pk")[:5])
    out: dict[int, list[dict[str, Any]]] = {}
    for size in (4, 5):
        seated = players[:size]
        game = Game(
            club=club, variant="fft", rules=frozen_rules_for(variant="fft", house_rules=None)
        )
        view = TableSeats([Seat(game=game, player=p, position=i) for i, p in enumerate(seated)])
        position = {p.pk: i for i, p in enumerate(seated)}
        pool = []
        for _ in range(TEMPLATES_PER_SIZE):
            payload = as_entered(game, random_tarot_payload(rng, [p.pk for p in seated], 1))
            result, _view = deal_score(game=game, payload=payload, number=1, table=view)
            scores = view.scores_by_id(result)
            pool.append(
                {
                    "payload": payload,
                    "position": position,
                    "scores": [scores[p.pk] for p in seated],
                    "taker": position[payload["taker"]],
                    "contract": payload["contract"],
                    "won": result.won,
                    "margin": result.margin,
                }
            )
        out[size] = pool
    return out


def seated_payload(template: dict[str, Any], ids: list[int]) -> dict[str, Any]:
    """The template's payload with the table's players' ids in place of the template's."""
    where = template["position"]
    payload = dict(template["payload"])
    for key in ("taker", "partner", "sitting_out"):
        if payload.get(key) is not None:
            payload[key] = ids[where[payload[key]]]
    payload["handfuls"] = [{**h, "player": ids[where[h["player"]]]} for h in payload["handfuls"]]
    return payload


def generate(*, deals: int, players: int, seed: int, url: str) -> dict[str, Any]:
    """Clubs, players, games, deals, score lines, revisions and statistics rows. Returns what
    the measure needs (the user, the measured club) and the timings."""
    import psycopg
    from django.contrib.auth import get_user_model

    from tarot_scores.models import Club, Membership, Player

    rng = random.Random(seed)
    started = time.monotonic()
    clubs_count = max(1, players // 100)
    user = get_user_model().objects.create_user("fed", password="fed")
    clubs = Club.objects.bulk_create(
        Club(name=f"Club fédéral {i + 1:03d}", slug=f"club-{i + 1:03d}") for i in range(clubs_count)
    )
    Membership.objects.bulk_create(
        Membership(club=c, user=user, role=Membership.Role.MEMBER) for c in clubs
    )
    made = Player.objects.bulk_create(
        Player(
            name=f"Joueur {i + 1:05d}",
            label_key=f"joueur {i + 1:05d}",
            club=clubs[i % clubs_count],
        )
        for i in range(players)
    )
    through = Player.clubs.through
    through.objects.bulk_create(
        through(player_id=p.pk, club_id=clubs[i % clubs_count].pk) for i, p in enumerate(made)
    )
    rosters: dict[int, list[int]] = defaultdict(list)
    for i, p in enumerate(made):
        rosters[clubs[i % clubs_count].pk].append(p.pk)
    pool = templates(rng, clubs[0])
    start_month = {c.pk: c.season_start_month for c in clubs}

    season_stats: dict[tuple[int, int, int, int], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    now = datetime.datetime(2026, 11, 20, 20, 0, tzinfo=datetime.UTC).isoformat()
    span = (LAST_DAY - FIRST_DAY).days
    game_id = deal_id = line_id = 0
    per_club = [
        deals // clubs_count + (1 if i < deals % clubs_count else 0) for i in range(clubs_count)
    ]
    rules = json.dumps(_fft_rules())
    buffers: dict[str, list[str]] = defaultdict(list)
    tables = {
        "games": "tarot_scores_game (id, club_id, date, label, variant, rules, status, "
        "max_deals, created_at, created_by_id, house_rules_id)",
        "seats": "tarot_scores_seat (id, game_id, player_id, position)",
        "deals": "tarot_scores_deal (id, game_id, number, dealer_id, payload, version, taker_id, "
        "contract, won, margin, deleted_at, created_at, updated_at, client_id)",
        "lines": "tarot_scores_scoreline (id, deal_id, player_id, points)",
        "revisions": "tarot_scores_dealrevision (id, deal_id, version, action, payload, scores, "
        "by_id, by_label, reason, at)",
    }
    conns = {name: psycopg.connect(url.replace("postgres://", "postgresql://")) for name in tables}
    copies = {}
    stack = contextlib.ExitStack()
    for name, conn in conns.items():
        # The rows are consistent by construction: no foreign-key trigger per row while loading.
        conn.execute("SET session_replication_role = replica")
        cursor = stack.enter_context(conn.cursor())
        copies[name] = stack.enter_context(cursor.copy(f"COPY {tables[name]} FROM STDIN"))

    def flush() -> None:
        for name, rows in buffers.items():
            if rows:
                copies[name].write("".join(rows))
                rows.clear()

    seat_id = revision_id = 0
    written = 0
    for c, club in enumerate(clubs):
        roster = rosters[club.pk]
        # Busy players: a third of the roster is three times as likely to sit at a table.
        weighted = roster + roster[: len(roster) // 3] * 2
        left = per_club[c]
        while left > 0:
            size = 5 if rng.random() < 0.25 else 4
            seated: list[int] = []
            while len(seated) < size:
                pick = rng.choice(weighted)
                if pick not in seated:
                    seated.append(pick)
            count = min(left, rng.randint(12, 24))
            left -= count
            game_id += 1
            day = FIRST_DAY + datetime.timedelta(days=rng.randrange(span))
            season = day.year if day.month >= start_month[club.pk] else day.year - 1
            buffers["games"].append(
                f"{game_id}\t{club.pk}\t{day.isoformat()}\t\tfft\t{rules}\tfinished\t{count}\t"
                f"{now}\t\\N\t\\N\n"
            )
            for position, pid in enumerate(seated):
                seat_id += 1
                buffers["seats"].append(f"{seat_id}\t{game_id}\t{pid}\t{position}\n")
            for number in range(1, count + 1):
                t = rng.choice(pool[size])
                deal_id += 1
                payload = json.dumps(seated_payload(t, seated))
                taker = seated[t["taker"]]
                won = t["won"]
                buffers["deals"].append(
                    f"{deal_id}\t{game_id}\t{number}\t{seated[(number - 1) % size]}\t{payload}\t1\t"
                    f"{taker}\t{t['contract']}\t{copy_text(won)}\t{copy_text(t['margin'])}\t"
                    f"\\N\t{now}\t{now}\t\\N\n"
                )
                scores = {}
                for pid, points in zip(seated, t["scores"], strict=True):
                    line_id += 1
                    buffers["lines"].append(f"{line_id}\t{deal_id}\t{pid}\t{points}\n")
                    scores[str(pid)] = points
                    row = season_stats[(club.pk, season, size, pid)]
                    taken = 1 if pid == taker else 0
                    row[0] += points
                    row[1] += 1  # the fft rule set seats no one out at five (a called king)
                    row[2] += taken
                    row[3] += taken if won else 0
                revision_id += 1
                buffers["revisions"].append(
                    f"{revision_id}\t{deal_id}\t1\tcreated\t{payload}\t{json.dumps(scores)}\t"
                    f"\\N\t\t\t{now}\n"
                )
                written += 1
                if written % CHUNK == 0:
                    flush()
                    if written % (CHUNK * 25) == 0:
                        rate = written / (time.monotonic() - started)
                        print(f"  {written:,} deals written, {rate:,.0f} deals/s", flush=True)
    flush()
    stack.close()
    for conn in conns.values():
        conn.commit()
        conn.close()
    copied = time.monotonic() - started

    with psycopg.connect(url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        with (
            conn.cursor() as cur,
            cur.copy(
                "COPY tarot_scores_playerseason (club_id, season, kind, table_size, player_id, "
                "points, deals, taken, taken_won) FROM STDIN"
            ) as copy,
        ):
            for (club_id, season, size, pid), (points, n, taken, won) in season_stats.items():
                copy.write_row((club_id, season, "tarot", size, pid, points, n, taken, won))
        for table in ("game", "seat", "deal", "scoreline", "dealrevision", "playerseason"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('tarot_scores_{table}', 'id'), "
                f"(SELECT coalesce(max(id), 1) FROM tarot_scores_{table}))"
            )
        conn.execute("UPDATE tarot_scores_club SET stats_version = stats_version + 1")
        conn.execute("VACUUM ANALYZE")
    loaded = time.monotonic() - started
    return {
        "user": user,
        "clubs": clubs,
        "copied_s": copied,
        "loaded_s": loaded,
        "lines": line_id,
    }


def _fft_rules() -> dict[str, Any]:
    from tarot_scores.games.setup import frozen_rules_for

    return frozen_rules_for(variant="fft", house_rules=None)


def check_against_services(club: Any, rng: random.Random) -> str:
    """Score a sample of deals again through the site, and rebuild one club's statistics with
    the site's own rebuild: both must match what was generated."""
    from tarot_scores.games.models import Deal, ScoreLine
    from tarot_scores.games.services import deal_score
    from tarot_scores.stats import services
    from tarot_scores.stats.models import PlayerSeason

    last = Deal.objects.filter(game__club=club).order_by("-pk").values_list("pk", flat=True)[0]
    sample = rng.sample(range(1, last + 1), 200)
    checked = 0
    for deal in Deal.objects.filter(pk__in=sample).select_related("game"):
        result, view = deal_score(game=deal.game, payload=deal.payload, number=deal.number)
        stored = dict(ScoreLine.objects.filter(deal=deal).values_list("player_id", "points"))
        assert view.scores_by_id(result) == stored, f"deal {deal.pk}: {stored}"
        assert (deal.won, deal.margin) == (result.won, result.margin), f"deal {deal.pk}"
        assert deal.dealer_id == view.dealer(deal.number).pk, f"deal {deal.pk}"
        checked += 1

    def rows() -> set[tuple[Any, ...]]:
        return set(
            PlayerSeason.objects.filter(club=club).values_list(
                "season", "kind", "table_size", "player_id", "points", "deals", "taken", "taken_won"
            )
        )

    generated = rows()
    services.stats_rebuild(club=club)
    assert rows() == generated, "generated statistics differ from stats_rebuild"
    return f"{checked} deals scored again and {len(generated)} statistics rows rebuilt: identical"


def busiest(club: Any, count: int = 10) -> list[tuple[int, int]]:
    """The club's players with the most deals (all seasons): (player id, deals)."""
    from django.db.models import Sum

    from tarot_scores.stats.models import PlayerSeason

    return list(
        PlayerSeason.objects.filter(club=club)
        .values("player_id")
        .annotate(n=Sum("deals"))
        .order_by("-n")
        .values_list("player_id", "n")[:count]
    )


def figures_ready(club: Any) -> str:
    """Build the measured club's figures if it has none, then check the busiest players' pages
    read the same from them as from the deals."""
    from tarot_scores.models import Player
    from tarot_scores.stats import selectors, services
    from tarot_scores.stats.models import PlayerFigures

    built = ""
    if not PlayerFigures.objects.filter(club=club).exists():
        t0 = time.monotonic()
        services.stats_rebuild(club=club)
        built = f"figures built in {time.monotonic() - t0:.0f} s; "
    for player_id, _n in busiest(club):
        player = Player.objects.get(pk=player_id)
        stored = selectors.player_figures(player=player, club=club)
        assert stored == selectors.player_stats(player=player, club=club), player_id
        history = selectors.player_history(club=club, player=player)
        latest = selectors.latest_games(club=club, player=player)
        assert [(g.game.pk, g.total, g.deals) for g in latest] == [
            (g.game.pk, g.total, g.deals) for g in history[::-1][: len(latest)]
        ], player_id
        assert len(latest) == min(len(history), selectors.GAMES_SHOWN), player_id
        cumulative, running = [], 0
        for item in history:
            running += item.total
            cumulative.append((item.game.date, running))  # every game here is tarot
        curve = selectors.score_curve(club=club, player=player)
        assert [(p.played_on, p.total) for p in curve] == cumulative[-len(curve) :], player_id
    return built + "the 10 busiest players' figures, games and curve: as read from their deals"


def measure(user: Any, club: Any, requests: int) -> dict[str, Any]:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(user)
    busy = busiest(club)
    board = f"/clubs/{club.slug}/leaderboard/"
    pages = [f"/clubs/{club.slug}/players/{pid}/" for pid, _n in busy]

    def timed(path: str, *, cold: bool) -> tuple[float, float, int]:
        if cold:
            cache.clear()
        with CaptureQueriesContext(connection) as queries:
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.get(path)
            elapsed = (time.perf_counter() - t0) * 1000
            cpu = (time.process_time() - c0) * 1000
        assert response.status_code == 200, (path, response.status_code)
        return elapsed, cpu, len(queries)

    for path in [board, *pages]:  # the first visit reads the rows from disk
        timed(path, cold=True)
    out: dict[str, Any] = {"busy_deals": busy[0][1] if busy else 0}
    for label, paths, cold in (
        ("board_cold", [board], True),
        ("board_warm", [board], False),
        ("player_cold", pages, True),
        ("player_warm", pages, False),
    ):
        times, cpus, counts = [], [], []
        if not cold:
            for path in paths:  # each page drawn once: every timed request is a cached one
                timed(path, cold=False)
        for i in range(requests):
            ms, cpu, n = timed(paths[i % len(paths)], cold=cold)
            times.append(ms)
            cpus.append(cpu)
            counts.append(n)
        out[label] = (percentile(times, 50), percentile(times, 95), max(counts))
        out[label + "_cpu"] = percentile(cpus, 50)
    out["load"] = os.getloadavg()[0]
    return out


def report(rows: list[dict[str, Any]]) -> None:
    def cell(r: dict[str, Any], label: str) -> str:
        p50, p95, _n = r[label]
        return f"{p50:.1f} / {p95:.1f} ms ({r[label + '_cpu']:.1f})"

    def verdict(r: dict[str, Any], label: str) -> str:
        return "met" if r[label][1] <= TARGET_MS else "missed"

    print(
        "\n| deals | players | busiest player's deals | leaderboard cold | leaderboard warm "
        "| player page cold | player page warm | queries cold (board / player) | load "
        "| 50 ms p95: board cold, warm; player cold, warm |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in sorted(rows, key=lambda r: r["deals"]):
        labels = ("board_cold", "board_warm", "player_cold", "player_warm")
        print(
            f"| {r['deals']:,} | {r['players']:,} | {r['busy_deals']:,} "
            + "".join(f"| {cell(r, label)} " for label in labels)
            + f"| {r['board_cold'][2]} / {r['player_cold'][2]} | {r['load']:.1f} "
            + f"| {', '.join(verdict(r, label) for label in labels)} |"
        )
    print(
        "\np50 / p95 wall time over the requests, (p50 of this process's CPU time); cold: the "
        "cache cleared before each request; load: the machine's 1-minute load average."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=5_000_000)
    parser.add_argument("--players", type=int, default=None, help="20,000 (2,000 with --quick)")
    parser.add_argument("--quick", action="store_true", help="100,000 deals, 2,000 players")
    parser.add_argument("--requests", type=int, default=60, help="requests per page")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--reuse", action="store_true", help="measure an existing database")
    parser.add_argument("--drop", action="store_true", help="drop the database at the end")
    args = parser.parse_args()
    if args.quick:
        args.deals = 100_000
    players = args.players or (2_000 if args.quick else 20_000)
    name = f"tarot_fed_{args.deals}"
    url = f"postgres://postgres@127.0.0.1:5432/{name}"
    if not args.reuse:
        url = bench_database("postgres", name)
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "tarot_scores.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "federation-bench",
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECURE_SSL_REDIRECT": "0",
            "DJANGO_LOG_LEVEL": "WARNING",
            "DJANGO_STATIC_ROOT": "/tmp/tarot-fed-static",
        }
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tarot_scores.models import Club
    from tarot_scores.ratings import services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG off: the manifest
    rng = random.Random(args.seed)
    if args.reuse:
        user = get_user_model().objects.get(username="fed")
        clubs = list(Club.objects.order_by("pk"))
    else:
        print(f"Generating {args.deals:,} deals for {players:,} players in {name}...", flush=True)
        made = generate(deals=args.deals, players=players, seed=args.seed, url=url)
        user, clubs = made["user"], made["clubs"]
        print(
            f"  COPY done in {made['copied_s']:.0f} s "
            f"({args.deals / made['copied_s']:,.0f} deals/s), {made['lines']:,} score lines; "
            f"with statistics and ANALYZE {made['loaded_s']:.0f} s",
            flush=True,
        )
        print("  check:", check_against_services(clubs[-1], rng), flush=True)
        t0 = time.monotonic()
        rated = services.ratings_rebuild(club=clubs[0])
        print(
            f"  ratings of the measured club rebuilt: {rated:,} deals in "
            f"{time.monotonic() - t0:.0f} s",
            flush=True,
        )
    club = clubs[0]
    print("  check:", figures_ready(club), flush=True)
    row = {"deals": args.deals, "players": players, "clubs": len(clubs)}
    row.update(measure(user, club, args.requests))
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[str(args.deals)] = row
    RESULTS.write_text(json.dumps(results))
    report(list(results.values()))
    if args.drop:
        from django.db import connections

        connections.close_all()
        import psycopg

        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
