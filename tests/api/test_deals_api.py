"""Deals over the API: enter (exact scores, refusals per field in French and English), correct
with a version (409 when stale), delete and restore, history; one deal per number even when two
phones send it at once; and no body at all makes it answer 500."""

from __future__ import annotations

import json
import re
import threading
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tarot_scores.api.calculator import MAX_BODY_BYTES
from tarot_scores.games import services
from tarot_scores.games.models import Deal, DealRevision, Game, ScoreLine
from tarot_scores.stats.models import PlayerSeason
from tests.api.helpers import assert_field_errors, assert_problem, messages_of
from tests.factories import ApiTable, build_api_table, garde
from tests.queue import database_queue

__all__ = ["database_queue"]  # a fixture

POINTS_WHOLE = {
    "en": "At four players the attack's points are always whole: each side holds an even number "
    "of cards.",
    "fr": "À quatre joueurs, les points de l'attaque sont toujours entiers : chaque camp a un "
    "nombre pair de cartes.",
}


def deals_url(game: Game) -> str:
    return f"/api/v1/games/{game.pk}/deals/"


def deal_url(deal: Deal, action: str = "") -> str:
    return f"/api/v1/deals/{deal.pk}/{action}"


def enter(table: ApiTable, body: Any, role: str = "seated", lang: str | None = None) -> Any:
    return table.client(role, lang).post(deals_url(table.game), body, format="json")


def scores(table: ApiTable, *points: int) -> dict[str, int]:
    return {str(pk): p for pk, p in zip(table.ids, points, strict=True)}


def test_the_urls_are_named() -> None:
    assert reverse("api:game-deals", args=[7]) == "/api/v1/games/7/deals/"
    assert reverse("api:deal", args=[8]) == "/api/v1/deals/8/"
    assert reverse("api:deal-restore", args=[8]) == "/api/v1/deals/8/restore/"
    assert reverse("api:deal-history", args=[8]) == "/api/v1/deals/8/history/"


# --- entering deals ---------------------------------------------------------------------------


def test_a_garde_at_four_scores_the_taker_198_and_each_defender_minus_66(table: ApiTable) -> None:
    chloe = table.ids[2]

    response = enter(table, {**garde(chloe), "number": 1})

    assert response.status_code == 201, response.content
    body = response.json()
    deal = Deal.objects.get()
    assert body == {
        "id": deal.pk,
        "game": table.game.pk,
        "number": 1,
        "board": None,  # a duplicate tournament's board; a club game plays none
        "dealer": table.ids[0],
        "payload": garde(chloe),
        "scores": scores(table, -66, -66, 198, -66),
        "version": 1,
        "deleted": False,
        "counted": True,
        "taker": chloe,
        "contract": "garde",
        "won": True,
        "client_id": None,
        "created_at": body["created_at"],
        "updated_at": body["updated_at"],
    }
    # The answer is the deal as stored: what reading it back gives.
    assert body == table.client("seated").get(deal_url(deal)).json()
    assert dict(deal.lines.values_list("player_id", "points"))[chloe] == 198
    assert DealRevision.objects.get().by == table.users["seated"]
    assert PlayerSeason.objects.get(player_id=chloe).points == 198


def test_entering_a_deal_does_not_read_it_back(table: ApiTable, database_queue: None) -> None:
    """The new deal's answer comes from what was just written (deal_record returns its scores;
    the ratings' job that reads it runs later, in a worker, as in production)."""
    with CaptureQueriesContext(connection) as queries:
        response = enter(table, {**garde(table.ids[2]), "number": 1})

    assert response.status_code == 201
    # Reads whose main table is the deal's or its lines', but for the game's last number
    # (read under the lock, before the deal exists).
    reads = [
        q["sql"]
        for q in queries
        if re.match(r'SELECT "tarot_scores_(deal|scoreline)"\.', q["sql"])
        and not q["sql"].startswith('SELECT "tarot_scores_deal"."number" AS "number" FROM')
    ]
    assert reads == []


def test_deals_without_a_number_take_the_next_one(table: ApiTable) -> None:
    numbers = [enter(table, garde(table.ids[0])).json()["number"] for _ in range(3)]

    assert numbers == [1, 2, 3]


def test_petit_au_bout_and_a_handful_count_as_in_the_contract(table: ApiTable) -> None:
    chloe = table.ids[2]
    body = garde(chloe, petit_au_bout="attack", handfuls=[{"player": chloe, "size": "simple"}])

    response = enter(table, body)

    assert response.json()["scores"] == scores(table, -106, -106, 318, -106)


def test_a_called_king_at_five(make_table: Any) -> None:
    table = make_table(players=5)
    game = services.game_create(
        club=table.club, players=table.players, variant="fft", by=None, five_players="called_king"
    )
    bruno, denis = table.ids[1], table.ids[3]
    body = {"taker": bruno, "partner": denis, "contract": "prise", "points": 38, "oudlers": 3}

    response = table.client("organiser").post(deals_url(game), body, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["scores"] == scores(table, -27, 54, -27, 27, -27)


def test_at_five_with_the_dealer_sitting_out_the_dealer_scores_nothing(make_table: Any) -> None:
    table = make_table(players=5)
    game = services.game_create(
        club=table.club, players=table.players, variant="fft", by=None, five_players="sitting_out"
    )
    body = garde(table.ids[2], sitting_out=table.ids[0])

    response = table.client("organiser").post(deals_url(game), body, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["scores"] == scores(table, 0, -66, 198, -66, -66)


def test_at_five_someone_else_than_the_dealer_cannot_sit_out(make_table: Any) -> None:
    table = make_table(players=5)
    game = services.game_create(
        club=table.club, players=table.players, variant="fft", by=None, five_players="sitting_out"
    )
    body = garde(table.ids[2], sitting_out=table.ids[1])

    response = table.client("organiser", "en").post(deals_url(game), body, format="json")

    assert assert_field_errors(response) == {
        "sitting_out": ["At five, the dealer sits out: for this deal, Aurélie."]
    }


def test_a_novatarok_round_by_player_id(make_table: Any) -> None:
    table = make_table(players=3, variant="novatarok")
    ana, boris, cvetka = table.ids
    body = {
        "card_points": {str(ana): 31, str(boris): 12, str(cvetka): 18},
        "trull": ana,
        "pagat": ana,
    }

    response = enter(table, body)

    assert response.status_code == 201, response.content
    assert response.json()["scores"] == scores(table, 71, 12, 18)
    assert response.json()["taker"] is None


def test_a_buraco_hand_by_player_id(make_table: Any) -> None:
    table = make_table(players=4, variant="buraco")
    ana, boris, carla, dario = table.ids
    body = {
        "sides": [
            {
                "players": [ana, carla],
                "table_points": 310,
                "natural_canastas": 1,
                "mixed_canastas": 1,
                "red_threes": 1,
                "went_out": True,
                "took_extra_pile": True,
            },
            {
                "players": [boris, dario],
                "table_points": 180,
                "mixed_canastas": 1,
                "took_extra_pile": True,
                "hand_points": 45,
            },
        ]
    }

    response = enter(table, body)

    assert response.status_code == 201, response.content
    assert response.json()["scores"] == scores(table, 810, 235, 810, 235)


# --- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_engines_refusal_comes_per_field_in_the_readers_language(
    table: ApiTable, lang: str
) -> None:
    response = enter(table, garde(table.ids[2], points=40.5), lang=lang)

    assert assert_field_errors(response) == {"points": [POINTS_WHOLE[lang]]}
    assert not Deal.objects.exists()


def test_french_is_the_default_language(table: ApiTable) -> None:
    response = enter(table, garde(table.ids[2], points=40.5))

    assert assert_field_errors(response) == {"points": [POINTS_WHOLE["fr"]]}


@pytest.mark.parametrize(
    ("lang", "body", "expected"),
    [
        (
            "en",
            {"contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["This field is required."]},
        ),
        (
            "fr",
            {"contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["Ce champ est obligatoire."]},
        ),
        (
            "en",
            {"taker": 999999, "contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["“999999” is not a player at this table."]},
        ),
        (
            "fr",
            {"taker": 999999, "contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["« 999999 » n'est pas un joueur de cette table."]},
        ),
        (
            "en",
            {"taker": "Chloé", "contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["“Chloé” is not a player at this table."]},
        ),
        (
            "en",
            {"taker": True, "contract": "garde", "points": 49, "oudlers": 2},
            {"taker": ["“true” is not a player at this table."]},
        ),
        (
            "en",
            {**garde(0), "taker": "@2", "players": [1, 2, 3, 4], "variant": "fft"},
            {"players": ["Unknown field."], "variant": ["Unknown field."]},
        ),
        ("fr", {**garde(0), "taker": "@2", "dog": "yes"}, {"dog": ["Champ inconnu."]}),
        ("en", [1, 2], {"non_field_errors": ["Expected a JSON object (the deal)."]}),
        ("fr", "garde", {"non_field_errors": ["Attendu : un objet JSON (la donne)."]}),
    ],
)
def test_bad_deals_are_refused_per_field(
    table: ApiTable, lang: str, body: Any, expected: dict[str, list[str]]
) -> None:
    if isinstance(body, dict) and body.get("taker") == "@2":
        body = {**body, "taker": table.ids[2]}

    response = enter(table, body, lang=lang)

    assert assert_field_errors(response) == expected
    assert not Deal.objects.exists()


def test_players_named_by_name_in_handfuls_are_refused(table: ApiTable) -> None:
    body = garde(table.ids[2], handfuls=[{"player": "Chloé", "size": "simple"}])

    response = enter(table, body, lang="en")

    assert assert_field_errors(response) == {"handfuls": ["“Chloé” is not a player at this table."]}


def test_novatarok_card_points_are_keyed_by_player_id(make_table: Any) -> None:
    table = make_table(players=3, variant="novatarok")
    body = {"card_points": {"Aurélie": 31, "²": 1, "9" * 5000: 2}}

    response = enter(table, body, lang="en")

    errors = assert_field_errors(response)
    assert list(errors) == ["card_points"] and len(errors["card_points"]) == 3


@pytest.mark.parametrize(
    ("lang", "number", "message"),
    [
        ("en", 0, "Ensure this value is greater than or equal to 1."),
        ("fr", 0, "Assurez-vous que cette valeur est supérieure ou égale à\xa01."),
        ("en", "deux", "A valid integer is required."),
        ("en", True, "A valid integer is required."),
        ("en", 2.5, "A valid integer is required."),
        ("en", 2**40, "Ensure this value is less than or equal to 2147483647."),
    ],
)
def test_a_bad_deal_number_is_refused(
    table: ApiTable, lang: str, number: Any, message: str
) -> None:
    response = enter(table, {**garde(table.ids[2]), "number": number}, lang=lang)

    assert assert_field_errors(response) == {"number": [message]}


@pytest.mark.parametrize(
    ("body", "content_type", "status"),
    [
        ("{", "application/json", 400),
        ('{"taker": NaN}', "application/json", 400),
        ("[" * 100 + "]" * 100, "application/json", 400),
        ('{"contract": "gar\\u0000de"}', "application/json", 400),
        ('{"contract": "\\ud800"}', "application/json", 400),
        ("taker=1", "application/x-www-form-urlencoded", 415),
        ("", "application/json", 400),
        ('{"label": "' + "x" * MAX_BODY_BYTES + '"}', "application/json", 413),
    ],
)
def test_bodies_the_parser_refuses(
    table: ApiTable, body: str, content_type: str, status: int
) -> None:
    response = table.client("seated").post(deals_url(table.game), body, content_type=content_type)

    errors = assert_field_errors(response, status)
    assert list(errors) == ["non_field_errors"]
    assert not Deal.objects.exists()


# --- numbers taken, finished and full games ---------------------------------------------------


def test_the_same_number_twice_stores_one_deal_and_answers_409_with_it(table: ApiTable) -> None:
    first = enter(table, {**garde(table.ids[2]), "number": 1})

    again = enter(table, {**garde(table.ids[0]), "number": 1}, lang="en")

    assert again.status_code == 409
    body = again.json()
    assert messages_of(body)["non_field_errors"] == ["Deal 1 was just entered from another device."]
    assert body["current"] == first.json()
    assert Deal.objects.count() == 1


def test_a_number_ahead_of_the_sheet_takes_the_next_one(table: ApiTable) -> None:
    response = enter(table, {**garde(table.ids[2]), "number": 7})

    assert response.json()["number"] == 1


def test_a_finished_game_takes_no_deal(table: ApiTable) -> None:
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)

    response = enter(table, garde(table.ids[2]), lang="en")

    assert assert_field_errors(response, 409) == {
        "non_field_errors": ["This game is finished: reopen it to enter or correct deals."]
    }
    assert not Deal.objects.exists()


def test_a_database_still_locked_answers_503_and_stores_nothing(
    table: ApiTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    def locked(**kwargs: Any) -> Deal:
        raise OperationalError("database is locked")

    monkeypatch.setattr(services, "deal_record", locked)

    response = enter(table, garde(table.ids[2]), lang="en")

    assert assert_field_errors(response, 503) == {
        "non_field_errors": ["The database is busy: try again in a moment."]
    }
    assert response.json()["code"] == "database_busy" and response["Retry-After"] == "1"
    assert not Deal.objects.exists()


def test_a_full_table_takes_no_deal(table: ApiTable) -> None:
    game = services.game_create(
        club=table.club, players=table.players, variant="fft", by=None, max_deals=1
    )
    client = table.client("organiser", "en")
    client.post(deals_url(game), garde(table.ids[0]), format="json")

    response = client.post(deals_url(game), garde(table.ids[0]), format="json")

    assert list(assert_field_errors(response, 409)) == ["non_field_errors"]
    assert game.deals.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_phones_sending_deal_1_at_once_store_one_deal() -> None:
    table = build_api_table()
    url = deals_url(table.game)
    clients = [table.client("seated"), table.client("organiser")]
    barrier = threading.Barrier(2)
    answers: list[Any] = []

    def send(client: APIClient, taker: int) -> None:
        try:
            barrier.wait()
            answers.append(client.post(url, {**garde(taker), "number": 1}, format="json"))
        finally:
            connection.close()

    threads = [
        threading.Thread(target=send, args=(client, taker))
        for client, taker in zip(clients, table.ids[:2], strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(a.status_code for a in answers) == [201, 409], [a.content for a in answers]
    saved = next(a.json() for a in answers if a.status_code == 201)
    refused = next(a.json() for a in answers if a.status_code == 409)
    assert refused["current"]["id"] == saved["id"]
    assert Deal.objects.count() == 1 and ScoreLine.objects.count() == 4
    assert DealRevision.objects.count() == 1


# --- corrections ------------------------------------------------------------------------------


def test_a_correction_rescored_with_a_new_version(table: ApiTable) -> None:
    deal = table.record(garde(table.ids[2]))

    response = table.client("seated").patch(
        deal_url(deal), {**garde(table.ids[2], points=56), "version": 1}, format="json"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    # (25 + 15) x 2 = 80 per defender.
    assert body["scores"] == scores(table, -80, -80, 240, -80)
    assert body["version"] == 2 and body["payload"] == garde(table.ids[2], points=56)
    assert PlayerSeason.objects.get(player_id=table.ids[2]).points == 240


def test_a_stale_correction_is_409_with_the_current_deal(table: ApiTable) -> None:
    deal = table.record(garde(table.ids[2]))
    client = table.client("seated", "en")
    client.patch(deal_url(deal), {**garde(table.ids[2], points=56), "version": 1}, format="json")

    response = client.patch(
        deal_url(deal), {**garde(table.ids[0], points=60), "version": 1}, format="json"
    )

    assert response.status_code == 409
    body = response.json()
    assert messages_of(body)["non_field_errors"] == [
        "This deal was changed by someone else (now version 2); here is the newer version."
    ]
    assert body["current"]["version"] == 2
    assert body["current"]["payload"] == garde(table.ids[2], points=56)
    assert body["current"]["scores"] == scores(table, -80, -80, 240, -80)
    assert Deal.objects.get().version == 2


@pytest.mark.parametrize(
    ("lang", "body", "expected"),
    [
        ("en", {"contract": "garde"}, {"version": ["This field is required."]}),
        ("fr", {"contract": "garde"}, {"version": ["Ce champ est obligatoire."]}),
        ("en", {"version": "v1"}, {"version": ["A valid integer is required."]}),
        ("en", {"version": 1, "points": 40.5}, {"points": [POINTS_WHOLE["en"]]}),
        ("fr", {"version": 1, "points": 40.5}, {"points": [POINTS_WHOLE["fr"]]}),
        ("en", {"version": 1, "number": 3}, {"number": ["Unknown field."]}),
    ],
)
def test_a_bad_correction_changes_nothing(
    table: ApiTable, lang: str, body: dict[str, Any], expected: Any
) -> None:
    deal = table.record(garde(table.ids[2]))

    response = table.client("seated", lang).patch(
        deal_url(deal), {**garde(table.ids[2]), **body}, format="json"
    )

    assert assert_field_errors(response) == expected
    assert Deal.objects.get().version == 1


def test_a_deleted_deal_must_be_restored_before_a_correction(table: ApiTable) -> None:
    deal = services.deal_delete(deal=table.record(), version=1, by=None)

    response = table.client("seated", "en").patch(
        deal_url(deal), {**garde(table.ids[2]), "version": 2}, format="json"
    )

    assert assert_field_errors(response, 409) == {
        "non_field_errors": ["This deal is deleted: restore it before correcting it."]
    }


def test_patch_changes_only_the_fields_sent(table: ApiTable) -> None:
    chloe = table.ids[2]
    deal = table.record(garde(chloe, petit_au_bout="attack"))

    response = table.client("seated").patch(
        deal_url(deal), {"version": 1, "points": 56}, format="json"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["payload"] == garde(chloe, points=56, petit_au_bout="attack")
    # (25 + 15) x 2 + 20 for the petit au bout = 100 per defender.
    assert body["scores"] == scores(table, -100, -100, 300, -100)
    assert body["version"] == 2


def test_patch_with_null_clears_a_field(table: ApiTable) -> None:
    chloe = table.ids[2]
    deal = table.record(garde(chloe, petit_au_bout="attack"))

    response = table.client("seated").patch(
        deal_url(deal), {"version": 1, "petit_au_bout": None}, format="json"
    )

    assert response.json()["scores"] == scores(table, -66, -66, 198, -66)


def test_put_replaces_the_whole_deal(table: ApiTable) -> None:
    chloe = table.ids[2]
    deal = table.record(garde(chloe, petit_au_bout="attack"))

    response = table.client("seated").put(
        deal_url(deal), {**garde(chloe, points=56), "version": 1}, format="json"
    )

    assert response.status_code == 200, response.content
    body = response.json()
    # The petit au bout was left out of the deal sent: it is no longer in the deal.
    assert body["payload"] == garde(chloe, points=56)
    assert body["scores"] == scores(table, -80, -80, 240, -80)
    assert body["version"] == 2
    assert DealRevision.objects.filter(deal=deal).count() == 2


def test_put_with_only_some_fields_is_refused_by_the_engine(table: ApiTable) -> None:
    deal = table.record(garde(table.ids[2]))

    response = table.client("seated", "en").put(
        deal_url(deal), {"version": 1, "points": 56}, format="json"
    )

    errors = assert_field_errors(response)
    assert "taker" in errors or "contract" in errors, errors
    assert Deal.objects.get().version == 1


@pytest.mark.parametrize("method", ["put", "patch"])
def test_put_and_patch_need_the_version_read(table: ApiTable, method: str) -> None:
    deal = table.record(garde(table.ids[2]))
    client = table.client("seated", "en")

    missing = getattr(client, method)(deal_url(deal), garde(table.ids[2]), format="json")
    client.patch(deal_url(deal), {"version": 1, "points": 56}, format="json")
    stale = getattr(client, method)(
        deal_url(deal), {**garde(table.ids[0]), "version": 1}, format="json"
    )

    assert assert_field_errors(missing) == {"version": ["This field is required."]}
    assert stale.status_code == 409
    body = stale.json()
    assert body["code"] == "deal_conflict" and "current" in body
    assert body["current"]["version"] == 2
    assert body["current"]["payload"] == garde(table.ids[2], points=56)
    assert Deal.objects.get().version == 2


# --- delete, restore, history -----------------------------------------------------------------


def test_deleting_a_deal_strikes_its_scores_and_keeps_it(table: ApiTable) -> None:
    deal = table.record()

    response = table.client("seated").delete(deal_url(deal) + "?version=1")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["deleted"] is True and body["scores"] is None and body["version"] == 2
    assert body["counted"] is False  # a deleted deal counts nowhere
    assert not ScoreLine.objects.exists()
    assert PlayerSeason.objects.get(player_id=table.ids[2]).points == 0


def test_a_stale_delete_is_409_with_the_current_deal(table: ApiTable) -> None:
    deal = table.record()
    services.deal_update(deal=deal, payload=garde(table.ids[0]), version=1, by=None)

    response = table.client("seated").delete(deal_url(deal) + "?version=1")

    assert response.status_code == 409
    assert response.json()["current"]["version"] == 2
    assert response.json()["current"]["taker"] == table.ids[0]
    assert not Deal.objects.get().is_deleted


@pytest.mark.parametrize(
    ("query", "lang", "message"),
    [
        ("", "en", "This field is required."),
        ("", "fr", "Ce champ est obligatoire."),
        ("?version=abc", "en", "A valid integer is required."),
        ("?version=" + "9" * 40, "en", "Ensure this value is less than or equal to 2147483647."),
    ],
)
def test_a_delete_needs_the_version_read(
    table: ApiTable, query: str, lang: str, message: str
) -> None:
    deal = table.record()

    response = table.client("seated", lang).delete(deal_url(deal) + query)

    assert assert_field_errors(response) == {"version": [message]}
    assert not Deal.objects.get().is_deleted


def test_a_restored_deal_counts_again(table: ApiTable) -> None:
    deal = services.deal_delete(deal=table.record(), version=1, by=None)

    response = table.client("seated").post(deal_url(deal, "restore/"))

    assert response.status_code == 200, response.content
    assert response.json()["scores"] == scores(table, -66, -66, 198, -66)
    assert response.json()["version"] == 3 and response.json()["deleted"] is False


def test_a_deal_cannot_be_restored_into_a_full_table(table: ApiTable) -> None:
    game = services.game_create(
        club=table.club, players=table.players, variant="fft", by=None, max_deals=1
    )
    first = services.deal_record(game=game, payload=garde(table.ids[0]), by=None).deal
    services.deal_delete(deal=first, version=1, by=None)
    services.deal_record(game=game, payload=garde(table.ids[1]), by=None)

    response = table.client("organiser", "en").post(deal_url(first, "restore/"))

    assert list(assert_field_errors(response, 409)) == ["non_field_errors"]
    assert _deleted(first)


def _deleted(deal: Deal) -> bool:
    return Deal.objects.get(pk=deal.pk).is_deleted


@pytest.mark.parametrize("write", ["patch", "put", "delete", "restore"])
def test_a_finished_games_deals_cannot_change(table: ApiTable, write: str) -> None:
    deal = table.record()
    if write == "restore":
        deal = services.deal_delete(deal=deal, version=1, by=None)
    services.game_set_status(game=table.game, status=Game.Status.FINISHED)
    client = table.client("organiser", "en")

    if write in ("patch", "put"):
        response = getattr(client, write)(
            deal_url(deal), {**garde(table.ids[0]), "version": 1}, format="json"
        )
    elif write == "delete":
        response = client.delete(deal_url(deal) + "?version=1")
    else:
        response = client.post(deal_url(deal, "restore/"))

    assert assert_field_errors(response, 409) == {
        "non_field_errors": ["This game is finished: reopen it to enter or correct deals."]
    }
    after = Deal.objects.get(pk=deal.pk)
    assert (after.version, after.taker_id) == (deal.version, deal.taker_id)


def test_a_deal_reads_as_it_was_entered(table: ApiTable) -> None:
    deal = table.record()

    response = APIClient().get(deal_url(deal))

    assert response.status_code == 200
    assert response.json()["scores"] == scores(table, -66, -66, 198, -66)
    assert response.json()["payload"] == garde(table.ids[2])


def test_the_history_lists_every_change_oldest_first(table: ApiTable) -> None:
    client = table.client("seated")
    deal_id = enter(table, garde(table.ids[2])).json()["id"]
    deal = Deal.objects.get(pk=deal_id)
    client.patch(deal_url(deal), {**garde(table.ids[2], points=56), "version": 1}, format="json")
    table.client("organiser").delete(deal_url(deal) + "?version=2")
    client.post(deal_url(deal, "restore/"))

    response = APIClient().get(deal_url(deal, "history/"))

    assert response.status_code == 200
    history = response.json()["results"]
    assert [(r["version"], r["action"], r["by"]) for r in history] == [
        (1, "created", "seated"),
        (2, "edited", "seated"),
        (3, "deleted", "organiser"),
        (4, "restored", "seated"),
    ]
    assert history[0]["scores"] == scores(table, -66, -66, 198, -66)
    assert history[1]["payload"] == garde(table.ids[2], points=56)
    assert history[2]["scores"] == {}
    assert set(history[0]) == {"version", "action", "by", "at", "reason", "payload", "scores"}


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["", "history/"])
def test_an_unknown_deal_is_a_404(path: str) -> None:
    assert APIClient().get(f"/api/v1/deals/424242/{path}").status_code == 404


# --- any body at all: never a 500 -------------------------------------------------------------

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)
FIELDS = [
    "number",
    "taker",
    "partner",
    "sitting_out",
    "contract",
    "points",
    "oudlers",
    "petit_au_bout",
    "handfuls",
    "slam",
    "miseres",
    "card_points",
    "kings",
    "trull",
    "pagat",
    "sides",
    "players",
    "variant",
]
# "@2" stands for the id of the table's third player (ids differ from one database to another);
# names and odd keys too.
SEATS = ["@0", "@1", "@2", "@3"]
PLAYER_LIKE = st.sampled_from([*SEATS, "Chloé", "1", "²"]) | st.integers(min_value=-1, max_value=9)
VALUES = JSON_VALUES | PLAYER_LIKE
DEAL_SHAPED = st.fixed_dictionaries({}, optional={f: VALUES for f in FIELDS})
ONE_FIELD_WRONG = st.sampled_from(
    [
        {"taker": "@2", "contract": "garde", "points": 49, "oudlers": 2, "number": 1},
        {
            "taker": "@2",
            "contract": "prise",
            "points": 41,
            "oudlers": 2,
            "handfuls": [{"player": "@2", "size": "simple"}],
            "petit_au_bout": "defense",
        },
    ]
).flatmap(
    lambda deal: st.tuples(st.sampled_from([*FIELDS, "extra"]), VALUES).map(
        lambda change: {**deal, change[0]: change[1]}
    )
)
BODIES = JSON_VALUES | DEAL_SHAPED | ONE_FIELD_WRONG


def seated(value: Any, ids: list[int]) -> Any:
    """The body with each "@n" replaced by the id of the table's player n."""
    if isinstance(value, str) and value in SEATS:
        return ids[SEATS.index(value)]
    if isinstance(value, list):
        return [seated(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: seated(v, ids) for k, v in value.items()}
    return value


@hypothesis_settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=BODIES,
    lang=st.sampled_from(["fr", "en"]),
    method=st.sampled_from(["post", "patch", "put"]),
)
def test_random_json_is_never_a_500(table: ApiTable, body: Any, lang: str, method: str) -> None:
    client = table.client("organiser", lang)
    body = seated(body, table.ids)
    if method == "post":
        response = client.post(
            deals_url(table.game), json.dumps(body), content_type="application/json"
        )
        assert response.status_code in (201, 400, 409), (body, response.content)
    else:
        deal = Deal.objects.filter(game=table.game).first() or table.record()
        response = getattr(client, method)(
            deal_url(deal), json.dumps(body), content_type="application/json"
        )
        assert response.status_code in (200, 400, 409), (body, response.content)
    if response.status_code >= 400:
        assert_problem(response, response.status_code)
