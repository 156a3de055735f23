"""Recompute the stored standings of tournaments from their seats and score lines."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import CommandError

from tarot_scores.management.base import ClubCommand
from tournaments.models import Tournament
from tournaments.standings.store import standings_rebuild


class Command(ClubCommand):
    help = (
        "Rebuild the stored tournament standings from the score lines "
        "(all tournaments, a club's with --club, or one with --tournament)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--tournament", type=int, metavar="ID", help="Only this tournament.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournaments = Tournament.objects.order_by("pk")
        club = self.club_from(options)
        if club is not None:
            tournaments = tournaments.filter(club=club)
        if options.get("tournament") is not None:
            tournaments = tournaments.filter(pk=options["tournament"])
            if not tournaments.exists():
                raise CommandError(f"No tournament with the id {options['tournament']}.")
        done = rows = 0
        for tournament in tournaments.iterator():
            rows += standings_rebuild(tournament=tournament)
            done += 1
        self.stdout.write(f"{rows} standings rows written for {done} tournaments.")
