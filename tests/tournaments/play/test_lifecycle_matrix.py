"""The matrix of a deal's life (``tournaments.play.lifecycle``): every transition x every actor x
every path, asserting the state the database keeps, not the words on the page.

The tournament asks for confirmation with personal proof. The deal is entered by the taker
(seat 0, the attack) on his proven phone; the defence (seats 1 to 3) is the other side. Seat 2's
player is linked to an account.

Actors: the entering phone; another phone of the same side (the taker's second phone); the other
side proven (seat 1's PIN) and not proven (seat 1 named without it); the linked account signed
in and not (seat 2 named by a phone); a referee; an organiser; an outsider (another club's
account, or a link of no table). Paths: the table's page, the same by htmx, the link's API, the
organiser's API (and the organisers' own pages for the referee and the organiser, who act
through the referee desk and the game pages). A path an actor cannot take (a table phone has
no account for the organiser's API) is left out: ``None`` below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tarot_scores.clubs.models import Membership, Player
from tarot_scores.games.models import Deal
from tests import factories
from tests.tournaments.views.test_pages_world import deal_post
from tournaments.models import DealConfirmation, Entry, Tournament
from tournaments.play import confirmations, lifecycle
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rounds.selectors import TableState

pytestmark = pytest.mark.django_db
State = lifecycle.State

ACTORS = [
    "entering",
    "same_side",
    "other_proven",
    "other_unproven",
    "linked_signed_in",
    "linked_not_signed_in",
    "referee",
    "organiser",
    "outsider",
]
PATHS = ["page", "htmx", "link_api", "organiser_api"]
TRANSITIONS = ["confirm", "contest", "settle", "correct", "delete"]

# Does the transition happen? Same answer on every path the actor can take.
ALLOWED: dict[str, set[str]] = {
    "confirm": {"other_proven", "linked_signed_in", "referee", "organiser"},
    "contest": {"other_proven", "linked_signed_in"},
    "settle": {"referee", "organiser"},
    "correct": {
        "entering",
        "same_side",
        "other_proven",
        "linked_signed_in",
        "referee",
        "organiser",
    },
    "delete": {"referee", "organiser"},
}
# Paths an actor cannot take at all (no account for the organiser's API; the link's API is for
# the table's players; the link takes no settling and no deletion).
NO_PATH: set[tuple[str, str]] = {
    *((a, "organiser_api") for a in ("entering", "same_side", "other_proven", "other_unproven")),
    *((a, "link_api") for a in ("referee", "organiser")),
}
LINK_HAS_NOT = {("settle", "link_api"), ("delete", "link_api")}


@dataclass
class World:
    tournament: Tournament
    state: TableState
    clients: dict[str, Client]
    users: dict[str, Any]

    def pin(self, seat: int) -> str:
        return Entry.objects.get(tournament=self.tournament, player=self.state.players[seat]).pin

    def entry_proof(self, seat: int) -> str:
        player = self.state.players[seat]
        return f"entry:{Entry.objects.get(tournament=self.tournament, player=player).pk}"

    def link(self, name: str, *args: Any) -> str:
        return reverse(f"tournaments:{name}", args=[self.state.table.token, *args])


def world() -> World:
    club = factories.ClubFactory.create()
    tournament = factories.make_tournament(
        club,
        8,
        require_confirmation=True,
        confirmation_proof=Tournament.ConfirmationProof.PERSONAL,
        deals_per_round=6,
    )
    round_ = round_services.round_seat_next(tournament=tournament, by=None)
    state = round_selectors.round_tables(round_=round_)[0]
    owner = factories.UserFactory.create()
    factories.MembershipFactory.create(club=club, user=owner)
    Player.objects.filter(pk=state.players[2].pk).update(user=owner)
    organiser = factories.MembershipFactory.create(
        club=club, user=factories.UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    referee = factories.UserFactory.create()
    tournament.referees.add(referee)
    outsider = factories.MembershipFactory.create(
        club=factories.ClubFactory.create(),
        user=factories.UserFactory.create(),
        role=Membership.Role.ORGANISER,
    ).user
    users = {
        "linked_signed_in": owner,
        "referee": referee,
        "organiser": organiser,
        "outsider": outsider,
    }
    w = World(tournament, state, {}, users)

    def proven(seat: int) -> Client:
        client = Client()
        client.post(w.link("table_holder"), {"player": state.players[seat].pk, "pin": w.pin(seat)})
        return client

    unproven = Client()
    unproven.post(w.link("table_holder"), {"player": state.players[1].pk})
    linked_phone = Client()
    linked_phone.post(w.link("table_holder"), {"player": state.players[2].pk})
    w.clients = {
        "entering": proven(0),
        "same_side": proven(0),
        "other_proven": proven(1),
        "other_unproven": unproven,
        "linked_signed_in": factories.signed_in_client(owner),
        "linked_not_signed_in": linked_phone,
        "referee": factories.signed_in_client(referee),
        "organiser": factories.signed_in_client(organiser),
        "outsider": factories.signed_in_client(outsider),
    }
    return w


def entered(w: World) -> Deal:
    number = w.state.table.game.deals.filter(deleted_at__isnull=True).count() + 1
    answer = w.clients["entering"].post(
        w.link("table_entry"), deal_post(w.state.players[0].pk, number)
    )
    assert answer.status_code == 302
    return Deal.objects.get(game=w.state.table.game, number=number, deleted_at__isnull=True)


def prepared(w: World, transition: str) -> Deal:
    """A deal in the state the transition starts from."""
    deal = entered(w)
    if transition in ("correct", "delete"):
        confirmations.deal_confirm(
            deal=deal, by=None, player=w.state.players[1].pk, proof=w.entry_proof(1)
        )
    elif transition == "settle":
        confirmations.deal_dispute(
            deal=deal,
            payload={
                "taker": w.state.players[0].pk,
                "contract": "garde",
                "points": 30,
                "oudlers": 2,
            },
            by=None,
            player=w.state.players[1].pk,
            proof=w.entry_proof(1),
        )
    deal.refresh_from_db()
    return deal


def snapshot(deal: Deal) -> tuple[State, int]:
    deal.refresh_from_db()
    confirmation = DealConfirmation.objects.filter(deal=deal).first()
    return lifecycle.state_of(deal, confirmation), deal.version


AFTER = {
    "confirm": State.CONFIRMED,
    "contest": State.CONTESTED,
    "settle": State.SETTLED,
    "delete": State.DELETED,
}

# Which seat the table's actors name on the link's API, and with what.
API_HOLDER: dict[str, tuple[int, bool]] = {
    "entering": (0, True),
    "same_side": (0, True),
    "other_proven": (1, True),
    "other_unproven": (1, False),
    "linked_signed_in": (2, False),
    "linked_not_signed_in": (2, False),
    "outsider": (1, False),
}


def act(w: World, actor: str, path: str, transition: str, deal: Deal) -> None:
    """The actor tries the transition on the deal, along the path."""
    v = deal.version
    lost = {"taker": w.state.players[0].pk, "contract": "garde", "points": 30, "oudlers": 2}
    correction = {**deal_post(w.state.players[0].pk, deal.number, points="60"), "version": str(v)}
    if path in ("page", "htmx"):
        client = w.clients[actor]
        headers = {"HX-Request": "true"} if path == "htmx" else {}
        post: Callable[..., Any] = lambda url, data=None: client.post(  # noqa: E731
            url, data or {}, headers=headers
        )
        t = w.tournament.pk
        if actor in ("referee", "organiser", "outsider"):
            # Their own pages: the referee desk and the game pages.
            if transition == "confirm":
                post(
                    reverse("tournaments:referee_confirm", args=[t, deal.pk]),
                    {"version": str(v), "reason": "Vu à la table"},
                )
            elif transition == "settle":
                post(
                    reverse("tournaments:referee_settle", args=[t, deal.pk]),
                    {"keep": "entered", "reason": "Vu à la table"},
                )
            elif transition == "contest":
                post(
                    w.link("table_deal_dispute", deal.pk),
                    {
                        **deal_post(w.state.players[0].pk, deal.number, points="30"),
                        "version": str(v),
                    },
                )
            elif transition == "correct":
                post(reverse("games:deal_edit", args=[deal.pk]), correction)
            elif transition == "delete":
                post(reverse("games:deal_delete", args=[deal.pk]), {"version": str(v)})
            return
        if transition == "confirm":
            post(w.link("table_deal_confirm", deal.pk), {"version": str(v)})
        elif transition == "contest":
            post(
                w.link("table_deal_dispute", deal.pk),
                {**deal_post(w.state.players[0].pk, deal.number, points="30"), "version": str(v)},
            )
        elif transition == "settle":
            post(
                reverse("tournaments:referee_settle", args=[w.tournament.pk, deal.pk]),
                {"keep": "entered", "reason": "Vu"},
            )
        elif transition == "correct":
            post(w.link("table_deal_edit", deal.pk), correction)
        elif transition == "delete":
            post(w.link("table_deal_undo", deal.pk))
        return
    if path == "link_api":
        user = w.users.get(actor) if actor == "linked_signed_in" else None
        api = factories.token_client(user, "en")
        seat, with_pin = API_HOLDER[actor]
        token = w.state.table.token if actor != "outsider" else "no-such-link"
        body: dict[str, Any] = {"player": w.state.players[seat].pk, "version": v}
        if with_pin:
            body["pin"] = w.pin(seat)
        base = f"/api/v1/tables/{token}/deals/{deal.pk}"
        if transition == "confirm":
            api.post(f"{base}/confirm/", body, format="json")
        elif transition == "contest":
            api.post(f"{base}/dispute/", {**body, **lost}, format="json")
        elif transition == "correct":
            api.patch(f"{base}/", {**body, "points": 60}, format="json")
        return
    user = w.users.get(actor)
    api = factories.token_client(user, "en")
    base = f"/api/v1/tournaments/{w.tournament.pk}/confirmations/{deal.pk}"
    if transition == "confirm":
        api.post(f"{base}/confirm/", {"version": v, "reason": "Vu"}, format="json")
    elif transition == "contest":
        api.post(f"{base}/dispute/", {"version": v, **lost}, format="json")
    elif transition == "settle":
        api.post(f"{base}/settle/", {"keep": "entered", "reason": "Vu"}, format="json")
    elif transition == "correct":
        api.patch(f"/api/v1/deals/{deal.pk}/", {"version": v, "points": 60}, format="json")
    elif transition == "delete":
        api.delete(f"/api/v1/deals/{deal.pk}/?version={v}")


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("transition", TRANSITIONS)
def test_every_actor_along_this_path(transition: str, path: str) -> None:
    if (transition, path) in LINK_HAS_NOT:
        pytest.skip("the link's API neither settles nor deletes")
    w = world()
    checked = 0
    for actor in ACTORS:
        if (actor, path) in NO_PATH:
            continue
        deal = prepared(w, transition)
        before = snapshot(deal)
        act(w, actor, path, transition, deal)
        after = snapshot(deal)
        if actor in ALLOWED[transition]:
            if transition == "correct":
                assert after[1] == before[1] + 1, (actor, path)
                referee = actor in ("referee", "organiser")
                assert after[0] == (State.CONFIRMED if referee else State.ENTERED), (actor, path)
            else:
                assert after[0] == AFTER[transition], (actor, path, after)
        else:
            assert after == before, (actor, path, before, after)
        checked += 1
        # Leave room at the table for the next actor's deal.
        if after[0] != State.DELETED:
            Deal.objects.filter(pk=deal.pk).update(deleted_at=timezone.now())
    assert checked >= 4
