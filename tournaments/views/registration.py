"""A club's tournaments, a new tournament, its overview page, and registration on the day:
players added from the club or typed in, checked in with one tap each, late arrivals (who play
from the next round), withdrawals and teams."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import HouseRules, Player
from tarot_scores.clubs.permissions import club_for
from tarot_scores.core.access import login_first
from tarot_scores.core.collation import name_key
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.kinds import variant_label
from tarot_scores.core.numbers import whole_number
from tournaments import errors as tournament_errors
from tournaments import rules as tournament_rules
from tournaments import seating
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for
from tournaments.forms import ApartPairForm, EntryAddForm, TeamForm, TournamentForm
from tournaments.models import Entry, Round, Tournament
from tournaments.people import selectors as people_selectors
from tournaments.registration import services as registration_services
from tournaments.rounds import selectors as round_selectors
from tournaments.rounds import services as round_services
from tournaments.rules import can_referee
from tournaments.views.access import countdown, managed, readable, round_name

TEMPLATES = "tournaments/"


def rules_label(tournament: Tournament) -> str:
    house = tournament.house_rules.name if tournament.house_rules is not None else None
    return variant_label(tournament.variant, house)


# --- a club's tournaments ----------------------------------------------------------------------


@require_safe
def tournament_list(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    tournaments = (
        Tournament.objects.filter(club=club)
        .annotate(players=Count("entries", filter=Q(entries__checked_in=True)))
        .order_by("-date", "-id")
    )
    context = {
        "club": club,
        "tournaments": tournaments,
        "is_organiser": permissions.is_organiser(request, club),
    }
    return render(request, TEMPLATES + "list.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def tournament_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    here = reverse("tournaments:new", args=[slug])
    if not request.user.is_authenticated:
        return login_first(request, here)
    club = club_for(request, slug)
    if not permissions.is_organiser(request, club):
        raise PermissionDenied
    house_rules = list(HouseRules.objects.filter(club=club).order_by("name"))
    form = TournamentForm(request.POST or None, club=club, house_rules=house_rules)
    if request.method == "POST" and form.is_valid():
        tournament = registration_services.tournament_create(
            club=club, by=request.user, **form.service_arguments()
        )
        messages.success(
            request,
            _("%(name)s is created: register the players.") % {"name": tournament.name},
        )
        return redirect("tournaments:registration", tournament_id=tournament.pk)
    return render(
        request,
        TEMPLATES + "new.html",
        {"club": club, "form": form},
        status=400 if form.is_bound else 200,
    )


# --- one tournament ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundLine:
    round: Round
    name: str
    tables: int
    entered: int
    goal: int


def _round_lines(tournament: Tournament) -> list[RoundLine]:
    """Each round with its tables and deals entered (one query, whatever the deals)."""
    rounds = (
        Round.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            entered=Count(
                "tables__game__deals",
                filter=Q(tables__game__deals__deleted_at__isnull=True),
                distinct=True,
            ),
        )
        .order_by("number")
    )
    return [
        RoundLine(
            r,
            round_name(tournament, r.number),
            r.table_count,
            r.entered,
            r.table_count * tournament.deals_per_round,
        )
        for r in rounds
    ]


@require_safe
def detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = readable(request, tournament_id)
    lines = _round_lines(tournament)
    current = lines[-1].round if lines else None
    counts = tournament.entries.aggregate(
        registered=Count("pk"), checked_in=Count("pk", filter=Q(checked_in=True))
    )
    is_organiser = permissions.is_organiser(request, tournament.club)
    context = {
        "tournament": tournament,
        "rules_label": rules_label(tournament),
        "lines": lines,
        "current": current,
        "current_name": round_name(tournament, current.number) if current else "",
        "countdown": countdown(tournament, current),
        "registered": counts["registered"],
        "checked_in": counts["checked_in"],
        "is_organiser": is_organiser,
        "can_referee": can_referee(request, tournament),
        "knockout": format_for(tournament).has_bracket,
        "next_round": tournament_rules.next_round_number(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "can_seat": is_organiser and round_services.next_round_refusal(tournament) is None,
        "can_settle": tournament.require_confirmation and can_referee(request, tournament),
        "confirming": tournament.require_confirmation,
        "waiting": round_selectors.deals_waiting_count(tournament=tournament),
    }
    return render(request, TEMPLATES + "detail.html", context)


# --- registration ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TablePlanWords:
    """The table plan for the players of the next round, in words, or why there is none."""

    players: int
    round_number: int
    words: str
    impossible: str
    byes: int = 0  # when impossible: the fewest who can sit out so that the rest are seated


def _plan(tournament: Tournament) -> TablePlanWords | None:
    number = tournament_rules.next_round_number(tournament)
    fmt = format_for(tournament)
    if fmt.has_bracket and number > 1:
        return None  # the next stage seats the qualifiers, not the checked-in players
    if fmt.has_cuts and number > tournament.rounds:
        return None  # a championship played out (a duplicate session has its own plan)
    count = tournament_rules.entries_playing(tournament, number).count()
    try:
        words = seating.plan_tables(count, allow_threes=tournament.allow_threes).describe(
            engine_language()
        )
    except seating.SeatingError as error:
        byes = 0
        if fmt.seats_byes:
            try:
                byes = seating.fewest_byes(count, allow_threes=tournament.allow_threes)
            except seating.SeatingError:
                byes = 0
        return TablePlanWords(count, number, "", error.message(engine_language()), byes)
    return TablePlanWords(count, number, words, "")


def _can_seat(tournament: Tournament) -> bool:
    return round_services.next_round_refusal(tournament) is None


def _entries(tournament: Tournament) -> list[Entry]:
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "team", "substitute_for__player"
    )
    return sorted(entries, key=lambda e: (name_key(e.player.label), e.pk))


def _candidates(tournament: Tournament, query: str, keep: list[str]) -> list[Player]:
    """The club's players not registered yet, those matching ``query`` and those ticked."""
    players = Player.objects.filter(clubs=tournament.club).exclude(entries__tournament=tournament)
    if query:
        kept = [pk for pk in (whole_number(raw) for raw in keep) if pk is not None]
        players = players.filter(
            Q(name__icontains=query) | Q(nickname__icontains=query) | Q(pk__in=kept)
        )
    return sorted(players.distinct(), key=lambda p: (name_key(p.label), p.pk))


def _registration_context(
    request: HtmxHttpRequest,
    tournament: Tournament,
    *,
    add_form: EntryAddForm | None = None,
    team_form: TeamForm | None = None,
    query: str = "",
    apart_form: ApartPairForm | None = None,
) -> dict[str, Any]:
    entries = _entries(tournament)
    if apart_form is None:
        apart_form = ApartPairForm(entries=entries)
    if add_form is None:
        add_form = EntryAddForm(candidates=_candidates(tournament, query, []))
    if team_form is None and tournament.team_size:
        team_form = _team_form(tournament, entries)
    teams: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.team is not None:
            teams.setdefault(entry.team.name, []).append(entry)
    return {
        "tournament": tournament,
        "entries": entries,
        "checked_in": sum(1 for e in entries if e.checked_in),
        "add_form": add_form,
        "team_form": team_form,
        "teams": sorted(teams.items(), key=lambda t: t[0].casefold()),
        "plan": _plan(tournament),
        "query": query,
        "next_round": tournament_rules.next_round_number(tournament),
        "started": tournament.round_set.exists(),
        "can_seat": _can_seat(tournament),
        "knockout": format_for(tournament).has_bracket,
        "apart_pairs": people_selectors.apart_pairs_listed(tournament=tournament),
        "apart_form": apart_form,
        # A duplicate tournament's field, once its movement is drawn: no check-in, withdrawal
        # or registration offered (each would be refused), the reason said instead.
        "field_fixed": str(duplicate_format.seated_refusal(tournament) or ""),
    }


def _team_form(tournament: Tournament, entries: list[Entry], data: Any = None) -> TeamForm:
    free = [e for e in entries if e.team is None and e.withdrawn_after is None]
    return TeamForm(data, entries=free)


@require_http_methods(["GET", "HEAD", "POST"])
def registration(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    """Organisers: who plays. Tick club players or type new names, then check them in."""
    here = reverse("tournaments:registration", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = managed(request, tournament_id)
    if request.method in ("GET", "HEAD"):
        query = request.GET.get("q", "").strip()[:60]
        keep = request.GET.getlist("players")
        form = EntryAddForm(
            initial={"players": keep, "checked_in": True},
            candidates=_candidates(tournament, query, keep),
        )
        context = _registration_context(request, tournament, add_form=form, query=query)
        # After a new card was issued: the page offers that card alone to print.
        card = whole_number(request.GET.get("card"), minimum=1)
        context["new_card"] = next((e for e in context["entries"] if e.pk == card), None)
        if request.htmx and request.htmx.target == "player-picker":
            return render(request, TEMPLATES + "registration.html#player-picker", context)
        return render(request, TEMPLATES + "registration.html", context)

    form = EntryAddForm(request.POST, candidates=_candidates(tournament, "", []))
    if not form.is_valid():
        context = _registration_context(request, tournament, add_form=form)
        return render(request, TEMPLATES + "registration.html", context, status=400)
    try:
        registration = registration_services.entries_register(
            tournament=tournament,
            players=form.chosen_players(),
            names=form.cleaned_data["new_names"],
            checked_in=form.cleaned_data["checked_in"],
        )
    except tournament_errors.TournamentError as error:
        # All or nothing: the form comes back as typed, with the reason.
        form.add_error(None, str(error))
        context = _registration_context(request, tournament, add_form=form)
        return render(request, TEMPLATES + "registration.html", context, status=400)
    for label in registration.already:
        messages.error(request, _("%(name)s is already registered.") % {"name": label})
    if registration.entries:
        added = ", ".join(entry.player.label for entry in registration.entries)
        messages.success(request, _("Registered: %(names)s.") % {"names": added})
    return redirect(here)


def _entry_or_404(tournament: Tournament, entry_id: int) -> Entry:
    entry = get_object_or_404(
        Entry.objects.select_related("player", "team"), pk=entry_id, tournament=tournament
    )
    entry.tournament = tournament
    return entry


def _entry_changed(request: HtmxHttpRequest, tournament: Tournament, entry: Entry) -> HttpResponse:
    """With htmx, the entry's row and the table plan; otherwise back to the registration page."""
    if not request.htmx:
        return redirect("tournaments:registration", tournament_id=tournament.pk)
    entries = _entries(tournament)
    context = {
        "tournament": tournament,
        "entry": entry,
        "plan": _plan(tournament),
        "checked_in": sum(1 for e in entries if e.checked_in),
        "next_round": tournament_rules.next_round_number(tournament),
        "can_seat": _can_seat(tournament),
        "knockout": format_for(tournament).has_bracket,
        "oob": True,
    }
    return render(request, TEMPLATES + "registration.html#entry-changed", context)


@require_POST
def entry_check_in(request: HtmxHttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """One tap: checked in, or not any more (``checked_in`` = 1 or 0)."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:registration", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    entry = _entry_or_404(tournament, entry_id)
    try:
        registration_services.entry_check_in(
            entry=entry, checked_in=request.POST.get("checked_in") == "1"
        )
    except tournament_errors.TournamentError as error:  # a duplicate's movement is drawn
        return _entry_refused(request, tournament, error)
    return _entry_changed(request, tournament, entry)


def _entry_refused(
    request: HtmxHttpRequest, tournament: Tournament, error: tournament_errors.TournamentError
) -> HttpResponse:
    """The change is refused: the registration page again, with the reason (a full page load
    under htmx too, so the row shows what is stored)."""
    messages.error(request, str(error))
    url = reverse("tournaments:registration", args=[tournament.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@require_POST
def entry_series(request: HtmxHttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """The series the player is ranked in (``series``: a series' value, or empty for none)."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:registration", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    entry = _entry_or_404(tournament, entry_id)
    series = request.POST.get("series", "")
    if series and series not in Entry.Series.values:
        return HttpResponseBadRequest(_("Choose a series from the list."))
    if series != entry.series:
        registration_services.entry_series_set(entry=entry, series=series)
    return _entry_changed(request, tournament, entry)


@require_POST
def entry_withdraw(request: HtmxHttpRequest, tournament_id: int, entry_id: int) -> HttpResponse:
    """The player leaves: not seated from the next round on, keeping the points scored."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("tournaments:registration", args=[tournament_id]))
    tournament = managed(request, tournament_id)
    entry = _entry_or_404(tournament, entry_id)
    if entry.withdrawn_after is None:
        try:
            registration_services.entry_withdraw(entry=entry)
        except tournament_errors.TournamentError as error:  # a duplicate's movement is drawn
            return _entry_refused(request, tournament, error)
        if not request.htmx:
            messages.success(request, _("%(name)s withdrew.") % {"name": entry.player.label})
    return _entry_changed(request, tournament, entry)


@require_POST
def team_new(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    here = reverse("tournaments:registration", args=[tournament_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    tournament = managed(request, tournament_id)
    form = _team_form(tournament, _entries(tournament), request.POST)
    if form.is_valid():
        try:
            team = registration_services.team_create(
                tournament=tournament,
                name=form.cleaned_data["name"],
                entries=form.chosen_entries(),
            )
        except tournament_errors.TournamentError as error:  # before Refusal: it is one
            form.add_error("members", str(error))
        except Refusal as refusal:  # the name another team has (in any case)
            refusal.add_to_form(form)
        else:
            messages.success(request, _("Team %(name)s created.") % {"name": team.name})
            return redirect(here)
    context = _registration_context(request, tournament, team_form=form)
    return render(request, TEMPLATES + "registration.html", context, status=400)
