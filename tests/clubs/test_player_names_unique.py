"""A club's own players are shown under labels (nickname, or name) that the database keeps
unique, folded as the site compares them (case folded, accents kept): the check in the service
says it first, and two requests at the same moment (a double tap on a slow network, two phones)
are stopped by the constraint, never make two players.

The thread tests run on the suite's database: SQLite (writers wait for each other) and, with
DATABASE_URL, PostgreSQL, where both requests pass the service's check and the constraint
decides (`.ci/run` runs the suite on both).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, connection, transaction

from tarot_scores.clubs import selectors, services
from tarot_scores.clubs.models import Membership, Player, label_key
from tarot_scores.core.errors import Refusal
from tests.api.helpers import messages_of
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    UserFactory,
    make_tournament,
    token_client,
)
from tournaments.errors import TournamentError
from tournaments.models import Entry
from tournaments.registration import services as tournament_services


def at_once(count: int, work: Callable[[], Any]) -> list[Any]:
    """``work`` in ``count`` threads released together; what each returned or raised."""
    barrier = threading.Barrier(count)
    outcomes: list[Any] = []

    def run() -> None:
        try:
            barrier.wait()
            outcomes.append(work())
        except Exception as exc:  # the outcome is what the test looks at
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def test_the_label_is_folded_as_the_site_compares_names() -> None:
    assert label_key(" Chloé ", "") == label_key("chloé", "")
    assert label_key("Chloé Martin", "CHLOÉ") == label_key("chloé", "")
    assert label_key("Chloe", "") != label_key("Chloé", "")  # accents make two people
    # Labels that look the same share the key: a Cyrillic А, fullwidth letters, the case.
    assert label_key("\u0410nna", "") == label_key("anna", "") == label_key("ＡＮＮＡ", "")


@pytest.mark.django_db
def test_the_database_refuses_a_label_the_check_missed(monkeypatch: pytest.MonkeyPatch) -> None:
    club = ClubFactory.create()
    services.player_create(club=club, name="Zoé Martin")
    # As if a second request had passed the check before the first one wrote.
    monkeypatch.setattr(selectors, "player_label_taken", lambda **kw: False)
    with pytest.raises(Refusal) as refused:
        services.player_create(club=club, name="ZOÉ MARTIN")
    assert refused.value.codes() == {"name": ["player_label_taken"]}
    assert Player.objects.filter(club=club).count() == 1
    # Straight to the database: the constraint itself.
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="x", nickname="zoé martin")


@pytest.mark.django_db
def test_renaming_onto_a_taken_label_is_refused_even_past_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = ClubFactory.create()
    services.player_create(club=club, name="Zoé")
    other = services.player_create(club=club, name="Luc")
    monkeypatch.setattr(selectors, "player_label_taken", lambda **kw: False)
    with pytest.raises(Refusal):
        services.player_rename(player=other, name="Luc", nickname="zoé")
    other.refresh_from_db()
    assert (other.nickname, other.label_key) == ("", "luc")


@pytest.mark.django_db(transaction=True)
def test_the_same_name_registered_twice_at_once_gives_one_player_and_one_entry() -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 0)

    outcomes = at_once(
        2, lambda: tournament_services.entry_add(tournament=tournament, name="Zoé Martin")
    )

    assert Player.objects.filter(club=club, label_key=label_key("Zoé Martin", "")).count() == 1
    assert Entry.objects.filter(tournament=tournament).count() == 1
    refused = [o for o in outcomes if not isinstance(o, Entry)]
    assert len(refused) == 1 and isinstance(refused[0], TournamentError), outcomes
    assert "already registered" in str(refused[0]) or "déjà inscrit" in str(refused[0])


@pytest.mark.django_db(transaction=True)
def test_four_api_registrations_of_one_name_make_one_player() -> None:
    club = ClubFactory.create()
    tournament = make_tournament(club, 0)
    organiser = MembershipFactory.create(
        club=club, user=UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    url = f"/api/v1/tournaments/{tournament.pk}/entries/"
    clients = [token_client(organiser, "en") for _ in range(4)]
    lock = threading.Lock()

    def register() -> int:
        with lock:
            client = clients.pop()
        return int(client.post(url, {"name": "Zoé Martin"}, format="json").status_code)

    statuses = at_once(4, register)

    assert sorted(statuses) == [201, 400, 400, 400], statuses
    assert Player.objects.filter(club=club, label_key=label_key("Zoé Martin", "")).count() == 1
    assert Entry.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_api_players_of_one_name_at_once_make_one_player() -> None:
    club = ClubFactory.create()
    organiser = MembershipFactory.create(
        club=club, user=UserFactory.create(), role=Membership.Role.ORGANISER
    ).user
    clients = [token_client(organiser, "en") for _ in range(2)]
    lock = threading.Lock()

    def create() -> Any:
        with lock:
            client = clients.pop()
        response = client.post(
            "/api/v1/players/", {"club": club.pk, "name": "Zoé Martin"}, format="json"
        )
        return response.status_code, response.json()

    outcomes = at_once(2, create)

    assert sorted(status for status, _body in outcomes) == [201, 400], outcomes
    refusal = next(body for status, body in outcomes if status == 400)
    assert "already called" in messages_of(refusal)["name"][0]
    assert Player.objects.filter(club=club, label_key=label_key("Zoé Martin", "")).count() == 1


@pytest.mark.django_db
def test_the_migration_tells_todays_duplicates_apart(capsys: pytest.CaptureFixture[str]) -> None:
    club = ClubFactory.create()
    first = services.player_create(club=club, name="Zoé")
    second = services.player_create(club=club, name="Zoe")
    third = services.player_create(club=club, name="Luc")
    elsewhere = services.player_create(club=ClubFactory.create(), name="Zoé")
    # Today's database: no key yet, and two players of the club shown as "Zoé"/"ZOÉ".
    Player.objects.filter(pk=second.pk).update(name="ZOÉ")
    Player.objects.update(label_key="")

    migration = importlib.import_module("tarot_scores.migrations.0014_player_label_key")
    migration.fill_and_resolve(apps, None)

    shown = {p.pk: (p.label, p.label_key) for p in Player.objects.all()}
    assert shown[first.pk] == ("Zoé", "zoé")
    assert shown[second.pk] == ("ZOÉ (2)", "zoé (2)")
    assert shown[third.pk] == ("Luc", "luc")
    assert shown[elsewhere.pk] == ("Zoé", "zoé")  # another club's: not a duplicate
    assert "'ZOÉ' was taken, now shown as 'ZOÉ (2)'" in capsys.readouterr().out
