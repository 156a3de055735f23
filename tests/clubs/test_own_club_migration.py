"""The migration that gives every existing player his own club: the first club he was listed in
(the one that created him; a guest entry came later), else the club of his first game."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tarot_scores", "0005_player_ratings")]
AFTER = [("tarot_scores", "0006_player_club_invitations_reason")]


@pytest.mark.django_db(transaction=True)
def test_each_player_gets_the_first_club_he_was_listed_in() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club_model, player_model = (
        old.get_model("tarot_scores", "Club"),
        old.get_model("tarot_scores", "Player"),
    )
    home = club_model.objects.create(name="Club A", slug="club-a")
    host = club_model.objects.create(name="Club B", slug="club-b")
    chloe = player_model.objects.create(name="Chloé")
    chloe.clubs.add(home)
    chloe.clubs.add(host)  # registered later as a guest of B's tournament
    xavier = player_model.objects.create(name="Xavier")
    xavier.clubs.add(host)
    alone = player_model.objects.create(name="Personne")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("tarot_scores", "Player")
    assert new.objects.get(pk=chloe.pk).club_id == home.pk
    assert new.objects.get(pk=xavier.pk).club_id == host.pk
    assert new.objects.get(pk=alone.pk).club_id is None

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
