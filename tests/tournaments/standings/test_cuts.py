"""Championships with cuts: after a closed round only the best go on; the others are ranked
below them, "eliminated after round k". The line (counts, shares, ties), the carry rule on the
totals, several cuts in sequence, seating after a cut, the refusals, who may cut, the pages,
the CSV, the PDF and the API, and a championship of three sessions from registration to the
printed standings."""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from tarot_scores.clubs.models import Club
from tarot_scores.core.errors import Refusal
from tests import factories
from tests.api.helpers import messages_of
from tests.tournaments.printing.test_pdf import read, streamed
from tournaments import ranking
from tournaments import rules as tournament_rules
from tournaments.errors import CutRefused
from tournaments.models import Cut, Entry, Round, Standing, Tournament
from tournaments.people import services as people
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.standings import cuts
from tournaments.standings import selectors as standings_selectors
from tournaments.standings.store import standings_rebuild

pytestmark = pytest.mark.django_db

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


# --- a field of stored standings ------------------------------------------------------------
#
# The cut reads the stored standings (``Standing``: points per round), so most cases build them
# directly: players named A, B, C... with their points in each closed round.


@dataclass
class Field:
    tournament: Tournament
    organiser: User
    referee: User
    member: User

    def names(self, rows: Sequence[ranking.StandingRow]) -> str:
        return "".join(r.player.name for r in rows)

    def standings(self) -> list[ranking.StandingRow]:
        return standings_selectors.standings_for(tournament=self.tournament)


def field_of(cells: dict[str, list[int]], *, rounds: int = 4, closed: int | None = None) -> Field:
    """Players (named by their keys) with these points in rounds 1, 2...; those rounds exist,
    closed (all but the last when ``closed`` says how many are)."""
    club = factories.ClubFactory.create()
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    referee = factories.UserFactory.create(username="rita")
    member = factories.UserFactory.create(username="marc")
    factories.MembershipFactory.create(club=club, user=member, role="member")
    tournament = registration_services.tournament_create(
        club=club, name="Championnat", by=organiser, rounds=rounds, deals_per_round=1
    )
    tournament.referees.add(referee)
    played = max(len(v) for v in cells.values())
    closed = played if closed is None else closed
    for number in range(1, played + 1):
        status = Round.Status.CLOSED if number <= closed else Round.Status.PLAYING
        Round.objects.create(tournament=tournament, number=number, status=status)
    for name, points in cells.items():
        entry = registration_services.entry_add(tournament=tournament, name=name, checked_in=True)
        row = Standing(tournament=tournament, entry=entry, player=entry.player)
        per_round = {str(n): p for n, p in enumerate(points, start=1)}
        row.rounds = per_round
        row.total = sum(points)
        row.best_round = max(points)
        row.last_round = points[-1]
        row.save()
    return Field(tournament, organiser, referee, member)


def add_round(f: Field, cells: dict[str, int]) -> None:
    """The next round, closed, with these players' points (the players still in)."""
    number = tournament_rules.next_round_number(f.tournament)
    Round.objects.create(tournament=f.tournament, number=number, status=Round.Status.CLOSED)
    for name, points in cells.items():
        row = Standing.objects.get(tournament=f.tournament, player__name=name)
        row.rounds = {**row.rounds, str(number): points}
        values = list(row.rounds.values())
        row.total, row.best_round, row.last_round = sum(values), max(values), values[-1]
        row.save()


def confirm(f: Field, after: int, **asked: Any) -> Cut:
    return cuts.cut_confirm(tournament=f.tournament, after_round=after, by=f.organiser, **asked)


EIGHT = {n: [p] for n, p in zip("ABCDEFGH", [80, 70, 60, 50, 40, 30, 20, 10], strict=True)}


# --- the line ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "qualified", "out"),
    [
        ({"keep": 4}, "ABCD", "EFGH"),
        ({"keep": 1}, "A", "BCDEFGH"),
        ({"keep": 7}, "ABCDEFG", "H"),
        ({"share": 50}, "ABCD", "EFGH"),
        ({"share": 30}, "ABC", "DEFGH"),  # 2.4 places: rounded up to 3
        ({"share": 1}, "A", "BCDEFGH"),  # 0.08 of a place: rounded up to 1
        ({"share": 87}, "ABCDEFG", "H"),  # 6.96 places: 7
    ],
)
def test_the_line_falls_after_the_places_asked(
    asked: dict[str, Any], qualified: str, out: str
) -> None:
    f = field_of(EIGHT)
    preview = cuts.cut_preview(tournament=f.tournament, after_round=1, **asked)
    assert f.names(preview.qualified) == qualified
    assert f.names(preview.eliminated) == out
    assert preview.keep == len(qualified) == preview.asked and preview.tied == 0


@pytest.mark.parametrize(
    ("field", "share", "places"),
    [(496, 50, 248), (25, 50, 13), (24, 50, 12), (7, 33, 3), (244, 43, 105), (10, 99, 10)],
)
def test_a_share_is_rounded_up(field: int, share: int, places: int) -> None:
    assert cuts.keep_for_share(field, share) == places


@pytest.mark.parametrize(
    ("ranks", "asked", "kept"),
    [
        ([1, 2, 3, 4, 5], 2, 2),
        ([1, 2, 2, 4, 5], 2, 3),  # a full tie across the line: both go through
        ([1, 2, 2, 2, 5], 3, 4),
        ([1, 1, 1, 1, 5], 1, 4),
        ([1, 2, 3, 3, 5], 2, 2),  # a tie below the line changes nothing
        ([1, 2, 3], 0, 0),
    ],
)
def test_players_tied_at_the_line_all_go_through(ranks: list[int], asked: int, kept: int) -> None:
    assert cuts.places_kept(ranks, asked) == kept


def test_the_tie_breaks_decide_at_the_line_before_a_full_tie_keeps_both() -> None:
    # B and C have 100 each: C's better best round puts her through, B is cut. D and E are
    # equal on the total, the best and the last round: a cut between them keeps both.
    f = field_of({"A": [90, 90], "B": [50, 50], "C": [30, 70], "D": [40, 20], "E": [40, 20]})
    preview = cuts.cut_preview(tournament=f.tournament, after_round=2, keep=2)
    assert f.names(preview.qualified) == "AC"
    preview = cuts.cut_preview(tournament=f.tournament, after_round=2, keep=3)
    assert f.names(preview.qualified) == "ACB" and preview.tied == 0
    with pytest.raises(Refusal) as refused:  # D and E tied at the line: all five would stay
        cuts.cut_preview(tournament=f.tournament, after_round=2, keep=4)
    assert refused.value.codes() == {"keep": ["all_tied"]}


def test_a_tie_at_the_line_keeps_more_than_asked_and_the_preview_says_so() -> None:
    f = field_of({"A": [90], "B": [50], "C": [50], "D": [10]})
    preview = cuts.cut_preview(tournament=f.tournament, after_round=1, keep=2)
    assert (preview.asked, preview.keep, preview.tied) == (2, 3, 1)
    assert f.names(preview.eliminated) == "D"
    page = factories.signed_in_client(f.organiser).get(
        reverse("tournaments:cut", args=[f.tournament.pk, 1]) + "?keep=2&carry=on&preview=1",
        headers={"Accept-Language": "en"},
    )
    assert "1 more player goes through, tied at the line" in page.content.decode()
    made = confirm(f, 1, keep=2)
    assert (made.asked_count, made.keep, made.field_size) == (2, 3, 4)


# --- the carry rule and the standings after cuts -------------------------------------------


@pytest.mark.parametrize(
    ("carry", "totals"),
    [
        (True, {"A": 110, "B": 130, "C": 70, "D": 35}),
        (False, {"A": 30, "B": 60, "C": 10, "D": 5}),
    ],
)
def test_carried_or_not_the_totals_of_the_qualified(carry: bool, totals: dict[str, int]) -> None:
    f = field_of({"A": [80], "B": [70], "C": [60], "D": [30], "E": [20], "F": [10]})
    confirm(f, 1, keep=4, carry=carry)
    add_round(f, {"A": 30, "B": 60, "C": 10, "D": 5})
    rows = f.standings()
    assert {r.player.name: r.total for r in rows[:4]} == totals
    assert all(r.counted_from == (1 if carry else 2) for r in rows[:4])
    # The cut are ranked below, with their totals at the cut, in their order there.
    assert [(r.player.name, r.total, r.eliminated_after, r.rank) for r in rows[4:]] == [
        ("E", 20, 1, 5),
        ("F", 10, 1, 6),
    ]


def test_the_worked_example_of_the_docs() -> None:
    """docs/tournaments.md, "Championships: sessions and cuts": 8 players, a cut to half after
    round 1 with the scores carried over, then to 2 after round 2, scores restarting."""
    f = field_of(
        {
            "Aurélie": [120],
            "Bruno": [90],
            "Chloé": [60],
            "Denis": [30],
            "Émile": [0],
            "Fanny": [-30],
            "Gaston": [-60],
            "Hélène": [-90],
        }
    )
    first = confirm(f, 1, share=50, carry=True)
    assert first.keep == 4
    add_round(f, {"Aurélie": -40, "Bruno": 10, "Chloé": 80, "Denis": 20})
    rows = f.standings()
    assert [(r.rank, r.player.name, r.total) for r in rows[:4]] == [
        (1, "Chloé", 140),
        (2, "Bruno", 100),
        (3, "Aurélie", 80),
        (4, "Denis", 50),
    ]
    second = confirm(f, 2, keep=2, carry=False)
    assert second.keep == 2
    add_round(f, {"Chloé": -10, "Bruno": 30})
    rows = f.standings()
    assert [(r.rank, r.player.name, r.total, r.eliminated_after) for r in rows] == [
        (1, "Bruno", 30, None),
        (2, "Chloé", -10, None),
        (3, "Aurélie", 80, 2),
        (4, "Denis", 50, 2),
        (5, "Émile", 0, 1),
        (6, "Fanny", -30, 1),
        (7, "Gaston", -60, 1),
        (8, "Hélène", -90, 1),
    ]


def test_the_worked_example_with_the_scores_carried_over_at_the_second_cut() -> None:
    f = field_of({"Aurélie": [120], "Bruno": [90], "Chloé": [60], "Denis": [30], "Émile": [0]})
    confirm(f, 1, keep=4)
    add_round(f, {"Aurélie": -40, "Bruno": 10, "Chloé": 80, "Denis": 20})
    confirm(f, 2, keep=2, carry=True)
    add_round(f, {"Chloé": -10, "Bruno": 30})
    rows = f.standings()
    assert [(r.rank, r.player.name, r.total) for r in rows[:2]] == [
        (1, "Bruno", 130),
        (2, "Chloé", 130),
    ]


def test_the_cut_are_ranked_in_their_order_at_the_cut_whatever_they_had_before() -> None:
    # E led after round 1 and was cut after round 2 with -100; A was cut after round 1 with
    # 10: E, cut later, still ranks above A.
    f = field_of({"A": [10], "B": [20], "C": [30], "D": [5], "E": [200]})
    confirm(f, 1, keep=3)  # E 200, C 30, B 20 go through; A and D are cut
    add_round(f, {"E": -300, "B": 80, "C": 5})
    confirm(f, 2, keep=2)  # B 100, C 35 stay; E -100 is cut
    names = [(r.player.name, r.eliminated_after) for r in f.standings()]
    assert names == [("B", None), ("C", None), ("E", 2), ("A", 1), ("D", 1)]


def test_four_sessions_as_the_2024_championship_496_244_104_52() -> None:
    rng = random.Random(2024)
    names = [f"J{n:03d}" for n in range(496)]
    f = field_of({n: [rng.randrange(-500, 500)] for n in names}, rounds=4)
    made = [confirm(f, 1, keep=244)]
    add_round(f, {r.player.name: rng.randrange(-500, 500) for r in f.standings()[:244]})
    made.append(confirm(f, 2, keep=104, carry=False))
    add_round(f, {r.player.name: rng.randrange(-500, 500) for r in f.standings()[:104]})
    made.append(confirm(f, 3, keep=52))
    add_round(f, {r.player.name: rng.randrange(-500, 500) for r in f.standings()[:52]})
    rows = f.standings()
    groups = [sum(1 for r in rows if r.eliminated_after == k) for k in (None, 3, 2, 1)]
    assert [c.keep for c in made] == [244, 104, 52] and groups == [52, 52, 140, 252]
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    # The last 52 count rounds 3 and 4 (the cut after round 2 restarted the scores).
    finalists = rows[:52]
    assert all(r.total == (r.rounds[2] or 0) + (r.rounds[3] or 0) for r in finalists)
    assert [r.total for r in finalists] == sorted((r.total for r in finalists), reverse=True)


# --- seating after a cut -----------------------------------------------------------------------


def play_round(tournament: Tournament, seed: int) -> Round:
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    factories.play(round_, seed=seed)  # its last deal closes it
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    return round_


def championship(players: int, rounds: int = 3) -> tuple[Tournament, User]:
    """A club's championship with ``players`` registered and checked in, none played yet."""
    club = factories.ClubFactory.create(name="Ligue du Rhône")
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    tournament = registration_services.tournament_create(
        club=club,
        name="Championnat du Rhône",
        by=organiser,
        rounds=rounds,
        deals_per_round=2,
        seating_method=Tournament.Seating.RANDOM,
        seed=11,
    )
    registration_services.entries_register(
        tournament=tournament,
        names=[f"Joueur {n:02d}" for n in range(1, players + 1)],
        checked_in=True,
    )
    return tournament, organiser


def test_the_next_round_seats_only_the_qualified() -> None:
    tournament, organiser = championship(16)
    play_round(tournament, 1)
    made = cuts.cut_confirm(tournament=tournament, after_round=1, keep=8, by=organiser)
    qualified = {
        r.player.pk for r in standings_selectors.standings_for(tournament=tournament)[: made.keep]
    }
    round_ = round_services.round_seat_next(tournament=tournament, by=organiser)
    seated = {p.pk for s in round_selectors.round_tables(round_=round_) for p in s.players}
    assert seated == qualified and len(seated) == made.keep
    assert set(tournament_rules.players_for(tournament, 2)) == qualified
    entries = Entry.objects.filter(tournament=tournament)
    assert all(e.cut_after == 1 for e in entries if e.player_id not in qualified)


def test_the_table_plan_leaves_out_a_player_registered_after_the_cut(client: Any) -> None:
    """The registration page's table plan counts the players the next round will seat: a player
    registered (and checked in) after a cut was never in its field, so he is not among them."""
    tournament, organiser = championship(16)
    play_round(tournament, 1)
    made = cuts.cut_confirm(tournament=tournament, after_round=1, keep=8, by=organiser)
    registration_services.entry_add(tournament=tournament, name="Arrivé Tard", checked_in=True)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:registration", args=[tournament.pk]))
    assert f'id="plan-words" data-players="{made.keep}"' in page.content.decode()
    round_ = round_services.round_seat_next(tournament=tournament, by=organiser)
    seated = [p for s in round_selectors.round_tables(round_=round_) for p in s.players]
    assert len(seated) == made.keep
    assert "Arrivé Tard" not in {p.name for p in seated}


def test_a_cut_leaves_the_substitutes_entries_alone() -> None:
    tournament, organiser = championship(8)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    factories.play(round_, seed=1, deals=1)
    replaced = Entry.objects.filter(tournament=tournament).order_by("player_id").first()
    assert replaced is not None
    done = people.substitute_seat(
        round_=round_, replaced=replaced, name="Zoé Remplaçante", by=organiser
    )
    factories.play(round_, seed=2)
    cuts.cut_confirm(tournament=tournament, after_round=1, keep=4, by=organiser)
    substitute = Entry.objects.get(pk=done.substitute.pk)
    assert substitute.cut_after is None  # a substitute is never in the field, nor cut from it
    (row,) = standings_selectors.standings_for(tournament=tournament, substitutes=True)
    assert row.eliminated_after is None


def test_a_player_registered_after_a_cut_is_not_seated() -> None:
    tournament, organiser = championship(8)
    play_round(tournament, 1)
    made = cuts.cut_confirm(tournament=tournament, after_round=1, keep=4, by=organiser)
    late = registration_services.entry_add(
        tournament=tournament, name="Retardataire", checked_in=True
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=organiser)
    seated = {p.pk for s in round_selectors.round_tables(round_=round_) for p in s.players}
    assert len(seated) == made.keep and late.player_id not in seated


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "codes"),
    [
        ({}, {"keep": ["required"]}),
        ({"keep": 0}, {"keep": ["too_few"]}),
        ({"keep": -3}, {"keep": ["too_few"]}),
        ({"keep": 8}, {"keep": ["whole_field"]}),
        ({"keep": 9}, {"keep": ["whole_field"]}),
        ({"share": 0}, {"share": ["out_of_range"]}),
        ({"share": 100}, {"share": ["out_of_range"]}),
        ({"share": 95}, {"share": ["whole_field"]}),  # 7.6 places: 8, the whole field
        ({"keep": 3, "share": 50}, {"share": ["both"]}),
    ],
)
def test_a_request_out_of_range_is_refused_on_its_field(
    asked: dict[str, int], codes: dict[str, list[str]]
) -> None:
    f = field_of(EIGHT)
    with pytest.raises(Refusal) as refused:
        confirm(f, 1, **asked)
    assert refused.value.codes() == codes
    assert not Cut.objects.exists() and not Entry.objects.filter(cut_after__isnull=False).exists()


def test_the_state_refuses_a_cut_at_the_wrong_time() -> None:
    f = field_of({n: [p, p] for n, [p] in EIGHT.items()}, rounds=3, closed=1)
    cases = [
        (2, "round_open"),  # round 2 is still being played
        (1, "next_seated"),  # round 2 is seated: too late for a cut after round 1
        (7, "unknown_round"),
    ]
    for after, code in cases:
        with pytest.raises(CutRefused) as refused:
            confirm(f, after, keep=4)
        assert refused.value.codes() == {"non_field_errors": [code]}, after
    Round.objects.filter(tournament=f.tournament, number=2).update(status=Round.Status.CLOSED)
    confirm(f, 2, keep=4)
    with pytest.raises(CutRefused) as refused:
        confirm(f, 2, keep=2)
    assert refused.value.codes() == {"non_field_errors": ["already_cut"]}
    add_round(f, {"A": 1, "B": 1, "C": 1, "D": 1})
    with pytest.raises(CutRefused) as refused:  # round 3 of 3: nothing follows it
        confirm(f, 3, keep=2)
    assert refused.value.codes() == {"non_field_errors": ["last_round"]}


def test_a_knockout_has_no_cuts() -> None:
    f = field_of(EIGHT)
    Tournament.objects.filter(pk=f.tournament.pk).update(format=Tournament.Format.KNOCKOUT)
    f.tournament.refresh_from_db()
    with pytest.raises(CutRefused) as refused:
        confirm(f, 1, keep=4)
    assert refused.value.codes() == {"non_field_errors": ["not_rounds"]}


def test_a_withdrawn_player_is_not_in_the_field_and_does_not_go_through() -> None:
    f = field_of(EIGHT)
    entry = Entry.objects.get(tournament=f.tournament, player__name="A")
    registration_services.entry_withdraw(entry=entry)
    preview = cuts.cut_preview(tournament=f.tournament, after_round=1, keep=4)
    assert f.names(preview.field) == "BCDEFGH" and f.names(preview.qualified) == "BCDE"
    confirm(f, 1, keep=4)
    entry.refresh_from_db()
    assert entry.cut_after == 1


# --- undo --------------------------------------------------------------------------------------


def test_a_cut_is_undone_until_the_next_round_is_seated_and_stays_in_the_history() -> None:
    f = field_of(EIGHT)
    made = confirm(f, 1, keep=4)
    undone = cuts.cut_undo(tournament=f.tournament, after_round=1, by=f.referee)
    assert undone.pk == made.pk and undone.undone_by == f.referee and undone.undone_at
    assert not Entry.objects.filter(tournament=f.tournament, cut_after__isnull=False).exists()
    assert all(r.eliminated_after is None for r in f.standings())
    again = confirm(f, 1, share=25, carry=False)
    assert [(c.pk, c.live) for c in cuts.cuts_history(tournament=f.tournament)] == [
        (made.pk, False),
        (again.pk, True),
    ]
    Round.objects.create(tournament=f.tournament, number=2)
    with pytest.raises(CutRefused) as refused:
        cuts.cut_undo(tournament=f.tournament, after_round=1, by=f.organiser)
    assert refused.value.codes() == {"non_field_errors": ["next_seated"]}
    with pytest.raises(CutRefused):
        cuts.cut_undo(tournament=f.tournament, after_round=2, by=f.organiser)


# --- who may cut -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("organiser", True), ("referee", True), ("member", False), ("nobody", False)],
)
def test_only_organisers_and_referees_cut_and_undo(who: str, allowed: bool) -> None:
    f = field_of(EIGHT)
    by = {"organiser": f.organiser, "referee": f.referee, "member": f.member, "nobody": None}[who]
    if not allowed:
        with pytest.raises(PermissionDenied):
            cuts.cut_confirm(tournament=f.tournament, after_round=1, keep=4, by=by)
        assert not Cut.objects.exists()
        confirm(f, 1, keep=4)
        with pytest.raises(PermissionDenied):
            cuts.cut_undo(tournament=f.tournament, after_round=1, by=by)
        assert Cut.objects.get().live
        return
    made = cuts.cut_confirm(tournament=f.tournament, after_round=1, keep=4, by=by)
    assert made.confirmed_by == by and made.confirmed_at <= timezone.now()
    cuts.cut_undo(tournament=f.tournament, after_round=1, by=by)


def test_a_cut_and_its_undoing_bump_the_results_version() -> None:
    f = field_of(EIGHT)

    def version() -> int:
        return Club.objects.get(pk=f.tournament.club_id).stats_version

    before = version()
    confirm(f, 1, keep=4)
    assert version() == before + 1
    cuts.cut_undo(tournament=f.tournament, after_round=1, by=f.organiser)
    assert version() == before + 2


# --- the page ----------------------------------------------------------------------------------


def cut_url(f: Field, after: int = 1) -> str:
    return reverse("tournaments:cut", args=[f.tournament.pk, after])


EN = {"Accept-Language": "en"}


@pytest.mark.parametrize(
    ("lang", "keep", "sentences"),
    [
        (
            "en",
            1,
            [
                "1 of 8 players goes through. 7 players are eliminated.",
                "— the cut line: 1 player above —",
            ],
        ),
        (
            "en",
            7,
            [
                "7 of 8 players go through. 1 player is eliminated.",
                "— the cut line: 7 players above —",
            ],
        ),
        (
            "fr",
            1,
            [
                "1 joueur sur 8 est qualifié. 7 joueurs sont éliminés.",
                "— la ligne de coupure : 1 joueur au-dessus —",
            ],
        ),
        (
            "fr",
            7,
            [
                "7 joueurs sur 8 sont qualifiés. 1 joueur est éliminé.",
                "— la ligne de coupure : 7 joueurs au-dessus —",
            ],
        ),
    ],
)
def test_the_cut_pages_counts_read_right_for_one_player(
    lang: str, keep: int, sentences: list[str]
) -> None:
    f = field_of(EIGHT)
    client = factories.signed_in_client(f.referee)
    lang_header = {"Accept-Language": lang}
    page = client.get(cut_url(f) + f"?preview=1&keep={keep}&carry=on", headers=lang_header)
    html = page.content.decode()
    for sentence in sentences:
        assert sentence in html
    client.post(cut_url(f), {"keep": str(keep), "carry": "on"})
    html = client.get(cut_url(f), headers=lang_header).content.decode()
    assert sentences[0].split(". ")[0] + "." in html


def test_the_page_previews_the_line_then_confirms_and_undoes_the_cut(
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    f = field_of(EIGHT)
    client = factories.signed_in_client(f.referee)
    with django_assert_max_num_queries(14):
        page = client.get(cut_url(f), headers=EN)
    assert page.status_code == 200 and 'name="keep"' in page.content.decode()
    with django_assert_max_num_queries(18):
        page = client.get(cut_url(f) + "?preview=1&keep=3&carry=on", headers=EN)
    html = page.content.decode()
    assert page.status_code == 200
    assert "3 of 8 players go through. 5 players are eliminated." in html
    # The line is drawn after C: A, B, C above it, D to H below.
    line = html.index('id="cut-line"')
    assert html.index(">C</th>") < line < html.index(">D</th>")
    assert not Cut.objects.exists()  # a preview stores nothing

    sent = client.post(cut_url(f), {"keep": "3", "carry": "on"}, headers=EN)
    assert sent.status_code == 302 and sent["Location"] == cut_url(f)
    made = Cut.objects.get()
    assert (made.keep, made.carry, made.confirmed_by) == (3, True, f.referee)
    html = client.get(cut_url(f), headers=EN).content.decode()
    assert "3 of 8 players go through." in html and "Undo the cut" in html

    client.post(cut_url(f), {"action": "undo"})
    made.refresh_from_db()
    assert not made.live
    html = client.get(cut_url(f), headers=EN).content.decode()
    assert "Cuts undone" in html and 'name="keep"' in html


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("share=150", "share", "A share is a whole percentage from 1 to 99."),
        ("keep=8", "keep", "Only 8 players are still in: fewer than that go through."),
        ("keep=0", "keep", "At least one player goes through."),
        ("keep=abc", "keep", "Enter a whole number."),
        ("", "keep", "Give the number of players who go through, or a share of the field."),
    ],
)
def test_a_wrong_request_shows_its_error_beside_its_field(
    query: str, field: str, message: str
) -> None:
    f = field_of(EIGHT)
    client = factories.signed_in_client(f.organiser)
    page = client.get(cut_url(f) + f"?preview=1&{query}", headers=EN)
    assert page.status_code == 400
    html = page.content.decode()
    box = html[html.index(f'id="id_{field}"') - 600 : html.index(f'id="id_{field}"') + 600]
    assert message in box and "field-invalid" in box
    sent = client.post(cut_url(f), dict([query.split("=")]) if query else {}, headers=EN)
    assert sent.status_code == 400 and message in sent.content.decode()
    assert not Cut.objects.exists()


def test_the_page_says_why_no_cut_can_be_made_now() -> None:
    f = field_of({n: [p, p] for n, [p] in EIGHT.items()}, closed=1)
    html = factories.signed_in_client(f.organiser).get(cut_url(f, 2), headers=EN)
    assert "Round 2 is not closed yet" in html.content.decode()
    sent = factories.signed_in_client(f.organiser).post(cut_url(f, 2), {"keep": "4"})
    assert sent.status_code == 302 and not Cut.objects.exists()


def test_members_and_visitors_do_not_reach_the_page() -> None:
    f = field_of(EIGHT)
    assert factories.signed_in_client(f.member).get(cut_url(f)).status_code == 403
    assert factories.signed_in_client(f.member).post(cut_url(f), {"keep": 4}).status_code == 403
    anonymous = factories.signed_in_client(None).get(cut_url(f))
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    assert not Cut.objects.exists()


def test_the_round_and_tournament_pages_link_to_the_cut_once_the_round_is_closed() -> None:
    f = field_of({n: [p, p] for n, [p] in EIGHT.items()}, closed=1)
    client = factories.signed_in_client(f.organiser)
    round_2 = reverse("tournaments:round", args=[f.tournament.pk, 2])
    detail = reverse("tournaments:detail", args=[f.tournament.pk])
    assert cut_url(f, 2) not in client.get(round_2).content.decode()
    assert cut_url(f, 2) not in client.get(detail).content.decode()
    Round.objects.filter(tournament=f.tournament, number=2).update(status=Round.Status.CLOSED)
    assert cut_url(f, 2) in client.get(round_2).content.decode()
    assert cut_url(f, 2) in client.get(detail).content.decode()
    referee = factories.signed_in_client(f.referee).get(detail).content.decode()
    assert cut_url(f, 2) in referee
    assert cut_url(f, 2) not in factories.signed_in_client(f.member).get(detail).content.decode()


# --- standings page, CSV, PDF and projector after cuts ------------------------------------


def two_cuts() -> Field:
    """The docs' worked example: cut to half after round 1 (carried over), to 2 after round 2
    (from zero), round 3 played."""
    f = field_of(
        {
            "Aurélie": [120],
            "Bruno": [90],
            "Chloé": [60],
            "Denis": [30],
            "Émile": [0],
            "Fanny": [-30],
            "Gaston": [-60],
            "Hélène": [-90],
        }
    )
    confirm(f, 1, share=50, carry=True)
    add_round(f, {"Aurélie": -40, "Bruno": 10, "Chloé": 80, "Denis": 20})
    confirm(f, 2, keep=2, carry=False)
    add_round(f, {"Chloé": -10, "Bruno": 30})
    return f


def test_a_page_of_the_standings_after_cuts_is_that_slice_of_the_whole_ranking() -> None:
    f = two_cuts()
    whole = f.standings()
    for first in range(len(whole) + 1):
        for size in (1, 3, 50):
            page = standings_selectors.standings_slice(
                tournament=f.tournament, first=first, size=size
            )
            assert page == whole[first : first + size], (first, size)
    _rows, lines = standings_selectors.standings_slice_and_cuts(
        tournament=f.tournament, first=0, size=1
    )
    stated = standings_selectors.cut_summary_of(lines)
    assert stated == standings_selectors.cut_summary(whole)
    assert (stated.cut_after, stated.counted_from) == ([1, 2], 3)


def test_the_standings_page_shows_the_stage_the_carry_and_who_was_cut(
    django_assert_max_num_queries: DjangoAssertNumQueries,
) -> None:
    f = two_cuts()
    url = reverse("tournaments:standings", args=[f.tournament.pk])
    # A page after cuts reads the whole ranking (its groups and stage totals are not stored
    # columns) and the cut lines: still a fixed count, whatever the deals.
    with django_assert_max_num_queries(10):
        html = factories.signed_in_client(None).get(url, headers=EN).content.decode()
    assert "Stage 3 of the championship (cuts after round 1, 2)" in html
    assert "the totals of the players still in count from round 3" in html
    order = [html.index(f">{name}") for name in ["Bruno", "Chloé", "Aurélie", "Denis", "Émile"]]
    assert order == sorted(order)
    aurelie = html[html.index(">Aurélie") : html.index(">Denis")]
    assert "eliminated after round 2" in aurelie
    assert 'data-total="30"' in html and 'data-total="-10"' in html  # Bruno's and Chloé's


def test_the_projector_marks_the_cut_players() -> None:
    f = two_cuts()
    url = reverse("tournaments:projector", args=[f.tournament.pk])
    html = factories.signed_in_client(None).get(url, headers=EN).content.decode()
    assert "Stage 3 of the championship" in html and "out after R1" in html


def test_the_csv_says_after_which_round_each_player_was_cut() -> None:
    f = two_cuts()
    url = reverse("tournaments:standings_csv", args=[f.tournament.pk])
    response = factories.signed_in_client(None).get(url, headers=EN)
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert lines[0][-2:] == ["Total", "Eliminated after round"]
    assert [(line[0], line[1], line[-2], line[-1]) for line in lines[1:4]] == [
        ("1", "Bruno", "30", ""),
        ("2", "Chloé", "-10", ""),
        ("3", "Aurélie", "80", "2"),
    ]
    assert lines[-1][1:2] + lines[-1][-2:] == ["Hélène", "-90", "1"]


def test_the_pdf_prints_the_cut_players_and_the_carry_rule() -> None:
    f = two_cuts()
    url = reverse("tournaments:standings_pdf", args=[f.tournament.pk])
    _pages, texts = read(streamed(factories.signed_in_client(None).get(url, headers=EN)))
    text = " ".join(texts)
    assert "Stage 3 of the championship" in text
    assert "count from round 3" in text
    assert "1. Bruno" in text and "3. Aurélie eliminated after round 2" in text
    assert "8. Hélène eliminated after round 1" in text


# --- the API -----------------------------------------------------------------------------------


def api_url(f: Field, after: int = 1) -> str:
    return reverse("tournaments_api:round-cut", args=[f.tournament.pk, after])


def test_the_api_previews_confirms_and_undoes_a_cut() -> None:
    f = field_of(EIGHT)
    client = factories.token_client(f.referee, lang="en")
    preview = client.get(api_url(f), {"share": "30", "carry": "false"})
    assert preview.status_code == 200
    body = preview.json()
    assert (body["field"], body["asked"], body["keep"], body["carry"]) == (8, 3, 3, False)
    assert [p["qualified"] for p in body["players"]] == [True] * 3 + [False] * 5
    made = client.post(api_url(f), {"keep": 3, "carry": False}, format="json")
    assert made.status_code == 201
    assert made.json()["keep"] == 3 and made.json()["confirmed_by"] == "rita"
    standings = client.get(reverse("tournaments_api:standings", args=[f.tournament.pk])).json()[
        "results"
    ]
    assert [(s["name"], s["eliminated_after"]) for s in standings[2:4]] == [("C", None), ("D", 1)]
    assert client.post(api_url(f), {"keep": 2}, format="json").status_code == 409
    assert client.delete(api_url(f)).status_code == 204
    assert not Cut.objects.get().live


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"share": 0}, {"share": ["A share is a whole percentage from 1 to 99."]}),
        ({"keep": 0}, {"keep": ["At least one player goes through."]}),
        ({"keep": "many"}, {"keep": ["A valid integer is required."]}),
        ({}, {"keep": ["Give the number of players who go through, or a share of the field."]}),
    ],
)
def test_the_api_answers_400_with_a_message_per_field(
    body: dict[str, Any], errors: dict[str, list[str]]
) -> None:
    f = field_of(EIGHT)
    client = factories.token_client(f.organiser, lang="en")
    sent = client.post(api_url(f), body, format="json")
    assert (sent.status_code, messages_of(sent.json())) == (400, errors)
    previewed = client.get(api_url(f), body)
    assert (previewed.status_code, messages_of(previewed.json())) == (400, errors)
    assert not Cut.objects.exists()


def test_the_api_refuses_members_and_a_cut_at_the_wrong_time() -> None:
    f = field_of({n: [p, p] for n, [p] in EIGHT.items()}, closed=1)
    member = factories.token_client(f.member, lang="en")
    assert member.post(api_url(f), {"keep": 4}, format="json").status_code == 403
    assert member.get(api_url(f), {"keep": 4}).status_code == 403
    organiser = factories.token_client(f.organiser, lang="en")
    refused = organiser.get(api_url(f, 2), {"keep": 4})
    assert (
        refused.status_code == 409
        and "not closed yet" in messages_of(refused.json())["non_field_errors"][0]
    )
    assert organiser.get(api_url(f, 9), {"keep": 4}).status_code == 404


# --- a championship of three sessions -------------------------------------------------------


def test_a_championship_of_24_players_cut_to_12_then_8_up_to_the_printed_standings() -> None:
    tournament, organiser = championship(24)
    client = factories.signed_in_client(organiser)
    play_round(tournament, 1)

    # Session 1 -> 2: half the field goes through, scores carried over (the page).
    url = reverse("tournaments:cut", args=[tournament.pk, 1])
    before = standings_selectors.standings_for(tournament=tournament)
    preview = client.get(url, {"preview": "1", "share": "50", "carry": "on"}, headers=EN)
    assert "12 of 24 players go through. 12 players are eliminated." in preview.content.decode()
    assert client.post(url, {"share": "50", "carry": "on"}).status_code == 302
    round_2 = play_round(tournament, 2)
    seated_2 = {p.pk for s in round_selectors.round_tables(round_=round_2) for p in s.players}
    assert seated_2 == {r.player.pk for r in before[:12]}

    # Session 2 -> 3: the best 8 go through and restart from zero (the API).
    api = factories.token_client(organiser, lang="en")
    made = api.post(
        reverse("tournaments_api:round-cut", args=[tournament.pk, 2]),
        {"keep": 8, "carry": False},
        format="json",
    )
    assert made.status_code == 201 and made.json()["keep"] == 8
    middle = standings_selectors.standings_for(tournament=tournament)
    round_3 = play_round(tournament, 3)
    seated_3 = {p.pk for s in round_selectors.round_tables(round_=round_3) for p in s.players}
    assert seated_3 == {r.player.pk for r in middle[:8]}
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    rows = standings_selectors.standings_for(tournament=tournament)
    assert rows == standings_selectors.standings_from_score_lines(tournament=tournament)
    standings_rebuild(tournament=tournament)
    assert rows == standings_selectors.standings_for(tournament=tournament)
    assert [r.eliminated_after for r in rows] == [None] * 8 + [2] * 4 + [1] * 12
    assert all(r.total == r.rounds[2] for r in rows[:8])  # from zero: round 3 alone
    assert [r.player.pk for r in rows[8:12]] == [r.player.pk for r in middle[8:12]]
    assert [r.player.pk for r in rows[12:]] == [r.player.pk for r in before[12:]]

    response = factories.signed_in_client(None).get(
        reverse("tournaments:standings_pdf", args=[tournament.pk]), headers=EN
    )
    _pages, texts = read(streamed(response))
    text = " ".join(texts)
    for row in rows:
        assert f"{row.rank}. {row.player.label}" in text
    assert text.count("eliminated after round 2") == 4
    assert text.count("eliminated after round 1") == 12


def test_the_page_names_the_round_inside_its_sentences() -> None:
    f = field_of(EIGHT)
    client = factories.signed_in_client(f.referee)
    french = client.get(cut_url(f), headers={"Accept-Language": "fr"}).content.decode()
    assert "Coupure après la séance 1" in french and "Retour à la séance 1" in french
    english = client.get(cut_url(f), headers=EN).content.decode()
    assert "Cut after round 1" in english and "Back to round 1" in english
