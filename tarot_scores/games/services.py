"""Writes of the games: creating a game, entering, correcting, deleting and restoring deals.

Each runs in one transaction, checks the deal with the scoring engine, stores the input as
entered, one score line per player, a revision for the history, and has the concerns above
the games keep in step through hooks they register at start-up: the season statistics
(``scores_counted``, registered by the stats), the ratings and a tournament's table
(``deal_changed``). HTML views and the API call the same functions, so each rule is enforced
once."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core import feed
from tarot_scores.core.actors import Actor, AtTable, signed_in
from tarot_scores.core.errors import WHOLE, Code, Reason, Refusal
from tarot_scores.core.hooks import Hook
from tarot_scores.core.kinds import HOUSE, TAROT, game_kind, variant_label
from tarot_scores.core.points import POINTS, typed_points
from tarot_scores.games.guards import reason_needed
from tarot_scores.games.models import (
    Counting,
    Deal,
    DealChange,
    DealRevision,
    Game,
    ScoreLine,
    Seat,
)
from tarot_scores.games.seats import TableSeats, deal_seats, table_seats
from tarot_scores.games.setup import GameSetupError, game_setup_check, rule_set_for
from tarot_scores.scoring import ScoringError
from tarot_scores.scoring.messages import Msg


class DealConflict(Refusal):
    """The deal changed since the page was read, or its number was just taken: ``current`` is
    the deal as it is now (the API answers 409 with it)."""

    def __init__(self, message: str, *, current: Deal) -> None:
        super().__init__({WHOLE: [Reason(Code.DEAL_CONFLICT, message)]})
        self.current = current


class GameClosed(Refusal):
    """The game takes no such change: it is finished, its table has all its deals, or the deal
    is deleted (the API answers 409)."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__({WHOLE: [Reason(code, message)]})


@transaction.atomic
def game_create(
    *,
    club: Club,
    players: Sequence[Player],
    variant: str,
    by: Actor,
    house_rules: HouseRules | None = None,
    date: Any = None,
    label: str = "",
    five_players: str | None = None,
    max_deals: int | None = None,
    imposed: bool = True,
) -> Game:
    """A game at one table, players in seat order (the first deals first).

    ``five_players`` (a ``scoring.FivePlayers`` value) fixes how a tarot table of five plays:
    called king or the dealer sitting out; it wins over the rule set's own mode (a tournament
    sets it for all its tables), and without it a rule set that allows either stays open. It
    is ignored at any other table. ``max_deals`` fixes the game's length (a tournament round's
    table). ``imposed=False`` is a player's choice (the new-game page, the API): it must fit the
    rule set, and a rule set that allows either needs one (see ``game_setup_check``).

    Raises ``GameSetupError`` (nothing stored) when a player sits twice, the game is not
    played by this many, or (not imposed) the table of five's mode does not fit the rules.
    """
    stored_variant = HOUSE if house_rules is not None else variant
    if not club.offers(game_kind(stored_variant)):
        raise Refusal.on(
            "variant",
            Code.GAME_NOT_OFFERED,
            _("%(club)s does not play %(game)s: an organiser can add it in the club's settings.")
            % {"club": club.name, "game": variant_label(stored_variant)},
        )
    rule_set = rule_set_for(variant=variant, house_rules=house_rules)
    setup = game_setup_check(
        kind=game_kind(stored_variant),
        seats=players,
        rules=rule_set,
        five_players=five_players,
        imposed=imposed,
    )
    if setup.problems:
        raise GameSetupError(setup)
    rules = rule_set.to_mapping() if rule_set is not None else {}
    if setup.five_players is not None:
        rules["five_players"] = setup.five_players.value
    game = Game.objects.create(
        club=club,
        variant=stored_variant,
        house_rules=house_rules,
        rules=rules,
        date=date or timezone.localdate(),
        label=label,
        max_deals=max_deals,
        created_by=signed_in(by),
        **feed.next_stamp().fields(),  # a game started: its place in the change feed
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=i) for i, player in enumerate(setup.players)
    )
    return game


@transaction.atomic
def game_set_status(*, game: Game, status: str) -> Game:
    game.status = status
    feed.stamp(game)  # finished or reopened: its place in the change feed
    game.save(update_fields=["status", "feed_xact", "feed_seq"])
    return game


def games_changed(*, game_ids: Collection[int]) -> None:
    """What the answers of these games show changed without the games' own services (a round
    closed finishes its tables; a swap or a substitute reseats them): stamp them for the change
    feed (``core.feed``), in the caller's transaction. The games' services stamp a game started,
    finished or reopened in the same write; a deal is stamped on its own (``_stamped``): a
    game's answer holds none."""
    ids = sorted(set(game_ids))
    if ids:
        Game.objects.filter(pk__in=ids).update(**feed.next_stamp().fields())


def _stamped(deal: Deal) -> None:
    """The deal's change (entered, corrected, deleted, restored, held or released) takes its
    place in the change feed (``core.feed``): the one place deals are stamped, just before
    each write saves it."""
    feed.stamp(deal)


_SITE_FIELDS = frozenset({"variant", "players"})


def as_entered(game: Game, payload: Mapping[str, Any]) -> dict[str, Any]:
    """The deal as it is stored: a tarot deal's ``points`` typed as text ("40,5") are read by
    ``parse_points`` (a ``Refusal`` on ``points`` if they are not card points)."""
    entered = dict(payload)
    if game.kind == TAROT and POINTS in entered:
        entered[POINTS] = typed_points(entered[POINTS])
    return entered


def deal_score(
    *, game: Game, payload: Mapping[str, Any], number: int, table: TableSeats | None = None
) -> tuple[scoring.Result, TableSeats]:
    """Score a deal of this game without saving anything (the live preview uses this too).

    Refuses with ``ScoringError`` what the engine refuses, and with ``Refusal`` points typed
    as text that are not card points."""
    table = table or table_seats(game)
    payload = as_entered(game, payload)
    errors: dict[str, list[Msg]] = {}
    for key in _SITE_FIELDS & set(payload):
        errors[key] = [Msg("unknown_field")]
    if errors:
        raise ScoringError(errors)
    engine_payload = table.to_engine(game, payload)
    result = scoring.score(engine_payload, rules=game.rule_set())
    if game.kind == TAROT and len(table.players) == 5:
        sitting = payload.get("sitting_out")
        dealer = table.dealer(number)
        if sitting is not None and sitting != dealer.pk:
            raise ScoringError(
                {"sitting_out": [Msg("dealer_sits_out", name=table.labels[dealer.pk])]}
            )
    return result, table


def _store_scores(deal: Deal, scores: Mapping[int, int]) -> None:
    ScoreLine.objects.filter(deal=deal).delete()
    ScoreLine.objects.bulk_create(
        ScoreLine(deal=deal, player_id=pk, points=points) for pk, points in scores.items()
    )


def _stat_columns(
    deal: Deal, game: Game, payload: Mapping[str, Any], result: scoring.Result
) -> None:
    if game.kind == TAROT:
        deal.taker_id = payload.get("taker")
        deal.contract = str(payload.get("contract") or "")
        deal.won = result.won
        deal.margin = result.margin
    else:
        deal.taker_id = None
        deal.contract = ""
        deal.won = None
        deal.margin = None


def _revise(
    deal: Deal,
    action: str,
    scores: Mapping[int, int],
    by: Actor,
    by_label: str,
    reason: str = "",
) -> None:
    DealRevision.objects.create(
        deal=deal,
        version=deal.version,
        action=action,
        payload=deal.payload,
        scores={str(k): v for k, v in scores.items()},
        by=signed_in(by),
        by_label=by_label,
        reason=reason,
    )


MAX_REASON = 500


def _checked_reason(game: Game, reason: str) -> str:
    """The written reason for a change, required where a guard asks for one (a tournament
    table after its round closed): ``Refusal`` on ``reason`` without it."""
    reason = " ".join((reason or "").split())
    if len(reason) > MAX_REASON:
        raise Refusal.on(
            "reason",
            Code.REASON_TOO_LONG,
            _("Keep the reason under %(count)s characters.") % {"count": MAX_REASON},
        )
    if not reason and reason_needed(game=game):
        raise Refusal.on(
            "reason",
            Code.REASON_REQUIRED,
            _("A change to this game's deals now needs a written reason, kept in its history."),
        )
    return reason


def _check_room(game: Game) -> None:
    """A game of a set length takes no deal beyond it."""
    if game.max_deals is not None:
        live = game.deals.filter(deleted_at__isnull=True).count()
        if live >= game.max_deals:
            raise GameClosed(
                Code.TABLE_FULL,
                ngettext(
                    "The %(count)s deal of this table is entered.",
                    "All %(count)s deals of this table are entered.",
                    game.max_deals,
                )
                % {"count": game.max_deals},
            )


def _check_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise GameClosed(
            Code.GAME_FINISHED, _("This game is finished: reopen it to enter or correct deals.")
        )


class AfterDealChange(Protocol):
    """What another app does when a deal of a game is entered, corrected, deleted or restored,
    or held out of the counts and released (``action`` a ``Counting`` then: ``deal_hold``):
    called inside that deal's transaction, with the game locked, so what it writes commits or
    rolls back with the deal (an error it raises undoes the deal too). ``seated`` is the
    table's players in seat order (ids), as the deal was scored: a hook need not read them.
    ``by`` is the account the revision records (None: a link, a script), passed along so that
    no hook reads the revision back; ``at_table`` is who at the table made the change, as the
    caller of the deal service said (None: the account made it, and nobody else)."""

    def __call__(
        self,
        *,
        game: Game,
        deal: Deal,
        action: DealChange,
        seated: Sequence[int],
        by: Actor,
        at_table: AtTable | None,
    ) -> None: ...


deal_changed: Hook[AfterDealChange] = Hook("games.services.deal_changed")
# Have a function called after every deal change, in its transaction (from an AppConfig's
# ``ready``: tournaments closes a round this way without the games importing it).
on_deal_change = deal_changed.register


class ScoresCounted(Protocol):
    """What another concern keeps from a deal's scores (player id -> points), in the deal's
    transaction: called with ``sign`` 1 when they start to count (a deal entered, restored or
    released) and -1 when they stop (deleted, or held out of the counts); a correction takes
    the old scores back, then counts the new. A deal held out of the counts is not counted
    while it is held: correcting, deleting or restoring it counts nothing (its release will).
    ``table_size`` is how many sat at the table."""

    def __call__(
        self, game: Game, deal: Deal, scores: Mapping[int, int], sign: int, table_size: int
    ) -> None: ...


# The season statistics (``stats.services.stats_apply``, registered by the site's AppConfig):
# the stats read the games, so the games reach them only through this hook.
scores_counted: Hook[ScoresCounted] = Hook("games.services.scores_counted")
on_scores_counted = scores_counted.register


def _count(game: Game, deal: Deal, scores: Mapping[int, int], sign: int, table_size: int) -> None:
    for keep in scores_counted:
        keep(game, deal, scores, sign, table_size)


class DealBoards(Protocol):
    """The boards a game plays (a duplicate tournament's table: the boards of its round), or
    None for a game that plays no boards. Registered by the app that knows (tournaments)."""

    def __call__(self, *, game: Game) -> Collection[int] | None: ...


deal_boards: Hook[DealBoards] = Hook("games.services.deal_boards")
# Have a function say which boards a game plays (from an AppConfig's ``ready``).
on_deal_boards = deal_boards.register


def game_boards(game: Game) -> Collection[int] | None:
    """The boards this game plays, or None when its deals have no board."""
    return deal_boards.first(lambda boards: boards(game=game))


def board_taken(board: int) -> Refusal:
    return Refusal.on(
        "board",
        Code.BOARD_ENTERED,
        _("Board %(board)s has already been entered.") % {"board": board},
    )


def _check_board(game: Game, board: int | None) -> None:
    """A duplicate table's deal names one of the table's boards not entered yet; any other
    game's deal names none. ``Refusal`` on ``board`` otherwise."""
    boards = game_boards(game)
    if boards is None:
        if board is not None:
            raise Refusal.on(
                "board", Code.BOARD_NOT_PLAYED, _("This game is not played with boards.")
            )
        return
    if board is None:
        raise Refusal.on(
            "board", Code.BOARD_REQUIRED, _("Choose the board this deal was played from.")
        )
    if board not in boards:
        raise Refusal.on(
            "board",
            Code.BOARD_NOT_HERE,
            _("Board %(board)s is not played at this table in this round.") % {"board": board},
        )
    if game.deals.filter(board=board, deleted_at__isnull=True).exists():
        raise board_taken(board)


def _deal_changed(
    game: Game,
    deal: Deal,
    action: DealChange,
    seated: Sequence[int],
    by: Actor,
    at_table: AtTable | None,
) -> None:
    for after in deal_changed:
        after(game=game, deal=deal, action=action, seated=seated, by=by, at_table=at_table)


@dataclass(frozen=True)
class RecordedDeal:
    """A deal just entered and its scores as written (player id -> points): what the pages and
    the API answer with, without reading the deal's score lines back."""

    deal: Deal
    scores: dict[int, int]
    replayed: bool = False  # already stored under this client_id: nothing was written


def _client_id_replay(game: Game, client_id: uuid.UUID | None) -> RecordedDeal | None:
    """The deal already stored under ``client_id`` (a request sent again), or None; a client
    id of another game's deal is refused: it names that deal, not a new one here."""
    if client_id is None:
        return None
    stored = Deal.objects.filter(client_id=client_id).first()
    if stored is None:
        return None
    if stored.game_id != game.pk:
        raise Refusal.on(
            "client_id",
            Code.CLIENT_ID_OTHER_GAME,
            _("This client id already names a deal of another game: make a new one."),
        )
    return RecordedDeal(stored, _current_scores(stored), replayed=True)


def deal_record(
    *,
    game: Game,
    payload: Mapping[str, Any],
    by: Actor,
    number: int | None = None,
    by_label: str = "",
    table: TableSeats | None = None,
    client_id: uuid.UUID | None = None,
    reason: str = "",
    board: int | None = None,
    at_table: AtTable | None = None,
) -> RecordedDeal:
    """Enter the next deal of a game; returns it with the scores its score lines hold.

    ``number`` is the deal number the entry page expected; when two phones save the same new
    deal at once, the second finds it taken and gets ``DealConflict`` with the deal that won.
    Without a number the deal takes the next free one: however many arrive at once, each
    waits for the game's lock and none is refused. ``table`` is the game's seats as the caller
    read them, to save reading them again.

    ``client_id`` is the phone's name for this deal: sent again (a lost answer, a queue sent
    when the network is back), it answers the deal stored under it, as it is now, with
    ``replayed`` set and nothing written, whatever the body, the number or the game's state.

    ``board``: a duplicate tournament's table plays boards (``game_boards``); its deal names
    the board it was played from, one of the table's not entered yet (``Refusal`` on
    ``board`` otherwise, also when two phones enter the same board at once), and the board
    says who dealt: the seat at the board's direction (board 1 North, 2 East...: seats are in
    North, East, South, West order, so it is the seat ``(board - 1) % 4``). There the board,
    not the number, names the deal: two phones entering two boards at once both get in.

    ``at_table``: who at the table entered it, where the caller knows (a tournament table's
    link names the phone's holder), handed to the deal hooks; None: the account ``by`` alone.
    """
    expected = number if board is None else None
    try:
        with transaction.atomic():
            locked = (
                Game.objects.select_for_update(of=("self",)).select_related("club").get(pk=game.pk)
            )
            # After the lock: a second request with the same client id waits for the first.
            replay = _client_id_replay(locked, client_id)
            if replay is not None:
                return replay
            # Read after the lock, in a statement of its own: in PostgreSQL a statement that
            # waited for the lock still sees the deals as they were when it began, so a last
            # number read together with the lock would be stale for every waiting phone.
            # Live deals only: an undone or deleted last deal gives its number (and so its
            # dealer) back to the next one.
            last = (
                Deal.objects.filter(game=locked, deleted_at__isnull=True)
                .order_by("-number")
                .values_list("number", flat=True)
                .first()
            ) or 0
            _check_open(locked)
            reason = _checked_reason(locked, reason)
            _check_board(locked, board)
            if expected is not None and expected != last + 1:
                existing = locked.deals.filter(number=expected, deleted_at__isnull=True).first()
                if existing is not None:
                    raise DealConflict(
                        _("Deal %(number)s was just entered from another device.")
                        % {"number": expected},
                        current=existing,
                    )
            number = last + 1
            _check_room(locked)
            payload = as_entered(locked, payload)
            result, table = deal_score(game=locked, payload=payload, number=number, table=table)
            scores = table.scores_by_id(result)
            deal = Deal(
                game=locked,
                number=number,
                payload=dict(payload),
                # A board's dealer is the seat at its direction (tournaments.duplicate's
                # board_dealer): seat (board - 1) % 4 at a table seated North to West.
                dealer=table.dealer(board if board is not None else number),
                client_id=client_id,
                board=board,
            )
            _stat_columns(deal, locked, payload, result)
            _stamped(deal)
            deal.save()
            ScoreLine.objects.bulk_create(
                ScoreLine(deal=deal, player_id=pk, points=points) for pk, points in scores.items()
            )
            _revise(deal, DealRevision.Action.CREATED, scores, by, by_label, reason)
            _count(locked, deal, scores, 1, len(table.players))
            _deal_changed(
                locked,
                deal,
                DealRevision.Action.CREATED,
                [p.pk for p in table.players],
                by,
                at_table,
            )
            return RecordedDeal(deal, scores)
    except IntegrityError:
        # The same client id sent to another game at the same instant (each game locked its
        # own row): refused as the other game's.
        if client_id is not None and Deal.objects.filter(client_id=client_id).exists():
            replay = _client_id_replay(game, client_id)
            if replay is not None:
                return replay
        # Two phones entered the same board at once and the second slipped past the check
        # (the one live deal a board constraint stopped it): refused by name, not a 500.
        if (
            board is not None
            and Deal.objects.filter(game=game, board=board, deleted_at__isnull=True).exists()
        ):
            raise board_taken(board) from None
        # Only a number the client named can have been taken: the next free one is read
        # under the game's lock.
        existing = (
            Deal.objects.filter(game=game, number=expected, deleted_at__isnull=True).first()
            if expected
            else None
        )
        if existing is None:
            raise
        raise DealConflict(
            _("Deal %(number)s was just entered from another device.") % {"number": expected},
            current=existing,
        ) from None


def _locked_deal(deal: Deal, version: int | None) -> tuple[Deal, Game]:
    # The game first, as deal_record locks it: a correction waits for a game being finished
    # (and then finds it finished) instead of slipping in before the finish commits.
    game = Game.objects.select_for_update(of=("self",)).select_related("club").get(pk=deal.game_id)
    current = Deal.objects.select_for_update().get(pk=deal.pk)
    _check_open(game)  # a finished game's sheet is final: no correction, deletion or restore
    if version is not None and current.version != version:
        raise DealConflict(
            _(
                "This deal was changed by someone else (now version %(version)s); "
                "here is the newer version."
            )
            % {"version": current.version},
            current=current,
        )
    return current, game


def _same_deal(one: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """The same deal, whether an extra left blank is sent as nothing, ``null`` or ``[]`` (the
    form sends every field, the API and older deals only those given)."""

    def given(payload: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in payload.items() if v is not None and v != "" and v != []}

    return given(one) == given(other)


def _current_scores(deal: Deal) -> dict[int, int]:
    return dict(deal.lines.values_list("player_id", "points"))


@transaction.atomic
def deal_update(
    *,
    deal: Deal,
    payload: Mapping[str, Any],
    version: int,
    by: Actor,
    by_label: str = "",
    reason: str = "",
    merge: bool = False,
    at_table: AtTable | None = None,
) -> Deal:
    """Correct a deal read at ``version``; a stale version raises ``DealConflict``. ``reason``
    is kept in the history (required where ``_checked_reason`` says so); ``at_table`` as for
    ``deal_record``.

    ``payload`` is the whole deal as it should be; with ``merge``, only the fields to change,
    laid over the deal as entered (a list such as ``handfuls`` is replaced whole). The merge
    is made under the lock, on the version the client read. A payload that changes nothing
    writes nothing: the deal comes back at the version it was read at."""
    current, game = _locked_deal(deal, version)
    reason = _checked_reason(game, reason)
    if current.is_deleted:
        raise GameClosed(
            Code.DEAL_DELETED, _("This deal is deleted: restore it before correcting it.")
        )
    if merge:
        payload = {**current.payload, **payload}
    payload = as_entered(game, payload)
    # Scored with the deal's own players: a seat taken over since keeps its player for it.
    seats = deal_seats(current, table_seats(game))
    result, table = deal_score(game=game, payload=payload, number=current.number, table=seats)
    old = _current_scores(current)
    scores = table.scores_by_id(result)
    if _same_deal(payload, current.payload) and scores == old:
        # Saved as it was: no new version, so the history holds only real changes.
        return current
    if current.counted:  # a held deal counts nowhere: its release counts the new scores
        _count(game, current, old, -1, len(table.players))
    current.payload = dict(payload)
    _stat_columns(current, game, payload, result)
    current.version += 1
    current.updated_at = timezone.now()
    _stamped(current)
    current.save()
    _store_scores(current, scores)
    _revise(current, DealRevision.Action.EDITED, scores, by, by_label, reason)
    if current.counted:
        _count(game, current, scores, 1, len(table.players))
    _deal_changed(
        game, current, DealRevision.Action.EDITED, [p.pk for p in table.players], by, at_table
    )
    return current


@transaction.atomic
def deal_delete(
    *,
    deal: Deal,
    version: int | None,
    by: Actor,
    by_label: str = "",
    reason: str = "",
    at_table: AtTable | None = None,
) -> Deal:
    current, game = _locked_deal(deal, version)
    if current.is_deleted:
        return current
    reason = _checked_reason(game, reason)
    old = _current_scores(current)
    seated = list(game.seats.order_by("position").values_list("player_id", flat=True))
    if current.counted:  # a held deal was taken out of the counts already
        _count(game, current, old, -1, len(seated))
    ScoreLine.objects.filter(deal=current).delete()
    current.deleted_at = timezone.now()
    current.version += 1
    _stamped(current)
    current.save()
    _revise(current, DealRevision.Action.DELETED, {}, by, by_label, reason)
    _deal_changed(game, current, DealRevision.Action.DELETED, seated, by, at_table)
    return current


@transaction.atomic
def deal_restore(
    *, deal: Deal, by: Actor, reason: str = "", at_table: AtTable | None = None
) -> Deal:
    current, game = _locked_deal(deal, None)
    if not current.is_deleted:
        return current
    reason = _checked_reason(game, reason)
    _check_room(game)
    if (
        current.board is not None
        and game.deals.filter(board=current.board, deleted_at__isnull=True).exists()
    ):
        raise GameClosed(
            Code.BOARD_ENTERED,
            _("Board %(board)s has been entered again since: this deal cannot come back.")
            % {"board": current.board},
        )
    if game.deals.filter(number=current.number, deleted_at__isnull=True).exists():
        # Its number was taken again (it was undone, then the deal entered afresh): coming
        # back under another number would change its dealer (who sits out at five) and the
        # order of the sheet, so it stays struck; the history keeps it.
        raise GameClosed(
            Code.NUMBER_REUSED,
            _(
                "Deal %(number)s has been entered again since: this deal cannot come back. "
                "Correct the new deal %(number)s instead."
            )
            % {"number": current.number},
        )
    # Scored with the players who played it, as a correction is (a substitute who sat in
    # since takes nothing of a deal from before him).
    seats = deal_seats(current, table_seats(game))
    result, table = deal_score(
        game=game, payload=current.payload, number=current.number, table=seats
    )
    scores = table.scores_by_id(result)
    current.deleted_at = None
    current.version += 1
    _stamped(current)
    current.save()
    _store_scores(current, scores)
    _revise(current, DealRevision.Action.RESTORED, scores, by, "", reason)
    if current.counted:  # still held: its release counts it
        _count(game, current, scores, 1, len(table.players))
    _deal_changed(
        game, current, DealRevision.Action.RESTORED, [p.pk for p in table.players], by, at_table
    )
    return current


def deal_hold(*, game: Game, deal: Deal, held: bool) -> Deal:
    """Hold a live deal out of every count (``held``), or release it to count again: a
    tournament table's deal contested by the other side, until a referee settles it
    (``tournaments.play.confirmations``). Called inside the caller's transaction, with the game
    and the deal locked; the deal is as it was read under the lock.

    Holding takes the deal's scores back from every count exactly as a deletion does (the
    season statistics and the players' figures: ``scores_counted`` with -1), and releasing
    counts them again as a restore does; the deal hooks hear it (``action`` ``Counting.HELD`` or
    ``RELEASED``: the ratings replay from the deal's place, the webhooks tell of it) and the
    deal takes its new place in the change feed. The deal's score lines, version and history
    stay as they are: it is the same deal, counted or not (the dispute's history is the
    confirmation's). A deal already so writes nothing; a deleted one (it counts nowhere anyway)
    only its flag and its place in the feed."""
    if deal.counted == (not held):
        return deal
    if not deal.is_deleted:
        seated = list(game.seats.order_by("position").values_list("player_id", flat=True))
        _count(game, deal, _current_scores(deal), -1 if held else 1, len(seated))
    else:
        seated = []
    deal.counted = not held
    deal.updated_at = timezone.now()
    _stamped(deal)
    deal.save(update_fields=["counted", "updated_at", "feed_xact", "feed_seq"])
    if not deal.is_deleted:
        _deal_changed(game, deal, Counting.HELD if held else Counting.RELEASED, seated, None, None)
    return deal
