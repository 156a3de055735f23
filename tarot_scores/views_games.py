"""Game pages: the score sheet (feuille de marque), entering a deal from a phone at the table,
correcting or deleting one with its full history, finishing a game, and the CSV/PDF exports.

Views stay thin: the forms shape what was typed, ``services`` scores and stores it, ``selectors``
read the sheet back. With htmx a view answers the fragment it replaces; without JavaScript the
same URLs answer whole pages and redirect after a successful POST.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import (
    FileResponse,
    Http404,
    HttpResponse,
    HttpResponseBadRequest,
    QueryDict,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from tarot_scores import exports, permissions, selectors, services
from tarot_scores.forms_deal import (
    DealForm,
    DealWords,
    deal_form_for,
    deal_words,
    outcome,
    rules_label,
)
from tarot_scores.models import Deal, DealRevision, Game
from tarot_scores.scoring import Result, ScoringError
from tarot_scores.selectors import DealRow, GameSheet
from tarot_scores.services import DealConflict, GameClosed, TableView
from tarot_scores.views import HtmxHttpRequest

TEMPLATES = "tarot_scores/game/"


# --- access ------------------------------------------------------------------------------------


def _login(request: HtmxHttpRequest, next_url: str) -> HttpResponse:
    """Anonymous writers go to the login page, then back to ``next_url`` (a page, not a POST)."""
    if request.htmx:
        return HttpResponseClientRedirect(f"{reverse('login')}?next={next_url}")
    return redirect_to_login(next_url)


def _readable(request: HtmxHttpRequest, game: Game) -> None:
    """Private clubs do not exist for outsiders."""
    if not permissions.can_view_club(request.user, game.club):
        raise Http404


def _sheet_or_404(game_id: int) -> GameSheet:
    try:
        return selectors.game_sheet(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404 from None


def _game_or_404(game_id: int) -> Game:
    return get_object_or_404(Game.objects.select_related("club"), pk=game_id)


def _deal_or_404(deal_id: int) -> Deal:
    return get_object_or_404(Deal.objects.select_related("game__club"), pk=deal_id)


def _may_correct(user: Any, game: Game) -> bool:
    # Asked once per page rather than once per row: the rule depends on the game, and an unsaved
    # deal of that game asks it without a query per deal.
    return permissions.can_correct_deal(user, Deal(game=game))


# --- the score sheet ---------------------------------------------------------------------------


class SheetRow:
    """One deal on the sheet: (score, running total) per seat and who dealt. Its words are
    worked out only if the page shows them (the entry screen's totals don't)."""

    def __init__(self, sheet: GameSheet, row: DealRow) -> None:
        self._sheet = sheet
        self.deal = row.deal
        self.cells = list(zip(row.scores, row.totals, strict=True))
        dealer_id = row.deal.dealer_id
        self.dealer = sheet.table.labels.get(dealer_id, "") if dealer_id else ""

    @cached_property
    def words(self) -> DealWords:
        sheet, deal = self._sheet, self.deal
        return deal_words(sheet.game, sheet.table, deal.payload, deal.number, outcome(deal))


def sheet_rows(sheet: GameSheet) -> list[SheetRow]:
    return [SheetRow(sheet, row) for row in sheet.rows]


def _sheet_context(request: HtmxHttpRequest, sheet: GameSheet) -> dict[str, Any]:
    game = sheet.game
    may_enter = permissions.can_enter_deals(request.user, game)
    return {
        "sheet": sheet,
        "game": game,
        "names": [sheet.table.labels[p.pk] for p in sheet.players],
        "rows": sheet_rows(sheet),
        "rules_label": rules_label(game),
        "is_open": game.status == Game.Status.OPEN,
        # A game of a set length (a tournament table) takes no deal beyond it.
        "is_full": game.max_deals is not None and sheet.live_deals >= game.max_deals,
        "may_enter": may_enter,
        "may_manage": permissions.can_manage_game(request.user, game),
        "may_correct": _may_correct(request.user, game),
        "next_dealer": sheet.table.labels[sheet.next_dealer.pk],
        "winners": [sheet.table.labels[p.pk] for p in sheet.winners],
        "ranking": [(r.rank, sheet.table.labels[r.player.pk], r.total) for r in sheet.ranking],
    }


@require_GET
def detail(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    _readable(request, sheet.game)
    template = "detail.html#sheet" if request.htmx else "detail.html"
    return render(request, TEMPLATES + template, _sheet_context(request, sheet))


def _sheet_partial(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    return render(request, TEMPLATES + "detail.html#sheet", _sheet_context(request, sheet))


@dataclass(frozen=True)
class DealCard:
    """One deal shown on its own: its words and each player's score."""

    number: int
    version: int
    words: DealWords
    scores: list[tuple[str, int | None]]


def deal_card(game: Game, table: TableView, deal: Deal) -> DealCard:
    lines = deal.lines.all() if not deal.is_deleted else []
    scores = {line.player_id: line.points for line in lines}
    return DealCard(
        deal.number,
        deal.version,
        deal_words(game, table, deal.payload, deal.number, outcome(deal)),
        [(table.labels[p.pk], scores.get(p.pk)) for p in table.players],
    )


# --- entering a deal ---------------------------------------------------------------------------


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
        preview={"incomplete": True},
        live_rows=[r for r in context["rows"] if not r.deal.is_deleted],
    )
    context.update(extra)
    return context


def blank_form(sheet: GameSheet) -> DealForm:
    """The entry form for the sheet's next deal."""
    return deal_form_for(sheet.game)(game=sheet.game, table=sheet.table, number=sheet.next_number)


@dataclass(frozen=True)
class EntryScreen:
    """Where a deal is entered: a club game's page or a tournament table's link. Saving is the
    same for both (``deal_save``); this says what differs."""

    template: str  # the full page; its "entry-response" partial answers htmx
    context: Callable[..., dict[str, Any]]  # (sheet, form, **extra) -> the page's context
    reload: Callable[[], GameSheet]
    done: Callable[[Deal], str]  # where a save without JavaScript goes next
    by: Any = None
    by_label: str = ""
    after_save: Callable[[HtmxHttpRequest], None] | None = None


def deal_save(request: HtmxHttpRequest, sheet: GameSheet, screen: EntryScreen) -> HttpResponse:
    """Save the posted deal, or say beside each field why not; nothing is stored on refusal."""
    game = sheet.game
    form = deal_form_for(game)(request.POST, game=game, table=sheet.table, number=sheet.next_number)
    page = screen.template + "#entry-response" if request.htmx else screen.template
    if not form.is_valid():
        return render(request, page, screen.context(sheet, form), status=400)
    try:
        deal = services.deal_record(
            game=game,
            payload=form.payload(),
            by=screen.by,
            number=form.cleaned_data["number"],
            by_label=screen.by_label,
            table=sheet.table,
        )
    except ScoringError as error:
        form.engine_errors(error, get_language())
        return render(request, page, screen.context(sheet, form), status=400)
    except DealConflict as conflict:
        # Another phone saved this deal first: show what it saved, keep nothing of this one.
        fresh = screen.reload()
        context = screen.context(
            fresh,
            blank_form(fresh),
            conflict=str(conflict),
            conflict_deal=deal_card(game, fresh.table, conflict.current),
        )
        return render(request, page, context, status=409)
    except GameClosed as closed:
        context = screen.context(sheet, form, status_note=str(closed))
        return render(request, page, context, status=409)
    if screen.after_save is not None:
        screen.after_save(request)
    if not request.htmx:
        messages.success(request, _("Deal %(number)s saved.") % {"number": deal.number})
        return redirect(screen.done(deal))
    # The sheet just read plus the new deal, unless another deal was saved in between.
    fresh = sheet.after(deal) if deal.number == sheet.next_number else screen.reload()
    context = screen.context(fresh, blank_form(fresh), saved=deal_card(game, fresh.table, deal))
    return render(request, screen.template + "#entry-response", context)


@require_http_methods(["GET", "POST"])
def deal_new(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Enter the next deal: a few taps on a phone, a live preview, then Save."""
    here = reverse("games:deal_new", args=[game_id])
    if not request.user.is_authenticated:
        return _login(request, here)
    sheet = _sheet_or_404(game_id)
    game = sheet.game
    _readable(request, game)
    if not permissions.can_enter_deals(request.user, game):
        raise PermissionDenied
    if request.method == "POST":
        screen = EntryScreen(
            template=TEMPLATES + "deal_new.html",
            context=lambda sheet, form, **extra: _entry_context(request, sheet, form, **extra),
            reload=lambda: _sheet_or_404(game.pk),
            done=lambda deal: reverse("games:detail", args=[game.pk]) + f"#deal-{deal.number}",
            by=request.user,
        )
        return deal_save(request, sheet, screen)
    return render(
        request, TEMPLATES + "deal_new.html", _entry_context(request, sheet, blank_form(sheet))
    )


@require_POST
def deal_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Score what is typed so far, store nothing: each player's score and the reasons."""
    if not request.user.is_authenticated:
        return _login(request, reverse("games:deal_new", args=[game_id]))
    game = _game_or_404(game_id)
    _readable(request, game)
    if not permissions.can_enter_deals(request.user, game):
        raise PermissionDenied
    table = services.table_of(game)
    form = deal_form_for(game)(request.POST, game=game, table=table, number=1)
    return render(request, TEMPLATES + "deal_preview.html", preview_context(game, table, form))


def preview_context(game: Game, table: TableView, form: DealForm) -> dict[str, Any]:
    result: Result | None = None
    if form.is_valid():
        try:
            result, _table = services.deal_score(
                game=game, payload=form.payload(), number=form.deal_number, table=table
            )
        except ScoringError as error:
            form.engine_errors(error, get_language())
    return {
        "form": form,
        # While typing, an empty field is not a mistake yet.
        "slots": form.slot_errors(quiet_required=True),
        "preview": _preview(table, form, result),
    }


def _preview(table: TableView, form: DealForm, result: Result | None) -> dict[str, Any]:
    if result is None:
        return {"incomplete": not form.is_bound or form.missing_required()}
    lang = get_language() or "fr"
    scores = [(table.labels[p.pk], result.scores.get(table.labels[p.pk])) for p in table.players]
    attack = None
    if form.is_valid() and form.cleaned_data.get("defence_points"):
        attack = form.payload().get("points")
    return {
        "scores": scores,
        "won": result.won,
        "margin": abs(result.margin) if result.margin is not None else None,
        "breakdown": [line["text"] for line in result.breakdown(lang)],
        "attack_points": attack,
    }


# --- corrections -------------------------------------------------------------------------------


def _correction_gate(request: HtmxHttpRequest, deal: Deal) -> HttpResponse | None:
    game = deal.game
    if not request.user.is_authenticated:
        return _login(request, reverse("games:deal_edit", args=[deal.pk]))
    _readable(request, game)
    if not permissions.can_correct_deal(request.user, deal):
        raise PermissionDenied
    return None


def _edit_context(
    request: HtmxHttpRequest, deal: Deal, table: TableView, form: DealForm, **extra: Any
) -> dict[str, Any]:
    game = deal.game
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
    }
    context.update(extra)
    return context


def edit_form(deal: Deal, table: TableView, data: Any = None) -> DealForm:
    if data is not None:
        # The number of a deal never changes: whatever the page sent, it is this deal's.
        data = data.copy()
        data["number"] = str(deal.number)
    return deal_form_for(deal.game)(
        data,
        game=deal.game,
        table=table,
        number=deal.number,
        payload=deal.payload,
        version=deal.version,
    )


@require_http_methods(["GET", "POST"])
def deal_edit(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Correct a deal. The page carries the version it was read at: a stale one is refused."""
    deal = _deal_or_404(deal_id)
    gate = _correction_gate(request, deal)
    if gate is not None:
        return gate
    table = services.table_of(deal.game)
    screen = EditScreen(
        template=TEMPLATES + "deal_edit.html",
        context=lambda deal, form, **extra: _edit_context(request, deal, table, form, **extra),
        done=reverse("games:detail", args=[deal.game_id]) + f"#deal-{deal.number}",
        by=request.user,
    )
    return deal_correct(request, deal, table, screen)


@dataclass(frozen=True)
class EditScreen:
    """Where a deal is corrected: a club game's page or a tournament table's link. Correcting
    is the same for both (``deal_correct``); this says what differs."""

    template: str
    context: Callable[..., dict[str, Any]]  # (deal, form, **extra) -> the page's context
    done: str  # where a saved correction goes
    by: Any = None
    by_label: str = ""


def deal_correct(
    request: HtmxHttpRequest, deal: Deal, table: TableView, screen: EditScreen
) -> HttpResponse:
    """The correction page (GET), or save the posted correction of the version it was read
    at; nothing is stored on refusal, and a stale version shows the newer one."""
    game = deal.game
    if request.method == "GET":
        form = edit_form(deal, table)
        preview = preview_context(game, table, edit_form(deal, table, initial_as_data(form)))
        return render(
            request, screen.template, screen.context(deal, form, preview=preview["preview"])
        )

    form = edit_form(deal, table, request.POST)
    if form.is_valid() and form.cleaned_data.get("version") is None:
        form.section_errors.setdefault("all", []).append(
            _("This page is missing the deal's version: reload it and try again.")
        )
    if not form.is_valid() or form.section_errors:
        return render(request, screen.template, screen.context(deal, form), status=400)
    try:
        services.deal_update(
            deal=deal,
            payload=form.payload(),
            version=form.cleaned_data["version"],
            by=screen.by,
            by_label=screen.by_label,
        )
    except ScoringError as error:
        form.engine_errors(error, get_language())
        return render(request, screen.template, screen.context(deal, form), status=400)
    except DealConflict as conflict:
        # Someone corrected it first: show what it is now, and start again from that.
        current = conflict.current
        current.game = game
        context = screen.context(
            current,
            edit_form(current, table),
            conflict=str(conflict),
            conflict_deal=deal_card(game, table, current),
        )
        return render(request, screen.template, context, status=409)
    except GameClosed as closed:
        context = screen.context(deal, form, status_note=str(closed))
        return render(request, screen.template, context, status=409)
    messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
    return redirect(screen.done)


def initial_as_data(form: DealForm) -> Any:
    """A form's initial values as posted data, to preview a stored deal the way it is shown."""
    data = QueryDict(mutable=True)
    for name, bound in ((n, form[n]) for n in form.fields):
        value = bound.value()
        if isinstance(value, list):
            data.setlist(name, [str(v) for v in value])
        elif value is True:
            data[name] = "on"
        elif value not in (None, False, ""):
            data[name] = str(value)
    return data


def _after_change(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    if request.htmx:
        return _sheet_partial(request, game.pk)
    return redirect("games:detail", game_id=game.pk)


def _posted_version(request: HtmxHttpRequest) -> int | None:
    try:
        return int(request.POST["version"])
    except (KeyError, ValueError):
        return None


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
        services.deal_delete(deal=deal, version=version, by=request.user)
    except DealConflict as conflict:
        table = services.table_of(deal.game)
        card = deal_card(deal.game, table, conflict.current)
        messages.error(request, f"{conflict} {card.words.summary}")
    except GameClosed as closed:
        messages.error(request, str(closed))
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
        services.deal_restore(deal=deal, by=request.user)
    except (GameClosed, ScoringError) as error:
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


@require_GET
def deal_history(request: HtmxHttpRequest, deal_id: int) -> HttpResponse:
    """Every version of a deal: who entered, corrected, deleted or restored it, and when."""
    deal = _deal_or_404(deal_id)
    game = deal.game
    _readable(request, game)
    table = services.table_of(game)
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
    context = {
        "game": game,
        "deal": deal,
        "rows": rows,
        "names": [table.labels[p.pk] for p in table.players],
        "may_correct": permissions.can_correct_deal(request.user, deal),
    }
    return render(request, TEMPLATES + "history.html", context)


# --- the game itself ---------------------------------------------------------------------------


@require_POST
def status(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Finish a game (no more entries) or reopen it."""
    if not request.user.is_authenticated:
        return _login(request, reverse("games:detail", args=[game_id]))
    game = _game_or_404(game_id)
    _readable(request, game)
    if not permissions.can_manage_game(request.user, game):
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


@require_GET
def sheet_csv(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    sheet = _sheet_or_404(game_id)
    _readable(request, sheet.game)
    return exports.GameCsv(sheet).response()


@require_GET
def sheet_pdf(request: HtmxHttpRequest, game_id: int) -> FileResponse:
    sheet = _sheet_or_404(game_id)
    _readable(request, sheet.game)
    pdf = exports.render_score_sheet(sheet)
    return FileResponse(
        io.BytesIO(pdf),
        as_attachment=True,
        filename=exports.sheet_filename(sheet, "pdf"),
        content_type="application/pdf",
    )
