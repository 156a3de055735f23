"""The organiser's webhook pages: a club's list and a new webhook (its secret shown once), one
webhook and its delivery log, pause, resume, test, new secret, delete, send again; a
tournament's own list. Only the club's organisers; a private club's outsiders get 404."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tarot_scores.clubs.models import Club
from tarot_scores.webhooks import services
from tarot_scores.webhooks.models import CHOSEN_EVENTS, Delivery, Webhook
from tests.clubs.helpers import field_errors, text_of
from tests.factories import UserFactory, make_club, make_tournament
from tests.queue import database_queue
from tournaments.models import TournamentWebhook

pytestmark = pytest.mark.django_db

__all__ = ["database_queue"]  # a fixture

PUBLIC = "https://93.184.216.34/hook"


def _signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_the_list_and_a_new_webhook_with_its_secret_shown_once(
    database_queue: None, client: Client, club: Club, organiser: User
) -> None:
    _signed_in(client, organiser)
    url = reverse("clubs:webhooks", args=[club.slug])
    listed = client.get(url)
    assert listed.status_code == 200
    assert "Webhooks" in listed.content.decode()

    answer = client.post(url, {"url": PUBLIC, "events": ["deal.recorded", "round.closed"]})
    hook = Webhook.objects.get(club=club)
    page = reverse("clubs:webhook", args=[club.slug, hook.pk])
    # To the webhook's page, which shows the secret this once (and asks not to be cached).
    assert answer.status_code == 302 and answer["Location"] == page
    assert hook.events == ["deal.recorded", "round.closed"]
    shown = client.get(page)
    assert hook.secret in shown.content.decode()
    assert shown["Cache-Control"] == "no-store"
    # Shown once: the webhook's page (reloaded) never shows it again.
    again = client.get(page)
    assert again.status_code == 200
    assert hook.secret not in again.content.decode()
    assert Webhook.objects.count() == 1
    # The events chosen, in words (French by default).
    assert "Donne enregistrée, Tour clos" in text_of(again.content.decode())


@pytest.mark.parametrize(
    ("address", "lang", "message"),
    [
        ("https://127.0.0.1/hook", "en", "private or local network"),
        ("https://192.168.1.1/hook", "fr", "réseau privé ou local"),
        ("http://93.184.216.34/hook", "en", "must start with https://"),
        ("http://93.184.216.34/hook", "fr", "doit commencer par https://"),
    ],
)
def test_a_refused_address_is_said_beside_its_field(
    database_queue: None,
    client: Client,
    club: Club,
    organiser: User,
    address: str,
    lang: str,
    message: str,
) -> None:
    _signed_in(client, organiser)
    answer = client.post(
        reverse("clubs:webhooks", args=[club.slug]),
        {"url": address, "events": ["deal.recorded"]},
        headers={"accept-language": lang},
    )
    assert answer.status_code == 400
    errors = field_errors(answer.content.decode(), "id_url")
    assert errors and message in errors[0]
    assert not Webhook.objects.exists()


def test_the_log_and_every_action(
    database_queue: None, client: Client, club: Club, organiser: User
) -> None:
    _signed_in(client, organiser)
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    page = reverse("clubs:webhook", args=[club.slug, hook.pk])

    def act(action: str) -> None:
        answer = client.post(reverse("clubs:webhook_action", args=[club.slug, hook.pk, action]))
        assert answer.status_code in (200, 302)

    act("ping")
    assert Delivery.objects.filter(webhook=hook, event="ping").count() == 1
    log = client.get(page).content.decode()
    assert 'id="delivery-log"' in log
    act("pause")
    hook.refresh_from_db()
    assert not hook.active
    act("resume")
    hook.refresh_from_db()
    assert hook.active
    old = hook.secret
    answer = client.post(reverse("clubs:webhook_action", args=[club.slug, hook.pk, "secret"]))
    assert answer.status_code == 302 and answer["Location"] == page
    hook.refresh_from_db()
    assert hook.secret != old and hook.secret in client.get(page).content.decode()
    # Reloaded, the page neither shows it again nor makes another.
    assert hook.secret not in client.get(page).content.decode()
    assert Webhook.objects.get(pk=hook.pk).secret == hook.secret

    # A failed delivery: the log offers to send it again.
    delivery = Delivery.objects.get(webhook=hook)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=Delivery.Status.FAILED, attempts=6, last_status_code=500, last_error="Boom 500"
    )
    log = client.get(page).content.decode()
    resend = reverse("clubs:delivery_resend", args=[club.slug, hook.pk, delivery.pk])
    assert resend in log and "Boom 500" in text_of(log)
    assert client.post(resend).status_code == 302
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING

    # htmx asks for the log alone.
    partial = client.get(page, headers={"hx-request": "true"}).content.decode()
    assert partial.lstrip().startswith('<section id="delivery-log"')

    act("delete")
    assert not Webhook.objects.exists()


def test_only_the_clubs_organisers(
    database_queue: None, client: Client, club: Club, organiser: User, member: User
) -> None:
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    pages = [
        reverse("clubs:webhooks", args=[club.slug]),
        reverse("clubs:webhook", args=[club.slug, hook.pk]),
    ]
    _signed_in(client, member)
    for page in pages:
        assert client.get(page).status_code == 403
    assert (
        client.post(
            reverse("clubs:webhook_action", args=[club.slug, hook.pk, "delete"])
        ).status_code
        == 403
    )
    # Another club's organiser: their own club's address does not reach this webhook.
    stranger = UserFactory.create(username="sam")
    theirs = make_club("Club voisin", stranger, UserFactory.create(username="m3"))
    _signed_in(client, stranger)
    assert client.get(reverse("clubs:webhook", args=[theirs.slug, hook.pk])).status_code == 404
    assert client.get(pages[1]).status_code == 403
    assert Webhook.objects.filter(pk=hook.pk).exists()


def test_a_private_clubs_webhooks_do_not_exist_for_outsiders(
    database_queue: None, client: Client, private_club: Club, organiser: User, outsider: User
) -> None:
    hook = services.webhook_create(club=private_club, url=PUBLIC, by=organiser)
    _signed_in(client, outsider)
    assert client.get(reverse("clubs:webhooks", args=[private_club.slug])).status_code == 404
    assert (
        client.get(reverse("clubs:webhook", args=[private_club.slug, hook.pk])).status_code == 404
    )


def test_a_tournaments_own_webhooks(
    database_queue: None, client: Client, club: Club, organiser: User, member: User
) -> None:
    tournament = make_tournament(club, 8)
    url = reverse("tournaments:webhooks", args=[tournament.pk])
    _signed_in(client, member)
    assert client.get(url).status_code == 403
    _signed_in(client, organiser)
    assert client.get(url).status_code == 200
    answer = client.post(url, {"url": PUBLIC, "events": ["standings.changed"]})
    link = TournamentWebhook.objects.get(tournament=tournament)
    page = reverse("clubs:webhook", args=[club.slug, link.webhook.pk])
    assert answer.status_code == 302 and answer["Location"] == page
    assert link.webhook.secret in client.get(page).content.decode()
    assert link.webhook.secret not in client.get(page).content.decode()
    listed = client.get(url).content.decode()
    assert reverse("clubs:webhook", args=[club.slug, link.webhook.pk]) in listed
    # The tournament's pages lead to it.
    assert url in client.get(reverse("tournaments:detail", args=[tournament.pk])).content.decode()


def test_staff_see_the_failed_deliveries_in_the_admin(
    database_queue: None, client: Client, club: Club, organiser: User, superuser: User
) -> None:
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    ok = services.webhook_ping(webhook=hook)
    failed = services.webhook_ping(webhook=hook)
    Delivery.objects.filter(pk=ok.pk).update(status=Delivery.Status.DELIVERED)
    Delivery.objects.filter(pk=failed.pk).update(
        status=Delivery.Status.FAILED, last_error="Le serveur a répondu 502."
    )
    _signed_in(client, superuser)
    page = client.get(reverse("admin:tarot_scores_delivery_changelist") + "?status__exact=failed")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Le serveur a répondu 502." in text
    assert f"/admin/tarot_scores/delivery/{failed.pk}/" in text
    assert f"/admin/tarot_scores/delivery/{ok.pk}/" not in text
    # The secret is not on the webhook's admin page.
    webhook_page = client.get(reverse("admin:tarot_scores_webhook_change", args=[hook.pk]))
    assert webhook_page.status_code == 200
    assert hook.secret not in webhook_page.content.decode()


def test_the_webhooks_page_changes_its_events_and_address(
    database_queue: None, client: Client, club: Club, organiser: User
) -> None:
    _signed_in(client, organiser)
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    secret = hook.secret
    page = reverse("clubs:webhook", args=[club.slug, hook.pk])
    # The form shows the webhook as it is: every event ticked for "every event".
    shown = client.get(page).content.decode()
    assert f'action="{page}"' in shown
    assert shown.count('name="events"') == shown.count('name="events" value') == 9
    assert shown.count("checked") == 9 == len(CHOSEN_EVENTS)

    answer = client.post(
        page,
        {"url": "https://93.184.216.35/other", "events": ["deal.recorded", "round.closed"]},
        headers={"accept-language": "en"},
    )
    assert answer.status_code == 302 and answer["Location"] == page
    hook.refresh_from_db()
    assert hook.url == "https://93.184.216.35/other"
    assert hook.events == ["deal.recorded", "round.closed"]
    assert hook.secret == secret
    assert "Webhook changed." in text_of(client.get(page).content.decode())

    # Every event ticked again: "every event", those added later too.
    every = [str(event) for event in CHOSEN_EVENTS]
    client.post(page, {"url": hook.url, "events": every})
    hook.refresh_from_db()
    assert hook.events == []


@pytest.mark.parametrize(
    ("address", "lang", "message"),
    [
        ("https://10.0.0.1/hook", "en", "private or local network"),
        ("http://93.184.216.34/hook", "fr", "doit commencer par https://"),
    ],
)
def test_a_change_to_a_refused_address_is_said_beside_its_field_and_changes_nothing(
    database_queue: None,
    client: Client,
    club: Club,
    organiser: User,
    address: str,
    lang: str,
    message: str,
) -> None:
    _signed_in(client, organiser)
    hook = services.webhook_create(club=club, url=PUBLIC, by=organiser)
    answer = client.post(
        reverse("clubs:webhook", args=[club.slug, hook.pk]),
        {"url": address, "events": ["deal.recorded"]},
        headers={"accept-language": lang},
    )
    assert answer.status_code == 400
    errors = field_errors(answer.content.decode(), "id_url")
    assert errors and message in errors[0]
    # The form keeps what was typed, open, for another try.
    assert f'value="{address}"' in answer.content.decode()
    hook.refresh_from_db()
    assert hook.url == PUBLIC and hook.events == []


def test_a_secret_replaced_since_is_not_shown(
    database_queue: None, client: Client, club: Club, organiser: User
) -> None:
    """A secret kept for its showing but replaced since (through the API, say) is not shown:
    it no longer signs anything."""
    _signed_in(client, organiser)
    client.post(
        reverse("clubs:webhooks", args=[club.slug]), {"url": PUBLIC, "events": ["deal.recorded"]}
    )
    hook = Webhook.objects.get(club=club)
    old = hook.secret
    services.secret_rotate(webhook=hook)
    shown = client.get(reverse("clubs:webhook", args=[club.slug, hook.pk])).content.decode()
    assert old not in shown and hook.secret not in shown
