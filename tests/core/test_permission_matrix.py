"""The permission matrix: every route of the site (pages and API) called by every role, each
answer compared with the table below, written once as data.

The routes come from the URL configuration itself: a route the table does not classify fails
the test, so a new page or endpoint must say who may use it. Reads are GETs; writes are the
methods the route takes (the superuser's answer tells which: 405 means it takes none), each
sent with a small body (``BODIES``) that passes a permitted caller's checks only as far as a
refusal of the input (400), a refusal of the state (409) or a harmless change. Each request
runs in a savepoint rolled back afterwards, so every role meets the same world.

An answer counts as *allowed* when the caller got past the permission checks (2xx, a
redirect other than to a login page, 400 or 409), as *refused* for 401, 403, 404 or a
redirect to log in. No answer may be a 500.

Routes with a game or a deal are checked on three games: a club game (``@club``), the seated
member's tournament table in an open round (``@open``) and his table of a closed round
(``@closed``). Table-link routes take the role's link: the target table's own (``link``),
another table's of the same round (``link_other``), a closed round's (``link_closed``); an
account holds no link.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tarot_scores.core.models import PreparedPdf
from tests.permission_world import LINKS, ROLES, PermissionWorld, build_permission_world

pytestmark = pytest.mark.django_db

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]

# --- who: sets of roles ---------------------------------------------------------------------

EVERYONE = frozenset(ROLES)
ACCOUNTS = frozenset(ROLES) - {"anonymous"} - LINKS  # any signed-in account
A_MEMBERS = frozenset({"member", "seated", "organiser", "superuser"})
A_ORGANISERS = frozenset({"organiser", "superuser"})
A_REFEREES = A_ORGANISERS | {"referee"}  # the tournament's organisers and referees
CLUB_WRITERS = frozenset({"seated", "organiser", "superuser"})  # a club game's deals
OPEN_TABLE = CLUB_WRITERS | {"referee"}  # a table of an open round: seated, or settling
STAFF = frozenset({"superuser"})
NOBODY: frozenset[str] = frozenset()
LINK_HOLDERS = frozenset({"link", "link_other"})  # links of the open round (own table each)
OWN_LINK = frozenset({"link"})
INVITED = frozenset({"public"})
LINKS_ALL = frozenset(LINKS)
SEATED = frozenset({"seated"})
TABLE_SAY = (
    A_REFEREES | SEATED
)  # a confirmation: the table's players and its referees  # the account A's invitation is for

# Django's admin is its own: staff only, checked on its index; its other pages are Django's.
ADMIN_PREFIX = "admin:"

# --- the table ------------------------------------------------------------------------------
# route (with @variant for game and deal routes) -> method -> who is let through.

EXPECTED: dict[str, dict[str, frozenset[str]]] = {
    "home": {"GET": EVERYONE},
    "healthz": {"GET": EVERYONE},
    "readyz": {"GET": EVERYONE},
    # The installable web app: its manifest, service worker, offline page and icon.
    "manifest": {"GET": EVERYONE},
    "service-worker": {"GET": EVERYONE},
    "offline": {"GET": EVERYONE},
    "favicon": {"GET": EVERYONE},
    "calculator": {"GET": EVERYONE, "POST": EVERYONE},
    "ratings": {"GET": EVERYONE},
    # A PDF drawn by the worker: its page and file, for the one who asked only (the organiser).
    "prepared_pdf": {"GET": frozenset({"organiser"})},
    "prepared_pdf_file": {"GET": frozenset({"organiser"})},
    # Django's admin: staff only, whatever the method.
    "admin:index": {"GET": STAFF, "POST": STAFF, "PUT": STAFF, "PATCH": STAFF, "DELETE": STAFF},
    # Django's language switch and its account pages: anyone (the password change: accounts).
    "set_language": {
        "GET": EVERYONE,
        "POST": EVERYONE,
        "PUT": EVERYONE,
        "PATCH": EVERYONE,
        "DELETE": EVERYONE,
    },
    "api:score": {"POST": EVERYONE},
    "api:token": {"POST": EVERYONE},
    # An account's own tokens (the world's token id 1 is nobody's here: revoking it is 404).
    "api:tokens": {"GET": ACCOUNTS},
    "api:token-detail": {"DELETE": NOBODY},
    "account_tokens": {"GET": ACCOUNTS, "POST": NOBODY},
    "api:clubs": {"GET": EVERYONE, "POST": ACCOUNTS},
    "api:club": {"GET": EVERYONE},
    "api:club-ratings": {"GET": EVERYONE},
    "api:club-leaderboard": {"GET": EVERYONE},
    "api:players": {"GET": EVERYONE, "POST": A_MEMBERS},
    "api:player-stats": {"GET": EVERYONE},
    "api:player-history": {"GET": EVERYONE},
    "api:games": {"GET": EVERYONE, "POST": A_MEMBERS},
    # A game's deals. A club game: seated members and organisers; a tournament table: while
    # its round is open, seated members too; finishing, reopening and anything after the
    # round closed: the tournament's organisers and referees.
    "api:game@club": {"GET": EVERYONE},
    "api:game@open": {"GET": EVERYONE},
    "api:game@closed": {"GET": EVERYONE},
    "api:game-finish@club": {"POST": CLUB_WRITERS},
    "api:game-finish@open": {"POST": A_REFEREES},
    "api:game-finish@closed": {"POST": A_REFEREES},
    "api:game-reopen@club": {"POST": CLUB_WRITERS},
    "api:game-reopen@open": {"POST": A_REFEREES},
    "api:game-reopen@closed": {"POST": A_REFEREES},
    # Its deals listed (a change feed with updated_since): the readers of the club.
    "api:game-deals@club": {"GET": EVERYONE, "POST": CLUB_WRITERS},
    "api:game-deals@open": {"GET": EVERYONE, "POST": OPEN_TABLE},
    "api:game-deals@closed": {"GET": EVERYONE, "POST": A_REFEREES},
    # A club's deals, and the feed of standings: the readers of the club.
    "api:deals": {"GET": EVERYONE},
    "tournaments_api:standings-feed": {"GET": EVERYONE},
    "api:deal@club": {
        "GET": EVERYONE,
        "PUT": CLUB_WRITERS,
        "PATCH": CLUB_WRITERS,
        "DELETE": CLUB_WRITERS,
    },
    "api:deal@open": {
        "GET": EVERYONE,
        "PUT": OPEN_TABLE,
        "PATCH": OPEN_TABLE,
        "DELETE": OPEN_TABLE,
    },
    "api:deal@closed": {
        "GET": EVERYONE,
        "PUT": A_REFEREES,
        "PATCH": A_REFEREES,
        "DELETE": A_REFEREES,
    },
    "api:deal-restore@club": {"POST": CLUB_WRITERS},
    "api:deal-restore@open": {"POST": OPEN_TABLE},
    "api:deal-restore@closed": {"POST": A_REFEREES},
    # Webhooks: the club's organisers only (another reader gets 404 for one webhook).
    "api:club-webhooks": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "api:webhook": {"GET": A_ORGANISERS, "PATCH": A_ORGANISERS, "DELETE": A_ORGANISERS},
    "api:webhook-ping": {"POST": A_ORGANISERS},
    "api:webhook-secret": {"POST": A_ORGANISERS},
    "api:webhook-deliveries": {"GET": A_ORGANISERS},
    "api:webhook-delivery-resend": {"POST": A_ORGANISERS},
    "tournaments_api:webhooks": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "api:deal-history@club": {"GET": EVERYONE},
    "api:deal-history@open": {"GET": EVERYONE},
    "api:deal-history@closed": {"GET": EVERYONE},
    "tournaments_api:tournaments": {"GET": EVERYONE, "POST": A_ORGANISERS},
    "tournaments_api:tournament": {"GET": EVERYONE},
    "tournaments_api:entries": {"GET": EVERYONE, "POST": A_ORGANISERS},
    "tournaments_api:entry": {"GET": EVERYONE, "PATCH": A_ORGANISERS},
    "tournaments_api:referees": {"GET": A_REFEREES, "POST": A_ORGANISERS},
    "tournaments_api:referee": {"DELETE": A_ORGANISERS},
    # Penalties: the tournament's organisers and referees list, give and remove them.
    "tournaments_api:penalties": {"GET": A_REFEREES, "POST": A_REFEREES},
    "tournaments_api:penalty": {"DELETE": A_REFEREES},
    "tournaments_api:rounds": {"GET": EVERYONE, "POST": A_ORGANISERS},
    "tournaments_api:round-start": {"POST": A_ORGANISERS},
    "tournaments_api:round-close": {"POST": A_ORGANISERS},
    "tournaments_api:round-swap": {"POST": A_ORGANISERS},
    # A championship's cut after a round: its organisers and referees preview, make and undo
    # it (round 2 is open: the answer is 409 for them).
    "tournaments_api:round-cut": {"GET": A_REFEREES, "POST": A_REFEREES, "DELETE": A_REFEREES},
    # The people of a tournament: pairs kept apart (their reasons may be private) and
    # substitutes are the organisers'; the substitutes' standings are as public as the others.
    "tournaments_api:round-substitute": {"POST": A_ORGANISERS},
    "tournaments_api:apart-pairs": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "tournaments_api:apart-pair": {"DELETE": A_ORGANISERS},
    "tournaments_api:substitute-standings": {"GET": EVERYONE},
    "tournaments_api:standings": {"GET": EVERYONE},
    "tournaments_api:team-standings": {"GET": EVERYONE},
    # A tournament in rounds has no bracket: 404 for all.
    "tournaments_api:bracket": {"GET": NOBODY},
    # Confirmation at the table (the tournament asks for it from round 2): reading follows the
    # club; confirming, for a player seated at the table or a referee; disagreeing, for a
    # player of the other side (the seated member, here of the defence); settling, for a
    # referee. A club game's deal is no tournament's (404); round 1's deals count as they stand
    # (409 for whoever has a say).
    "tournaments_api:confirmations": {"GET": EVERYONE},
    "tournaments_api:deal-confirm@club": {"POST": NOBODY},
    "tournaments_api:deal-confirm@open": {"POST": TABLE_SAY},
    "tournaments_api:deal-confirm@closed": {"POST": TABLE_SAY},
    "tournaments_api:deal-dispute@club": {"POST": NOBODY},
    "tournaments_api:deal-dispute@open": {"POST": SEATED},
    "tournaments_api:deal-dispute@closed": {"POST": TABLE_SAY},
    "tournaments_api:deal-settle@club": {"POST": NOBODY},
    "tournaments_api:deal-settle@open": {"POST": A_REFEREES},
    "tournaments_api:deal-settle@closed": {"POST": A_REFEREES},
    # A table's link over the API, as on its page: the token is the credential; its own table
    # only, and nothing once its round is closed (reading it still says so).
    "tournaments_api:round-links": {"GET": A_ORGANISERS},
    "tournaments_api:table-link": {"GET": LINKS_ALL},
    "tournaments_api:table-link-deals": {"POST": LINK_HOLDERS},
    "tournaments_api:table-link-deal": {"PATCH": OWN_LINK},
    "tournaments_api:table-link-confirm": {"POST": OWN_LINK},
    "tournaments_api:table-link-dispute": {"POST": OWN_LINK},
    "api-schema": {"GET": EVERYONE},
    "api-docs": {"GET": EVERYONE},
    # Invitations: the page an e-mail opens is for its holder; only the invited account accepts.
    "invitations:list": {"GET": ACCOUNTS},
    "invitations:answer": {"GET": EVERYONE, "POST": INVITED},
    "login": {"GET": EVERYONE, "POST": EVERYONE, "PUT": EVERYONE},
    "logout": {"POST": EVERYONE},
    "password_change": {"GET": ACCOUNTS, "POST": ACCOUNTS, "PUT": ACCOUNTS},
    "password_change_done": {"GET": ACCOUNTS},
    "password_reset": {"GET": EVERYONE, "POST": EVERYONE, "PUT": EVERYONE},
    "password_reset_done": {"GET": EVERYONE},
    "password_reset_confirm": {
        "GET": EVERYONE,
        "POST": EVERYONE,
        "PUT": EVERYONE,
        "PATCH": EVERYONE,
        "DELETE": EVERYONE,
    },
    "password_reset_complete": {"GET": EVERYONE},
    # Accounts a person makes alone (django-allauth); its names for Django's pages answer as
    # those pages. A confirmation key that does not exist confirms nothing (404 on POST).
    "account_signup": {m: EVERYONE for m in METHODS},
    "account_email_verification_sent": {"GET": EVERYONE},
    "account_confirm_email": {"GET": EVERYONE, "POST": NOBODY},
    "account_email": {"GET": ACCOUNTS, "POST": ACCOUNTS, "PUT": ACCOUNTS},
    "account_login": {"GET": EVERYONE, "POST": EVERYONE, "PUT": EVERYONE},
    "account_logout": {"POST": EVERYONE},
    "account_reset_password": {"GET": EVERYONE, "POST": EVERYONE, "PUT": EVERYONE},
    "account_change_password": {"GET": ACCOUNTS, "POST": ACCOUNTS, "PUT": ACCOUNTS},
    "clubs:list": {"GET": EVERYONE, "POST": ACCOUNTS},
    "clubs:detail": {"GET": EVERYONE},
    "clubs:player_new": {"GET": A_MEMBERS, "POST": A_MEMBERS},
    "clubs:players_paste": {"GET": A_MEMBERS, "POST": A_MEMBERS},
    "clubs:player": {"GET": EVERYONE},
    "clubs:player_report": {"GET": EVERYONE},
    "clubs:members": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "clubs:settings": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "clubs:webhooks": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "clubs:webhook": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "clubs:webhook_action": {"POST": A_ORGANISERS},
    "clubs:delivery_resend": {"POST": A_ORGANISERS},
    "clubs:rules": {"GET": EVERYONE, "POST": A_ORGANISERS},
    "clubs:rules@one": {"GET": EVERYONE, "POST": A_ORGANISERS},
    "clubs:game_new": {"GET": A_MEMBERS, "POST": A_MEMBERS},
    "clubs:leaderboard": {"GET": EVERYONE},
    "clubs:records": {"GET": EVERYONE},
    "clubs:ratings": {"GET": EVERYONE},
    "clubs:season_report": {"GET": EVERYONE},
    "games:detail@club": {"GET": EVERYONE},
    "games:detail@open": {"GET": EVERYONE},
    "games:detail@closed": {"GET": EVERYONE},
    "games:deal_new@club": {"GET": CLUB_WRITERS, "POST": CLUB_WRITERS},
    "games:deal_new@open": {"GET": OPEN_TABLE, "POST": OPEN_TABLE},
    "games:deal_new@closed": {"GET": A_REFEREES, "POST": A_REFEREES},
    "games:deal_preview@club": {"POST": CLUB_WRITERS},
    "games:deal_preview@open": {"POST": OPEN_TABLE},
    "games:deal_preview@closed": {"POST": A_REFEREES},
    "games:status@club": {"POST": CLUB_WRITERS},
    "games:status@open": {"POST": A_REFEREES},
    "games:status@closed": {"POST": A_REFEREES},
    "games:csv@club": {"GET": EVERYONE},
    "games:csv@open": {"GET": EVERYONE},
    "games:csv@closed": {"GET": EVERYONE},
    "games:pdf@club": {"GET": EVERYONE},
    "games:pdf@open": {"GET": EVERYONE},
    "games:pdf@closed": {"GET": EVERYONE},
    "games:deal_edit@club": {"GET": CLUB_WRITERS, "POST": CLUB_WRITERS},
    "games:deal_edit@open": {"GET": OPEN_TABLE, "POST": OPEN_TABLE},
    "games:deal_edit@closed": {"GET": A_REFEREES, "POST": A_REFEREES},
    "games:deal_delete@club": {"POST": CLUB_WRITERS},
    "games:deal_delete@open": {"POST": OPEN_TABLE},
    "games:deal_delete@closed": {"POST": A_REFEREES},
    # Undo of a deal just saved: a deletion, with the same rights.
    "games:deal_undo@club": {"POST": CLUB_WRITERS},
    "games:deal_undo@open": {"POST": OPEN_TABLE},
    "games:deal_undo@closed": {"POST": A_REFEREES},
    "games:deal_restore@club": {"POST": CLUB_WRITERS},
    "games:deal_restore@open": {"POST": OPEN_TABLE},
    "games:deal_restore@closed": {"POST": A_REFEREES},
    "games:deal_history@club": {"GET": EVERYONE},
    "games:deal_history@open": {"GET": EVERYONE},
    "games:deal_history@closed": {"GET": EVERYONE},
    "tournaments:list": {"GET": EVERYONE},
    "tournaments:new": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "tournaments:detail": {"GET": EVERYONE},
    "tournaments:registration": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    "tournaments:entry_check_in": {"POST": A_ORGANISERS},
    "tournaments:entry_withdraw": {"POST": A_ORGANISERS},
    "tournaments:entry_series": {"POST": A_ORGANISERS},
    # The players' cards (PINs and personal links): organisers only; a card's personal link
    # with a forged token is refused to all (test_player_cards opens real ones).
    "tournaments:player_cards": {"GET": A_ORGANISERS},
    "tournaments:entry_card_new": {"POST": A_ORGANISERS},
    "tournaments:player_card": {"GET": NOBODY},
    "tournaments:team_new": {"POST": A_ORGANISERS},
    "tournaments:apart_pair_new": {"POST": A_ORGANISERS},
    "tournaments:apart_pair_remove": {"POST": A_ORGANISERS},
    "tournaments:round_substitute": {"POST": A_ORGANISERS},
    "tournaments:referees": {"GET": A_REFEREES, "POST": A_ORGANISERS},
    "tournaments:penalties": {"GET": A_REFEREES, "POST": A_REFEREES},
    "tournaments:webhooks": {"GET": A_ORGANISERS, "POST": A_ORGANISERS},
    # The referee's page of deals to confirm and disputes, and what he does there.
    "tournaments:referee": {"GET": A_REFEREES},
    "tournaments:referee_pin_unlock": {"POST": A_REFEREES},
    "tournaments:referee_confirm@club": {"POST": NOBODY},
    "tournaments:referee_confirm@open": {"POST": A_REFEREES},
    "tournaments:referee_confirm@closed": {"POST": A_REFEREES},
    "tournaments:referee_settle@club": {"POST": NOBODY},
    "tournaments:referee_settle@open": {"POST": A_REFEREES},
    "tournaments:referee_settle@closed": {"POST": A_REFEREES},
    "tournaments:referee_deal_edit@club": {"GET": NOBODY, "POST": NOBODY},
    "tournaments:referee_deal_edit@open": {"GET": A_REFEREES, "POST": A_REFEREES},
    "tournaments:referee_deal_edit@closed": {"GET": A_REFEREES, "POST": A_REFEREES},
    "tournaments:referee_deal_preview@club": {"POST": NOBODY},
    "tournaments:referee_deal_preview@open": {"POST": A_REFEREES},
    "tournaments:referee_deal_preview@closed": {"POST": A_REFEREES},
    "tournaments:round_seat": {"POST": A_ORGANISERS},
    "tournaments:round": {"GET": EVERYONE},
    "tournaments:round_swap": {"POST": A_ORGANISERS},
    "tournaments:round_table_new_link": {"POST": A_ORGANISERS},
    "tournaments:round_start": {"POST": A_ORGANISERS},
    "tournaments:round_close": {"POST": A_ORGANISERS},
    # The "Cut after round k" page: the tournament's organisers and referees.
    "tournaments:cut": {"GET": A_REFEREES, "POST": A_REFEREES},
    "tournaments:table_sheets_pdf": {"GET": A_ORGANISERS},
    "tournaments:seating_pdf": {"GET": EVERYONE},
    "tournaments:standings": {"GET": EVERYONE},
    "tournaments:standings_csv": {"GET": EVERYONE},
    "tournaments:standings_pdf": {"GET": EVERYONE},
    "tournaments:projector": {"GET": EVERYONE},
    # A tournament in rounds has no bracket: 404 for all.
    "tournaments:bracket": {"GET": NOBODY},
    "tournaments:bracket_pdf": {"GET": NOBODY},
    # A duplicate tournament's boards (travellers) and movement, asked of the world's duplicate
    # tournament: read as the standings are (a tournament in rounds has none: 404).
    "tournaments:board": {"GET": EVERYONE},
    "tournaments:board_pdf": {"GET": EVERYONE},
    "tournaments:travellers_pdf": {"GET": EVERYONE},
    "tournaments:movement": {"GET": EVERYONE},
    "tournaments:movement_pdf": {"GET": EVERYONE},
    "tournaments:board_labels_pdf": {"GET": EVERYONE},
    # Table links: only the link's own table (another table's link opens its own table, never
    # this one's deals); a closed round's link takes nothing; accounts hold no link.
    "tournaments:table_entry": {"GET": LINK_HOLDERS, "POST": LINK_HOLDERS},
    "tournaments:table_preview": {"POST": LINK_HOLDERS},
    "tournaments:table_deal_edit": {"GET": OWN_LINK, "POST": OWN_LINK},
    "tournaments:table_deal_undo": {"POST": OWN_LINK},
    # Confirmation on the link: the phone names its holder (any link of the tournament, a
    # closed round's too: it only names him on that phone), then confirms or disagrees with
    # its own table's deals.
    "tournaments:table_holder": {"POST": LINKS_ALL},
    # Opened again (a reload of a refusal's page), any link's confirm address leads back to
    # that link's own table page, which says what that link may do.
    "tournaments:table_deal_confirm": {"GET": LINKS_ALL, "POST": OWN_LINK},
    "tournaments:table_deal_dispute": {"GET": OWN_LINK, "POST": OWN_LINK},
    # The poll that keeps a table's phones in step: any link's own table (asked without htmx,
    # it leads to that link's page, which says what that link may do).
    "tournaments:table_poll": {"GET": LINKS_ALL},
}

# --- bodies of writes -----------------------------------------------------------------------

BODIES: dict[str, Callable[[PermissionWorld], dict[str, Any]]] = {
    "api:games": lambda w: {"club": w.club.pk},
    "api:deals": lambda w: {"club": w.club.pk},
    "tournaments_api:standings-feed": lambda w: {"club": w.club.pk},
    "api:players": lambda w: {"club": w.club.pk},
    "tournaments_api:tournaments": lambda w: {"club": w.club.pk},
    "clubs:members": lambda w: {"action": "add"},
    "games:status": lambda w: {"status": "unknown"},
    "invitations:answer": lambda w: {"action": "accept"},
    "tournaments:referees": lambda w: {"action": "add"},
    "tournaments:penalties": lambda w: {"action": "give"},
}

GAME_VARIANTS = ("club", "open", "closed")
# Routes of duplicate tournaments only: asked of the world's duplicate tournament.
DUPLICATE_ROUTES = {
    "tournaments:board",
    "tournaments:board_pdf",
    "tournaments:travellers_pdf",
    "tournaments:movement",
    "tournaments:movement_pdf",
    "tournaments:board_labels_pdf",
}


def _routes() -> list[tuple[str, list[str]]]:
    """Every named route with its path parameters, from the URL configuration."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns: Any, namespace: str | None, params: list[str]) -> None:
        for pattern in patterns:
            names = list(pattern.pattern.regex.groupindex)
            if isinstance(pattern, URLResolver):
                inner = pattern.namespace
                space = f"{namespace}:{inner}" if namespace and inner else inner or namespace
                walk(pattern.url_patterns, space, params + names)
            elif isinstance(pattern, URLPattern) and pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                found.append((name, params + names))

    walk(get_resolver().url_patterns, None, [])
    unique: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for name, params in found:
        unique[(name, tuple(params))] = params
    return [(name, params) for (name, _p), params in unique.items()]


def _keys(name: str, params: list[str]) -> list[str]:
    gamey = {"game_id", "deal_id"} & set(params) or (
        name.startswith("api:") and ("game" in name or "deal" in name) and "pk" in params
    )
    links = ("tournaments:table", "tournaments_api:table-link")
    if gamey and name != "api:games" and not name.startswith(links):
        return [f"{name}@{variant}" for variant in GAME_VARIANTS]
    if name == "clubs:rules" and "rules_id" in params:
        return ["clubs:rules@one"]
    return [name]


def _kwargs(w: PermissionWorld, key: str, params: list[str], role: str) -> dict[str, Any]:
    name, _at, variant = key.partition("@")
    values: dict[str, Any] = {
        "slug": w.club.slug,
        "player_id": w.player.pk,
        "rules_id": w.house_rules.pk,
        "tournament_id": w.tournament.pk,
        "entry_id": w.entry.pk,
        "number": 2,
        "board": 1,
        "user_id": w.users["referee"].pk,  # type: ignore[union-attr]
        "penalty_id": w.extra["penalty"].pk,
        "pair_id": w.extra["apart_pair"].pk,
        "uidb64": "MQ",
        "content_type_id": "1",
        "object_id": "1",
        "id": "1",
        "app_label": "tarot_scores",
        "url": "nothing",
        "table_number": 1,
        "webhook_id": w.extra["webhook"].pk,
        "delivery_id": w.extra["delivery"].pk,
        "action": "pause",
    }
    if variant in GAME_VARIANTS:
        values["game_id"] = w.games[variant].pk
        values["deal_id"] = w.deals[variant].pk
    if name.startswith(("tournaments:table", "tournaments_api:table-link")):
        values["token"] = w.token(role)
        values["deal_id"] = w.deals["open"].pk
    elif name == "invitations:answer":
        values["token"] = w.invitation.token
    else:
        values["token"] = "no-such-token"
    values["key"] = "no-such-key"  # an e-mail confirmation link (accounts)
    if name in DUPLICATE_ROUTES:
        values["tournament_id"] = w.extra["duplicate"].pk
    if "pk" in params:
        if name in ("prepared_pdf", "prepared_pdf_file"):
            values["pk"] = _prepared_pdf(w).pk
        elif name in ("api:club", "api:club-ratings", "api:club-leaderboard", "api:club-webhooks"):
            values["pk"] = w.club.pk
        elif name in ("api:player-stats", "api:player-history"):
            values["pk"] = w.player.pk
        elif name == "api:token-detail":
            values["pk"] = 999_999
        elif name.startswith("api:webhook"):
            values["pk"] = w.extra["webhook"].pk
        elif name.startswith("tournaments_api:"):
            values["pk"] = w.tournament.pk
        elif "deal" in name and "deals" not in name:
            values["pk"] = w.deals[variant].pk
        else:
            values["pk"] = w.games[variant].pk
    return {p: values[p] for p in params}


def _prepared_pdf(w: PermissionWorld) -> PreparedPdf:
    """A PDF the worker drew for the organiser."""
    if "prepared" not in w.extra:
        w.extra["prepared"] = PreparedPdf.objects.create(
            kind="tournament_table_sheets",
            filename="tables.pdf",
            owner=w.users["organiser"],
            ready_at=timezone.now(),
            content=b"%PDF-1.4",
        )
    prepared: PreparedPdf = w.extra["prepared"]
    return prepared


def _allowed(response: Any) -> bool:
    if response.status_code in (301, 302, 303):
        target = response.get("Location", "")
        return "/login/" not in target
    return response.status_code not in (401, 403, 404)


def _call(w: PermissionWorld, role: str, method: str, url: str, key: str) -> Any:
    client = w.client(role)
    name = key.partition("@")[0]
    body = BODIES[name](w) if name in BODIES else {}
    with transaction.atomic():
        if name.startswith(("api:", "tournaments_api:")) and method != "GET":
            response = client.generic(
                method, url, json.dumps(body), content_type="application/json"
            )
        elif method == "GET":
            response = client.get(url)
        elif method == "POST":
            response = client.post(url, body)
        else:
            response = client.generic(method, url)
        transaction.set_rollback(True)
    return response


def _matrix(w: PermissionWorld) -> tuple[dict[str, dict[str, set[str]]], list[str]]:
    """What each role was let do on each route, and the answers that were 500."""
    found: dict[str, dict[str, set[str]]] = {}
    crashes: list[str] = []
    for name, params in _routes():
        if name.startswith(ADMIN_PREFIX) and name != "admin:index":
            continue
        for key in _keys(name, params):
            for method in METHODS:
                probe = _call(
                    w,
                    "superuser",
                    method,
                    reverse(name, kwargs=_kwargs(w, key, params, "superuser")),
                    key,
                )
                if probe.status_code == 405:
                    continue
                found.setdefault(key, {})[method] = set()
                for role in ROLES:
                    url = reverse(name, kwargs=_kwargs(w, key, params, role))
                    response = _call(w, role, method, url, key)
                    if response.status_code >= 500:
                        crashes.append(f"{method} {url} as {role}: {response.status_code}")
                    elif _allowed(response):
                        found[key][method].add(role)
    return found, crashes


def test_every_route_answers_every_role_as_the_table_says() -> None:
    w = build_permission_world()
    found, crashes = _matrix(w)
    assert crashes == []
    unclassified = sorted(set(found) - set(EXPECTED))
    assert unclassified == [], f"classify these routes in EXPECTED: {unclassified}"
    wrong = []
    for key, methods in found.items():
        for method, roles in methods.items():
            expected = EXPECTED[key].get(method)
            if expected is None:
                wrong.append(f"{key} {method}: not in the table (let through: {sorted(roles)})")
            elif roles != expected:
                wrong.append(
                    f"{key} {method}: let through {sorted(roles - expected)} too, "
                    f"refused {sorted(expected - roles)}"
                )
    stale = sorted(set(EXPECTED) - set(found))
    assert stale == [], f"the table names routes that do not exist: {stale}"
    assert wrong == []
