"""Club pages: the list of clubs, a club's page, players, members and house rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import redirect_to_login
from django.contrib.sites.shortcuts import get_current_site
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from tarot_scores.clubs import permissions, selectors, services
from tarot_scores.clubs.forms import (
    ClubForm,
    ClubGamesForm,
    HouseRulesForm,
    MemberAddForm,
    MembershipForm,
    PlayerForm,
    describe_rules,
)
from tarot_scores.clubs.models import Club, HouseRules, Membership
from tarot_scores.core.access import club_for
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.sections import club_page_sections
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games.models import Game
from tarot_scores.games.words import rules_label
from tarot_scores.scoring import PRESETS

GAMES_PER_PAGE = 30


@require_http_methods(["GET", "POST"])
def club_list(request: HtmxHttpRequest) -> HttpResponse:
    """Public clubs and the user's own; logged-in users may start a club."""
    form = ClubForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = ClubForm(request.POST)
        if form.is_valid():
            try:
                club = services.club_create(
                    name=form.cleaned_data["name"],
                    public=form.cleaned_data["public"],
                    by=request.user,
                )
            except Refusal as refusal:
                refusal.add_to_form(form)
            else:
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
    club = club_for(request, slug)
    # A tournament's tables are shown under their tournament (its section), not here.
    page = Paginator(game_selectors.club_loose_games(club=club), GAMES_PER_PAGE).get_page(
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
        "is_member": permissions.is_member(request, club),
        "is_organiser": permissions.is_organiser(request, club),
    }
    template = "tarot_scores/club/detail.html"
    if request.htmx:
        template += "#games"
    else:
        context["sections"] = club_page_sections(request, club)
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def settings(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Organisers: which games besides tarot the club offers for a new game."""
    club = club_for(request, slug)
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    form = ClubGamesForm(request.POST or None, initial={"other_games": club.other_games})
    if request.method == "POST" and form.is_valid():
        try:
            services.club_games_set(club=club, other_games=form.cleaned_data["other_games"])
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            messages.success(request, _("Club settings saved."))
            return redirect("clubs:detail", slug=club.slug)
    return render(
        request,
        "tarot_scores/club/settings.html",
        {"club": club, "form": form},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def player_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    if not permissions.can_add_player(request, club):
        raise PermissionDenied
    form = PlayerForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.player_create(club=club, **form.cleaned_data)
        except Refusal as refusal:
            refusal.add_to_form(form)
        else:
            name = player.label
            messages.success(request, _("%(name)s joins the club's players.") % {"name": name})
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


def _member_added(club: Club, form: MemberAddForm) -> tuple[Membership, bool] | None:
    """Add the member the form names; None, with the reasons beside the fields, if refused."""
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        return services.member_add(
            club=club,
            role=data["role"],
            user=form.user,
            email=data["identifier"],
            player=data["player"],
        )
    except Refusal as refusal:
        refusal.add_to_form(form, {"user": "identifier"})
        return None


@login_required
@require_http_methods(["GET", "POST"])
def members(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Organisers: who is in the club, their role, which player they are; add someone."""
    club = club_for(request, slug)
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    memberships = list(selectors.club_memberships(club=club))
    players = list(selectors.club_players(club=club))
    bound_row: MembershipForm | None = None
    add_form = MemberAddForm(prefix="add", club=club, players=players)

    if request.method == "POST" and request.POST.get("action") == "add":
        add_form = MemberAddForm(request.POST, prefix="add", club=club, players=players)
        added = _member_added(club, add_form)
        if added is not None:
            membership, created = added
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
        )
        if bound_row.is_valid():
            try:
                services.membership_update(
                    membership=target,
                    role=bound_row.cleaned_data["role"],
                    player=bound_row.cleaned_data["player"],
                )
            except Refusal as refusal:
                refusal.add_to_form(bound_row)
            else:
                name = target.user.get_username()
                messages.success(request, _("%(name)s: saved.") % {"name": name})
                return redirect("clubs:members", slug=club.slug)
    elif request.method == "POST":
        raise PermissionDenied  # no such action: a hand-made request

    rows = [
        (
            m,
            bound_row
            if bound_row is not None and bound_row.membership.pk == m.pk
            else MembershipForm(prefix=f"m{m.pk}", membership=m, players=players),
        )
        for m in memberships
    ]
    return render(
        request,
        "tarot_scores/club/members.html",
        {"club": club, "rows": rows, "add_form": add_form},
        status=400 if request.method == "POST" else 200,
    )


@require_http_methods(["GET", "POST"])
def rules(request: HtmxHttpRequest, slug: str, rules_id: int | None = None) -> HttpResponse:
    """The club's rule sets for everyone who may read the club; organisers create and edit."""
    club = club_for(request, slug)
    house_rules = get_object_or_404(HouseRules, club=club, pk=rules_id) if rules_id else None
    can_edit = permissions.is_organiser(request, club)
    form: HouseRulesForm | None = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not can_edit:
            raise PermissionDenied
        form = HouseRulesForm(request.POST, club=club, instance=house_rules)
        if form.is_valid() and form.rule_set is not None:
            try:
                saved = services.house_rules_save(
                    club=club,
                    name=form.cleaned_data["name"],
                    based_on=form.cleaned_data["based_on"],
                    rules=form.rule_set,
                    house_rules=house_rules,
                )
            except Refusal as refusal:
                refusal.add_to_form(form)
            else:
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
        summaries.append((item, describe_rules(item.rule_set(), keys)))
    context = {
        "club": club,
        "house_rules": house_rules,
        "summaries": summaries,
        "details": describe_rules(house_rules.rule_set()) if house_rules is not None else None,
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
    initial = HouseRulesForm.initial_from(house_rules.rule_set())
    initial.update(name=house_rules.name, based_on=house_rules.based_on)
    return initial
