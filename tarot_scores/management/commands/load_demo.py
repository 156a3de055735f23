"""Load a demo club (players, games, a tournament) so a fresh `make run` has something to show.

Stub for now: the demo data arrives with the club models.
"""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Load the demo club. With --if-empty, do nothing when the database already has data."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Only load when the database holds no club data yet.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write("no demo data yet")
