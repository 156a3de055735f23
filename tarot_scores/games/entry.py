"""Entering and correcting a deal, as a club game's page and a tournament table's link share
it: saving, undoing and refusing are the same steps (``deal_save``, ``deal_undo``,
``deal_correct``), each returning what to draw (``Answer``, ``Correction``); the page that asked
draws it with its own context."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib import messages
from django.http import QueryDict
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tarot_scores.core.actors import AtTable
from tarot_scores.core.errors import Refusal
from tarot_scores.core.htmx import HtmxHttpRequest
from tarot_scores.core.numbers import whole_number
from tarot_scores.games import services
from tarot_scores.games.forms import DealForm, deal_form_for
from tarot_scores.games.models import Deal, Game
from tarot_scores.games.penalties import SheetPenalties
from tarot_scores.games.seats import TableSeats
from tarot_scores.games.selectors import DealRow, GameSheet, game_sheet
from tarot_scores.games.services import DealConflict, GameClosed
from tarot_scores.games.words import DealWords, deal_words, outcome
from tarot_scores.scoring import Result, ScoringError


class SheetRow:
    """One deal on the sheet: (score, running total) per seat and who dealt; with the sheet's
    penalties, ``marked`` adds each seat's penalties on this deal. Its words are worked out only
    if the page shows them (the entry screen's totals don't)."""

    def __init__(
        self, sheet: GameSheet, row: DealRow, penalties: SheetPenalties | None = None
    ) -> None:
        self._sheet = sheet
        self.deal = row.deal
        self.restorable = row.restorable
        self.cells = list(zip(row.scores, row.totals, strict=True))
        marks = [penalties.on(row.deal.pk, p.pk) if penalties else [] for p in sheet.players]
        self.marked = [(s, t, m) for (s, t), m in zip(self.cells, marks, strict=True)]
        dealer_id = row.deal.dealer_id
        self.dealer = sheet.table.labels.get(dealer_id, "") if dealer_id else ""

    @cached_property
    def words(self) -> DealWords:
        sheet, deal = self._sheet, self.deal
        return deal_words(sheet.game, sheet.table, deal.payload, deal.number, outcome(deal))


def sheet_rows(sheet: GameSheet, penalties: SheetPenalties | None = None) -> list[SheetRow]:
    return [SheetRow(sheet, row, penalties) for row in sheet.rows]


@dataclass(frozen=True)
class DealCard:
    """One deal shown on its own: its words and each player's score."""

    number: int
    version: int
    words: DealWords
    scores: list[tuple[str, int | None]]


def deal_card(
    game: Game, table: TableSeats, deal: Deal, scores: Mapping[int, int] | None = None
) -> DealCard:
    """``scores`` when the caller has them (a deal just recorded), else the deal's score lines."""
    if scores is None:
        lines = deal.lines.all() if not deal.is_deleted else []
        scores = {line.player_id: line.points for line in lines}
    return DealCard(
        deal.number,
        deal.version,
        deal_words(game, table, deal.payload, deal.number, outcome(deal)),
        [(table.labels[p.pk], scores.get(p.pk)) for p in table.players],
    )


def blank_form(sheet: GameSheet) -> DealForm:
    """The entry form for the sheet's next deal."""
    return deal_form_for(sheet.game)(game=sheet.game, table=sheet.table, number=sheet.next_number)


@dataclass
class Answer:
    """What an entry screen draws after a save or an undo: ``sheet`` and ``form``, the page's
    extras (``saved``, ``conflict``, ``status_note``, ``undone``...) and the HTTP status;
    ``deal`` is the deal the step wrote (None when it wrote nothing). The view that asked draws
    it with its own context: the club game's page and a tournament table's link share the
    steps, not the page."""

    sheet: GameSheet
    form: DealForm
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    deal: Deal | None = None


def partial(request: HtmxHttpRequest, template: str) -> str:
    """The template an answer is drawn with: an htmx request gets the page's
    "entry-response" partial, a plain one the whole page."""
    return template + "#entry-response" if request.htmx else template


def refused_beside(form: DealForm, refusal: Refusal, *, boards: bool = False) -> None:
    """A service's refusal beside its question; one about the board beside the board's
    select where the screen has one (``boards``: slot "board"), else at the top."""
    for name, texts in refusal.messages().items():
        slot = "board" if boards and name == "board" else form.slot_of(name)
        form.section_errors.setdefault(slot, []).extend(texts)


def deal_save(
    request: HtmxHttpRequest,
    sheet: GameSheet,
    *,
    by: Any = None,
    by_label: str = "",
    at_table: AtTable | None = None,
    boards: bool = False,
) -> Answer:
    """Save the posted deal, or say beside each field why not; nothing is stored on refusal.

    ``by``, ``by_label`` and ``at_table`` say who saves, as ``services.deal_record`` takes them.
    ``boards``: the screen plays boards (a duplicate table): the posted board goes to the
    service, which holds the board rule, and its refusal is shown beside the board's select."""
    game = sheet.game
    form = deal_form_for(game)(request.POST, game=game, table=sheet.table, number=sheet.next_number)
    if not form.is_valid():
        return Answer(sheet, form, 400)
    try:
        recorded = services.deal_record(
            game=game,
            payload=form.payload(),
            by=by,
            number=form.cleaned_data["number"],
            by_label=by_label,
            table=sheet.table,
            client_id=form.cleaned_data.get("client_id"),
            reason=request.POST.get("reason", ""),
            board=whole_number(request.POST.get("board"), minimum=1) if boards else None,
            at_table=at_table,
        )
    except ScoringError as error:
        form.engine_errors(error, get_language())
        return Answer(sheet, form, 400)
    except DealConflict as conflict:
        # Another phone saved this deal first: show what it saved, keep nothing of this one.
        fresh = game_sheet(game_id=game.pk)
        card = deal_card(game, fresh.table, conflict.current)
        return Answer(
            fresh, blank_form(fresh), 409, {"conflict": str(conflict), "conflict_deal": card}
        )
    except GameClosed as closed:
        return Answer(sheet, form, 409, {"status_note": str(closed)})
    except Refusal as refusal:
        refused_beside(form, refusal, boards=boards)
        return Answer(sheet, form, 400)
    deal = recorded.deal
    # The sheet just read plus the new deal, unless another deal was saved in between (or
    # this one was stored by an earlier send of the same form: the answer shows it again).
    if deal.number == sheet.next_number and not recorded.replayed:
        fresh = sheet.after(deal, recorded.scores)
    else:
        fresh = game_sheet(game_id=game.pk)
    saved = deal_card(game, fresh.table, deal, recorded.scores)
    return Answer(fresh, blank_form(fresh), 200, {"saved": saved}, deal)


def _query_number(value: str | None) -> int | None:
    return whole_number(value, minimum=1)


def screen_state(
    sheet: GameSheet,
    query: Mapping[str, str],
    undo: Callable[[Deal], str] | None,
) -> tuple[DealForm, dict[str, Any]]:
    """The entry screen as a page load finds it: the next deal's form, plus, after a save or an
    undo made without JavaScript (``?saved=N``, ``?undone=N``), the notice it would have had.
    ``saved`` names the sheet's last live deal (an older one is no longer undone from here);
    ``undone`` a deleted one, whose answers come back in the form to be fixed and saved."""
    saved_number = _query_number(query.get("saved"))
    undone_number = _query_number(query.get("undone"))
    live = [row for row in sheet.rows if not row.deal.is_deleted]
    if saved_number is not None and live and live[-1].deal.number == saved_number:
        row = live[-1]
        scores = {p.pk: s for p, s in zip(sheet.players, row.scores, strict=True) if s is not None}
        saved = deal_card(sheet.game, sheet.table, row.deal, scores)
        undo_url = undo(row.deal) if undo is not None else ""
        return blank_form(sheet), {"saved": saved, "undo_url": undo_url}
    undone = undone_deal(sheet, undone_number)
    if undone is not None:
        return refilled(sheet, undone)
    return blank_form(sheet), {}


def undone_deal(sheet: GameSheet, number: int | None) -> Deal | None:
    """The deal of that number just undone: the last struck one, while no live deal has taken
    its number again (then it is no longer what the form is refilled from)."""
    found = None
    for row in sheet.rows:
        if row.deal.number == number:
            found = row.deal
    return found if found is not None and found.is_deleted else None


def refill_form(sheet: GameSheet, deal: Deal) -> DealForm:
    """The next deal's form holding what was entered for ``deal`` (just undone)."""
    return deal_form_for(sheet.game)(
        game=sheet.game, table=sheet.table, number=sheet.next_number, payload=deal.payload
    )


def refilled(sheet: GameSheet, deal: Deal) -> tuple[DealForm, dict[str, Any]]:
    """The form refilled from ``deal`` (just undone) and the screen's extras: the "undone"
    notice, and the result line of what is back in the form, as if it had just been typed
    (its score, or what is at fault), not the questions of an empty form."""
    form = refill_form(sheet, deal)
    typed = deal_form_for(sheet.game)(
        initial_as_data(form), game=sheet.game, table=sheet.table, number=sheet.next_number
    )
    preview = preview_context(sheet.game, sheet.table, typed)["preview"]
    return form, {"undone": deal.number, "preview": preview}


def deal_undo(
    request: HtmxHttpRequest,
    deal: Deal,
    *,
    here: str,
    undo_url: str,
    by: Any = None,
    by_label: str = "",
    at_table: AtTable | None = None,
) -> Answer | str:
    """Undo a deal just saved: strike it off the sheet as a deletion does (its history keeps
    it, and it can be restored), and give its answers back to the form to be fixed.

    ``here`` is the entry screen, ``undo_url`` this deal's Undo. Returns where a request without
    JavaScript goes next (the entry screen, with ``?undone=N`` or the problem as a message), or
    the answer to draw: the refilled form, the problem (409), or the place to write the reason
    a change now needs (400, nothing struck off yet)."""
    version = whole_number(request.POST.get("version"))
    if version is None:
        sheet = game_sheet(game_id=deal.game_id)
        return Answer(
            sheet, blank_form(sheet), 400, {"status_note": _("The deal's version is missing.")}
        )
    problem: dict[str, str] = {}
    try:
        services.deal_delete(
            deal=deal,
            version=version,
            by=by,
            by_label=by_label,
            reason=request.POST.get("reason", ""),
            at_table=at_table,
        )
    except DealConflict as conflict:
        problem["conflict"] = str(conflict)
    except GameClosed as closed:
        problem["status_note"] = str(closed)
    except Refusal as refusal:
        # A change that needs a written reason (a table reopened after its round closed, say):
        # the Undo comes back with a place to write it, and nothing is struck off yet.
        sheet = game_sheet(game_id=deal.game_id)
        asked = {
            "url": undo_url,
            "version": version,
            "number": deal.number,
            "messages": [text for texts in refusal.messages().values() for text in texts],
        }
        return Answer(sheet, blank_form(sheet), 400, {"undo_reason": asked})
    if not request.htmx:
        if problem:
            messages.error(request, next(iter(problem.values())))
            return here
        return f"{here}?undone={deal.number}"
    sheet = game_sheet(game_id=deal.game_id)
    if problem:
        return Answer(sheet, blank_form(sheet), 409, problem)
    form, extra = refilled(sheet, deal)
    return Answer(sheet, form, 200, extra, deal)


def preview_context(game: Game, table: TableSeats, form: DealForm) -> dict[str, Any]:
    result: Result | None = None
    if form.is_valid():
        try:
            result, _table = services.deal_score(
                game=game, payload=form.payload(), number=form.deal_number, table=table
            )
        except ScoringError as error:
            form.engine_errors(error, get_language())
        except Refusal as refusal:
            form.refused(refusal)
    # While typing, an empty field is not a mistake yet.
    slots = form.slot_errors(quiet_required=True)
    return {"form": form, "slots": slots, "preview": _preview(table, form, result, slots)}


def waiting_preview(form: DealForm) -> dict[str, Any]:
    """The live result line before anything is scored: what is at fault, each message with the
    question it is about (after a refused Save), or else what is still to answer."""
    return _unscored(form, form.slot_errors(quiet_required=True) if form.is_bound else {})


def _unscored(form: DealForm, slots: Mapping[str, list[str]]) -> dict[str, Any]:
    faults = [
        {"slot": slot, "label": form.slot_label(slot), "message": texts[0]}
        for slot, texts in slots.items()
        if texts
    ]
    missing = form.missing_labels() if not faults else []
    return {
        "incomplete": not faults,
        "faults": faults,
        "missing": missing,
    }


def _preview(
    table: TableSeats,
    form: DealForm,
    result: Result | None,
    slots: Mapping[str, list[str]],
) -> dict[str, Any]:
    if result is None:
        return _unscored(form, slots)
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


@dataclass
class Correction:
    """The correction page's answer: ``deal`` as it is now (the one to show again after a
    conflict), ``form``, the page's extras and the status; ``saved`` once the correction is
    stored (then the page goes back where it came from)."""

    deal: Deal
    form: DealForm
    status: int = 200
    extra: dict[str, Any] = field(default_factory=dict)
    saved: bool = False


def deal_correct(
    request: HtmxHttpRequest,
    deal: Deal,
    table: TableSeats,
    *,
    by: Any = None,
    by_label: str = "",
    at_table: AtTable | None = None,
) -> Correction:
    """The correction page (GET), or save the posted correction of the version it was read
    at; nothing is stored on refusal, and a stale version shows the newer one. ``by``,
    ``by_label`` and ``at_table`` as ``services.deal_update`` takes them."""
    game = deal.game
    if request.method in ("GET", "HEAD"):
        form = edit_form(deal, table)
        preview = preview_context(game, table, edit_form(deal, table, initial_as_data(form)))
        return Correction(deal, form, extra={"preview": preview["preview"]})

    form = edit_form(deal, table, request.POST)
    if form.is_valid() and form.cleaned_data.get("version") is None:
        form.section_errors.setdefault("all", []).append(
            _("This page is missing the deal's version: reload it and try again.")
        )
    if not form.is_valid() or form.section_errors:
        return Correction(deal, form, 400)
    try:
        updated = services.deal_update(
            deal=deal,
            payload=form.payload(),
            version=form.cleaned_data["version"],
            by=by,
            by_label=by_label,
            reason=request.POST.get("reason", ""),
            at_table=at_table,
        )
    except ScoringError as error:
        form.engine_errors(error, get_language())
        return Correction(deal, form, 400)
    except DealConflict as conflict:
        # Someone corrected it first: show what it is now, and start again from that.
        current = conflict.current
        current.game = game
        extra = {"conflict": str(conflict), "conflict_deal": deal_card(game, table, current)}
        return Correction(current, edit_form(current, table), 409, extra)
    except GameClosed as closed:
        return Correction(deal, form, 409, {"status_note": str(closed)})
    except Refusal as refusal:
        form.refused(refusal)
        return Correction(deal, form, 400)
    if updated.version == form.cleaned_data["version"]:
        messages.info(
            request,
            _("Deal %(number)s is unchanged: nothing to correct.") % {"number": deal.number},
        )
    else:
        messages.success(request, _("Deal %(number)s corrected.") % {"number": deal.number})
    return Correction(updated, form, saved=True)


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


def edit_form(deal: Deal, table: TableSeats, data: Any = None) -> DealForm:
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
