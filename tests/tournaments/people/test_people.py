"""The people of a tournament: players kept apart, byes, substitutes, late arrivals and
withdrawals, end to end through the services, the pages and the API."""

from __future__ import annotations

import io
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from tarot_scores.core.errors import Refusal
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games.models import ScoreLine, Seat
from tests import factories
from tests.api.helpers import messages_of
from tests.csv_reading import csv_rows
from tournaments import errors as tournament_errors
from tournaments.models import ApartPair, Bye, Entry, Round, Standing, Substitution, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.people import services as people
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.seating.byes import who_sits_out
from tournaments.standings import cuts
from tournaments.standings import selectors as standings_selectors
from tournaments.standings.store import standings_rebuild

pytestmark = pytest.mark.django_db


@dataclass
class Event:
    tournament: Tournament
    organiser: Any

    def entry(self, name: str) -> Entry:
        return Entry.objects.select_related("player").get(
            tournament=self.tournament, player__name=name
        )

    def seat(self, **kw: Any) -> Round:
        return round_services.round_seat_next(tournament=self.tournament, by=self.organiser, **kw)


def event(players: int = 8, **kw: Any) -> Event:
    club = factories.ClubFactory.create()
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    return Event(factories.make_tournament(club, players, **kw), organiser)


def tables_of(round_: Round) -> list[set[int]]:
    return [{p.pk for p in state.players} for state in round_selectors.round_tables(round_=round_)]


def pdf_text(response: Any) -> str:
    content = b"".join(response.streaming_content)
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def standing_cells(tournament: Tournament) -> dict[int, dict[str, int]]:
    return {s.player_id: s.rounds for s in Standing.objects.filter(tournament=tournament)}


# --- players kept apart ---------------------------------------------------------------------


def test_a_pair_is_one_row_whichever_order_and_the_selector_gives_player_ids() -> None:
    e = event()
    a, b = e.entry("Aurélie"), e.entry("Bruno")
    pair = people.apart_pair_add(
        tournament=e.tournament, first=b, second=a, reason="Sisters", by=e.organiser
    )
    assert (pair.first_id, pair.second_id) == tuple(sorted((a.pk, b.pk)))
    assert people_selectors.apart_pairs(e.tournament) == {frozenset((a.player_id, b.player_id))}
    with pytest.raises(Refusal) as refused:
        people.apart_pair_add(tournament=e.tournament, first=a, second=b, reason="again")
    assert refused.value.codes() == {"second": ["already_apart"]}
    assert ApartPair.objects.count() == 1


@pytest.mark.parametrize(
    ("first", "second", "reason", "codes"),
    [
        ("Aurélie", "Aurélie", "x", {"second": ["same_player"]}),
        ("Aurélie", "Bruno", "   ", {"reason": ["required"]}),
        ("Aurélie", "Bruno", "x" * 201, {"reason": ["too_long"]}),
        (None, None, "", {"first": ["required"], "second": ["required"], "reason": ["required"]}),
    ],
)
def test_a_pair_is_refused_with_a_reason_per_field(
    first: str | None, second: str | None, reason: str, codes: dict[str, list[str]]
) -> None:
    e = event()
    with pytest.raises(Refusal) as refused:
        people.apart_pair_add(
            tournament=e.tournament,
            first=e.entry(first) if first else None,
            second=e.entry(second) if second else None,
            reason=reason,
        )
    assert refused.value.codes() == codes
    assert not ApartPair.objects.exists()


def test_another_tournaments_entry_is_refused() -> None:
    e, other = event(), event()
    with pytest.raises(Refusal) as refused:
        people.apart_pair_add(
            tournament=e.tournament,
            first=e.entry("Aurélie"),
            second=other.entry("Bruno"),
            reason="x",
        )
    assert refused.value.codes() == {"second": ["unknown_entry"]}


@pytest.mark.parametrize("method", list(Tournament.Seating))
def test_every_method_keeps_a_pair_apart_in_every_round(method: str) -> None:
    e = event(12, rounds=3, seating_method=method)
    a, b = e.entry("Aurélie"), e.entry("Bruno")
    people.apart_pair_add(tournament=e.tournament, first=a, second=b, reason="Couple")
    for seed in (1, 2, 3):
        round_ = e.seat()
        assert all(not {a.player_id, b.player_id} <= table for table in tables_of(round_))
        assert people_selectors.round_clashes(round_=round_) == []
        factories.play(round_, seed=seed)


def test_an_impossible_pair_set_is_seated_and_shown_on_the_round_page() -> None:
    """Three players kept apart from each other at two tables: two of them must meet."""
    e = event(8)
    trio = [e.entry(n) for n in ("Aurélie", "Bruno", "Chloé")]
    for x, y in combinations(trio, 2):
        people.apart_pair_add(tournament=e.tournament, first=x, second=y, reason="Family")
    round_ = e.seat()
    (clash,) = people_selectors.round_clashes(round_=round_)
    assert clash.reason == "Family"
    page = factories.signed_in_client(None).get(
        reverse("tournaments:round", args=[e.tournament.pk, 1])
    )
    assert f'data-testid="clash-{clash.table}"' in page.content.decode()
    assert clash.players[0] in page.content.decode()


def test_teammates_sharing_a_table_are_reported_with_their_team() -> None:
    """A team of three at two tables: the clash is the team's, named on the round page."""
    e = event(8, team_size=3)
    registration_services.team_create(
        tournament=e.tournament,
        name="Les Excuses",
        entries=[e.entry(n) for n in ("Aurélie", "Bruno", "Chloé")],
    )
    round_ = e.seat()
    (clash,) = people_selectors.round_clashes(round_=round_)
    assert "Les Excuses" in clash.reason


def test_the_registration_page_adds_lists_and_removes_pairs(
    django_assert_max_num_queries: Any,
) -> None:
    e = event()
    client = factories.signed_in_client(e.organiser)
    url = reverse("tournaments:apart_pair_new", args=[e.tournament.pk])
    a, b = e.entry("Aurélie"), e.entry("Bruno")
    answer = client.post(url, {"first": a.pk, "second": b.pk, "reason": "Mother and son"})
    assert answer.status_code == 302
    pair = ApartPair.objects.get()
    registration = reverse("tournaments:registration", args=[e.tournament.pk])
    with django_assert_max_num_queries(14):
        page = client.get(registration)
    html = page.content.decode()
    assert f'id="apart-{pair.pk}"' in html and "Mother and son" in html
    # The same pair again: the reason beside the field, nothing stored.
    again = client.post(url, {"first": b.pk, "second": a.pk, "reason": "x"})
    assert again.status_code == 400
    assert "déjà séparés" in again.content.decode()  # the site speaks French first
    assert ApartPair.objects.count() == 1
    empty = client.post(url, {"first": a.pk, "second": b.pk, "reason": ""})
    assert empty.status_code == 400 and 'id="id_reason_error"' in empty.content.decode()
    remove = reverse("tournaments:apart_pair_remove", args=[e.tournament.pk, pair.pk])
    assert client.post(remove).status_code == 302
    assert not ApartPair.objects.exists()


def test_the_api_lists_adds_and_removes_pairs_with_a_400_per_field() -> None:
    e = event()
    api = factories.token_client(e.organiser)
    base = f"/api/v1/tournaments/{e.tournament.pk}/apart/"
    a, b = e.entry("Aurélie"), e.entry("Bruno")
    made = api.post(base, {"first": a.pk, "second": b.pk, "reason": "Sisters"}, format="json")
    assert made.status_code == 201 and made.json()["reason"] == "Sisters"
    assert [p["id"] for p in api.get(base).json()["results"]] == [made.json()["id"]]
    for body, fields in [
        ({"first": a.pk, "second": a.pk, "reason": "x"}, {"second"}),
        ({"first": a.pk, "second": 999_999, "reason": "x"}, {"second"}),
        ({"first": "x", "second": b.pk}, {"first", "reason"}),
        ({"first": b.pk, "second": a.pk, "reason": "again"}, {"second"}),
    ]:
        answer = api.post(base, body, format="json")
        assert answer.status_code == 400, body
        assert set(messages_of(answer.json())) == fields, body
    assert api.delete(f"{base}{made.json()['id']}/").status_code == 204
    assert api.delete(f"{base}{made.json()['id']}/").status_code == 404
    assert not ApartPair.objects.exists()


# --- byes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("byes_so_far", "totals", "out"),
    [
        ({}, {"a": 10, "b": -5, "c": 3}, ["b"]),  # the lowest total
        ({"b": 1}, {"a": 10, "b": -5, "c": 3}, ["c"]),  # b had one: the next lowest
        ({"a": 1, "b": 1, "c": 1}, {"a": -9, "b": 0, "c": 0}, ["a"]),  # all had one
    ],
)
def test_who_sits_out_follows_the_rule(
    byes_so_far: dict[str, int], totals: dict[str, float], out: list[str]
) -> None:
    got = who_sits_out(
        ["a", "b", "c"], 1, byes_so_far=byes_so_far, totals=totals, seed=1, round_number=2
    )
    assert got == out


def test_who_sits_out_draws_between_equals_reproducibly() -> None:
    draws = {
        tuple(who_sits_out(list(range(6)), 2, byes_so_far={}, totals={}, seed=s, round_number=1))
        for s in range(20)
    }
    assert len(draws) > 1
    assert who_sits_out(list(range(6)), 2, byes_so_far={}, totals={}, seed=3, round_number=1) == (
        who_sits_out(list(range(6)), 2, byes_so_far={}, totals={}, seed=3, round_number=1)
    )


def test_a_count_that_cannot_be_seated_is_refused_unless_byes_are_asked() -> None:
    e = event(7, rounds=3)
    with pytest.raises(tournament_errors.TournamentError) as refused:
        e.seat()
    assert "2 joueurs exempts" in str(refused.value)  # the way out, in the refusal
    round_ = e.seat(byes=True)
    byes = list(Bye.objects.filter(round=round_))
    assert len(byes) == 2 and all(b.points == people.BYE_POINTS == 0 for b in byes)
    seated = set().union(*tables_of(round_))
    assert len(seated) == 5
    assert not seated & {b.entry.player_id for b in byes}


def test_byes_go_to_those_with_fewest_then_lowest_and_count_in_the_standings() -> None:
    e = event(6, rounds=3)
    first = e.seat(byes=True)
    (bye1,) = Bye.objects.filter(round=first)
    factories.play(first, seed=1)
    cells = standing_cells(e.tournament)
    assert cells[bye1.entry.player_id] == {"1": 0}
    second = e.seat(byes=True)
    (bye2,) = Bye.objects.filter(round=second)
    # Not the same player twice while others had none: the lowest total of the others.
    assert bye2.entry_id != bye1.entry_id
    totals = {
        s.player_id: s.total
        for s in Standing.objects.filter(tournament=e.tournament).exclude(
            player_id=bye1.entry.player_id
        )
    }
    assert totals[bye2.entry.player_id] == min(totals.values())
    factories.play(second, seed=2)
    row = next(
        r
        for r in standings_selectors.standings_for(tournament=e.tournament)
        if r.player.pk == bye2.entry.player_id
    )
    assert row.byes == (1,) and row.rounds[1] == 0
    before = standing_cells(e.tournament)
    standings_rebuild(tournament=e.tournament)
    assert standing_cells(e.tournament) == before
    call_command("rebuild_standings", stdout=io.StringIO())
    assert standing_cells(e.tournament) == before
    assert standings_selectors.standings_for(
        tournament=e.tournament
    ) == standings_selectors.standings_from_score_lines(tournament=e.tournament)


def test_after_a_cut_without_carry_the_byes_follow_the_totals_the_standings_show() -> None:
    e = event(12, rounds=3)
    first = e.seat()
    factories.play(first, seed=1)
    made = cuts.cut_confirm(
        tournament=e.tournament, after_round=1, keep=7, carry=False, by=e.organiser
    )
    assert made.keep == 7
    shown = {
        r.player.pk: r.total for r in standings_selectors.standings_for(tournament=e.tournament)
    }
    qualified = sorted(
        r.player.pk for r in standings_selectors.standings_for(tournament=e.tournament)[:7]
    )
    second = e.seat(byes=True)
    out = {b.entry.player_id for b in Bye.objects.filter(round=second)}
    # The stage starts again at round 2: every qualifier shows 0, so the draw decides, not
    # round 1's points (which the standings no longer count).
    expected = who_sits_out(
        qualified,
        len(out),
        byes_so_far={},
        totals={p: float(shown[p]) for p in qualified},
        seed=e.tournament.seed,
        round_number=2,
    )
    by_round_one = who_sits_out(
        qualified,
        len(out),
        byes_so_far={},
        totals={
            s.player_id: float(s.total) for s in Standing.objects.filter(tournament=e.tournament)
        },
        seed=e.tournament.seed,
        round_number=2,
    )
    assert set(by_round_one) != set(expected)  # the case tells the two apart
    assert out == set(expected)


def test_a_bye_shows_on_the_round_page_the_standings_csv_and_pdfs(
    django_assert_max_num_queries: Any,
) -> None:
    e = event(6)
    round_ = e.seat(byes=True)
    (bye,) = Bye.objects.select_related("entry__player").filter(round=round_)
    name = bye.entry.player.label
    client = factories.signed_in_client(e.organiser)
    with django_assert_max_num_queries(24):
        page = client.get(reverse("tournaments:round", args=[e.tournament.pk, 1]))
    assert f'data-testid="bye-{bye.entry.player_id}"' in page.content.decode()
    standings = client.get(reverse("tournaments:standings", args=[e.tournament.pk]))
    assert 'class="bye"' in standings.content.decode()
    lines = csv_rows(client.get(reverse("tournaments:standings_csv", args=[e.tournament.pk])))
    (line,) = [line for line in lines if len(line) > 1 and line[1] == name]
    assert line[2] == "exempt"  # "bye", in the site's first language
    seating_pdf = client.get(reverse("tournaments:seating_pdf", args=[e.tournament.pk, 1]))
    text = pdf_text(seating_pdf)
    assert name in text and "exempt" in text
    standings_pdf = client.get(reverse("tournaments:standings_pdf", args=[e.tournament.pk]))
    assert "exempt" in pdf_text(standings_pdf)


def test_the_registration_page_offers_the_byes_and_the_api_takes_them() -> None:
    e = event(6)
    client = factories.signed_in_client(e.organiser)
    page = client.get(reverse("tournaments:registration", args=[e.tournament.pk]))
    assert 'id="seat-with-byes"' in page.content.decode()
    api = factories.token_client(e.organiser)
    url = f"/api/v1/tournaments/{e.tournament.pk}/rounds/"
    assert api.post(url, {}, format="json").status_code == 409
    assert api.post(url, {"byes": True}, format="json").status_code == 201
    assert Bye.objects.count() == 1
    standings = api.get(f"/api/v1/tournaments/{e.tournament.pk}/standings/").json()["results"]
    assert [row["byes"] for row in standings if row["byes"]] == [[1]]


@pytest.mark.parametrize("sent", ["true", 1, "yes", None, [True]])
def test_the_api_refuses_byes_that_are_not_a_boolean(sent: object) -> None:
    e = event(6)
    api = factories.token_client(e.organiser)
    url = f"/api/v1/tournaments/{e.tournament.pk}/rounds/"
    answer = api.post(url, {"byes": sent}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    assert messages_of(answer.json()) == {
        "byes": ["Send true or false: whether players may sit out."]
    }
    assert not Round.objects.filter(tournament=e.tournament).exists()
    french = api.post(url, {"byes": sent}, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert messages_of(french.json()) == {
        "byes": ["Envoyez true ou false : si des joueurs peuvent être exempts."]
    }
    assert api.post(url, {"byes": False}, format="json").status_code == 409  # 6 cannot sit
    assert api.post(url, {"byes": True}, format="json").status_code == 201


# --- substitutes ----------------------------------------------------------------------------


def test_a_substitute_takes_over_the_seat_and_his_scores_are_kept_apart() -> None:
    e = event(9, rounds=2, deals_per_round=4)
    round_ = e.seat()
    factories.play(round_, seed=1, deals=2)
    aurelie = e.entry("Aurélie")
    seat = Seat.objects.get(game__tournament_table__round=round_, player=aurelie.player)
    done = people.substitute_seat(
        round_=round_, replaced=aurelie, name="Zoé Remplaçante", by=e.organiser
    )
    seat.refresh_from_db()
    assert seat.player.name == "Zoé Remplaçante" and done.deals_before == 2
    zoe = done.substitute
    assert zoe.substitute_for_id == aurelie.pk
    factories.play(round_, seed=2)  # the last two deals: the substitute's
    game = seat.game
    lines = ScoreLine.objects.filter(deal__game=game)
    assert {line.deal.number for line in lines.filter(player=aurelie.player)} == {1, 2}
    assert {line.deal.number for line in lines.filter(player=zoe.player)} == {3, 4}
    aurelie.refresh_from_db()
    assert aurelie.withdrawn_after == 0  # withdrew after the round before this one
    main = standings_selectors.standings_for(tournament=e.tournament)
    subs = standings_selectors.standings_for(tournament=e.tournament, substitutes=True)
    assert zoe.player_id not in {r.player.pk for r in main}
    assert [r.player.pk for r in subs] == [zoe.player_id]
    mine = sum(lines.filter(player=aurelie.player).values_list("points", flat=True))
    assert next(r for r in main if r.player.pk == aurelie.player_id).rounds == [mine]
    theirs = sum(lines.filter(player=zoe.player).values_list("points", flat=True))
    assert subs[0].total == theirs
    before = standing_cells(e.tournament)
    standings_rebuild(tournament=e.tournament)
    assert standing_cells(e.tournament) == before
    assert main == standings_selectors.standings_from_score_lines(tournament=e.tournament)
    # Round 2: Aurélie is not seated any more, nor is the substitute.
    second = e.seat()
    seated = set().union(*tables_of(second))
    assert aurelie.player_id not in seated and zoe.player_id not in seated


def test_a_replaced_player_who_returns_is_seated_next_round() -> None:
    e = event(8, rounds=2, deals_per_round=2)
    round_ = e.seat()
    bruno = e.entry("Bruno")
    people.substitute_seat(round_=round_, replaced=bruno, name="Yann", returns=True)
    factories.play(round_)
    bruno.refresh_from_db()
    assert bruno.withdrawn_after is None
    assert bruno.player_id in set().union(*tables_of(e.seat()))


@pytest.mark.parametrize("case", ["seated", "registered", "nobody", "closed", "not_seated"])
def test_a_substitute_is_refused(case: str) -> None:
    e = event(9, rounds=2, deals_per_round=2)
    round_ = e.seat()
    seated = set().union(*tables_of(round_))
    aurelie = e.entry("Aurélie")
    kw: dict[str, Any] = {"round_": round_, "replaced": aurelie}
    field, code = "substitute", ""
    if case == "seated":
        other = Entry.objects.filter(tournament=e.tournament).exclude(pk=aurelie.pk).first()
        assert other is not None
        kw["player"], code = other.player, "already_seated"
    elif case == "registered":
        late = registration_services.entry_add(tournament=e.tournament, name="Xavier")
        kw["player"], code = late.player, "already_registered"
    elif case == "nobody":
        kw["name"], code = "  ", "required"
    elif case == "closed":
        factories.play(round_)
        kw["name"], field, code = "Yann", "replaced", "round_closed"
    else:  # a late arrival, registered after the round was seated
        kw["replaced"] = registration_services.entry_add(tournament=e.tournament, name="Walter")
        kw["name"], field, code = "Yann", "replaced", "not_seated"
        assert kw["replaced"].player_id not in seated
    with pytest.raises(Refusal) as refused:
        people.substitute_seat(**kw)
    assert refused.value.codes() == {field: [code]}
    assert not Substitution.objects.exists()
    assert not Entry.objects.filter(substitute_for__isnull=False).exists()


def test_the_round_page_records_the_substitution_and_the_standings_list_substitutes(
    django_assert_max_num_queries: Any,
) -> None:
    e = event(8, rounds=2, deals_per_round=2)
    round_ = e.seat()
    client = factories.signed_in_client(e.organiser)
    url = reverse("tournaments:round_substitute", args=[e.tournament.pk, 1])
    chloe = e.entry("Chloé")
    refused = client.post(url, {"replaced": chloe.pk, "name": ""})
    assert refused.status_code == 400 and 'id="id_name_error"' in refused.content.decode()
    assert client.post(url, {"replaced": chloe.pk, "name": "Victor"}).status_code == 302
    done = Substitution.objects.select_related("table").get()
    with django_assert_max_num_queries(24):
        page = client.get(reverse("tournaments:round", args=[e.tournament.pk, 1]))
    html = page.content.decode()
    assert f'data-testid="substitution-{done.pk}"' in html
    assert "Victor a remplacé Chloé après 0 donnes" in html and "olga" in html
    registration = client.get(reverse("tournaments:registration", args=[e.tournament.pk]))
    assert "remplaçant de Chloé à la séance 1" in registration.content.decode()
    factories.play(round_)
    with django_assert_max_num_queries(12):
        standings = factories.signed_in_client(None).get(
            reverse("tournaments:standings", args=[e.tournament.pk])
        )
    assert 'id="standings-substitutes"' in standings.content.decode()
    csv_text = client.get(
        reverse("tournaments:standings_csv", args=[e.tournament.pk])
    ).content.decode("utf-8-sig")
    assert "Remplaçants" in csv_text and "Victor" in csv_text.split("Remplaçants")[1]
    api = factories.token_client(e.organiser)
    subs = api.get(f"/api/v1/tournaments/{e.tournament.pk}/standings/substitutes/").json()[
        "results"
    ]
    assert [(s["name"], s["replaced"]) for s in subs] == [("Victor", "Chloé")]
    main = api.get(f"/api/v1/tournaments/{e.tournament.pk}/standings/").json()["results"]
    assert "Victor" not in {row["name"] for row in main}


def test_the_api_puts_in_a_substitute_with_a_400_per_field() -> None:
    e = event(8, rounds=2, deals_per_round=2)
    e.seat()
    api = factories.token_client(e.organiser)
    url = f"/api/v1/tournaments/{e.tournament.pk}/rounds/1/substitute/"
    denis, bruno = e.entry("Denis"), e.entry("Bruno")
    for body, fields in [
        ({}, {"replaced"}),
        ({"replaced": 999_999, "name": "Ugo"}, {"replaced"}),
        ({"replaced": denis.pk}, {"substitute"}),
        ({"replaced": denis.pk, "player": bruno.player_id}, {"substitute"}),
        ({"replaced": denis.pk, "player": 999_999}, {"player"}),
    ]:
        answer = api.post(url, body, format="json")
        assert answer.status_code == 400, body
        assert set(messages_of(answer.json())) == fields, (body, answer.json())
    made = api.post(url, {"replaced": denis.pk, "name": "Ugo"}, format="json")
    assert made.status_code == 201 and made.json()["deals_before"] == 0


# --- late arrivals and withdrawals ------------------------------------------------------------


def test_a_late_arrival_is_seated_from_his_round_and_a_withdrawal_not_after() -> None:
    e = event(8, rounds=3, deals_per_round=2)
    first = e.seat()
    late = registration_services.entry_add(tournament=e.tournament, name="Léa", checked_in=True)
    assert late.first_round == 2
    assert late.player_id not in set().union(*tables_of(first))
    factories.play(first)
    gone = e.entry("Bruno")
    registration_services.entry_withdraw(entry=gone)
    assert gone.withdrawn_after == 1
    second = e.seat()  # 8 players: Léa in, Bruno out
    seated = set().union(*tables_of(second))
    assert late.player_id in seated and gone.player_id not in seated
    factories.play(second)
    cells = standing_cells(e.tournament)
    assert set(cells[late.player_id]) == {"2"}
    assert set(cells[gone.player_id]) == {"1"}
    third = e.seat()
    assert gone.player_id not in set().union(*tables_of(third))


def test_a_knockout_stage_keeps_pairs_of_qualifiers_apart() -> None:
    """Pairs made between players who went through stage 1: one of them kept apart from four
    others, so stage 2 (two tables of the eight qualified) has one seating only, which a draw
    would find one time in 35."""
    e = event(16, format=Tournament.Format.KNOCKOUT, qualifiers_per_table=2)
    first = e.seat()
    factories.play(first, seed=4)
    qualified = round_selectors.bracket(tournament=e.tournament).stages[-1].qualified
    entries = {x.player_id: x for x in Entry.objects.filter(tournament=e.tournament)}
    for other in qualified[1:5]:
        people.apart_pair_add(
            tournament=e.tournament,
            first=entries[qualified[0]],
            second=entries[other],
            reason="Referee",
        )
    tables = tables_of(e.seat())
    assert sorted(map(sorted, tables)) == sorted(
        [sorted([qualified[0], *qualified[5:]]), sorted(qualified[1:5])]
    )


def test_deleting_a_deal_from_before_a_substitution_updates_the_replaced_players_cell() -> None:
    """The deal's score lines were the replaced player's: his cell of the round follows."""
    from tarot_scores.games import services as game_services

    e = event(8, rounds=2, deals_per_round=4)
    round_ = e.seat()
    factories.play(round_, seed=3, deals=2)
    aurelie = e.entry("Aurélie")
    done = people.substitute_seat(round_=round_, replaced=aurelie, name="Yann")
    first = done.table.game.deals.get(number=1)
    mine = ScoreLine.objects.get(deal=first, player=aurelie.player).points
    before = Standing.objects.get(entry=aurelie).rounds["1"]
    game_services.deal_delete(deal=first, version=first.version, by=e.organiser, reason="typo")
    assert Standing.objects.get(entry=aurelie).rounds["1"] == before - mine
    cells = standing_cells(e.tournament)
    standings_rebuild(tournament=e.tournament)
    assert standing_cells(e.tournament) == cells


def test_correcting_a_deal_from_before_a_substitution_scores_its_own_players() -> None:
    """The deal was played by the replaced player: a correction names her and her line stays
    hers; the substitute gets nothing of it; the correction screen offers her."""
    from tarot_scores.games import services as game_services

    e = event(8, rounds=2, deals_per_round=4)
    round_ = e.seat()
    factories.play(round_, seed=3, deals=2)
    aurelie = e.entry("Aurélie")
    done = people.substitute_seat(round_=round_, replaced=aurelie, name="Yann")
    yann = done.substitute.player
    first = done.table.game.deals.get(number=1)
    players_then = set(ScoreLine.objects.filter(deal=first).values_list("player_id", flat=True))
    assert aurelie.player_id in players_then and yann.pk not in players_then
    corrected = game_services.deal_update(
        deal=first,
        payload={"taker": aurelie.player_id, "contract": "garde", "points": 45, "oudlers": 2},
        version=first.version,
        by=e.organiser,
        reason="the taker was Aurélie",
    )
    lines = dict(ScoreLine.objects.filter(deal=corrected).values_list("player_id", "points"))
    assert set(lines) == players_then
    assert lines[aurelie.player_id] == 3 * (25 + 4) * 2  # a garde made by 4, three defenders
    # The stored standings follow, as a rebuild from the score lines says.
    assert standings_selectors.standings_for(tournament=e.tournament) == (
        standings_selectors.standings_from_score_lines(tournament=e.tournament)
    )
    # The correction screen of that deal offers her, not the substitute.
    page = factories.signed_in_client(e.organiser).get(
        reverse("games:deal_edit", args=[corrected.pk])
    )
    assert page.status_code == 200
    assert f'value="{aurelie.player_id}"' in page.content.decode()


def test_the_sheets_of_a_table_show_a_substitution_made_after_deals() -> None:
    """The table's score sheet (game page and the table's link) keeps the deals played before
    the substitute sat in, in the seat's column (a server error before)."""
    e = event(8, rounds=2, deals_per_round=4)
    round_ = e.seat()
    factories.play(round_, seed=3, deals=2)
    aurelie = e.entry("Aurélie")
    done = people.substitute_seat(round_=round_, replaced=aurelie, name="Yann")
    table = done.table
    sheet = game_selectors.game_sheet(game_id=table.game_id)
    lines = dict(
        ScoreLine.objects.filter(deal__game=table.game, player=aurelie.player).values_list(
            "deal__number", "points"
        )
    )
    column = [p.pk for p in sheet.players].index(done.substitute.player_id)
    assert [row.scores[column] for row in sheet.rows] == [lines[1], lines[2]]
    client = factories.signed_in_client(e.organiser)
    for url in (
        reverse("games:detail", args=[table.game_id]),
        reverse("tournaments:table_entry", args=[table.token]),
    ):
        page = client.get(url)
        assert page.status_code == 200, url


def test_the_same_pair_kept_apart_twice_at_once_is_refused_not_a_500(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two organisers keep the same pair apart at the same moment: the second finds the pair
    stored past its check (the unique constraint) and gets the same refusal as afterwards."""
    from django.db.models import QuerySet

    e = event(8)
    first, second = e.entry("Aurélie"), e.entry("Bruno")
    people.apart_pair_add(tournament=e.tournament, first=first, second=second, reason="famille")
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)  # the other's not seen yet
    with pytest.raises(Refusal) as refused:
        people.apart_pair_add(tournament=e.tournament, first=second, second=first, reason="x")
    assert refused.value.codes() == {"second": ["already_apart"]}
    monkeypatch.undo()
    assert ApartPair.objects.filter(tournament=e.tournament).count() == 1
