"""Game pages: the score sheet (feuille de marque), entering a deal from a phone at the table,
correcting or deleting one with its full history, finishing a game, the CSV/PDF exports, and
a club's page, which lists its games (under the club's address: ``club_urlpatterns``).

Views stay thin: the forms shape what was typed, the services score and store it, the
selectors read the sheet back. With htmx a view answers the fragment it replaces; without
JavaScript the same URLs answer whole pages and redirect after a successful POST."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import (
    FileResponse,
    Http404,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from tarot_scores.clubs import permissions
from tarot_scores.clubs import selectors as club_selectors
from tarot_scores.clubs.models import HouseRules
from tarot_scores.clubs.permissions import club_for, club_readable
from tarot_scores.core.access import login_first
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.pdf import pdf_response
from tarot_scores.core.sections import club_page_sections
from tarot_scores.games import entry, exports, selectors, services
from tarot_scores.games.entry import deal_card, preview_context, sheet_rows
from tarot_scores.games.forms import DealForm, GameForm, deal_form_for
from tarot_scores.games.guards import reason_needed
from tarot_scores.games.models import Deal, DealRevision, Game
from tarot_scores.games.penalties import PenaltyMark, penalties_of, sheet_penalties
from tarot_scores.games.seats import TableSeats, deal_seats, table_seats
from tarot_scores.games.selectors import GameSheet
from tarot_scores.games.services import DealConflict
from tarot_scores.games.setup import GameSetupError
from tarot_scores.games.words import DealWords, changed_answers, deal_words, rules_label
from tarot_scores.scoring import ScoringError

TEMPLATES = "tarot_scores/game/"
GAMES_PER_PAGE = 30


def _sheet_or_404(game_id: int) -> GameSheet:
    try:
        return selectors.game_sheet(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404 from None


def _game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("club"), pk=game_id)


def _deal_or_404(deal_id: int) -> Deal:
    return get_object_or_404(Deal.objects.select_related("game__club"), pk=deal_id)


def _may_correct(who: Any, game: Game) -> bool:
    # Asked once per page rather than once per row: the rule depends on the game, and an unsaved
    # deal of that game asks it without a query per deal.
    return permissions.can_correct_deal(who, Deal(game=game))


def _sheet_context(request: HtmxHttpRequest, sheet: GameSheet) -> dict[str, Any]:
    game = sheet.game
    may_enter = permissions.can_enter_deals(request, game)
    # A tournament table's live penalties (one query; none for a club's own game).
    penalties = sheet_penalties(sheet)
    ranking = penalties.ranking if penalties else sheet.ranking
    return {
        "sheet": sheet,
        "game": game,
        "names": [sheet.table.labels[p.pk] for p in sheet.players],
        "rows": sheet_rows(sheet, penalties),
        "penalties": penalties,
        "rules_label": rules_label(game),
        "is_open": game.status == Game.Status.OPEN,
        # A game of a set length (a tournament table) takes no deal beyond it.
        "is_full": game.max_deals is not None and sheet.live_deals >= game.max_deals,
        "may_enter": may_enter,
        "may_manage": permissions.can_manage_game(request, game),
        "may_correct": _may_correct(request, game),
        "next_dealer": sheet.table.labels[sheet.next_dealer.pk],
        "winners": [sheet.table.labels[p.pk] for p in sheet.winners],
        "ranking": [(r.rank, sheet.table.labels[r.player.pk], r.total) for r in ranking],
    }


@require_safe
def detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    club_readable(request, sheet.game.club)
    template = "detail.html#sheet" if request.htmx else "detail.html"
    return render(request, TEMPLATES + template, _sheet_context(request, sheet))


def _sheet_partial(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    return render(request, TEMPLATES + "detail.html#sheet", _sheet_context(request, sheet))


def _entry_context(
    request: HtmxHttpRequest,
    sheet: GameSheet,
    form: DealForm,
    *,
    status_note: str = "",
    **extra: Any,
) -> dict[str, Any]:
    table = sheet.table
    context = _sheet_context(request, sheet)
    context.update(
        form=form,
        slots=form.slot_errors(),
        post_url=reverse("games:deal_new", args=[sheet.game.pk]),
        preview_url=reverse("games:deal_preview", args=[sheet.game.pk]),
        htmx_save=True,
        dealer_label=table.labels[form.dealer.pk],
        sitting_label=table.labels[form.sitting_out.pk] if form.sitting_out else "",
        submit_label=_("Save the deal"),
        status_note=status_note,
        preview=entry.waiting_preview(form),
        live_rows=[r for r in context["rows"] if not r.deal.is_deleted],
        reason_needed=reason_needed(game=sheet.game),
        reason_value=request.POST.get("reason", ""),
    )
    context.update(extra)
    return context


def _undo_url(deal: Deal) -> str:
    return reverse("games:deal_undo", args=[deal.pk])


def _entry_answer(request: HtmxHttpRequest, answer: entry.Answer) -> HttpResponse:
    """An entry screen's answer drawn as this page draws it (the whole page, or its
    "entry-response" partial for htmx); the deal just saved gets its Undo."""
    extra = dict(answer.extra)
    if answer.deal is not None and "saved" in extra:
        extra["undo_url"] = _undo_url(answer.deal)
    context = _entry_context(request, answer.sheet, answer.form, **extra)
    template = entry.partial(request, TEMPLATES + "deal_new.html")
    return render(request, template, context, status=answer.status)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_new(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Enter the next deal: a few taps on a phone, a live preview, then Save."""
    here = reverse("games:deal_new", args=[game_id])
    if not request.user.is_authenticated:
        return login_first(request, here)
    sheet = _sheet_or_404(game_id)
    game = sheet.game
    club_readable(request, game.club)
    if not permissions.can_enter_deals(request, game):
        raise PermissionDenied
    if request.method == "POST":
        answer = entry.deal_save(request, sheet, by=request.user)
        if answer.deal is not None and not request.htmx:
            # Back to the entry screen for the next deal, with the "saved" notice and its Undo.
            return redirect(f"{here}?saved={answer.deal.number}")
        return _entry_answer(request, answer)
    form, extra = entry.screen_state(sheet, request.GET, _undo_url)
    return render(
        request, TEMPLATES + "deal_new.html", _entry_context(request, sheet, form, **extra)
    )


@require_POST
def deal_undo(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Undo the deal just saved from the entry screen: it is deleted (the history keeps it) and
    its answers come back in the form."""
    deal = _deal_or_404(deal_id)
    if not request.user.is_authenticated:
        return login_first(request, reverse("games:deal_new", args=[deal.game_id]))
    gate = _correction_gate(request, deal)
    if gate is not None:
        return gate
    here = reverse("games:deal_new", args=[deal.game_id])
    answer = entry.deal_undo(request, deal, here=here, undo_url=_undo_url(deal), by=request.user)
    if isinstance(answer, str):
        return redirect(answer)
    return _entry_answer(request, answer)


@require_POST
def deal_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Score what is typed so far, store nothing: each player's score and the reasons."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("games:deal_new", args=[game_id]))
    game = _game_or_404(game_id)
    club_readable(request, game.club)
    if not permissions.can_enter_deals(request, game):
        raise PermissionDenied
    table = table_seats(game)
    form = deal_form_for(game)(request.POST, game=game, table=table, number=1)
    return render(request, TEMPLATES + "deal_preview.html", preview_context(game, table, form))


def _correction_gate(request: HtmxHttpRequest, deal: Deal) -> HttpResponse | None:
    game = deal.game
    if not request.user.is_authenticated:
        return login_first(request, reverse("games:deal_edit", args=[deal.pk]))
    club_readable(request, game.club)
    if not permissions.can_correct_deal(request, deal):
        raise PermissionDenied
    return None


def _edit_context(
    request: HtmxHttpRequest, deal: Deal, table: TableSeats, form: DealForm, **extra: Any
) -> dict[str, Any]:
    game = selectors.game_day_number(deal.game)
    context: dict[str, Any] = {
        "game": game,
        "deal": deal,
        "form": form,
        "slots": form.slot_errors(),
        "post_url": reverse("games:deal_edit", args=[deal.pk]),
        "preview_url": reverse("games:deal_preview", args=[game.pk]),
        "htmx_save": False,
        "dealer_label": table.labels[form.dealer.pk],
        "sitting_label": table.labels[form.sitting_out.pk] if form.sitting_out else "",
        "submit_label": _("Save the correction"),
        "is_open": game.status == Game.Status.OPEN,
        "reason_needed": reason_needed(game=game),
        "reason_value": request.POST.get("reason", ""),
    }
    context.update(extra)
    return context


@require_http_methods(["GET", "HEAD", "POST"])
def deal_edit(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Correct a deal. The page carries the version it was read at: a stale one is refused."""
    deal = _deal_or_404(deal_id)
    gate = _correction_gate(request, deal)
    if gate is not None:
        return gate
    table = deal_seats(deal)
    answer = entry.deal_correct(request, deal, table, by=request.user)
    if answer.saved:
        return redirect(reverse("games:detail", args=[deal.game_id]) + f"#deal-{deal.number}")
    context = _edit_context(request, answer.deal, table, answer.form, **answer.extra)
    return render(request, TEMPLATES + "deal_edit.html", context, status=answer.status)


def _after_change(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    if request.htmx:
        return _sheet_partial(request, game.pk)
    return redirect("games:detail", game_id=game.pk)


def _posted_version(request: HtmxHttpRequest) -> int | None:
    return whole_number(request.POST.get("version"))


@require_POST
def deal_delete(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Strike a deal off the sheet (it stays in the history and can be restored)."""
    deal = _deal_or_404(deal_id)
    gate = _correction_gate(request, deal)
    if gate is not None:
        return gate
    version = _posted_version(request)
    if version is None:
        return HttpResponseBadRequest(_("The deal's version is missing."))
    try:
        services.deal_delete(
            deal=deal, version=version, by=request.user, reason=request.POST.get("reason", "")
        )
    except DealConflict as conflict:
        table = table_seats(deal.game)
        card = deal_card(deal.game, table, conflict.current)
        messages.error(request, f"{conflict} {card.words.summary}")
    except Refusal as refused:  # a closed game, or a reason missing
        messages.error(request, str(refused))
    else:
        messages.success(request, _("Deal %(number)s deleted.") % {"number": deal.number})
    return _after_change(request, deal.game)


@require_POST
def deal_restore(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    deal = _deal_or_404(deal_id)
    gate = _correction_gate(request, deal)
    if gate is not None:
        return gate
    try:
        services.deal_restore(deal=deal, by=request.user, reason=request.POST.get("reason", ""))
    except (Refusal, ScoringError) as error:
        text = (
            "; ".join(m for ms in error.messages(get_language()).values() for m in ms)
            if isinstance(error, ScoringError)
            else str(error)
        )
        messages.error(request, text)
    else:
        messages.success(request, _("Deal %(number)s restored.") % {"number": deal.number})
    return _after_change(request, deal.game)


@dataclass(frozen=True)
class RevisionRow:
    revision: DealRevision
    words: DealWords
    scores: list[tuple[str, int | None]]
    changed: list[str] = field(default_factory=list)  # a correction's changed answers


@dataclass(frozen=True)
class PenaltyEvent:
    """A penalty given on the deal, or taken back, as a line of its history."""

    mark: PenaltyMark
    name: str  # the player's label at this table
    removal: bool  # the penalty taken back (else: given)

    @property
    def at(self) -> datetime | None:
        return self.mark.removed_at if self.removal else self.mark.given_at


def _history(
    rows: list[RevisionRow], marks: list[PenaltyMark], table: TableSeats
) -> list[RevisionRow | PenaltyEvent]:
    """The deal's versions and its penalties' givings and removals, oldest first (a version
    before a penalty of the same instant)."""
    events: list[RevisionRow | PenaltyEvent] = list(rows)
    for mark in marks:
        name = table.labels.get(mark.player_id, "")
        events.append(PenaltyEvent(mark, name, removal=False))
        if not mark.live:
            events.append(PenaltyEvent(mark, name, removal=True))

    def when(event: RevisionRow | PenaltyEvent) -> tuple[Any, int]:
        if isinstance(event, RevisionRow):
            return (event.revision.at, 0)
        return (event.at, 1 if not event.removal else 2)

    return sorted(events, key=when)


@require_safe
def deal_history(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Every version of a deal: who entered, corrected, deleted or restored it, and when; and
    the penalties given on it (a tournament table's), and their removal, in time order."""
    deal = _deal_or_404(deal_id)
    game = selectors.game_day_number(deal.game)
    club_readable(request, game.club)
    table = table_seats(game)
    revisions: QuerySet[DealRevision] = deal.revisions.select_related("by").order_by(
        "version", "id"
    )
    rows = [
        RevisionRow(
            rev,
            deal_words(game, table, rev.payload, deal.number),
            [(table.labels[p.pk], rev.scores.get(str(p.pk))) for p in table.players],
        )
        for rev in revisions
    ]
    for before, after in zip(rows, rows[1:], strict=False):
        if after.revision.action == DealRevision.Action.EDITED:
            after.changed.extend(changed_answers(before.revision.payload, after.revision.payload))
    context = {
        "game": game,
        "deal": deal,
        "rows": rows,
        "events": _history(rows, penalties_of(game=game, deal_id=deal.pk), table),
        "names": [table.labels[p.pk] for p in table.players],
        "may_correct": permissions.can_correct_deal(request, deal),
    }
    return render(request, TEMPLATES + "history.html", context)


@require_POST
def status(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Finish a game (no more entries) or reopen it."""
    if not request.user.is_authenticated:
        return login_first(request, reverse("games:detail", args=[game_id]))
    game = _game_or_404(game_id)
    club_readable(request, game.club)
    if not permissions.can_manage_game(request, game):
        raise PermissionDenied
    wanted = request.POST.get("status", "")
    if wanted not in Game.Status.values:
        return HttpResponseBadRequest(_("Unknown status."))
    services.game_set_status(game=game, status=wanted)
    if wanted == Game.Status.FINISHED:
        messages.success(request, _("The game is finished."))
    else:
        messages.success(request, _("The game is open again."))
    return _after_change(request, game)


@require_safe
def sheet_csv(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    club_readable(request, sheet.game.club)
    return exports.GameCsv(sheet, sheet_penalties(sheet)).response()


@require_safe
def sheet_pdf(request: HtmxHttpRequest, game_id: int) -> FileResponse:
    sheet = _sheet_or_404(game_id)
    club_readable(request, sheet.game.club)
    pdf = exports.render_score_sheet(sheet, sheet_penalties(sheet))
    return pdf_response(pdf, exports.sheet_filename(sheet, "pdf"))


# --- a new game ----------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def game_new(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    if not permissions.can_create_game(request, club):
        raise PermissionDenied
    players = club_selectors.club_players_by_name(club=club)
    house_rules = list(HouseRules.objects.filter(club=club).order_by("name"))
    form = GameForm(
        request.POST or None,
        club=club,
        players=players,
        house_rules=house_rules,
        rules=selectors.usual_rules(club=club),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        house = form.chosen_house_rules()
        try:
            game = services.game_create(
                club=club,
                players=form.seated,
                variant=form.variant(),
                house_rules=house,
                date=data["date"],
                label=data["label"],
                five_players=data["five_players"],
                by=request.user,
                imposed=False,  # the organiser's choice: it must fit the rules
            )
        except GameSetupError as refusal:
            form.setup_refused(refusal)
        except Refusal as refusal:  # the service's other refusals go beside the rules
            refusal.add_to_form(form, {"variant": "rules"})
        else:
            return redirect("games:detail", game.pk)
    return render(
        request,
        "tarot_scores/club/game_new.html",
        {"club": club, "form": form, "players": players},
        status=400 if form.is_bound else 200,
    )


@dataclass(frozen=True)
class GameRow:
    game: Game
    rules: str
    players: list[Any]


@require_safe
def club_detail(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """A club's page: its players, its games (an evening's tables; with htmx, a page of them),
    then what other concerns add (``core.sections``: its tournaments)."""
    club = club_for(request, slug)
    # A tournament's tables are shown under their tournament (its section), not here.
    page = Paginator(selectors.club_loose_games(club=club), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    rows = [
        GameRow(game, rules_label(game), [seat.player for seat in game.seats.all()])
        for game in page.object_list
    ]
    players = club_selectors.club_players_by_name(club=club)
    is_member = permissions.is_member(request, club)
    context = {
        "club": club,
        "players": players,
        "page": page,
        "rows": rows,
        "is_member": is_member,
        "is_organiser": permissions.is_organiser(request, club),
        "first_step": club_selectors.first_step(
            club=club, is_member=is_member, players=len(players)
        ),
    }
    template = "tarot_scores/club/detail.html"
    if request.htmx:
        template += "#games"
    else:
        context["sections"] = club_page_sections(request, club)
    return render(request, template, context)
