"""Load the demo club so a fresh ``make run`` has a living site to show."""

from argparse import ArgumentParser
from typing import Any

from tarot_scores.clubs.demo import DEMO_MEMBER, DEMO_PASSWORD, DEMO_USER
from tarot_scores.clubs.models import Club
from tarot_scores.games.demo import demo_load
from tarot_scores.management.base import ClubCommand


class Command(ClubCommand):
    help = "Load the demo club. With --if-empty, do nothing when the database already has clubs."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Only load when the database has no club yet."
        )
        parser.add_argument("--seed", type=int, default=1789, help="Seed of the demo's deals.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and Club.objects.exists():
            self.stdout.write("The database already has clubs: no demo loaded.")
            return
        club = demo_load(seed=options["seed"])
        self.stdout.write(
            f"Demo club loaded: {club.name} (/clubs/{club.slug}/). "
            f"Log in as {DEMO_USER!r} / {DEMO_PASSWORD!r} (organiser) "
            f"or {DEMO_MEMBER!r} / {DEMO_PASSWORD!r} (member)."
        )
