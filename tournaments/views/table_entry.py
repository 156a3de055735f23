"""A table's private link (/tournaments/t/<token>/): whoever sits at the table enters its deals
from a phone, without an account, with the club's own deal entry screen.

The token opens that table's game and nothing else, and only while its round is not closed:
entering the next deal (up to the deals per round) and correcting that table's deals. Each
write is recorded with no user and the label "Table N, link", so the deal's history says where
it came from. Organisers correct any deal through the game pages.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tarot_scores.clubs import permissions
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.games import entry
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games.entry import (
    EditScreen,
    EntryScreen,
    deal_correct,
    deal_save,
    preview_context,
    sheet_rows,
)
from tarot_scores.games.forms import DealForm, deal_form_for
from tarot_scores.games.models import Deal, Game
from tarot_scores.games.seats import table_seats
from tarot_scores.games.selectors import GameSheet
from tournaments.models import Round, Table
from tournaments.views.access import round_name

TEMPLATES = "tournaments/"


def _table_or_404(token: str) -> Table:
    """The table this link opens; any other token does not exist."""
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club", "game"), token=token
    )


def _by_label(table: Table) -> str:
    return _("Table %(n)s, link") % {"n": table.number}


def _closed(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    """The round is closed: the link takes no more deals or corrections."""
    context = _table_context(request, table)
    return render(request, TEMPLATES + "table_closed.html", context, status=403)


def _table_context(request: HtmxHttpRequest, table: Table) -> dict[str, Any]:
    tournament = table.round.tournament
    return {
        "tournament": tournament,
        "round": table.round,
        "round_name": round_name(tournament, table.round.number),
        "table": table,
        "goal": tournament.deals_per_round,
        # A private club's game page is for its members; the link holder may not read it.
        "show_game_link": permissions.can_view_club(request, tournament.club),
        "token": table.token,
    }


def _entry_context(
    request: HtmxHttpRequest,
    table: Table,
    sheet: GameSheet,
    form: DealForm,
    *,
    status_note: str = "",
    **extra: Any,
) -> dict[str, Any]:
    context = _table_context(request, table)
    game = sheet.game
    goal = context["goal"]
    context.update(
        sheet=sheet,
        game=game,
        names=[sheet.table.labels[p.pk] for p in sheet.players],
        live_rows=[r for r in sheet_rows(sheet) if not r.deal.is_deleted],
        entered=sheet.live_deals,
        is_full=sheet.live_deals >= goal,
        is_open=game.status == Game.Status.OPEN,
        form=form,
        slots=form.slot_errors(),
        post_url=reverse("tournaments:table_entry", args=[table.token]),
        preview_url=reverse("tournaments:table_preview", args=[table.token]),
        htmx_save=True,
        dealer_label=sheet.table.labels[form.dealer.pk],
        sitting_label=sheet.table.labels[form.sitting_out.pk] if form.sitting_out else "",
        submit_label=_("Save the deal"),
        status_note=status_note,
        preview=entry.waiting_preview(form),
    )
    context.update(extra)
    if context.get("undo_url") and _round_closed(table):
        context["undo_url"] = ""  # the deal closed the round: the link takes no more changes
    return context


def _round_closed(table: Table) -> bool:
    return Round.objects.filter(pk=table.round_id, status=Round.Status.CLOSED).exists()


def _sheet(table: Table) -> GameSheet:
    return game_selectors.game_sheet(game_id=table.game_id)


@require_http_methods(["GET", "POST"])
def table_entry(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The table's entry screen: the next deal, the live preview, the running totals."""
    table = _table_or_404(token)
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    sheet = _sheet(table)
    screen = _entry_screen(request, table)
    if request.method == "POST":
        return deal_save(request, sheet, screen)
    form, extra = entry.screen_state(sheet, request.GET, screen.undo)
    context = _entry_context(request, table, sheet, form, **extra)
    return render(request, TEMPLATES + "table_entry.html", context)


def _entry_screen(request: HtmxHttpRequest, table: Table) -> EntryScreen:
    here = reverse("tournaments:table_entry", args=[table.token])

    def round_may_close(request: HtmxHttpRequest) -> None:
        # The deal's own transaction closed the round if this was the last deal it waited for
        # (tournaments.services.round_after_deal); the link was refused on a closed round.
        if _round_closed(table):
            messages.success(request, _("Every table has entered its deals: the round is closed."))

    return EntryScreen(
        template=TEMPLATES + "table_entry.html",
        context=lambda sheet, form, **extra: _entry_context(request, table, sheet, form, **extra),
        reload=lambda: _sheet(table),
        done=lambda deal: f"{here}?saved={deal.number}",
        by_label=_by_label(table),
        after_save=round_may_close,
        undo=lambda deal: reverse("tournaments:table_deal_undo", args=[table.token, deal.pk]),
        url=here,
    )


@require_POST
def table_deal_undo(request: HtmxHttpRequest, token: str, deal_id: int) -> HttpResponse:
    """Undo the deal this table just saved (as a deletion: the history keeps it)."""
    table = _table_or_404(token)
    deal = get_object_or_404(
        Deal.objects.select_related("game__club"), pk=deal_id, game_id=table.game_id
    )
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    return entry.deal_undo(request, deal, _entry_screen(request, table))


@require_POST
def table_preview(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """Score what is typed so far, store nothing."""
    table = _table_or_404(token)
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    game = table.game
    view = table_seats(game)
    form = deal_form_for(game)(request.POST, game=game, table=view, number=1)
    return render(request, "tarot_scores/game/deal_preview.html", preview_context(game, view, form))


@require_http_methods(["GET", "POST"])
def table_deal_edit(request: HtmxHttpRequest, token: str, deal_id: int) -> HttpResponse:
    """Correct one of this table's deals of this round (never another table's)."""
    table = _table_or_404(token)
    deal = get_object_or_404(
        Deal.objects.select_related("game__club"),
        pk=deal_id,
        game_id=table.game_id,
        deleted_at__isnull=True,
    )
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    game = deal.game
    view = table_seats(game)
    base = _table_context(request, table)

    def context_for(deal: Deal, form: DealForm, **extra: Any) -> dict[str, Any]:
        context = dict(base)
        context.update(
            game=game,
            deal=deal,
            form=form,
            slots=form.slot_errors(),
            post_url=reverse("tournaments:table_deal_edit", args=[table.token, deal.pk]),
            preview_url=reverse("tournaments:table_preview", args=[table.token]),
            htmx_save=False,
            dealer_label=view.labels[form.dealer.pk],
            sitting_label=view.labels[form.sitting_out.pk] if form.sitting_out else "",
            submit_label=_("Save the correction"),
            is_open=game.status == Game.Status.OPEN,
        )
        context.update(extra)
        return context

    screen = EditScreen(
        template=TEMPLATES + "table_deal_edit.html",
        context=context_for,
        done=reverse("tournaments:table_entry", args=[table.token]) + f"#deal-{deal.number}",
        by_label=_by_label(table),
    )
    return deal_correct(request, deal, view, screen)
