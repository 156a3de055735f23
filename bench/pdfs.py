"""How long the heavy PDFs take to draw at their largest: a 1,000-player tournament's table
sheets (250 tables, one page each with its QR code) and its standings (1,000 lines, 6 rounds),
and a season report of a big club (300 players ranked).

Run: ``cd bench && ../.venv/bin/python pdfs.py [--players 1000] [--repeat 3] [--only standings]``.
``--standings-sizes 100,200,300,500`` also times the standings at those field sizes: where the
site stops drawing them in the request (``tournaments.views.results.STANDINGS_PDF_IN_REQUEST``).

The drawing functions are the site's own (``tournaments.printing.pdf``, ``stats.report``), fed with
data of that size made in memory: the database reads before them are measured by the pages' own
benchmarks. Prints the best of ``--repeat`` runs of each, in ms, with its ratio to the 300 ms
a request may spend (docs/performance.md, "Heavy PDFs").
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tarot_scores.settings")

import django  # noqa: E402

django.setup()

from django.utils import translation  # noqa: E402

from tarot_scores.clubs.models import Club, Player  # noqa: E402
from tarot_scores.ratings.selectors import Ranking, RatedPlayer  # noqa: E402
from tarot_scores.stats import report  # noqa: E402
from tarot_scores.stats.records import BestDeal, BestEvening, ClubRecords, WinningRun  # noqa: E402
from tarot_scores.stats.selectors import LeaderRow  # noqa: E402
from tournaments.models import Tournament  # noqa: E402
from tournaments.printing import pdf  # noqa: E402
from tournaments.ranking import StandingRow  # noqa: E402

BUDGET_MS = 300.0
DAY = datetime.date(2026, 5, 9)


def best_of(repeat: int, draw: Callable[[], bytes]) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(repeat):
        start = time.perf_counter()
        size = len(draw())
        times.append((time.perf_counter() - start) * 1000)
    return min(times), size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--club-players", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="draw only the documents whose label has this")
    parser.add_argument("--standings-sizes", default="", help="e.g. 100,200,300,500")
    args = parser.parse_args()
    translation.activate("fr")
    rng = random.Random(1)
    club = Club(name="Festival national de tarot")
    tournament = Tournament(
        club=club, name="Festival", date=DAY, rounds=args.rounds, deals_per_round=6
    )
    players = [Player(pk=n + 1, name=f"Joueur {n + 1:04d}") for n in range(args.players)]
    tables = [
        pdf.SheetTable(
            number=t + 1,
            players=[p.name for p in players[4 * t : 4 * t + 4]],
            entry_url=f"https://scores.example.org/t/{rng.getrandbits(128):032x}/",
        )
        for t in range(args.players // 4)
    ]
    rows = [
        StandingRow(
            rank=n + 1,
            player=player,
            total=rng.randint(-2000, 2000),
            rounds=[rng.randint(-400, 400) for _ in range(args.rounds)],
        )
        for n, player in enumerate(players)
    ]
    names = [f"Séance {r + 1}" for r in range(args.rounds)]
    ranked = [
        RatedPlayer(n + 1, n + 1, f"Joueur {n + 1}", 30 - n / 20, 2.0, 40 + n)
        for n in range(args.club_players)
    ]
    season = report.SeasonReport(
        club_name="Club de Tarot de la Butte",
        season="2025–2026",
        ranking=Ranking(ranked=ranked, unranked=[]),
        min_deals=20,
        board=[
            LeaderRow(n + 1, n + 1, f"Joueur {n + 1}", 5000 - 10 * n, 200, 50, 30)
            for n in range(args.club_players)
        ],
        records=ClubRecords(
            best_deal=BestDeal(1, "Joueur 1", 960, 1, DAY, 3),
            best_evening=BestEvening(2, "Joueur 2", 1480, DAY, 24),
            longest_run=WinningRun(3, "Joueur 3", 11, DAY, DAY),
        ),
    )
    drawings = {
        f"table sheets, {len(tables)} tables": lambda: pdf.render_table_sheets(
            tournament=tournament, round_name="Séance 1", tables=tables
        ),
        f"standings, {len(rows)} players x {args.rounds} rounds": lambda: pdf.render_standings(
            tournament=tournament, rows=rows, round_names=names
        ),
        f"season report, {args.club_players} players": lambda: report.render_season_report(season),
    }
    for size in (int(n) for n in args.standings_sizes.split(",") if n):
        drawings[f"standings, {size} players x {args.rounds} rounds"] = lambda size=size: (
            pdf.render_standings(tournament=tournament, rows=rows[:size], round_names=names)
        )
    drawings = {label: draw for label, draw in drawings.items() if args.only in label}
    print(f"best of {args.repeat}; budget {BUDGET_MS:.0f} ms a request")
    for label, draw in drawings.items():
        ms, size = best_of(args.repeat, draw)
        print(f"{label:45s} {ms:8.0f} ms  {size / 1024:7.0f} KiB  x{ms / BUDGET_MS:.2f} of budget")


if __name__ == "__main__":
    main()
