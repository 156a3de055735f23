"""Club pages: the list of clubs, a club's games and players, its members, house rules, new
games, the leaderboard and each player's page.

Thin views: forms give the shape, ``services`` write, ``selectors`` read and ``permissions``
decide. A private club answers 404 to anyone outside it, so its existence is not revealed; a
member without the right role gets 403.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import redirect_to_login
from django.contrib.sites.shortcuts import get_current_site
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.formats import date_format
from django.utils.http import urlsafe_base64_encode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tarot_scores import charts, permissions, selectors, services
from tarot_scores.forms_clubs import (
    ClubForm,
    GameForm,
    HouseRulesForm,
    LeaderboardFilterForm,
    MemberAddForm,
    MembershipForm,
    PlayerForm,
    current_season,
    describe_rules,
    season_label,
)
from tarot_scores.forms_deal import rules_label
from tarot_scores.models import Club, Game, HouseRules, Membership
from tarot_scores.scoring import PRESETS
from tarot_scores.views import HtmxHttpRequest

GAMES_PER_PAGE = 30


def _club_for(request: HttpRequest, slug: str) -> Club:
    """The club, if this user may see it; otherwise 404, whether or not it exists."""
    club = get_object_or_404(Club, slug=slug)
    if not permissions.can_view_club(request.user, club):
        raise Http404
    return club


# --- clubs -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def club_list(request: HtmxHttpRequest) -> HttpResponse:
    """Public clubs and the user's own; logged-in users may start a club."""
    form = ClubForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = ClubForm(request.POST)
        if form.is_valid():
            club = services.club_create(
                name=form.cleaned_data["name"], public=form.cleaned_data["public"], by=request.user
            )
            messages.success(request, _("Club %(name)s created.") % {"name": club.name})
            return redirect("clubs:detail", slug=club.slug)
    clubs = selectors.clubs_for(user=request.user)
    mine: set[int] = set()
    if request.user.is_authenticated:
        mine = set(Membership.objects.filter(user=request.user).values_list("club_id", flat=True))
    return render(
        request,
        "tarot_scores/club/list.html",
        {"clubs": clubs, "mine": mine, "form": form},
        status=400 if form.is_bound else 200,
    )


@dataclass(frozen=True)
class GameRow:
    game: Game
    rules: str
    players: list[Any]


@require_GET
def club_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug)
    page = Paginator(selectors.club_games(club=club), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = [
        GameRow(game, rules_label(game), [seat.player for seat in game.seats.all()])
        for game in page.object_list
    ]
    context = {
        "club": club,
        "players": selectors.club_players(club=club),
        "page": page,
        "rows": rows,
        "is_member": permissions.is_member(request.user, club),
        "is_organiser": permissions.is_organiser(request.user, club),
    }
    template = "tarot_scores/club/detail.html"
    if request.htmx:
        template += "#games"
    return render(request, template, context)


# --- players and members ---------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def player_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug)
    if not permissions.can_add_player(request.user, club):
        raise PermissionDenied
    form = PlayerForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        player = services.player_create(club=club, **form.cleaned_data)
        messages.success(request, _("%(name)s joins the club's players.") % {"name": player.label})
        if "another" in request.POST:
            return redirect("clubs:player_new", slug=club.slug)
        return redirect("clubs:detail", slug=club.slug)
    return render(
        request,
        "tarot_scores/club/player_new.html",
        {"club": club, "form": form},
        status=400 if form.is_bound else 200,
    )


def _invitation_link(request: HttpRequest, user: Any) -> str:
    path = reverse(
        "password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return request.build_absolute_uri(path)


def _send_invitation(request: HttpRequest, club: Club, user: Any) -> None:
    """The same mail as a password reset, saying which club added them."""
    site = get_current_site(request)
    context = {
        "club": club,
        "email": user.email,
        "domain": site.domain,
        "site_name": site.name,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": "https" if request.is_secure() else "http",
    }
    subject = render_to_string("registration/invitation_subject.txt", context, request)
    body = render_to_string("registration/password_reset_email.html", context, request)
    send_mail(" ".join(subject.split()), body, None, [user.email])


@login_required
@require_http_methods(["GET", "POST"])
def members(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Organisers: who is in the club, their role, which player they are; add someone."""
    club = _club_for(request, slug)
    if not permissions.is_organiser(request.user, club):
        raise PermissionDenied
    memberships = list(selectors.club_memberships(club=club))
    players = list(selectors.club_players(club=club))
    organisers = sum(1 for m in memberships if m.role == Membership.Role.ORGANISER)
    bound_row: MembershipForm | None = None
    add_form = MemberAddForm(prefix="add", club=club, players=players)

    if request.method == "POST" and request.POST.get("action") == "add":
        add_form = MemberAddForm(request.POST, prefix="add", club=club, players=players)
        if add_form.is_valid():
            data = add_form.cleaned_data
            membership, created = services.member_add(
                club=club,
                role=data["role"],
                user=add_form.user,
                email=data["identifier"],
                player=data["player"],
            )
            user = membership.user
            if created:
                _send_invitation(request, club, user)
                messages.success(
                    request,
                    _(
                        "%(name)s is now a member. An e-mail with this link to choose a "
                        "password was sent to %(email)s: %(link)s"
                    )
                    % {
                        "name": user.get_username(),
                        "email": user.email,
                        "link": _invitation_link(request, user),
                    },
                )
            else:
                messages.success(
                    request, _("%(name)s is now a member.") % {"name": user.get_username()}
                )
            return redirect("clubs:members", slug=club.slug)
    elif request.method == "POST" and request.POST.get("action") == "update":
        target = next((m for m in memberships if str(m.pk) == request.POST.get("membership")), None)
        if target is None:
            raise Http404
        bound_row = MembershipForm(
            request.POST,
            prefix=f"m{target.pk}",
            membership=target,
            players=players,
            organisers=organisers,
        )
        if bound_row.is_valid():
            services.membership_update(
                membership=target,
                role=bound_row.cleaned_data["role"],
                player=bound_row.cleaned_data["player"],
            )
            messages.success(request, _("%(name)s: saved.") % {"name": target.user.get_username()})
            return redirect("clubs:members", slug=club.slug)
    elif request.method == "POST":
        raise PermissionDenied  # no such action: a hand-made request

    rows = [
        (
            m,
            bound_row
            if bound_row is not None and bound_row.membership.pk == m.pk
            else MembershipForm(
                prefix=f"m{m.pk}", membership=m, players=players, organisers=organisers
            ),
        )
        for m in memberships
    ]
    return render(
        request,
        "tarot_scores/club/members.html",
        {"club": club, "rows": rows, "add_form": add_form},
        status=400 if request.method == "POST" else 200,
    )


# --- house rules -----------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def rules(request: HtmxHttpRequest, slug: str, rules_id: int | None = None) -> HttpResponse:
    """The club's rule sets for everyone who may read the club; organisers create and edit."""
    club = _club_for(request, slug)
    house_rules = get_object_or_404(HouseRules, club=club, pk=rules_id) if rules_id else None
    can_edit = permissions.is_organiser(request.user, club)
    form: HouseRulesForm | None = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_edit:
            raise PermissionDenied
        form = HouseRulesForm(request.POST, club=club, instance=house_rules)
        if form.is_valid() and form.rule_set is not None:
            saved = services.house_rules_save(
                club=club,
                name=form.cleaned_data["name"],
                based_on=form.cleaned_data["based_on"],
                rules=form.rule_set,
                house_rules=house_rules,
            )
            messages.success(request, _("Rule set %(name)s saved.") % {"name": saved.name})
            return redirect("clubs:rules", slug=club.slug, rules_id=saved.pk)
    elif can_edit:
        form = HouseRulesForm(
            club=club, instance=house_rules, initial=_rules_initial(request, house_rules)
        )

    all_rules = list(HouseRules.objects.filter(club=club).order_by("name"))
    summaries = []
    for item in all_rules:
        keys = [k for k in item.parameters if k != "name"]
        summaries.append((item, describe_rules(item.rules(), keys)))
    context = {
        "club": club,
        "house_rules": house_rules,
        "summaries": summaries,
        "details": describe_rules(house_rules.rules()) if house_rules is not None else None,
        "form": form,
        "can_edit": can_edit,
    }
    status = 400 if form is not None and form.is_bound else 200
    return render(request, "tarot_scores/club/rules.html", context, status=status)


def _rules_initial(request: HttpRequest, house_rules: HouseRules | None) -> dict[str, Any]:
    """A preset's values (``?based_on=classic`` asks for another), or the rule set's own."""
    asked = request.GET.get("based_on")
    if asked in PRESETS or house_rules is None:
        based_on = asked if asked in PRESETS else "fft"
        initial = HouseRulesForm.initial_from(PRESETS[str(based_on)])
        initial["based_on"] = based_on
        initial["name"] = request.GET.get("name") or (house_rules.name if house_rules else "")
        return initial
    initial = HouseRulesForm.initial_from(house_rules.rules())
    initial.update(name=house_rules.name, based_on=house_rules.based_on)
    return initial


# --- games -----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def game_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug)
    if not permissions.can_create_game(request.user, club):
        raise PermissionDenied
    players = list(selectors.club_players(club=club))
    house_rules = list(HouseRules.objects.filter(club=club).order_by("name"))
    form = GameForm(request.POST or None, club=club, players=players, house_rules=house_rules)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        house = form.chosen_house_rules()
        game = services.game_create(
            club=club,
            players=form.seated,
            variant=form.variant(),
            house_rules=house,
            date=data["date"],
            label=data["label"],
            five_players=data["five_players"],
            by=request.user,
        )
        return redirect("games:detail", game.pk)
    return render(
        request,
        "tarot_scores/club/game_new.html",
        {"club": club, "form": form, "players": players},
        status=400 if form.is_bound else 200,
    )


# --- leaderboard and players -----------------------------------------------------------------

SORT_COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("points", gettext_lazy("Points")),
    ("deals", gettext_lazy("Deals")),
    ("average", gettext_lazy("Average per deal")),
    ("taken", gettext_lazy("Times taker")),
    ("success", gettext_lazy("Success rate")),
]


@require_GET
def leaderboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = _club_for(request, slug)
    # The table only changes when a deal is written, which bumps the club's stats version:
    # drawn once per version, filters and language, then served from the cache.
    # The creation time too: a club id can be reused after a deletion (SQLite), a version can't.
    # And the slug, which the table's links carry and the admin may change.
    filters = urlencode(sorted(request.GET.items()))
    key = (
        f"leaderboard:{club.pk}:{club.slug}:{club.created_at.timestamp()}:{club.stats_version}:"
        f"{get_language()}:{filters}"
    )
    table = cache.get(key)
    if table is None:
        table = render_to_string(
            "tarot_scores/club/_leaderboard.html", _leaderboard_context(request, club)
        )
        cache.set(key, table, LEADERBOARD_SECONDS)
    template = "tarot_scores/club/leaderboard.html"
    if request.htmx:
        template += "#leaderboard"
    return render(request, template, {"club": club, "leaderboard_html": mark_safe(table)})


LEADERBOARD_SECONDS = 600


def _leaderboard_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    url = reverse("clubs:leaderboard", kwargs={"slug": club.slug})
    seasons = selectors.seasons_of(club=club)
    filters = LeaderboardFilterForm(request.GET, club=club, seasons=seasons)
    values = filters.values()
    rows = selectors.leaderboard(
        club=club,
        season=values["season"],
        table_size=values["size"],
        kind=values["kind"],
        sort=values["sort"],
    )
    columns = [
        (key, label, f"{url}?{urlencode(filters.query(sort=key))}") for key, label in SORT_COLUMNS
    ]
    season_text = (
        _("all seasons")
        if values["season"] is None
        else _("season %(season)s") % {"season": season_label(club, values["season"])}
    )
    return {
        "club": club,
        "filters": filters,
        "values": values,
        "rows": rows,
        "columns": columns,
        "season_text": season_text,
        "kind_text": dict(filters.fields["kind"].choices)[values["kind"]],  # type: ignore[attr-defined]
        "sort_text": dict(filters.fields["sort"].choices)[values["sort"]],  # type: ignore[attr-defined]
        "url": url,
    }


@require_GET
def player_detail(request: HtmxHttpRequest, slug: str, player_id: int) -> HttpResponse:
    club = _club_for(request, slug)
    player = get_object_or_404(club.players.all(), pk=player_id)
    season = current_season(club)
    # The whole board (one query) so the row carries the player's rank in the club.
    board = selectors.leaderboard(club=club, season=season)
    row = next((r for r in board if r.player_id == player.pk), None)
    history = selectors.player_history(club=club, player=player)
    # The curve follows tarot games only: other games count points on another scale.
    cumulative: list[tuple[str, int]] = []
    running = 0
    for item in history:
        if item.game.kind == "tarot":
            running += item.total
            cumulative.append((date_format(item.game.date, "SHORT_DATE_FORMAT"), running))
    chart = None
    if cumulative:
        title = _("%(player)s: cumulative tarot total after each game") % {"player": player.label}
        drawing = charts.render_score_chart(cumulative)
        # svg_markup escapes the only text that comes from users (the title).
        chart = mark_safe(charts.svg_markup(drawing, title=title))
    context = {
        "club": club,
        "player": player,
        "row": row,
        "season_text": season_label(club, season),
        "history": [(item, rules_label(item.game)) for item in history],
        "chart": chart,
        "cumulative": cumulative,
    }
    return render(request, "tarot_scores/club/player.html", context)
