"""A table's private link (/tournaments/t/<token>/): whoever sits at the table enters its deals
from a phone, without an account, with the club's own deal entry screen.

The token opens that table's game and nothing else, and only while its round is not closed:
entering the next deal (up to the deals per round) and correcting that table's deals. Each
write is recorded with no user and the label "Table N, link", so the deal's history says where
it came from. Organisers correct any deal through the game pages.

When the tournament requires confirmation (``tournaments.play.confirmations``), the person holding
the phone names himself among the table's players (remembered for that phone, in its session;
a signed-in player of the table is his account's player) before entering deals. The page then
lists the table's deals waiting for the other side: a player of that side confirms each, or
disagrees and enters his side's version for the referee.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tarot_scores.clubs import permissions
from tarot_scores.clubs.models import Player
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.games import entry
from tarot_scores.games import selectors as game_selectors
from tarot_scores.games.entry import (
    SheetRow,
    deal_card,
    edit_form,
    preview_context,
    sheet_rows,
)
from tarot_scores.games.forms import DealForm, deal_form_for
from tarot_scores.games.models import Deal, Game
from tarot_scores.games.penalties import SheetPenalties, sheet_penalties
from tarot_scores.games.seats import TableSeats, deal_seats, table_seats
from tarot_scores.games.selectors import GameSheet
from tarot_scores.games.services import DealConflict, GameClosed
from tarot_scores.scoring import ScoringError
from tournaments.duplicate import DIRECTIONS
from tournaments.errors import PinLocked
from tournaments.formats import duplicate as duplicate_format
from tournaments.formats import format_for
from tournaments.models import DealConfirmation, Round, Table
from tournaments.play import cards, confirmations, holder, lifecycle, pins
from tournaments.play.holder import Holder
from tournaments.rounds import selectors as round_selectors
from tournaments.views.access import round_name, table_poll_context
from tournaments.words import direction_name

TEMPLATES = "tournaments/"


def _table_or_404(token: str) -> Table:
    """The table this link opens; any other token does not exist."""
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club", "game"), token=token
    )


def _by_label(table: Table, holder: Player | None = None) -> str:
    if holder is not None:
        return _("Table %(n)s, link (%(name)s)") % {"n": table.number, "name": holder.label}
    return _("Table %(n)s, link") % {"n": table.number}


# --- who holds the phone (tournaments that require confirmation): ``play.holder`` ----------


def _seated_players(table: Table) -> list[Player]:
    return [seat.player for seat in table.game.seats.select_related("player").order_by("position")]


def _holder(request: HttpRequest, table: Table, players: list[Player]) -> Holder:
    """Who acts on this phone (``play.holder``), and, once, why a card it had is no longer
    taken."""
    found = holder.page_holder(request, table, players)
    if found.player is None and cards.card_replaced(request.session, table.round.tournament):
        messages.error(
            request,
            _(
                "The player card that made this phone yours has been replaced: open your new "
                "card's link on this phone, or say who you are below."
            ),
        )
    return found


def _requires_confirmation(table: Table) -> bool:
    return table.round.tournament.require_confirmation


@dataclass(frozen=True)
class WaitingDeal:
    """A deal of this table waiting for the other side, as the phone's holder sees it."""

    confirmation: DealConfirmation
    card: Any  # games.entry.DealCard
    entered_by: str
    waiting_for: str  # "the defence", "the attack", or "" when anyone at the table may confirm
    may_answer: bool  # the holder is of the other side: Confirm and Disagree are his


def _waiting(table: Table, view: TableSeats, holder: Player | None) -> list[WaitingDeal]:
    found = round_selectors.deals_waiting(tournament=table.round.tournament, table=table)
    out = []
    for confirmation in found:
        deal = confirmation.deal
        entered = confirmation.entered_side
        holder_side = confirmations.side_of(deal.payload, holder.pk) if holder else None
        may_answer = (
            holder is not None
            and confirmation.status == DealConfirmation.Status.PENDING
            and (not entered or holder_side != entered)
        )
        out.append(
            WaitingDeal(
                confirmation,
                deal_card(table.game, view, deal),
                confirmation.entered_by.label if confirmation.entered_by else "",
                confirmations.side_label(confirmations.other_side(entered)) if entered else "",
                may_answer,
            )
        )
    return out


def _confirmation_context(request: HttpRequest, table: Table, view: TableSeats) -> dict[str, Any]:
    if not _requires_confirmation(table):
        return {"confirming": False}
    players = [p for p in view.players]
    found = _holder(request, table, players)
    waiting = _waiting(table, view, found.player)
    pin_box = holder.asks_pin(table, found)
    locked = holder.pin_locked_until(table, found) if pin_box else None
    return {
        "confirming": True,
        "holder": found.player,
        "holder_from_account": found.proven,
        "holder_choices": players,
        # A phone that may type no PIN now is shown no PIN box, but until when and what else.
        "asks_pin": pin_box and locked is None,
        "pin_locked_words": pins.locked_words(locked) if locked is not None else "",
        # The player's card (or PIN) proves another phone too: said on both.
        "card_elsewhere": found.elsewhere,
        "waiting": waiting,
        # Said first on the page: how many deals wait for this phone's holder to answer.
        "for_you": sum(1 for item in waiting if item.may_answer),
    }


def _closed(request: HtmxHttpRequest, table: Table, *, status: int = 403) -> HttpResponse:
    """The round is closed: the link takes no more deals or corrections."""
    context = _table_context(request, table)
    return render(request, TEMPLATES + "table_closed.html", context, status=status)


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
        **table_poll_context(table),  # the table's other phones, in step (views.table_sync)
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
    context.update(_confirmation_context(request, table, sheet.table))
    game = sheet.game
    goal = context["goal"]
    penalties = sheet_penalties(sheet)  # the table's live penalties: one query
    context.update(
        sheet=sheet,
        game=game,
        names=[sheet.table.labels[p.pk] for p in sheet.players],
        live_rows=_live_rows(table, sheet, penalties, confirming=context["confirming"]),
        penalties=penalties,
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
    if format_for(table.round.tournament).compares_boards:
        context.update(
            _board_context(table, sheet, form, context["slots"], undone=context.get("undone"))
        )
    saved = context.get("saved")
    if context.get("undo_url") and context["confirming"] and saved is not None:
        # A deal the other side confirmed (or contested) stands: no Undo (play.lifecycle).
        row = next((r for r in context["live_rows"] if r.deal.number == saved.number), None)
        if row is not None and not lifecycle.undoable(row.confirmation):
            context["undo_url"] = ""
    return context


# --- duplicate: the boards of this table -----------------------------------------------------


def _entered_boards(sheet: GameSheet) -> set[int]:
    return {row.deal.board for row in sheet.rows if not row.deal.is_deleted and row.deal.board}


def _board_states(table: Table, sheet: GameSheet) -> list[duplicate_format.BoardState]:
    return duplicate_format.table_boards(table, list(sheet.table.players), _entered_boards(sheet))


def _board_context(
    table: Table,
    sheet: GameSheet,
    form: DealForm,
    slots: dict[str, list[str]],
    *,
    undone: int | None = None,
) -> dict[str, Any]:
    """The table's boards this round, which are entered, and the board select (the boards
    not entered yet: the posted one chosen again, or the board of the deal just undone, else
    the lowest), with the seats by direction and the dealer of the chosen board."""
    boards = _board_states(table, sheet)
    open_boards = [b for b in boards if not b.entered]
    posted = str(form.data.get("board", "")) if form.is_bound else ""
    if undone is not None:
        deal = entry.undone_deal(sheet, undone)
        posted = str(deal.board) if deal is not None and deal.board else posted
    chosen = next((b for b in open_boards if str(b.board) == posted), None)
    chosen = chosen or (open_boards[0] if open_boards else None)
    context: dict[str, Any] = {
        "duplicate": True,
        "boards": boards,
        "open_boards": open_boards,
        "chosen_board": chosen.board if chosen else None,
        "board_errors": slots.get("board", []),
        "board_field_template": TEMPLATES + "_board_select.html",
        "seats_by_direction": [
            (direction_name(d), sheet.table.labels[p.pk])
            for d, p in zip(DIRECTIONS, sheet.table.players, strict=False)
        ],
    }
    if chosen is not None:
        context["dealer_label"] = chosen.dealer_label
    return context


def _round_closed(table: Table) -> bool:
    return Round.objects.filter(pk=table.round_id, status=Round.Status.CLOSED).exists()


def _live_rows(
    table: Table, sheet: GameSheet, penalties: SheetPenalties, *, confirming: bool
) -> list[SheetRow]:
    """The sheet's live deals, with their penalties; each with its confirmation when the
    tournament asks for them."""
    rows = [r for r in sheet_rows(sheet, penalties) if not r.deal.is_deleted]
    states = round_selectors.deal_states(game_id=table.game_id) if confirming else {}
    for row in rows:
        row.confirmation = states.get(row.deal.pk)  # type: ignore[attr-defined]
    return rows


def _sheet(table: Table) -> GameSheet:
    return game_selectors.game_sheet(game_id=table.game_id)


def table_state(request: HtmxHttpRequest, table: Table) -> dict[str, Any]:
    """The table's state as its page shows it now (the deals waiting, the totals, the boards,
    the sheet): what the table's poll (``views.table_sync``) draws again for the phones."""
    sheet = _sheet(table)
    return _entry_context(request, table, sheet, entry.blank_form(sheet))


@require_http_methods(["GET", "HEAD", "POST"])
def table_entry(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The table's entry screen: the next deal, the live preview, the running totals."""
    table = _table_or_404(token)
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    sheet = _sheet(table)
    if request.method == "POST":
        return _deal_save(request, table, sheet)
    form, extra = entry.screen_state(sheet, request.GET, _undo_url_of(table))
    context = _entry_context(request, table, sheet, form, **extra)
    return render(request, TEMPLATES + "table_entry.html", context)


def _here(table: Table) -> str:
    return reverse("tournaments:table_entry", args=[table.token])


def _undo_url(table: Table, deal: Deal) -> str:
    return reverse("tournaments:table_deal_undo", args=[table.token, deal.pk])


def _undo_url_of(table: Table) -> Callable[[Deal], str]:
    return functools.partial(_undo_url, table)


def _entry_answer(
    request: HtmxHttpRequest, table: Table, answer: entry.Answer, *, round_closed: bool = False
) -> HttpResponse:
    """An entry screen's answer drawn as the table's page draws it; the deal just saved gets its
    Undo unless it closed the round (``round_closed``: the link takes no more changes)."""
    extra = dict(answer.extra)
    if answer.deal is not None and "saved" in extra and not round_closed:
        extra["undo_url"] = _undo_url(table, answer.deal)
    context = _entry_context(request, table, answer.sheet, answer.form, **extra)
    template = entry.partial(request, TEMPLATES + "table_entry.html")
    return render(request, template, context, status=answer.status)


def _deal_save(request: HtmxHttpRequest, table: Table, sheet: GameSheet) -> HttpResponse:
    """The deal posted on the table's page: who holds the phone (``play.holder``), the save
    (``games.entry``), then whether it closed the round, asked once."""
    acting = _phone_holder(request, table, list(sheet.table.players))
    if acting is None:
        return _say_who(request, table)
    answer = entry.deal_save(
        request,
        sheet,
        by_label=_by_label(table, acting.player),
        at_table=acting.at_table(),
        boards=format_for(table.round.tournament).compares_boards,
    )
    if answer.deal is None:
        return _entry_answer(request, table, answer)
    # The deal's own transaction closed the round if this was the last deal it waited for
    # (tournaments.rounds.services.round_after_deal).
    round_closed = _round_closed(table)
    if round_closed:
        messages.success(request, _("Every table has entered its deals: the round is closed."))
    if not request.htmx:
        return redirect(f"{_here(table)}?saved={answer.deal.number}")
    return _entry_answer(request, table, answer, round_closed=round_closed)


def _phone_holder(request: HtmxHttpRequest, table: Table, players: list[Player]) -> Holder | None:
    """Who acts on this phone (``play.holder``); None where the tournament asks for
    confirmation and the phone has not said (or, with personal proof, proven) who holds it.
    Where it asks none, the phone acts as itself, naming nobody."""
    found = holder.page_holder(request, table, players)
    if not _requires_confirmation(table):
        return holder.Holder(None, False, found.proof, found.place)
    return found if found.player is not None else None


def _say_who(request: HtmxHttpRequest, table: Table) -> HttpResponse:
    # The entry form is not shown before the phone says who holds it; a post anyway (an old
    # page) is sent back to choose.
    messages.error(request, _("Say who you are before entering a deal."))
    return redirect("tournaments:table_entry", token=table.token)


@require_POST
def table_deal_undo(request: HtmxHttpRequest, token: str, deal_id: int) -> HttpResponse:
    """Undo the deal this table just saved (as a deletion: the history keeps it)."""
    table = _table_or_404(token)
    deal = get_object_or_404(
        Deal.objects.select_related("game__club"), pk=deal_id, game_id=table.game_id
    )
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    acting = _phone_holder(request, table, _seated_players(table))
    if acting is None:
        return _say_who(request, table)
    answer = entry.deal_undo(
        request,
        deal,
        here=_here(table),
        undo_url=_undo_url(table, deal),
        by_label=_by_label(table, acting.player),
        at_table=acting.at_table(),
    )
    if isinstance(answer, str):
        return redirect(answer)
    return _entry_answer(request, table, answer)


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


@require_http_methods(["GET", "HEAD", "POST"])
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
    view = deal_seats(deal)
    base = _table_context(request, table)
    acting = _phone_holder(request, table, list(view.players))
    if acting is None:
        messages.error(request, _("Say who you are before correcting a deal."))
        return redirect("tournaments:table_entry", token=table.token)

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

    answer = entry.deal_correct(
        request, deal, view, by_label=_by_label(table, acting.player), at_table=acting.at_table()
    )
    if answer.saved:
        return redirect(_here(table) + f"#deal-{deal.number}")
    context = context_for(answer.deal, answer.form, **answer.extra)
    return render(request, TEMPLATES + "table_deal_edit.html", context, status=answer.status)


# --- confirming at the table ----------------------------------------------------------------


def _open_table(token: str) -> Table:
    """The table of a tournament that requires confirmation (404 otherwise)."""
    table = _table_or_404(token)
    if not _requires_confirmation(table):
        raise Http404
    return table


def _table_deal(table: Table, deal_id: int) -> Deal:
    return get_object_or_404(
        Deal.objects.select_related("game__club"),
        pk=deal_id,
        game_id=table.game_id,
        deleted_at__isnull=True,
    )


@require_POST
def table_holder(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """This phone names who holds it, among the table's players (kept in its session); with
    personal proof, with his PIN (``play.holder.page_name``)."""
    table = _open_table(token)
    players = _seated_players(table)
    try:
        holder.page_name(
            request, table, players, request.POST.get("player", ""), request.POST.get("pin")
        )
    except PinLocked as locked:
        # Too many wrong PINs on this phone (or at this table): the page says until when.
        messages.error(request, str(locked))
        return _retry_later(_table_page(request, table, status=429), locked)
    except Refusal as refusal:
        messages.error(request, str(refusal))
    return redirect("tournaments:table_entry", token=table.token)


def _table_page(request: HtmxHttpRequest, table: Table, *, status: int) -> HttpResponse:
    sheet = _sheet(table)
    form, extra = entry.screen_state(sheet, {}, None)
    context = _entry_context(request, table, sheet, form, **extra)
    return render(request, TEMPLATES + "table_entry.html", context, status=status)


def _back(table: Table, deal: Deal | None = None) -> HttpResponse:
    url = reverse("tournaments:table_entry", args=[table.token])
    return redirect(url + (f"#deal-{deal.number}" if deal is not None else "#to-confirm"))


def _retry_later(response: HttpResponse, locked: PinLocked) -> HttpResponse:
    """A page refused because this phone may type no PIN now: 429, and when to try again."""
    response["Retry-After"] = str(locked.retry_after(timezone.now()))
    return response


def _posted_version(request: HttpRequest) -> int | None:
    return whole_number(request.POST.get("version"))


@require_http_methods(["GET", "HEAD", "POST"])
def table_deal_confirm(request: HtmxHttpRequest, token: str, deal_id: int) -> HttpResponse:
    """The phone's holder, of the other side, confirms the deal (with personal proof, he was
    proven when he named himself). Opened again (a reload, a phone restoring its tab), its
    address leads back to the table's page. The last confirmation of a round answers that it is
    confirmed and that the round is now closed."""
    table = _open_table(token)
    if request.method != "POST":
        return _back(table)
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    deal = _table_deal(table, deal_id)
    acting = _phone_holder(request, table, _seated_players(table))
    if acting is None or acting.player is None:
        messages.error(request, _("Say who you are before confirming a deal."))
        return _back(table)
    try:
        confirmations.deal_confirm(
            deal=deal,
            by=request.user,
            player=acting.player.pk,
            version=_posted_version(request),
            proof=acting.proof,
        )
    except Refusal as refusal:  # DealConflict too: a correction came first
        messages.error(request, str(refusal))
        return _back(table)
    messages.success(
        request,
        _("Deal %(number)s confirmed by %(name)s.")
        % {"number": deal.number, "name": acting.player.label},
    )
    if _round_closed(table):
        # This confirmation closed the round: said as a success, on the closed table's page.
        messages.success(request, _("Every table's deals are confirmed: the round is closed."))
        return _closed(request, table, status=200)
    return _back(table)


@require_http_methods(["GET", "HEAD", "POST"])
def table_deal_dispute(request: HtmxHttpRequest, token: str, deal_id: int) -> HttpResponse:
    """The other side disagrees: it enters its own version of the deal, for the referee."""
    table = _open_table(token)
    if table.round.status == Round.Status.CLOSED:
        return _closed(request, table)
    deal = _table_deal(table, deal_id)
    game = deal.game
    view = deal_seats(deal)
    acting = _phone_holder(request, table, list(view.players))
    if acting is None or acting.player is None:
        messages.error(request, _("Say who you are before disagreeing with a deal."))
        return _back(table)
    form = edit_form(deal, view, request.POST if request.method == "POST" else None)

    def preview() -> dict[str, Any]:
        # The result line scores what the form holds, as the live preview would: first the
        # version entered, then the side's version sent back (a wrong PIN, a conflict). A copy
        # of the form is scored, so the page's own form keeps its errors as they are.
        data = request.POST if form.is_bound else entry.initial_as_data(form)
        scored: dict[str, Any] = preview_context(game, view, edit_form(deal, view, data))["preview"]
        return scored

    def page(status: int = 200, **extra: Any) -> HttpResponse:
        context = _table_context(request, table)
        context.update(
            game=game,
            deal=deal,
            entered=deal_card(game, view, deal),
            holder=acting.player,
            form=form,
            slots=form.slot_errors(),
            post_url=reverse("tournaments:table_deal_dispute", args=[table.token, deal.pk]),
            preview_url=reverse("tournaments:table_preview", args=[table.token]),
            htmx_save=False,
            dealer_label=view.labels[form.dealer.pk],
            sitting_label=view.labels[form.sitting_out.pk] if form.sitting_out else "",
            submit_label=_("Send our version to the referee"),
            is_open=game.status == Game.Status.OPEN,
            preview=preview(),
        )
        context.update(extra)
        return render(request, TEMPLATES + "table_deal_dispute.html", context, status=status)

    if request.method in ("GET", "HEAD"):
        return page()
    if not form.is_valid():
        return page(400)
    try:
        confirmations.deal_dispute(
            deal=deal,
            payload=form.payload(),
            by=request.user,
            player=acting.player.pk,
            version=form.cleaned_data.get("version"),
            proof=acting.proof,
        )
    except ScoringError as error:
        form.engine_errors(error, get_language())
        return page(400)
    except (DealConflict, GameClosed) as refusal:
        messages.error(request, str(refusal))
        return _back(table)
    except Refusal as refusal:
        return page(409, status_note=str(refusal))
    messages.success(
        request,
        _("Your version of deal %(number)s went to the referee.") % {"number": deal.number},
    )
    return _back(table)
