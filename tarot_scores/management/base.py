"""The base of the project's management commands: the arguments they share."""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tarot_scores.clubs.models import Club


class ClubCommand(BaseCommand):
    """A command that may be limited to one club with ``--club SLUG``."""

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--club", metavar="SLUG", help="Only this club (its short name).")

    def club_from(self, options: dict[str, Any]) -> Club | None:
        slug = options.get("club")
        if not slug:
            return None
        try:
            return Club.objects.get(slug=slug)
        except Club.DoesNotExist:
            raise CommandError(f"No club with the short name {slug!r}.") from None
