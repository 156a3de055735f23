"""Club pages: the list of clubs, players, members, invitations, settings and house rules. A
club's own page lists its games: ``games.views.club_detail``."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from tarot_scores.clubs import permissions, selectors, services
from tarot_scores.clubs.forms import (
    ClubForm,
    ClubGamesForm,
    HouseRulesForm,
    InvitationAccountForm,
    MemberAddForm,
    MembershipForm,
    PlayerForm,
    PlayersPasteForm,
    describe_rules,
    own_player,
)
from tarot_scores.clubs.models import Club, HouseRules, Invitation, Membership
from tarot_scores.clubs.permissions import club_for
from tarot_scores.core.access import login_first
from tarot_scores.core.accounts import email_confirmed
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.site import site_identity
from tarot_scores.scoring import PRESETS


@require_http_methods(["GET", "HEAD", "POST"])
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
                # The next step of a new club: its players.
                return redirect("clubs:players_paste", slug=club.slug)
    clubs = selectors.clubs_for(user=request.user)
    mine: set[int] = set()
    waiting = 0
    if request.user.is_authenticated:
        mine = set(Membership.objects.filter(user=request.user).values_list("club_id", flat=True))
        waiting = selectors.invitations_for(user=request.user).count()
    context = {
        "clubs": clubs,
        "mine": mine,
        "form": form,
        "waiting": waiting,
        # Someone signed in with no club yet: starting one comes first on the page.
        "start_first": request.user.is_authenticated and not mine,
        "email_confirmed": email_confirmed(request.user),
    }
    return render(
        request,
        "tarot_scores/club/list.html",
        context,
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
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
@require_http_methods(["GET", "HEAD", "POST"])
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


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def players_paste(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Add many players at once: the list is checked first (each bad line or duplicate said
    beside it, nothing stored), then added as a whole on confirmation."""
    club = club_for(request, slug)
    if not permissions.can_add_player(request, club):
        raise PermissionDenied
    form = PlayersPasteForm(request.POST or None)
    roster = None
    if request.method == "POST" and form.is_valid():
        text = form.cleaned_data["players"]
        if request.POST.get("action") == "add":
            try:
                created = services.players_paste(club=club, text=text)
            except Refusal as refusal:
                refusal.add_to_form(form)
            else:
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player joins the club.",
                        "%(count)d players join the club.",
                        len(created),
                    )
                    % {"count": len(created)},
                )
                # A club without a game yet goes on to its first one.
                if not selectors.club_has_played(club=club):
                    return redirect("clubs:game_new", slug=club.slug)
                return redirect("clubs:detail", slug=club.slug)
        else:
            roster = services.players_paste_check(club=club, text=text)
            if not roster.ok:
                services.paste_refusal(roster).add_to_form(form)
    return render(
        request,
        "tarot_scores/club/players_paste.html",
        {"club": club, "form": form, "roster": roster if form.is_valid() else None},
        status=400 if form.is_bound and not form.is_valid() else 200,
    )


def send_invitation(request: HttpRequest, invitation: Invitation) -> None:
    """Mail the invitation's link to its holder: only they see it (never the organiser)."""
    site = site_identity(request)
    link = request.build_absolute_uri(reverse("invitations:answer", args=[invitation.token]))
    context = {"invitation": invitation, "link": link, "site_name": site.name}
    subject = render_to_string("registration/club_invitation_subject.txt", context, request)
    body = render_to_string("registration/club_invitation_email.txt", context, request)
    send_mail(" ".join(subject.split()), body, None, [invitation.email])


def _invited(request: HttpRequest, club: Club, form: MemberAddForm) -> Invitation | None:
    """Invite the person the form names; None, with the reasons beside the fields, if refused."""
    if not form.is_valid():
        return None
    data = form.cleaned_data
    try:
        invitation = services.invitation_create(
            club=club,
            by=request.user,
            role=data["role"],
            user=form.user,
            email="" if form.user is not None else data["identifier"],
            player=data["player"],
        )
    except Refusal as refusal:
        refusal.add_to_form(form, {"user": "identifier", "email": "identifier"})
        return None
    return invitation


def _invitation_sent(request: HttpRequest, invitation: Invitation) -> None:
    """Mail it if there is an address; the organiser learns where it went, never its link."""
    who = invitation.user.get_username() if invitation.user is not None else invitation.email
    if invitation.email:
        send_invitation(request, invitation)
        if invitation.user is None:
            # Typed as an address: whether it has an account here is not said.
            sent = _("An invitation was sent to %(email)s. Nothing changes until they accept.")
        else:
            sent = _(
                "An invitation was sent to %(name)s (%(email)s). Nothing changes until they accept."
            )
        messages.success(request, sent % {"name": who, "email": invitation.email})
    else:
        messages.success(
            request,
            _(
                "%(name)s has no e-mail address: they will find the invitation on their "
                "invitations page when they sign in."
            )
            % {"name": who},
        )


def _member_updated(
    request: HttpRequest, club: Club, target: Membership, form: MembershipForm
) -> bool:
    """Save a member's row: the role at once; another player through an invitation the member
    accepts; no player any more at once (the club's own player loses the account)."""
    if not form.is_valid():
        return False
    wanted = form.cleaned_data["player"]
    current = own_player(target)
    invitation: Invitation | None = None
    try:
        with transaction.atomic():  # a refusal of either leaves the row as it was
            services.membership_update(membership=target, role=form.cleaned_data["role"])
            if wanted is None and current is not None:
                services.player_unlink(club=club, player=current)
            elif wanted is not None and (current is None or wanted.pk != current.pk):
                invitation = services.invitation_create(
                    club=club, by=request.user, user=target.user, player=wanted
                )
    except Refusal as refusal:
        refusal.add_to_form(form)
        return False
    if invitation is not None:
        _invitation_sent(request, invitation)
    return True


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def members(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Organisers: who is in the club, their role, which of the club's own players they are;
    invite someone (they accept by e-mail); invitations waiting for an answer."""
    club = club_for(request, slug)
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    memberships = list(selectors.club_memberships(club=club))
    players = selectors.club_own_players_by_name(club=club)
    bound_row: MembershipForm | None = None
    add_form = MemberAddForm(prefix="add", club=club, players=players)
    action = request.POST.get("action") if request.method == "POST" else None

    if action == "add":
        add_form = MemberAddForm(request.POST, prefix="add", club=club, players=players)
        invitation = _invited(request, club, add_form)
        if invitation is not None:
            _invitation_sent(request, invitation)
            return redirect("clubs:members", slug=club.slug)
    elif action == "update":
        target = next((m for m in memberships if str(m.pk) == request.POST.get("membership")), None)
        if target is None:
            raise Http404
        bound_row = MembershipForm(
            request.POST, prefix=f"m{target.pk}", membership=target, players=players
        )
        if _member_updated(request, club, target, bound_row):
            name = target.user.get_username()
            messages.success(request, _("%(name)s: saved.") % {"name": name})
            return redirect("clubs:members", slug=club.slug)
    elif action == "cancel":
        invitation = get_object_or_404(
            Invitation, club=club, pk=whole_number(request.POST.get("invitation"), default=0)
        )
        try:
            services.invitation_close(invitation=invitation, status=Invitation.Status.CANCELLED)
        except Refusal as refusal:
            messages.error(request, str(refusal))
        else:
            messages.success(request, _("Invitation cancelled."))
        return redirect("clubs:members", slug=club.slug)
    elif request.method == "POST":
        raise PermissionDenied  # no such action: a hand-made request

    rows = [
        (
            m,
            bound_row
            if bound_row is not None and bound_row.membership.pk == m.pk
            else MembershipForm(prefix=f"m{m.pk}", membership=m, players=players),
            getattr(m.user, "player", None),
        )
        for m in memberships
    ]
    context = {
        "club": club,
        "rows": rows,
        "add_form": add_form,
        "pending": selectors.pending_invitations(club=club),
    }
    return render(
        request,
        "tarot_scores/club/members.html",
        context,
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_safe
def my_invitations(request: HtmxHttpRequest) -> HttpResponse:
    """The invitations waiting for the signed-in account's answer."""
    invitations = selectors.invitations_for(user=request.user)
    return render(request, "tarot_scores/club/invitations.html", {"invitations": invitations})


def _answer_page(
    request: HtmxHttpRequest,
    invitation: Invitation,
    *,
    account_form: InvitationAccountForm | None = None,
    status: int = 200,
) -> HttpResponse:
    user = request.user
    signed = user.is_authenticated
    context = {
        "invitation": invitation,
        "club": invitation.club,
        "signed_in": signed,
        "for_other": signed and invitation.user_id is not None and invitation.user_id != user.pk,
        "account_form": account_form
        if account_form is not None
        else (InvitationAccountForm() if not signed and invitation.user_id is None else None),
        "login_url": f"{reverse('login')}?next={request.path}",
    }
    return render(request, "tarot_scores/club/invitation.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_answer(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The page an invitation's e-mail opens: the holder, signed in, accepts or declines;
    someone without an account makes one here (the e-mail proved the address is theirs)."""
    invitation = get_object_or_404(
        Invitation.objects.select_related("club", "player", "user"), token=token
    )
    if request.method in ("GET", "HEAD") or not invitation.is_pending:
        return _answer_page(
            request, invitation, status=200 if request.method in ("GET", "HEAD") else 409
        )
    action = request.POST.get("action")
    user: Any = request.user
    if action == "create" and not user.is_authenticated and invitation.user_id is None:
        form = InvitationAccountForm(request.POST)
        if not form.is_valid():
            return _answer_page(request, invitation, account_form=form, status=400)
        with transaction.atomic():
            user = services.user_create(
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
                email=invitation.email,
            )
            services.invitation_accept(invitation=invitation, user=user)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to %(club)s.") % {"club": invitation.club.name})
        return redirect("clubs:detail", slug=invitation.club.slug)
    if not user.is_authenticated:
        return login_first(request, request.path)
    if invitation.user_id is not None and invitation.user_id != user.pk:
        return _answer_page(request, invitation, status=403)
    try:
        if action == "accept":
            services.invitation_accept(invitation=invitation, user=user)
            messages.success(
                request, _("Invitation accepted: %(club)s.") % {"club": invitation.club.name}
            )
            return redirect("clubs:detail", slug=invitation.club.slug)
        if action == "decline":
            services.invitation_close(invitation=invitation, status=Invitation.Status.DECLINED)
            messages.success(request, _("Invitation declined."))
            return redirect("invitations:list")
    except Refusal as refusal:
        messages.error(request, str(refusal))
        return _answer_page(request, invitation, status=409)
    raise PermissionDenied  # no such action: a hand-made request


@require_http_methods(["GET", "HEAD", "POST"])
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
