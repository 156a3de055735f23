"""A page of the standings read with the database doing the paging is exactly that page of the
whole ranking: the same players in the same order with the same ranks, ties and names (accents,
capitals, nicknames) included; and it costs two queries whatever the number of players."""

from __future__ import annotations

import random

import pytest

from tarot_scores.clubs.models import Player
from tests.factories import ClubFactory, make_tournament
from tournaments.models import Entry, Standing, Team, Tournament
from tournaments.registration import services as registration_services
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors

pytestmark = pytest.mark.django_db

# Names the casefold orders otherwise than a byte or a database collation would.
NAMES = ["émile", "Emile", "Zoé", "zoe", "Straße", "STRASSE", "Ådne", "adne", "Ölaf", "olaf"]


def seated(players: int) -> Tournament:
    tournament = make_tournament(ClubFactory.create(), 0, name="Festival", rounds=3)
    for n in range(players):
        registration_services.entry_add(
            tournament=tournament, name=f"Joueur {n + 1:03d}", checked_in=True
        )
    round_services.round_seat_next(tournament=tournament, by=None)
    return tournament


def scramble(tournament: Tournament, rng: random.Random) -> None:
    """Stored standings with many ties (few distinct totals and rounds) and tricky names."""
    team = Team.objects.create(tournament=tournament, name="Les Excuses")
    for standing in Standing.objects.filter(tournament=tournament).select_related("entry"):
        rounds = {str(n): rng.choice([-66, 0, 66]) for n in (1, 2) if rng.random() < 0.9}
        played = list(rounds.values())
        Standing.objects.filter(pk=standing.pk).update(
            rounds=rounds,
            total=sum(played),
            best_round=max(played, default=0),
            last_round=played[-1] if played else 0,
            penalties=rng.choice([0, 0, 0, 5]),
        )
        Player.objects.filter(pk=standing.player_id).update(
            name=rng.choice(NAMES) + rng.choice(["", " A", " a"]),
            nickname=rng.choice(["", "", rng.choice(NAMES)]),
        )
        Entry.objects.filter(pk=standing.entry_id).update(
            series=rng.choice(["", "s1", "s2"]), team=team if rng.random() < 0.2 else None
        )


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_page_is_that_page_of_the_whole_ranking(seed: int) -> None:
    tournament = seated(36)
    scramble(tournament, random.Random(seed))
    for series in ("", "s1"):
        whole = standings_selectors.standings_for(tournament=tournament, series=series)
        assert len({r.rank for r in whole}) < len(whole)  # ties, so the names decide
        for size in (1, 3, 7, 50):
            for first in range(0, len(whole) + 2):
                page = standings_selectors.standings_slice(
                    tournament=tournament, series=series, first=first, size=size
                )
                assert page == whole[first : first + size], (series, size, first)


def test_the_summary_says_what_the_whole_ranking_holds() -> None:
    tournament = seated(12)
    summary = standings_selectors.standings_summary(tournament=tournament)
    assert summary == standings_selectors.StandingsSummary(12, has_teams=False, has_penalties=False)
    scramble(tournament, random.Random(5))
    rows = standings_selectors.standings_for(tournament=tournament, series="s2")
    assert standings_selectors.standings_summary(tournament=tournament, series="s2") == (
        standings_selectors.StandingsSummary(
            len(rows), any(r.team for r in rows), any(r.penalties for r in rows)
        )
    )


@pytest.mark.parametrize("players", [12, 120])
def test_a_page_costs_two_queries_whatever_the_field(
    players: int, django_assert_max_num_queries: object
) -> None:
    tournament = seated(players)
    with django_assert_max_num_queries(2):  # type: ignore[operator]
        page = standings_selectors.standings_slice(tournament=tournament, first=8, size=4)
    assert len(page) == 4
