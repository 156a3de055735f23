"""One home for every rule: each refusal is raised once, by a service (or ``parse_points``), and
the page, the API and a direct service call all give the same one: same field, same message in
the reader's language, the same status as before (400, or 409 for a finished game).

One row per rule. A row's page and API columns send what a person or a client would; the
service column calls the service directly. If the rule broke, the service would not refuse and
the page and the API would store: every row fails.

| rule                         | page (where)             | API                | service           |
|------------------------------|--------------------------|--------------------|-------------------|
| card points "1e1" "+40" "١٢" | deal entry, Points       | POST deals         | deal_record       |
| club name taken              | clubs list, name         | POST clubs         | club_create       |
| player label taken           | new player, name/nickname| POST players       | player_create     |
| house-rules name taken       | rules page, name         | none (no endpoint) | house_rules_save  |
| last organiser steps down    | members page, role       | none (no endpoint) | membership_update |
| a member invited again       | members page, identifier | none (no endpoint) | invitation_create |
| table of the wrong size      | new game, above seats    | POST games         | game_create       |
| five-player mode vs rules    | new game, five players   | POST games         | game_create       |
| a finished game (409)        | deal entry, status note  | POST deals         | deal_record       |
| tournament's five-player mode| new tournament, five mode| POST tournaments   | tournament_create |
| duplicate with teams         | new tournament, team size| POST tournaments   | tournament_create |
| team name taken (any case)   | registration, team name  | none (no endpoint) | team_create       |
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tarot_scores import scoring
from tarot_scores.clubs import services as club_services
from tarot_scores.clubs.models import Club, HouseRules, Membership, Player
from tarot_scores.core.errors import WHOLE, Refusal
from tarot_scores.games import services as game_services
from tarot_scores.games.models import Deal, Game
from tests.api.helpers import codes_of, messages_of
from tests.clubs.helpers import field_errors, non_field_errors, rules_post_data
from tests.factories import (
    ClubFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    make_game,
    token_client,
)
from tests.games.helpers import slot_text, tarot_post
from tournaments.models import Team, Tournament
from tournaments.registration import services as registration_services

pytestmark = pytest.mark.django_db

NAMES = ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"]


@dataclass
class World:
    """A club with one organiser (Olga) and a member (Marc), five players, a rule set "Du
    jeudi" that plays tables of five with a called king, and an open game of four. Marc and Nina
    (not a member) play as players of another club."""

    club: Club
    organiser: User
    membership: Membership
    players: list[Player]
    house_rules: HouseRules
    game: Game
    lang: str
    member: Membership
    nina: User

    def page(self) -> Client:
        client = Client(HTTP_ACCEPT_LANGUAGE=self.lang)
        client.force_login(self.organiser)
        return client

    def api(self, path: str, body: dict[str, Any]) -> Any:
        return token_client(self.organiser, self.lang).post(path, body, format="json")

    def deal(self, **given: Any) -> dict[str, Any]:
        return {"taker": self.players[2].pk, "contract": "garde", "oudlers": 2, **given}


def build_world(lang: str) -> World:
    club = ClubFactory.create(name="Tarot Club de Lyon")
    organiser = UserFactory.create(username="olga")
    membership = MembershipFactory.create(club=club, user=organiser, role=Membership.Role.ORGANISER)
    member = MembershipFactory.create(club=club, user=UserFactory.create(username="marc"))
    nina = UserFactory.create(username="nina")
    other = ClubFactory.create(name="Autre club")
    for user, name in ((member.user, "Marc L."), (nina, "Nina K.")):
        PlayerFactory.create(name=name, clubs=[other], user=user)
    players = [PlayerFactory.create(name=name, clubs=[club]) for name in NAMES]
    called_king = dataclasses.replace(scoring.FFT, five_players=scoring.FivePlayers.CALLED_KING)
    house_rules = club_services.house_rules_save(
        club=club, name="Du jeudi", based_on="fft", rules=called_king
    )
    game = make_game(club=club, players=players[:4])
    return World(club, organiser, membership, players, house_rules, game, lang, member, nina)


# What a page shows, and where: each reads the messages of one place on the page.
Shown = Callable[["World", str], list[str]]


def beside(field_id: str) -> Shown:
    return lambda w, html: field_errors(html, field_id)


def deal_slot(slot: str) -> Shown:
    return lambda w, html: [slot_text(html, slot)] if slot_text(html, slot) else []


def above_the_form(w: World, html: str) -> list[str]:
    return non_field_errors(html)


def status_note(w: World, html: str) -> list[str]:
    found = re.search(
        r'<p class="notice notice-error" role="alert" id="deal-closed">(.*?)</p>', html
    )
    return [unescape(found.group(1))] if found else []


Send = Callable[[World], Any]


@dataclass(frozen=True)
class Case:
    rule: str
    field: str  # the refusal's field, as the service and the API name it
    code: str
    page: Send  # -> response
    shown: Shown  # the messages where the page shows this field
    api: Send | None  # -> response; None: there is no endpoint for it
    service: Send  # -> raises the Refusal
    status: int = 400
    prepare: Send | None = None  # what the world needs first (before anything is counted)


def _points_case(typed: str) -> Case:
    def page(w: World) -> Any:
        url = reverse("games:deal_new", args=[w.game.pk])
        return w.page().post(url, tarot_post(w.players[2].pk, points=typed))

    return Case(
        rule=f"card points {typed!r}",
        field="points",
        code="points_invalid",
        page=page,
        shown=deal_slot("points"),
        api=lambda w: w.api(f"/api/v1/games/{w.game.pk}/deals/", w.deal(points=typed)),
        service=lambda w: game_services.deal_record(
            game=w.game, payload=w.deal(points=typed), by=None
        ),
    )


def _new_game(w: World, seats: list[Player], rules: str, **extra: str) -> Any:
    data = {
        "date": "2026-03-06",
        "rules": rules,
        "players": [str(p.pk) for p in seats],
        **extra,
    }
    return w.page().post(reverse("clubs:game_new", args=[w.club.slug]), data)


def _new_tournament(w: World, **given: str) -> Any:
    data = {
        "name": "Coupe du jeudi",
        "date": "2026-12-20",
        "rules": f"house:{w.house_rules.pk}",
        "format": "rounds",
        "rounds": "3",
        "deals_per_round": "5",
        "round_minutes": "45",
        "seating": "mixing",
        "five_mode": "called_king",
        "team_size": "0",
        "qualifiers_per_table": "2",
        "seed": "7",
        **given,
    }
    return w.page().post(reverse("tournaments:new", args=[w.club.slug]), data)


def _api_tournament(w: World, **given: Any) -> Any:
    body = {"name": "Coupe du jeudi", "club": w.club.pk, "variant": w.house_rules.pk, **given}
    return w.api("/api/v1/tournaments/", body)


def _create_tournament(w: World, **given: Any) -> Tournament:
    return registration_services.tournament_create(
        club=w.club,
        name="Coupe du jeudi",
        by=w.organiser,
        variant="house",
        house_rules=w.house_rules,
        **{"five_mode": "called_king", **given},
    )


def _teams(w: World) -> Tournament:
    """A team event of pairs with two teams' worth of players; "Les Éclairs" is taken."""
    made = Tournament.objects.filter(club=w.club, team_size=2).first()
    if made is not None:
        return made
    tournament = _create_tournament(w, team_size=2)
    entries = [
        registration_services.entry_add(tournament=tournament, name=p.name) for p in w.players[:4]
    ]
    registration_services.team_create(
        tournament=tournament, name="Les Éclairs", entries=entries[:2]
    )
    return tournament


def _team_taken_page(w: World) -> Any:
    tournament = _teams(w)
    free = tournament.entries.filter(team__isnull=True)
    data = {"name": "LES ÉCLAIRS", "members": [str(e.pk) for e in free]}
    return w.page().post(reverse("tournaments:team_new", args=[tournament.pk]), data)


def _team_taken_service(w: World) -> Any:
    tournament = _teams(w)
    free = list(tournament.entries.filter(team__isnull=True))
    return registration_services.team_create(
        tournament=tournament, name="les éclairs", entries=free
    )


def _finished(w: World) -> Game:
    return game_services.game_set_status(game=w.game, status=Game.Status.FINISHED)


CASES = [
    *(_points_case(typed) for typed in ("1e1", "+40", "١٢")),
    Case(
        rule="club name taken (whatever its case)",
        field="name",
        code="club_name_taken",
        page=lambda w: w.page().post(reverse("clubs:list"), {"name": "TAROT club de lyon"}),
        shown=beside("id_name"),
        api=lambda w: w.api("/api/v1/clubs/", {"name": "TAROT club de lyon"}),
        service=lambda w: club_services.club_create(name="TAROT club de lyon", by=w.organiser),
    ),
    Case(
        rule="player label taken",
        field="name",
        code="player_label_taken",
        page=lambda w: w.page().post(
            reverse("clubs:player_new", args=[w.club.slug]), {"name": "chloé"}
        ),
        shown=beside("id_name"),
        api=lambda w: w.api("/api/v1/players/", {"club": w.club.pk, "name": "chloé"}),
        service=lambda w: club_services.player_create(club=w.club, name="chloé"),
    ),
    Case(
        rule="player nickname taken",
        field="nickname",
        code="player_label_taken",
        page=lambda w: w.page().post(
            reverse("clubs:player_new", args=[w.club.slug]),
            {"name": "Bruno Martin", "nickname": "Bruno"},
        ),
        shown=beside("id_nickname"),
        api=lambda w: w.api(
            "/api/v1/players/", {"club": w.club.pk, "name": "Bruno Martin", "nickname": "Bruno"}
        ),
        service=lambda w: club_services.player_create(
            club=w.club, name="Bruno Martin", nickname="Bruno"
        ),
    ),
    Case(
        rule="house-rules name taken",
        field="name",
        code="rule_set_name_taken",
        page=lambda w: w.page().post(
            reverse("clubs:rules", args=[w.club.slug]), rules_post_data("DU JEUDI")
        ),
        shown=beside("id_name"),
        api=None,
        service=lambda w: club_services.house_rules_save(
            club=w.club, name="du jeudi", based_on="fft", rules=scoring.FFT
        ),
    ),
    Case(
        rule="the last organiser steps down",
        field="role",
        code="last_organiser",
        page=lambda w: w.page().post(
            reverse("clubs:members", args=[w.club.slug]),
            {
                "action": "update",
                "membership": str(w.membership.pk),
                f"m{w.membership.pk}-role": "member",
                f"m{w.membership.pk}-player": "",
            },
        ),
        shown=lambda w, html: field_errors(html, f"id_m{w.membership.pk}-role"),
        api=None,
        service=lambda w: club_services.membership_update(membership=w.membership, role="member"),
    ),
    Case(
        rule="a member added again",
        field="user",
        code="already_member",
        page=lambda w: w.page().post(
            reverse("clubs:members", args=[w.club.slug]),
            {"action": "add", "add-identifier": "marc", "add-role": "organiser"},
        ),
        shown=beside("id_add-identifier"),
        api=None,
        service=lambda w: club_services.invitation_create(
            club=w.club, by=w.organiser, role="organiser", user=w.member.user
        ),
    ),
    Case(
        rule="a table of the wrong size",
        field="players",
        code="table_size",
        page=lambda w: _new_game(w, w.players[:2], "fft"),
        shown=above_the_form,
        api=lambda w: w.api(
            "/api/v1/games/",
            {"club": w.club.pk, "players": [p.pk for p in w.players[:2]], "variant": "fft"},
        ),
        service=lambda w: game_services.game_create(
            club=w.club, players=w.players[:2], variant="fft", by=w.organiser, imposed=False
        ),
    ),
    Case(
        rule="a five-player mode the rules do not play",
        field="five_players",
        code="five_players_fixed",
        page=lambda w: _new_game(
            w, w.players, f"house:{w.house_rules.pk}", five_players="sitting_out"
        ),
        shown=beside("id_five_players"),
        api=lambda w: w.api(
            "/api/v1/games/",
            {
                "club": w.club.pk,
                "players": [p.pk for p in w.players],
                "variant": w.house_rules.pk,
                "five_players": "sitting_out",
            },
        ),
        service=lambda w: game_services.game_create(
            club=w.club,
            players=w.players,
            variant="house",
            house_rules=w.house_rules,
            five_players="sitting_out",
            by=w.organiser,
            imposed=False,
        ),
    ),
    Case(
        rule="a finished game takes no deal",
        field=WHOLE,
        code="game_finished",
        page=lambda w: (
            _finished(w),
            w.page().post(reverse("games:deal_new", args=[w.game.pk]), tarot_post(w.players[2].pk)),
        )[1],
        shown=status_note,
        api=lambda w: (
            _finished(w),
            w.api(f"/api/v1/games/{w.game.pk}/deals/", w.deal(points=49)),
        )[1],
        service=lambda w: (
            _finished(w),
            game_services.deal_record(game=w.game, payload=w.deal(points=49), by=None),
        ),
        status=409,
    ),
    Case(
        rule="a tournament's five-player mode the rules do not play",
        field="five_mode",
        code="five_mode_fixed",
        page=lambda w: _new_tournament(w, five_mode="sitting_out"),
        shown=beside("id_five_mode"),
        api=lambda w: _api_tournament(w, five_mode="sitting_out"),
        service=lambda w: _create_tournament(w, five_mode="sitting_out"),
    ),
    Case(
        rule="a duplicate tournament of teams",
        field="team_size",
        code="duplicate_team_size",
        page=lambda w: _new_tournament(w, format="duplicate", team_size="2"),
        shown=beside("id_team_size"),
        api=lambda w: _api_tournament(w, format="duplicate", team_size=2),
        service=lambda w: _create_tournament(w, format="duplicate", team_size=2),
    ),
    Case(
        rule="a team name taken (whatever its case)",
        field="name",
        code="team_name_taken",
        page=_team_taken_page,
        shown=beside("id_name"),
        api=None,
        service=_team_taken_service,
        prepare=_teams,
    ),
]

COUNTS = (Club, Player, HouseRules, Game, Deal, Tournament, Team)


def _stored() -> tuple[Any, ...]:
    counts = [model.objects.count() for model in COUNTS]
    links = sorted(Player.objects.filter(user__isnull=False).values_list("pk", "user_id"))
    roles = sorted(Membership.objects.values_list("user_id", "role"))
    return (*counts, tuple(links), tuple(roles))


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.rule)
def test_page_api_and_service_refuse_alike(case: Case, lang: str) -> None:
    with translation.override(lang):
        world = build_world(lang)
        if case.prepare is not None:
            case.prepare(world)
    stored = _stored()

    with translation.override(lang), pytest.raises(Refusal) as refused:
        case.service(world)
    assert refused.value.codes() == {case.field: [case.code]}
    wanted = refused.value.messages()[case.field]
    assert _stored() == stored

    page = case.page(world)
    assert page.status_code == case.status, page.content[:500]
    assert case.shown(world, page.content.decode()) == wanted

    if case.api is not None:
        answer = case.api(world)
        assert answer.status_code == case.status, answer.content
        assert messages_of(answer.json())[case.field] == wanted
        # The API says which rule refused, by the refusal's own stable code.
        assert codes_of(answer.json())[case.field] == [case.code]

    assert _stored() == stored


def test_the_messages_follow_the_readers_language() -> None:
    """The rows above compare the three columns in each language; here, that the two
    languages differ, so that a row could not pass with an untranslated message."""
    world = build_world("fr")
    said: dict[str, str] = {}
    for lang in ("fr", "en"):
        with translation.override(lang), pytest.raises(Refusal) as refused:
            club_services.player_create(club=world.club, name="chloé")
        said[lang] = refused.value.messages()["name"][0]
    assert said == {
        "fr": "Un joueur du club s'appelle déjà « chloé » : ajoutez un surnom.",
        "en": "A player of this club is already called “chloé”: add a nickname.",
    }
