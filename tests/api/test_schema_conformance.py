"""The API against its own OpenAPI schema, with schemathesis: every operation of
``/api/schema/`` is called with generated requests, valid and invalid, anonymously and as an
organiser with a token, in-process through the WSGI application (no server). No answer may be
a 500, and every answer must be one the schema documents: its status code, content type,
headers and body.

The run is reproducible (a fixed seed, no example database) and bounded (``EXAMPLES``
requests per operation and caller: about a minute for each caller on this machine). Half the
requests name objects of a small world seeded first (a club, its players, games with deals, a
finished game, a table of five, a tournament with a round, a knockout), the other half ids
drawn at random, so that the answers are not all 404s; the schema's own examples are sent too.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pytest_django import Settings
from schemathesis.checks import CHECKS as CHECKS_REGISTRY
from schemathesis.checks import load_all_checks, max_response_time
from schemathesis.core.result import Ok
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tarot_scores.api.tokens import token_issue
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tarot_scores.webhooks import services as webhook_services
from tarot_scores.wsgi import application
from tests.factories import PlayerFactory, build_world, garde, play
from tests.queue import database_queue
from tournaments.models import Entry, Table

SEED = 20261125
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "6"))
load_all_checks()
# Every check schemathesis has, but two: the machine's speed (a test never depends on it), and
# "a request the schema allows is accepted", which a schema cannot promise here: what makes a
# deal acceptable is the scoring engine's rules (a taker who sits at the table, 3 to 5 players),
# a cursor is one an answer gave, a token is asked for with real credentials. Such a request is
# refused 400 with the rule's code, as documented.
CHECKS = [
    check
    for check in CHECKS_REGISTRY.get_all()
    if check not in (max_response_time, positive_data_acceptance)
]
# The first segment of a path says what its {id} names.
KIND_OF_PATH = {
    "clubs": "club",
    "players": "player",
    "games": "game",
    "deals": "deal",
    "tournaments": "tournament",
    "auth": "auth_token",
    "tables": "token",
    "webhooks": "webhook",
}


def seed_world() -> tuple[dict[str, list[Any]], Any]:
    """A small world as a real club leaves it, and the ids each path parameter may take."""
    world = build_world(tag="st")
    play(world.round, deals=1)
    club = world.club
    members = list(club.players.order_by("id")[:5])
    four = services.game_create(club=club, players=members[:4], variant="fft", by=None)
    deal = services.deal_record(game=four, payload=garde(members[2].pk), by=None).deal
    services.deal_record(game=four, payload=garde(members[0].pk, points=30), by=None)
    services.deal_delete(deal=deal, version=1, by=None)
    finished = services.game_create(club=club, players=members[:3], variant="fft", by=None)
    services.deal_record(game=finished, payload=garde(members[1].pk, points=60), by=None)
    services.game_set_status(game=finished, status=Game.Status.FINISHED)
    # FFT rules allow both ways at five; a game set up without a choice reads "either".
    services.game_create(club=club, players=members, variant="fft", by=None, imposed=True)
    PlayerFactory.create(name="Zoé", clubs=[club])  # a member who has played no deal yet
    # A webhook with a delivery in its log (the queue is the database's here: nothing is sent).
    webhook = webhook_services.webhook_create(club=club, url="https://93.184.216.34/h", by=None)
    delivery = webhook_services.webhook_ping(webhook=webhook)
    games = list(Game.objects.filter(club=club).values_list("pk", flat=True))
    ids: dict[str, list[Any]] = {
        "club": [club.pk],
        "player": [p.pk for p in members[:3]],
        "game": games,
        "deal": list(Deal.objects.filter(game__club=club).values_list("pk", flat=True)),
        "tournament": [world.tournament.pk, world.knockout.pk],
        "entry": list(
            Entry.objects.filter(tournament=world.tournament).values_list("pk", flat=True)[:3]
        ),
        "number": [1, 2],
        "webhook": [webhook.pk],
        "delivery": [delivery.pk],
        "auth_token": [999_999],  # nobody's: revoking it is the documented 404
        # A table link's token, and its table's deals.
        "token": list(Table.objects.filter(round=world.round).values_list("token", flat=True)),
        "table_deal": list(
            Deal.objects.filter(game__tournament_table__round=world.round).values_list(
                "pk", flat=True
            )
        ),
    }
    return ids, world


def known_path_parameters(path: str, ids: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of seeded ids the path's parameters can take ([] without any)."""
    if "{" not in path:
        return []
    names = {
        "id": KIND_OF_PATH[path.split("/")[3]],
        "token": "token",
        "deal_id": "table_deal",
        "entry_id": "entry",
        "delivery_id": "delivery",
        "number": "number",
    }
    wanted = {name: kind for name, kind in names.items() if "{" + name + "}" in path}
    combinations = itertools.product(*(ids[kind] for kind in wanted.values()))
    return [dict(zip(wanted, values, strict=True)) for values in combinations]


def requests_for(schema: Any, operation: Any, ids: dict[str, list[Any]]) -> Any:
    """Random requests, valid and invalid; the same naming seeded objects; the examples."""
    anything = st.one_of([operation.as_strategy(generation_mode=mode) for mode in GenerationMode])
    known = [
        operation.as_strategy(path_parameters=values)
        for values in known_path_parameters(operation.path, ids)
    ]
    examples = schema.get_strategies_from_examples(operation)
    strategies = [anything, *([st.one_of(known)] if known else []), *examples]
    return st.one_of(strategies)


def run_operation(
    schema: Any, operation: Any, ids: dict[str, list[Any]], headers: dict[str, str]
) -> None:
    @seed(SEED)
    @hypothesis_settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        # No shrinking: a failure is reported as found (the run stays bounded).
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=requests_for(schema, operation, ids))
    def call(case: Any) -> None:
        case.call_and_validate(headers=headers, checks=CHECKS)

    call()


@pytest.fixture
def connection_kept() -> Iterator[None]:
    # The WSGI handler closes the database connection after each request, which would end the
    # test's transaction; Django's own test client disconnects it the same way.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def unthrottled(settings: Settings) -> None:
    # Past 120 requests the calculator would answer 429 (documented, so not a failure): the
    # rest of the run would test nothing more.
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"calculator": None},
    }


__all__ = ["database_queue"]  # a fixture


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["anonymous", "organiser"])
def test_every_operation_answers_as_the_schema_says(
    role: str, connection_kept: None, unthrottled: None, database_queue: None
) -> None:
    # The jobs wait in the database and never run here: the webhooks the run registers (the
    # schema's example is a public address) are never sent to.
    ids, world = seed_world()
    user = world.users[role]
    headers = {} if user is None else {"Authorization": f"Token {token_issue(user=user)}"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    loaded = list(schema.get_all_operations())
    operations = [result.ok() for result in loaded if isinstance(result, Ok)]
    assert len(operations) == len(loaded), "the schema has operations schemathesis cannot read"
    failures: list[str] = []
    for operation in operations:
        try:
            run_operation(schema, operation, ids, headers)
        except (Exception, BaseExceptionGroup) as error:  # every operation is tried
            failures.append(f"{operation.method.upper()} {operation.path}:\n{error}")

    assert len(operations) >= 36
    assert not failures, "\n\n".join(failures)
