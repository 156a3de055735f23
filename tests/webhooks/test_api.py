"""Webhooks over the API: a club's organisers register (the secret in that answer only),
list, change, pause, test, rotate, read the log, send a failed delivery again; a tournament's
own webhooks under the tournament. Anyone else: 401, 403 or 404, as problems."""

import pytest
from django.contrib.auth.models import User

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import Delivery, Webhook
from tests.api.helpers import assert_problem, codes_of
from tests.factories import UserFactory, make_club, make_tournament, token_client
from tests.queue import database_queue
from tournaments.models import TournamentWebhook

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

PUBLIC = "https://93.184.216.34/hook"


def test_register_list_change_and_delete(database_queue: None, club: Club, organiser: User) -> None:
    api = token_client(organiser)
    created = api.post(
        f"/api/v1/clubs/{club.pk}/webhooks/",
        {"url": PUBLIC, "events": ["deal.recorded"]},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    hook = Webhook.objects.get(pk=body["id"])
    assert body["secret"] == hook.secret
    assert body["events"] == ["deal.recorded"] and body["scope"] == "club"

    listed = api.get(f"/api/v1/clubs/{club.pk}/webhooks/").json()
    assert listed["count"] == 1
    assert "secret" not in listed["results"][0]
    assert "secret" not in api.get(f"/api/v1/webhooks/{hook.pk}/").json()

    moved = api.patch(f"/api/v1/webhooks/{hook.pk}/", {"url": "https://10.1.1.1/"}, format="json")
    assert codes_of(assert_problem(moved, 400)) == {"url": ["url_not_public"]}
    hook.refresh_from_db()
    assert hook.url == PUBLIC
    paused = api.patch(f"/api/v1/webhooks/{hook.pk}/", {"active": False}, format="json")
    assert paused.status_code == 200 and paused.json()["active"] is False

    rotated = api.post(f"/api/v1/webhooks/{hook.pk}/secret/")
    hook.refresh_from_db()
    assert rotated.status_code == 200 and rotated.json() == {"secret": hook.secret}

    assert api.delete(f"/api/v1/webhooks/{hook.pk}/").status_code == 204
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("address", "code"),
    [
        ("https://127.0.0.1/hook", "url_not_public"),
        ("https://10.0.0.1/hook", "url_not_public"),
        ("https://169.254.169.254/hook", "url_not_public"),
        ("https://[::1]/hook", "url_not_public"),
        ("https://localhost/hook", "url_not_public"),
        ("http://93.184.216.34/hook", "url_not_https"),
    ],
)
def test_a_refused_address_is_a_problem_with_its_code(
    database_queue: None, club: Club, organiser: User, address: str, code: str
) -> None:
    answer = token_client(organiser, lang="en").post(
        f"/api/v1/clubs/{club.pk}/webhooks/", {"url": address}, format="json"
    )
    assert codes_of(assert_problem(answer, 400)) == {"url": [code]}
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("lang", "message"),
    [
        ("en", "“deal.eaten” is not an event a webhook can choose: choose among deal.recorded, "),
        (
            "fr",
            "« deal.eaten » n'est pas un événement qu'un webhook peut choisir : choisissez parmi ",
        ),
    ],
)
def test_an_unknown_event_is_refused_with_the_events_to_choose_from(
    database_queue: None, club: Club, organiser: User, lang: str, message: str
) -> None:
    answer = token_client(organiser, lang=lang).post(
        f"/api/v1/clubs/{club.pk}/webhooks/",
        {"url": PUBLIC, "events": ["deal.recorded", "deal.eaten"]},
        format="json",
    )
    problem = assert_problem(answer, 400)
    assert codes_of(problem) == {"events.1": ["invalid_choice"]}
    assert problem["detail"].startswith(message)
    assert "tournament.finished." in problem["detail"]
    assert not Webhook.objects.exists()


def test_ping_log_and_resend(database_queue: None, club: Club, organiser: User) -> None:
    api = token_client(organiser)
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    ping = api.post(f"/api/v1/webhooks/{hook.pk}/ping/")
    assert ping.status_code == 202
    assert ping.json()["event"] == "ping" and ping.json()["status"] == "pending"
    log = api.get(f"/api/v1/webhooks/{hook.pk}/deliveries/").json()
    assert log["count"] == 1 and log["results"][0]["event_id"] == ping.json()["event_id"]

    delivery = Delivery.objects.get(webhook=hook)
    resend = f"/api/v1/webhooks/{hook.pk}/deliveries/{delivery.pk}/resend/"
    assert codes_of(assert_problem(api.post(resend), 409)) == {
        "non_field_errors": ["delivery_not_failed"]
    }
    Delivery.objects.filter(pk=delivery.pk).update(status=Delivery.Status.FAILED)
    again = api.post(resend)
    assert again.status_code == 202 and again.json()["status"] == "pending"


def test_who_may(
    database_queue: None, club: Club, private_club: Club, organiser: User, member: User
) -> None:
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    assert_problem(token_client(None).get(f"/api/v1/clubs/{club.pk}/webhooks/"), 401)
    assert_problem(token_client(None).get(f"/api/v1/webhooks/{hook.pk}/"), 401)
    assert_problem(token_client(member).get(f"/api/v1/clubs/{club.pk}/webhooks/"), 403)
    assert_problem(
        token_client(member).post(
            f"/api/v1/clubs/{club.pk}/webhooks/", {"url": PUBLIC}, format="json"
        ),
        403,
    )
    stranger = UserFactory.create(username="sam")
    make_club("Club voisin", stranger, UserFactory.create(username="m3"))
    for who in (member, stranger):
        api = token_client(who)
        assert_problem(api.get(f"/api/v1/webhooks/{hook.pk}/"), 404)
        assert_problem(api.delete(f"/api/v1/webhooks/{hook.pk}/"), 404)
        assert_problem(api.get(f"/api/v1/webhooks/{hook.pk}/deliveries/"), 404)
        assert_problem(api.post(f"/api/v1/webhooks/{hook.pk}/ping/"), 404)
    assert_problem(token_client(stranger).get(f"/api/v1/clubs/{private_club.pk}/webhooks/"), 404)
    assert Webhook.objects.filter(pk=hook.pk).exists()


def test_a_tournaments_own_webhooks(
    database_queue: None, club: Club, organiser: User, member: User
) -> None:
    tournament = make_tournament(club, 8)
    url = f"/api/v1/tournaments/{tournament.pk}/webhooks/"
    assert_problem(token_client(member).get(url), 403)
    api = token_client(organiser)
    created = api.post(url, {"url": PUBLIC}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["scope"] == "tournament" and body["secret"]
    assert TournamentWebhook.objects.get(webhook_id=body["id"]).tournament == tournament
    listed = api.get(url).json()
    assert [row["id"] for row in listed["results"]] == [body["id"]]
    # Managed like the club's.
    assert api.get(f"/api/v1/webhooks/{body['id']}/").status_code == 200
    assert api.get(f"/api/v1/clubs/{club.pk}/webhooks/").json()["count"] == 1


@pytest.mark.parametrize(
    ("lang", "detail"),
    [
        ("en", "The body is too large: a request takes at most 65536 bytes."),
        ("fr", "Le corps de la requête est trop gros : une requête tient en 65536 octets au plus."),
    ],
)
def test_a_body_over_64_kb_is_a_413_that_speaks_of_a_request(
    database_queue: None, club: Club, organiser: User, lang: str, detail: str
) -> None:
    """The guard is every API body's, not only a deal's (it said "a deal takes at most")."""
    answer = token_client(organiser, lang=lang).post(
        f"/api/v1/clubs/{club.pk}/webhooks/",
        {"url": PUBLIC + "?" + "a" * 70_000},
        format="json",
    )
    assert assert_problem(answer, 413)["detail"] == detail
    assert not Webhook.objects.exists()
