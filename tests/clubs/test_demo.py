"""The demo club a fresh ``make run`` shows, and the commands around it."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import Sum

from tarot_scores.clubs.models import Club
from tarot_scores.games.models import Game, ScoreLine
from tarot_scores.stats.models import PlayerSeason

pytestmark = pytest.mark.django_db


def stats() -> set[tuple[object, ...]]:
    return set(
        PlayerSeason.objects.values_list(
            "player_id", "season", "table_size", "points", "deals", "taken", "taken_won"
        )
    )


def test_demo_is_a_living_club_and_loads_once() -> None:
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out)
    # Both demo logins, so that a visitor can see the site as an organiser and as a member.
    assert "'demo' / 'demo' (organiser) or 'bruno' / 'demo' (member)" in out.getvalue()
    club = Club.objects.get()
    assert club.players.count() == 12
    games = Game.objects.filter(club=club)
    sizes = {g.seats.count() for g in games.filter(status=Game.Status.FINISHED)}
    assert sizes == {3, 4, 5}
    assert games.filter(status=Game.Status.OPEN).count() == 1
    assert ScoreLine.objects.aggregate(total=Sum("points"))["total"] == 0
    call_command("load_demo", "--if-empty", stdout=StringIO())
    assert Club.objects.count() == 1


def test_rebuild_stats_matches_what_entry_kept() -> None:
    call_command("load_demo", stdout=StringIO())
    kept = stats()
    out = StringIO()
    call_command("rebuild_stats", "--club", Club.objects.get().slug, stdout=out)
    assert "statistics rows written" in out.getvalue()
    assert stats() == kept


def test_rebuild_stats_refuses_an_unknown_club() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("rebuild_stats", "--club", "nope")
