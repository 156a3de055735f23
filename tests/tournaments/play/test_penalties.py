"""Penalties: points a referee takes off a player's score in a round, on a deal or on the round.
The arithmetic in the standings (a table of cases), the refusals, the page and the API."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse

from tarot_scores.core.errors import Refusal
from tarot_scores.games.models import Deal
from tests import factories
from tests.api.helpers import messages_of
from tournaments import ranking
from tournaments.models import Entry, Penalty, Round, Standing, Tournament
from tournaments.people import services as people
from tournaments.play import penalties
from tournaments.rounds import services as round_services
from tournaments.standings import selectors as standings_selectors
from tournaments.standings.store import standings_rebuild

pytestmark = pytest.mark.django_db


@dataclass
class Evening:
    tournament: Tournament
    organiser: Any
    referee: Any
    member: Any
    entry: Entry  # a player seated in both rounds


def evening(*, public: bool = True) -> Evening:
    """Two rounds of two tables of four, both played (round 1 closed, round 2 complete)."""
    club = factories.ClubFactory.create(public=public)
    organiser = factories.UserFactory.create(username="olga")
    factories.MembershipFactory.create(club=club, user=organiser, role="organiser")
    member = factories.UserFactory.create(username="marc")
    factories.MembershipFactory.create(club=club, user=member, role="member")
    referee = factories.UserFactory.create(username="rita")
    tournament = factories.make_tournament(club, 8, rounds=2, deals_per_round=2)
    tournament.referees.add(referee)
    for seed in (1, 2):
        factories.play(round_services.round_seat_next(tournament=tournament, by=None), seed=seed)
    entry = Entry.objects.select_related("player").filter(tournament=tournament).first()
    assert entry is not None
    return Evening(tournament, organiser, referee, member, entry)


def row_of(tournament: Tournament, player_id: int) -> ranking.StandingRow:
    return next(
        r
        for r in standings_selectors.standings_for(tournament=tournament)
        if r.player.pk == player_id
    )


def deal_of(e: Evening, round_number: int) -> Deal:
    deal = Deal.objects.filter(
        game__tournament_table__round__number=round_number,
        game__tournament_table__round__tournament=e.tournament,
        game__seats__player=e.entry.player,
    ).first()
    assert deal is not None
    return deal


# --- the arithmetic -----------------------------------------------------------------------------

# (name, penalties as (round, points, on a deal?), which of them are removed afterwards,
#  expected points off per round, expected penalty column)
CASES: list[tuple[str, list[tuple[int, int, bool]], list[int], dict[int, int], int]] = [
    ("none", [], [], {1: 0, 2: 0}, 0),
    ("one on round 1", [(1, 20, False)], [], {1: 20, 2: 0}, 20),
    ("two in one round add up", [(2, 10, False), (2, 5, False)], [], {1: 0, 2: 15}, 15),
    ("one per round", [(1, 10, False), (2, 30, False)], [], {1: 10, 2: 30}, 40),
    ("on a deal: that deal's round", [(2, 25, True)], [], {1: 0, 2: 25}, 25),
    ("a removed one counts no more", [(1, 10, False), (2, 30, True)], [1], {1: 10, 2: 0}, 10),
    ("all removed", [(1, 10, True), (1, 50, False)], [0, 1], {1: 0, 2: 0}, 0),
]


@pytest.mark.parametrize(("given", "removed", "off", "column"), [c[1:] for c in CASES])
def test_a_penalty_lowers_its_round_and_the_total(
    given: list[tuple[int, int, bool]], removed: list[int], off: dict[int, int], column: int
) -> None:
    e = evening()
    before = row_of(e.tournament, e.entry.player_id)
    made = [
        penalties.penalty_give(
            tournament=e.tournament,
            entry=e.entry,
            points=points,
            reason="Slow play",
            by=e.referee,
            round_number=None if on_deal else number,
            deal_id=deal_of(e, number).pk if on_deal else None,
        )
        for number, points, on_deal in given
    ]
    for i in removed:
        penalties.penalty_remove(penalty=made[i], by=e.organiser)

    after = row_of(e.tournament, e.entry.player_id)
    assert after.rounds == [r - off[n] for n, r in zip((1, 2), before.rounds, strict=True)]  # type: ignore[operator]
    assert after.total == before.total - sum(off.values())
    assert after.penalties == column
    assert Penalty.objects.filter(tournament=e.tournament).count() == len(given)  # none lost
    computed = standings_selectors.standings_from_score_lines(tournament=e.tournament)
    assert standings_selectors.standings_for(tournament=e.tournament) == computed
    kept = list(Standing.objects.filter(tournament=e.tournament).values().order_by("pk"))
    standings_rebuild(tournament=e.tournament)
    rebuilt = list(Standing.objects.filter(tournament=e.tournament).values().order_by("pk"))
    assert [{k: v for k, v in r.items() if k != "id"} for r in rebuilt] == [
        {k: v for k, v in r.items() if k != "id"} for r in kept
    ]


def test_a_penalty_moves_the_ranking_and_the_tie_breaks_read_it() -> None:
    e = evening()
    rows = standings_selectors.standings_for(tournament=e.tournament)
    first, second = rows[0], rows[1]
    leader = Entry.objects.get(tournament=e.tournament, player=first.player)
    # Just enough to fall level with the second on the total: the rounds then decide.
    gap = first.total - second.total
    if gap:
        penalties.penalty_give(
            tournament=e.tournament,
            entry=leader,
            points=gap,
            reason="Score sheet late",
            by=e.organiser,
            round_number=2,
        )
    rows = standings_selectors.standings_for(tournament=e.tournament)
    keys = [ranking.tie_break_key(r.total, r.rounds, r.player.label) for r in rows]
    assert keys == sorted(keys)
    assert rows == standings_selectors.standings_from_score_lines(tournament=e.tournament)
    penalties.penalty_give(
        tournament=e.tournament,
        entry=leader,
        points=1,
        reason="Again",
        by=e.organiser,
        round_number=1,
    )
    rows = standings_selectors.standings_for(tournament=e.tournament)
    assert [r.player.pk for r in rows].index(leader.player_id) >= 1


def test_reading_the_standings_with_penalties_costs_two_queries(
    django_assert_max_num_queries: Any,
) -> None:
    e = evening()
    for entry in Entry.objects.filter(tournament=e.tournament):
        penalties.penalty_give(
            tournament=e.tournament,
            entry=entry,
            points=5,
            reason="Noise",
            by=e.organiser,
            round_number=1,
        )
    with django_assert_max_num_queries(2):
        rows = standings_selectors.standings_for(tournament=e.tournament)
    assert all(r.penalties == 5 for r in rows)
    url = reverse("tournaments:standings", args=[e.tournament.pk])
    with django_assert_max_num_queries(14):
        page = factories.signed_in_client(None).get(url)
    assert page.status_code == 200 and "standings-penalties" in page.content.decode()


# --- refusals -----------------------------------------------------------------------------------

REFUSED: list[tuple[str, dict[str, Any], str]] = [
    ("no points", {"points": 0}, "points"),
    ("too many points", {"points": 10_001}, "points"),
    ("no reason", {"reason": "  "}, "reason"),
    ("no round", {"round_number": None}, "round"),
    ("unknown round", {"round_number": 9}, "round"),
    ("unknown deal number", {"deal_number": 30}, "deal"),
    ("unknown deal id", {"deal_id": 0}, "deal"),
]


@pytest.mark.parametrize(("changes", "field"), [c[1:] for c in REFUSED])
def test_a_bad_penalty_is_refused_on_its_field(changes: dict[str, Any], field: str) -> None:
    e = evening()
    kw: dict[str, Any] = {"points": 10, "reason": "Late", "round_number": 1, **changes}
    with pytest.raises(Refusal) as refused:
        penalties.penalty_give(tournament=e.tournament, entry=e.entry, by=e.referee, **kw)
    assert field in refused.value.reasons
    assert not Penalty.objects.exists()


def test_a_deal_of_another_table_or_round_is_refused() -> None:
    e = evening()
    other = (
        Deal.objects.filter(game__tournament_table__round__tournament=e.tournament)
        .exclude(game__seats__player=e.entry.player)
        .first()
    )
    assert other is not None
    with pytest.raises(Refusal) as refused:
        penalties.penalty_give(
            tournament=e.tournament,
            entry=e.entry,
            points=10,
            reason="x",
            by=e.referee,
            deal_id=other.pk,
        )
    assert refused.value.codes() == {"deal": ["other_table"]}
    with pytest.raises(Refusal) as refused:
        penalties.penalty_give(
            tournament=e.tournament,
            entry=e.entry,
            points=10,
            reason="x",
            by=e.referee,
            deal_id=deal_of(e, 2).pk,
            round_number=1,
        )
    assert refused.value.codes() == {"deal": ["other_round"]}


def test_a_deal_penalty_goes_to_who_played_it_before_or_after_a_substitution() -> None:
    club = factories.ClubFactory.create()
    referee = factories.UserFactory.create(username="rita")
    tournament = factories.make_tournament(club, 8, rounds=2, deals_per_round=2)
    tournament.referees.add(referee)
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    factories.play(round_, seed=1, deals=1)
    replaced = Entry.objects.select_related("player").filter(tournament=tournament).first()
    assert replaced is not None
    done = people.substitute_seat(round_=round_, replaced=replaced, name="Zoé Remplaçante")
    factories.play(round_, seed=2)
    game = done.table.game
    first, second = game.deals.order_by("number")
    substitute = Entry.objects.select_related("player").get(pk=done.substitute.pk)

    def give(entry: Entry, **where: Any) -> Penalty:
        return penalties.penalty_give(
            tournament=tournament, entry=entry, points=5, reason="x", by=referee, **where
        )

    # The replaced player played deal 1 and sat in the round; the substitute played deal 2.
    assert give(replaced, deal_id=first.pk).deal_id == first.pk
    assert give(replaced, round_number=1, deal_number=1).deal_id == first.pk
    assert give(replaced, round_number=1).deal_id is None
    assert give(substitute, deal_id=second.pk).deal_id == second.pk
    for entry, deal in ((substitute, first), (replaced, second)):
        with pytest.raises(Refusal) as refused:
            give(entry, deal_id=deal.pk)
        assert refused.value.codes() == {"deal": ["other_table"]}
    with pytest.raises(Refusal) as refused:
        give(substitute, round_number=1, deal_number=1)
    assert refused.value.codes() == {"deal": ["other_table"]}


def test_removing_twice_is_refused_and_the_history_keeps_both() -> None:
    e = evening()
    penalty = penalties.penalty_give(
        tournament=e.tournament,
        entry=e.entry,
        points=10,
        reason="Late",
        by=e.referee,
        round_number=1,
    )
    removed = penalties.penalty_remove(penalty=penalty, by=e.organiser, reason="Misheard")
    assert removed.removed_by == e.organiser and removed.removal_reason == "Misheard"
    with pytest.raises(Refusal):
        penalties.penalty_remove(penalty=penalty, by=e.organiser)
    assert standings_selectors.penalties_for(tournament=e.tournament) == [removed]
    assert standings_selectors.penalties_for(tournament=e.tournament, live_only=True) == []


def test_a_penalty_bumps_the_results_version() -> None:
    e = evening()
    e.tournament.club.refresh_from_db()
    version = e.tournament.club.stats_version
    penalties.penalty_give(
        tournament=e.tournament,
        entry=e.entry,
        points=10,
        reason="Late",
        by=e.referee,
        round_number=1,
    )
    e.tournament.club.refresh_from_db()
    assert e.tournament.club.stats_version == version + 1


# --- the page -----------------------------------------------------------------------------------


def test_referees_give_and_remove_penalties_on_the_page() -> None:
    e = evening()
    url = reverse("tournaments:penalties", args=[e.tournament.pk])
    page = factories.signed_in_client(e.referee)
    detail = page.get(reverse("tournaments:detail", args=[e.tournament.pk])).content.decode()
    assert url in detail  # linked from the tournament page for those who may
    assert page.get(url).status_code == 200

    answer = page.post(
        url,
        {
            "action": "give",
            "penalty-entry": e.entry.pk,
            "penalty-round": 2,
            "penalty-deal": 1,
            "penalty-points": 20,
            "penalty-reason": "Cards shown",
        },
    )
    assert answer.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.points, penalty.round.number, penalty.given_by) == (20, 2, e.referee)
    assert penalty.deal is not None and penalty.deal.number == 1

    round_page = page.get(reverse("tournaments:round", args=[e.tournament.pk, 2])).content
    assert "Cards shown" in round_page.decode()

    answer = page.post(url, {"action": "remove", "penalty": penalty.pk, "reason": "Wrong player"})
    assert answer.status_code == 302
    penalty.refresh_from_db()
    assert penalty.removed_at is not None and penalty.removed_by == e.referee
    history = page.get(url).content.decode()
    assert "Wrong player" in history and "Cards shown" in history


@pytest.mark.parametrize("asked", ["abc", "", "-1", "1e3", "99999999999999999999"])
def test_removing_an_impossible_penalty_is_a_404_not_a_500(asked: str) -> None:
    e = evening()
    url = reverse("tournaments:penalties", args=[e.tournament.pk])
    page = factories.signed_in_client(e.organiser)
    answer = page.post(url, {"action": "remove", "penalty": asked})
    assert answer.status_code == 404


def test_bad_input_on_the_page_shows_each_error_beside_its_field() -> None:
    e = evening()
    url = reverse("tournaments:penalties", args=[e.tournament.pk])
    page = factories.signed_in_client(e.organiser)
    answer = page.post(
        url,
        {"action": "give", "penalty-entry": e.entry.pk, "penalty-round": 1, "penalty-points": 0},
    )
    assert answer.status_code == 400
    form = answer.context["form"]
    assert set(form.errors) == {"points", "reason"}
    answer = page.post(
        url,
        {
            "action": "give",
            "penalty-entry": e.entry.pk,
            "penalty-round": 1,
            "penalty-deal": 9,
            "penalty-points": 5,
            "penalty-reason": "x",
        },
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert answer.status_code == 400
    assert list(answer.context["form"].errors) == ["deal"]
    assert "Aucune donne 9" in answer.content.decode()
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("who", ["member", "anonymous"])
def test_others_may_not_give_penalties(who: str) -> None:
    e = evening()
    user = e.member if who == "member" else None
    url = reverse("tournaments:penalties", args=[e.tournament.pk])
    answer = factories.signed_in_client(user).post(
        url,
        {
            "action": "give",
            "penalty-entry": e.entry.pk,
            "penalty-round": 1,
            "penalty-points": 5,
            "penalty-reason": "x",
        },
    )
    assert answer.status_code == (403 if user else 302)
    assert not Penalty.objects.exists()


def test_the_exports_show_the_penalties() -> None:
    e = evening()
    penalties.penalty_give(
        tournament=e.tournament,
        entry=e.entry,
        points=15,
        reason="Late",
        by=e.referee,
        round_number=1,
    )
    client = factories.signed_in_client(None)
    body = client.get(
        reverse("tournaments:standings_csv", args=[e.tournament.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    lines = list(csv.reader(io.StringIO(body.content.decode("utf-8-sig"))))
    assert "Penalties" in lines[0]
    column = lines[0].index("Penalties")
    mine = next(line for line in lines[1:] if line[1] == e.entry.player.label)
    assert mine[column] == "-15"
    pdf = client.get(reverse("tournaments:standings_pdf", args=[e.tournament.pk]))
    assert pdf.status_code == 200


# --- the API ------------------------------------------------------------------------------------


def test_the_api_lists_gives_and_removes_penalties() -> None:
    e = evening()
    api = factories.token_client(e.referee)
    url = f"/api/v1/tournaments/{e.tournament.pk}/penalties/"
    answer = api.post(
        url,
        {"entry": e.entry.pk, "deal": deal_of(e, 1).pk, "points": 30, "reason": "Renege"},
        format="json",
    )
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert (made["round"], made["points"], made["removed"], made["given_by"]) == (
        1,
        30,
        False,
        "rita",
    )
    standings = factories.token_client(None).get(
        f"/api/v1/tournaments/{e.tournament.pk}/standings/"
    )
    mine = next(r for r in standings.json()["results"] if r["player"] == e.entry.player_id)
    assert mine["penalties"] == 30

    assert api.delete(f"{url}{made['id']}/", {"reason": "Video"}, format="json").status_code == 204
    listed = api.get(url).json()["results"]
    assert [(p["id"], p["removed"], p["removal_reason"]) for p in listed] == [
        (made["id"], True, "Video")
    ]
    again = api.delete(f"{url}{made['id']}/")
    assert again.status_code == 400 and "non_field_errors" in messages_of(again.json())


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({}, {"entry", "points", "reason"}),
        ({"entry": "x", "points": -1, "reason": ""}, {"entry", "points", "reason"}),
        ({"entry": 999999, "round": 1, "points": 5, "reason": "x"}, {"entry"}),
        ({"round": 7, "points": 5, "reason": "x"}, {"round"}),
        ({"points": 5, "reason": "x"}, {"round"}),
        ({"round": 1, "points": 5, "reason": "x" * 501}, {"reason"}),
        ({"deal": 999999, "points": 5, "reason": "x"}, {"deal"}),
    ],
)
def test_bad_input_through_the_api_is_a_400_per_field(
    body: dict[str, Any], fields: set[str]
) -> None:
    e = evening()
    body = {"entry": e.entry.pk, **body} if "entry" not in body and body else body
    answer = factories.token_client(e.organiser).post(
        f"/api/v1/tournaments/{e.tournament.pk}/penalties/", body, format="json"
    )
    assert answer.status_code == 400
    assert set(messages_of(answer.json())) == fields
    assert not Penalty.objects.exists()


def test_the_api_refuses_members_and_hides_private_clubs() -> None:
    e = evening(public=False)
    url = f"/api/v1/tournaments/{e.tournament.pk}/penalties/"
    body = {"entry": e.entry.pk, "round": 1, "points": 5, "reason": "x"}
    assert factories.token_client(e.member).post(url, body, format="json").status_code == 403
    assert factories.token_client(e.member).get(url).status_code == 403
    stranger = factories.UserFactory.create()
    assert factories.token_client(stranger).get(url).status_code == 404
    assert factories.token_client(None).post(url, body, format="json").status_code in (401, 404)


def test_the_schema_documents_the_penalty_endpoints() -> None:
    schema = factories.signed_in_client(None).get(reverse("api-schema"), {"format": "json"})
    text = schema.content.decode()
    for operation in (
        "tournament_penalties_list",
        "tournament_penalties_create",
        "tournament_penalties_destroy",
    ):
        assert operation in text


def test_a_round_closed_stays_closed_after_a_penalty() -> None:
    e = evening()
    penalties.penalty_give(
        tournament=e.tournament,
        entry=e.entry,
        points=10,
        reason="Late",
        by=e.referee,
        round_number=1,
    )
    assert Round.objects.get(tournament=e.tournament, number=1).status == Round.Status.CLOSED


def test_the_api_removes_a_penalty_with_the_reason_in_the_query() -> None:
    # The schema declares no body on a DELETE, so a generated client sends the reason as
    # ?reason= (as for a deal's deletion); it is kept with the removal, as a JSON body's is.
    e = evening()
    given = [
        penalties.penalty_give(
            tournament=e.tournament,
            entry=e.entry,
            points=10,
            reason="Late",
            by=e.referee,
            round_number=1,
        )
        for _ in range(2)
    ]
    client = factories.token_client(e.referee, "en")
    base = f"/api/v1/tournaments/{e.tournament.pk}/penalties/"
    queried = client.delete(f"{base}{given[0].pk}/?reason=Wrong%20player")
    assert queried.status_code == 204, queried.content
    bodied = client.delete(f"{base}{given[1].pk}/", {"reason": "Misheard"}, format="json")
    assert bodied.status_code == 204, bodied.content
    reasons = Penalty.objects.order_by("pk").values_list("removal_reason", flat=True)
    assert list(reasons) == ["Wrong player", "Misheard"]
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operation = schema["paths"]["/api/v1/tournaments/{id}/penalties/{penalty_id}/"]["delete"]
    assert "reason" in {p["name"] for p in operation["parameters"]}
