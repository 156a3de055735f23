"""Renaming a player: by the site's name rule (no control character, no two players of a club
under one label), in the admin as in the service, and the results pages show the new name at
once (the rename moves the results version of every club he plays in)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tarot_scores.clubs import services
from tarot_scores.clubs.models import Club, Player
from tarot_scores.core.errors import Refusal
from tests import factories
from tournaments.models import Tournament
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


def seated_tournament() -> tuple[Tournament, Player]:
    club = factories.ClubFactory.create(public=True)
    tournament = factories.make_tournament(club, 8)
    round_services.round_seat_next(tournament=tournament, by=None)
    player = Player.objects.filter(clubs=club).order_by("pk").first()
    assert player is not None
    return tournament, player


def admin_client() -> Any:
    staff = factories.UserFactory.create(username="staff", is_staff=True, is_superuser=True)
    return factories.signed_in_client(staff)


def change_url(player: Player) -> str:
    return reverse("admin:tarot_scores_player_change", args=[player.pk])


def posted(player: Player, **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": player.name,
        "nickname": player.nickname,
        "licence": player.licence,
        "club": player.club_id or "",
        "clubs": [c.pk for c in player.clubs.all()],
        "user": "",
        "_save": "Save",
    }
    data.update(changes)
    return data


def standings_html(tournament: Tournament) -> str:
    url = reverse("tournaments:standings", args=[tournament.pk])
    response = factories.signed_in_client(None).get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return str(response.content.decode())


def test_a_rename_in_the_admin_shows_at_once_on_the_cached_standings() -> None:
    tournament, player = seated_tournament()
    assert player.label in standings_html(tournament)  # read, and now cached
    version = Club.objects.get(pk=tournament.club_id).stats_version

    answer = admin_client().post(change_url(player), posted(player, nickname="Zébulon"))
    assert answer.status_code == 302
    html = standings_html(tournament)
    assert "Zébulon" in html and f">{player.name}<" not in html
    assert Club.objects.get(pk=tournament.club_id).stats_version > version


def test_the_service_moves_the_version_of_every_club_he_plays_in() -> None:
    tournament, player = seated_tournament()
    guest_club = factories.ClubFactory.create()
    player.clubs.add(guest_club)
    other = factories.ClubFactory.create()
    before = dict(Club.objects.values_list("pk", "stats_version"))

    renamed = services.player_rename(player=player, name="  Aurélie Martin ", nickname="")
    assert renamed.name == "Aurélie Martin"
    assert Player.objects.get(pk=player.pk).name == "Aurélie Martin"
    after = dict(Club.objects.values_list("pk", "stats_version"))
    assert after[tournament.club_id] == before[tournament.club_id] + 1
    assert after[guest_club.pk] == before[guest_club.pk] + 1
    assert after[other.pk] == before[other.pk]


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "Aur\u202eélie"}, "name"),  # a right-to-left override
        ({"nickname": "Bob\tby"}, "nickname"),
        ({"nickname": "TAKEN"}, "nickname"),  # another player of his club is shown so
    ],
)
def test_the_admin_refuses_a_name_the_site_refuses_beside_its_field(
    changes: dict[str, str], field: str
) -> None:
    tournament, player = seated_tournament()
    other = Player.objects.filter(club=player.club).exclude(pk=player.pk).first()
    assert other is not None
    if changes.get("nickname") == "TAKEN":
        changes = {"nickname": other.label.upper()}
    version = Club.objects.get(pk=tournament.club_id).stats_version

    answer = admin_client().post(change_url(player), posted(player, **changes))
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert list(errors) == [field]
    stored = Player.objects.get(pk=player.pk)
    assert (stored.name, stored.nickname) == (player.name, player.nickname)
    assert Club.objects.get(pk=tournament.club_id).stats_version == version
    with pytest.raises(Refusal) as refused:
        services.player_rename(
            player=player,
            name=changes.get("name", player.name),
            nickname=changes.get("nickname", player.nickname),
        )
    assert list(refused.value.reasons) == [field]


def test_keeping_his_own_label_is_not_taken_by_himself() -> None:
    _tournament, player = seated_tournament()
    answer = admin_client().post(change_url(player), posted(player, licence="123"))
    assert answer.status_code == 302
    assert Player.objects.get(pk=player.pk).licence == "123"
