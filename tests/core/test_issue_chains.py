"""The four ways in which, before, the wrong people could change a result or an account, each
replayed step by step through the pages and the API: each must now stop where it did harm.

1. A member of club A takes over deal entry at A's table by making Chloé (A's player without an
   account) a guest of her own club's tournament and linking her account to Chloé there.
2. A seated player rewrites his tournament result after the round closed (reopen, correct,
   finish), through the API and through the game page.
3. Another club's organiser cuts a member off from his own club by registering his player in
   her tournament and adding his account on her members page.
4. The members form adds an existing account without asking it, and shows the organiser the
   link that sets a new account's password.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, Invitation, Membership, Player
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, DealRevision, Game
from tests.api.helpers import messages_of
from tests.factories import UserFactory, garde, make_club, signed_in_client, token_client
from tests.permission_world import build_permission_world
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _club_a() -> tuple[Club, User, Game, Deal]:
    olga = UserFactory.create(username="olga", email="olga@example.org")
    carla = UserFactory.create(username="carla", email="carla@example.org")
    club = make_club("Club A", olga, carla)
    players = list(Player.objects.filter(club=club).order_by("name"))[:4]
    game = game_services.game_create(club=club, players=players, variant="fft", by=olga)
    deal = game_services.deal_record(game=game, payload=garde(players[2].pk), by=olga).deal
    return club, carla, game, deal


def test_chain_1_a_guest_entry_gives_no_hold_over_the_players_club() -> None:
    club, carla, game, deal = _club_a()
    chloe = Player.objects.get(club=club, name="Chloé")
    api = token_client(carla)
    patch = {**garde(chloe.pk, points=81, oudlers=3), "contract": "garde_contre", "version": 1}
    assert api.patch(f"/api/v1/deals/{deal.pk}/", patch, format="json").status_code == 403

    # Her own club, a tournament in it, Chloé registered there as a guest.
    page = signed_in_client(carla)
    assert page.post(reverse("clubs:list"), {"name": "Club B", "public": "on"}).status_code == 302
    own = Club.objects.get(name="Club B")
    made = api.post("/api/v1/tournaments/", {"club": own.pk, "name": "Open B"}, format="json")
    assert made.status_code == 201
    tournament = Tournament.objects.get(pk=made.json()["id"])
    entry = api.post(
        f"/api/v1/tournaments/{tournament.pk}/entries/", {"player": chloe.pk}, format="json"
    )
    assert entry.status_code == 201
    chloe.refresh_from_db()
    assert chloe.club == club  # still club A's player

    # Her members page neither offers Chloé nor takes her.
    members = reverse("clubs:members", args=[own.slug])
    assert f'<option value="{chloe.pk}"' not in page.get(members).content.decode()
    mine = own.memberships.get(user=carla)
    linked = page.post(
        members,
        {
            "action": "update",
            "membership": str(mine.pk),
            f"m{mine.pk}-role": "organiser",
            f"m{mine.pk}-player": str(chloe.pk),
        },
    )
    assert linked.status_code == 400
    chloe.refresh_from_db()
    assert chloe.user is None

    # So A's table stays closed to her, through the API and the page.
    assert api.patch(f"/api/v1/deals/{deal.pk}/", patch, format="json").status_code == 403
    assert api.post(f"/api/v1/games/{game.pk}/finish/").status_code == 403
    assert api.post(f"/api/v1/games/{game.pk}/reopen/").status_code == 403
    status = reverse("games:status", args=[game.pk])
    assert page.post(status, {"status": "finished"}).status_code == 403
    deal.refresh_from_db()
    assert deal.version == 1


def test_chain_2_a_closed_round_is_settled_by_referees_with_a_reason() -> None:
    w = build_permission_world()
    game, deal = w.games["closed"], w.deals["closed"]
    seated = w.users["seated"]
    api = token_client(seated)
    rewrite = {**garde(w.player.pk, points=81, oudlers=3), "contract": "garde_contre"}
    assert api.post(f"/api/v1/games/{game.pk}/reopen/").status_code == 403
    assert (
        api.patch(f"/api/v1/deals/{deal.pk}/", {**rewrite, "version": 1}, format="json").status_code
        == 403
    )
    assert api.post(f"/api/v1/games/{game.pk}/finish/").status_code == 403
    page = signed_in_client(seated)
    for wanted in ("open", "finished"):
        response = page.post(reverse("games:status", args=[game.pk]), {"status": wanted})
        assert response.status_code == 403
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    # Reopened by a referee (and the seated player still shut out: the round is closed).
    referee = token_client(w.users["referee"], "en")
    assert referee.post(f"/api/v1/games/{game.pk}/reopen/").status_code == 200
    assert (
        api.patch(f"/api/v1/deals/{deal.pk}/", {**rewrite, "version": 1}, format="json").status_code
        == 403
    )
    link = Client().get(reverse("tournaments:table_entry", args=[w.tables["closed"].token]))
    assert link.status_code == 403

    # A correction after closing needs its written reason, kept in the history.
    fixed = {**garde(w.player.pk, points=56), "version": deal.version}
    refused = referee.patch(f"/api/v1/deals/{deal.pk}/", fixed, format="json")
    assert refused.status_code == 400
    assert list(messages_of(refused.json())) == ["reason"]
    reason = "Score sheet signed by the table: 56 points, not 49."
    done = referee.patch(f"/api/v1/deals/{deal.pk}/", {**fixed, "reason": reason}, format="json")
    assert done.status_code == 200
    history = referee.get(f"/api/v1/deals/{deal.pk}/history/").json()["results"]
    assert history[-1]["reason"] == reason and history[-1]["by"] == "rita"
    html = Client().get(reverse("games:deal_history", args=[deal.pk])).content.decode()
    assert reason in html

    # The correction page asks for it too.
    edit = signed_in_client(w.users["referee"])
    form = edit.get(reverse("games:deal_edit", args=[deal.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert 'name="reason"' in form.content.decode()
    deleted = edit.post(
        reverse("games:deal_delete", args=[deal.pk]), {"version": str(deal.version + 1)}
    )
    assert deleted.status_code == 302
    assert not Deal.objects.get(pk=deal.pk).is_deleted  # no reason: nothing deleted
    edit.post(
        reverse("games:deal_delete", args=[deal.pk]),
        {"version": str(deal.version + 1), "reason": "Entered twice."},
    )
    last = DealRevision.objects.filter(deal=deal).order_by("-version").first()
    assert last is not None and last.action == "deleted" and last.reason == "Entered twice."
    assert referee.post(f"/api/v1/games/{game.pk}/finish/").status_code == 200


def test_chain_3_another_club_cannot_cut_a_member_off_his_club() -> None:
    olga = UserFactory.create(username="olga", email="olga@example.org")
    marc = UserFactory.create(username="marc", email="marc@example.org")
    club = make_club("Club A", olga, marc)
    bruno = Player.objects.get(club=club, name="Bruno")
    club_services.player_link_user(player=bruno, user=marc)

    carla = UserFactory.create(username="carla", email="carla@example.org")
    other = club_services.club_create(name="Club B", by=carla)
    api = token_client(carla)
    made = api.post("/api/v1/tournaments/", {"club": other.pk, "name": "Open B"}, format="json")
    entry = api.post(
        f"/api/v1/tournaments/{made.json()['id']}/entries/", {"player": bruno.pk}, format="json"
    )
    assert entry.status_code == 201
    own = club_services.player_create(club=other, name="Xavier")

    page = signed_in_client(carla)
    members = reverse("clubs:members", args=[other.slug])
    added = page.post(
        members,
        {"action": "add", "add-identifier": "marc", "add-role": "member", "add-player": own.pk},
    )
    assert added.status_code == 302  # an invitation marc may ignore
    assert not other.memberships.filter(user=marc).exists()
    bruno.refresh_from_db()
    assert bruno.user == marc
    own.refresh_from_db()
    assert own.user is None

    # His own organiser still manages his link.
    home = signed_in_client(olga)
    mine = club.memberships.get(user=marc)
    kept = home.post(
        reverse("clubs:members", args=[club.slug]),
        {
            "action": "update",
            "membership": str(mine.pk),
            f"m{mine.pk}-role": "member",
            f"m{mine.pk}-player": str(bruno.pk),
        },
    )
    assert kept.status_code == 302
    bruno.refresh_from_db()
    assert bruno.user == marc


def test_chain_4_members_are_invited_and_the_organiser_sees_no_password_link() -> None:
    olga = UserFactory.create(username="olga", email="olga@example.org")
    club = make_club("Club A", olga, UserFactory.create(username="marc"))
    zoe = UserFactory.create(username="zoe", email="zoe@example.org")
    page = signed_in_client(olga)
    members = reverse("clubs:members", args=[club.slug])
    add = {"action": "add", "add-role": "organiser"}
    assert page.post(members, {**add, "add-identifier": "zoe@example.org"}).status_code == 302
    assert not Membership.objects.filter(club=club, user=zoe).exists()
    assert page.post(members, {**add, "add-identifier": "new@example.org"}).status_code == 302
    assert not User.objects.filter(email="new@example.org").exists()
    shown = page.get(members).content.decode()
    for invitation in Invitation.objects.filter(club=club):
        assert invitation.token not in shown
    assert "/accounts/reset/" not in shown
    assert [m.to for m in mail.outbox] == [["zoe@example.org"], ["new@example.org"]]
    assert all(re.search(r"/accounts/invitations/\S+/", str(m.body)) for m in mail.outbox)
