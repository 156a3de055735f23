"""Writes: every change to clubs, games and deals goes through these functions.

Each runs in one transaction, checks the deal with the scoring engine, stores the input as
entered, one score line per player, a revision for the history, and keeps the per-season
statistics in step. HTML views and the API call the same functions, so each rule is enforced
once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores import scoring
from tarot_scores.models import (
    Club,
    Deal,
    DealRevision,
    Game,
    HouseRules,
    Membership,
    Player,
    PlayerSeason,
    ScoreLine,
    Seat,
)
from tarot_scores.scoring import ScoringError
from tarot_scores.scoring.messages import Msg

User = AbstractBaseUser | AnonymousUser | None


class DealConflict(Exception):
    """The deal changed since the page was read, or its number was just taken."""

    def __init__(self, message: str, *, current: Deal) -> None:
        super().__init__(message)
        self.current = current


class GameClosed(Exception):
    pass


def _user(by: User) -> Any:
    return by if by is not None and getattr(by, "is_authenticated", False) else None


# --- clubs and players -------------------------------------------------------------------------


@transaction.atomic
def club_create(*, name: str, by: User, public: bool = True) -> Club:
    """A new club; its creator becomes its organiser."""
    base = slugify(name)[:50] or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    club = Club.objects.create(name=name.strip(), slug=slug, public=public)
    user = _user(by)
    if user is not None:
        Membership.objects.create(club=club, user=user, role=Membership.Role.ORGANISER)
    return club


@transaction.atomic
def player_create(
    *, club: Club, name: str, nickname: str = "", licence: str = "", user: Any = None
) -> Player:
    player = Player.objects.create(
        name=name.strip(), nickname=nickname.strip(), licence=licence.strip(), user=user
    )
    player.clubs.add(club)
    return player


@transaction.atomic
def membership_set(*, club: Club, user: Any, role: str) -> Membership:
    membership, _created = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


@transaction.atomic
def member_add(
    *, club: Club, role: str, user: Any = None, email: str = "", player: Player | None = None
) -> tuple[Membership, bool]:
    """Add someone to a club: an existing account, or a new one for ``email``. ``player`` is the
    club's player they are. Returns the membership and whether the account is new."""
    created = user is None
    if user is None:
        user = user_invite(email=email)
    membership = membership_set(club=club, user=user, role=role)
    if player is not None:
        player_link_user(player=player, user=user)
    return membership, created


@transaction.atomic
def membership_update(*, membership: Membership, role: str, player: Player | None) -> Membership:
    """Change a member's role and which of the club's players they are (None: none of them)."""
    membership = membership_set(club=membership.club, user=membership.user, role=role)
    if player is not None:
        player_link_user(player=player, user=membership.user)
    else:
        for own in Player.objects.filter(user=membership.user, clubs=membership.club):
            player_link_user(player=own, user=None)
    return membership


@transaction.atomic
def user_invite(*, email: str) -> Any:
    """An account for someone an organiser adds by e-mail address. It has no password yet: they
    choose one through a password-reset link."""
    user_model = get_user_model()
    base = slugify(email.split("@")[0])[:140] or "player"
    username, n = base, 1
    while user_model.objects.filter(username__iexact=username).exists():
        n += 1
        username = f"{base}{n}"
    user = user_model(username=username, email=email.strip())
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def player_link_user(*, player: Player, user: Any) -> Player:
    """Make ``user`` the account that plays as ``player`` (None: no account).

    An account plays as one player, so a link it had to another player is undone.
    """
    if user is not None:
        Player.objects.filter(user=user).exclude(pk=player.pk).update(user=None)
    player.user = user
    player.save(update_fields=["user"])
    return player


@transaction.atomic
def house_rules_save(
    *,
    club: Club,
    name: str,
    based_on: str,
    rules: scoring.RuleSet,
    house_rules: HouseRules | None = None,
) -> HouseRules:
    """Create or change a club's rule set. Only the parameters that differ from the preset are
    kept; games already begun keep the rules they were frozen with."""
    preset = scoring.PRESETS[based_on].to_mapping()
    house_rules = house_rules or HouseRules(club=club)
    house_rules.name = name.strip()
    house_rules.based_on = based_on
    house_rules.parameters = {
        key: value
        for key, value in rules.to_mapping().items()
        if key != "name" and value != preset[key]
    }
    house_rules.save()
    return house_rules


# --- games -------------------------------------------------------------------------------------


def rule_set_for(*, variant: str, house_rules: HouseRules | None) -> scoring.RuleSet | None:
    """The tarot rule set a new game is played under; None for the other games (and for house
    rules that were not found)."""
    if house_rules is not None:
        return house_rules.rules()
    return scoring.PRESETS.get(variant)


def rules_for(*, variant: str, house_rules: HouseRules | None) -> dict[str, Any]:
    """The rule set a new game is played under, frozen into the game."""
    rules = rule_set_for(variant=variant, house_rules=house_rules)
    return rules.to_mapping() if rules is not None else {}


def game_kind(variant: str) -> str:
    """tarot, novatarok or buraco: every rule set that is not another game is tarot."""
    return variant if variant in scoring.OTHER_GAMES else "tarot"


# How many sit at a table of each game, and what a table of another size is told.
GAME_SIZES = {"tarot": (3, 4, 5), "novatarok": (2, 3, 4, 5), "buraco": (2, 4)}
_WRONG_SIZE = {
    "tarot": gettext_lazy("Tarot is played by 3, 4 or 5 players (here %(count)s)."),
    "novatarok": gettext_lazy("Novatarok is played by 2 to 5 players (here %(count)s)."),
    "buraco": gettext_lazy("Buraco is played by 2 or 4 players (here %(count)s)."),
}
# The words for how a table of five plays, as the new-game page offers them.
FIVE_PLAYER_WORDS = {
    scoring.FivePlayers.CALLED_KING: gettext_lazy("called king"),
    scoring.FivePlayers.SITTING_OUT: gettext_lazy("the dealer sits out"),
}

PLAYERS = "players"
FIVE_PLAYERS = "five_players"


@dataclass(frozen=True)
class SetupProblem:
    """One refusal: ``field`` is ``players`` or ``five_players``; ``seat`` (from 1) when it is
    about the player at one seat."""

    field: str
    message: str
    seat: int | None = None


@dataclass(frozen=True)
class GameSetup:
    """A table checked before the game is created: who sits (each once, in seat order), how a
    tarot table of five plays (None at any other table), and what is wrong with it."""

    players: tuple[Player, ...]
    five_players: scoring.FivePlayers | None
    problems: tuple[SetupProblem, ...]

    def messages(self) -> dict[str, list[str]]:
        """The refusals by field, seats and table size together under ``players``."""
        out: dict[str, list[str]] = {}
        for problem in self.problems:
            out.setdefault(problem.field, []).append(problem.message)
        return out


class GameSetupError(Exception):
    """A game that cannot be created as asked; ``errors`` holds the messages by field."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.errors = setup.messages()
        super().__init__(" ".join(m for messages in self.errors.values() for m in messages))


def game_setup_check(
    *,
    kind: str,
    seats: Sequence[Player | None],
    rules: scoring.RuleSet | None,
    five_players: str | None,
    imposed: bool = False,
) -> GameSetup:
    """The rules of a new game's table, for the new-game page, the API and ``game_create``.

    ``seats`` in seat order; None is an empty seat (or one the caller has already refused),
    which still counts in the seat numbers. A player sits once; tarot is played by 3 to 5,
    Novatarok by 2 to 5, buraco by 2 or 4. At a tarot table of five, ``five_players`` must fit
    ``rules`` (None: not known, not checked): it is required when they allow either, taken from
    them when they fix it, and refused when it says otherwise.

    ``imposed`` is for code that sets the mode on its own terms (a tournament's, for all its
    tables): a mode given wins over the rule set's, and none given leaves a rule set that allows
    either open, each deal saying whether the dealer sits out.
    """
    problems: list[SetupProblem] = []
    seated: list[Player] = []
    seat_of: dict[Any, int] = {}
    for seat, player in enumerate(seats, start=1):
        if player is None:
            continue
        if player.pk in seat_of:
            message = _("%(player)s already sits at seat %(seat)s.") % {
                "player": player.label,
                "seat": seat_of[player.pk],
            }
            problems.append(SetupProblem(PLAYERS, message, seat=seat))
            continue
        seat_of[player.pk] = seat
        seated.append(player)
    count = len(seated)
    if count not in GAME_SIZES[kind]:
        problems.append(SetupProblem(PLAYERS, str(_WRONG_SIZE[kind]) % {"count": count}))

    mode: scoring.FivePlayers | None = None
    wanted = scoring.FivePlayers(five_players) if five_players else None
    if wanted is scoring.FivePlayers.EITHER:
        wanted = None  # not a way to play a table, only the absence of a choice
    if kind == "tarot" and count == 5 and rules is not None:
        fixed = rules.five_players
        either = fixed is scoring.FivePlayers.EITHER
        if imposed:
            mode = wanted or (None if either else fixed)
        elif wanted is None and either:
            problems.append(
                SetupProblem(FIVE_PLAYERS, _("At five players, choose how the table plays."))
            )
        elif wanted is None or wanted is fixed or either:
            mode = wanted or fixed
        else:
            message = _("These rules play tables of five with: %(mode)s.") % {
                "mode": FIVE_PLAYER_WORDS[fixed]
            }
            problems.append(SetupProblem(FIVE_PLAYERS, message))
    return GameSetup(players=tuple(seated), five_players=mode, problems=tuple(problems))


@transaction.atomic
def game_create(
    *,
    club: Club,
    players: Sequence[Player],
    variant: str,
    by: User,
    house_rules: HouseRules | None = None,
    date: Any = None,
    label: str = "",
    five_players: str | None = None,
    max_deals: int | None = None,
) -> Game:
    """A game at one table, players in seat order (the first deals first).

    ``five_players`` (a ``scoring.FivePlayers`` value) fixes how a tarot table of five plays:
    called king or the dealer sitting out; it wins over the rule set's own mode (a tournament
    sets it for all its tables), and without it a rule set that allows either stays open. It
    is ignored at any other table. ``max_deals`` fixes the game's length (a tournament round's
    table).

    Raises ``GameSetupError`` (nothing stored) when a player sits twice or the game is not
    played by this many.
    """
    stored_variant = "house" if house_rules is not None else variant
    rule_set = rule_set_for(variant=variant, house_rules=house_rules)
    setup = game_setup_check(
        kind=game_kind(stored_variant),
        seats=players,
        rules=rule_set,
        five_players=five_players,
        imposed=True,
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
        created_by=_user(by),
    )
    Seat.objects.bulk_create(
        Seat(game=game, player=player, position=i) for i, player in enumerate(setup.players)
    )
    return game


@transaction.atomic
def game_set_status(*, game: Game, status: str) -> Game:
    game.status = status
    game.save(update_fields=["status"])
    return game


# --- deals -------------------------------------------------------------------------------------


class TableView:
    """A game's seats as the scoring engine sees them: a unique label per player."""

    def __init__(self, seats: Sequence[Seat]) -> None:
        self.players = [s.player for s in seats]
        labels: dict[int, str] = {}
        seen: set[str] = set()
        for seat in seats:
            label = seat.player.label
            if label.casefold() in seen:
                label = f"{label} ({seat.position + 1})"
            seen.add(label.casefold())
            labels[seat.player_id] = label
        self.labels = labels
        self.ids = {label: pk for pk, label in labels.items()}

    def dealer(self, number: int) -> Player:
        """Deals pass round the table in seat order: deal 1 is dealt by the first seat."""
        return self.players[(number - 1) % len(self.players)]

    def label(self, value: Any) -> Any:
        """The engine's name for a seated player's id. Anything else (a name, an id from
        another table, true) is passed as ``NotSeated``, which the engine refuses by name."""
        if value is None:
            return None
        if value.__class__ is int and value in self.labels:
            return self.labels[value]
        return NotSeated(value)

    def to_engine(self, game: Game, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The site's payload (players by id) as the scoring contract (players by name)."""
        out: dict[str, Any] = dict(payload)
        out["variant"] = game.variant if game.kind != "tarot" else (game.rules.get("name") or "fft")
        out["players"] = list(self.labels.values())
        for key in ("taker", "partner", "sitting_out", "kings", "trull", "pagat"):
            if key in out:
                out[key] = self.label(out[key])
        for key in ("handfuls", "miseres"):
            if isinstance(out.get(key), list):
                out[key] = [
                    {**item, "player": self.label(item.get("player"))}
                    if isinstance(item, Mapping)
                    else item
                    for item in out[key]
                ]
        if isinstance(out.get("card_points"), Mapping):
            out["card_points"] = {self.label(_as_id(k)): v for k, v in out["card_points"].items()}
        if isinstance(out.get("sides"), list):
            out["sides"] = [
                {**side, "players": [self.label(p) for p in side.get("players", [])]}
                if isinstance(side, Mapping) and isinstance(side.get("players"), list)
                else side
                for side in out["sides"]
            ]
        return out

    def scores_by_id(self, result: scoring.Result) -> dict[int, int]:
        return {self.ids[label]: points for label, points in result.scores.items()}


class NotSeated:
    """What was given where a seated player's id was expected. It equals no name, so the engine
    refuses it ("… is not a player at this table") and quotes it as it was typed."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return str(self.value)


def _as_id(key: Any) -> Any:
    """JSON object keys are strings: "12" names player 12."""
    if isinstance(key, str) and key.isdecimal() and len(key) <= 18:
        return int(key)
    return key


def table_of(game: Game) -> TableView:
    return TableView(list(game.seats.select_related("player")))


_SITE_FIELDS = frozenset({"variant", "players"})


def deal_score(
    *, game: Game, payload: Mapping[str, Any], number: int, table: TableView | None = None
) -> tuple[scoring.Result, TableView]:
    """Score a deal of this game without saving anything (the live preview uses this too)."""
    table = table or table_of(game)
    errors: dict[str, list[Msg]] = {}
    for key in _SITE_FIELDS & set(payload):
        errors[key] = [Msg("unknown_field")]
    if errors:
        raise ScoringError(errors)
    engine_payload = table.to_engine(game, payload)
    result = scoring.score(engine_payload, rules=game.rule_set())
    if game.kind == "tarot" and len(table.players) == 5:
        sitting = payload.get("sitting_out")
        dealer = table.dealer(number)
        if sitting is not None and sitting != dealer.pk:
            raise ScoringError(
                {"sitting_out": [Msg("dealer_sits_out", name=table.labels[dealer.pk])]}
            )
    return result, table


def results_changed(*, club_id: int) -> None:
    """Something the club's results pages show has changed (a deal, a round, a registration):
    bump the version they are cached under, in the caller's transaction."""
    Club.objects.filter(pk=club_id).update(stats_version=F("stats_version") + 1)


def _stats_key(game: Game, table_size: int) -> dict[str, Any]:
    return {
        "club_id": game.club_id,
        "season": game.club.season_of(game.date),
        "kind": game.kind,
        "table_size": table_size,
    }


def _stats_rows(
    game: Game, deal: Deal, scores: Mapping[int, int], table_size: int
) -> list[tuple[int, int, str, int, int, int, int, int, int]]:
    """One row per player: the key, then points, deals played, times taker, times won."""
    key = _stats_key(game, table_size)
    sitting = deal.payload.get("sitting_out") if game.kind == "tarot" else None
    rows = []
    for player_id, points in scores.items():
        taken = 1 if player_id == deal.taker_id else 0
        rows.append(
            (
                key["club_id"],
                key["season"],
                key["kind"],
                key["table_size"],
                player_id,
                points,
                0 if player_id == sitting else 1,
                taken,
                taken if deal.won else 0,
            )
        )
    return rows


_STATS_UPSERT = """
INSERT INTO {table} (club_id, season, kind, table_size, player_id, points, deals, taken,
                     taken_won)
VALUES {values}
ON CONFLICT (club_id, season, kind, table_size, player_id) DO UPDATE SET
    points = {table}.points + excluded.points,
    deals = {table}.deals + excluded.deals,
    taken = {table}.taken + excluded.taken,
    taken_won = {table}.taken_won + excluded.taken_won
"""


def _apply_stats(
    game: Game, deal: Deal, scores: Mapping[int, int], sign: int, table_size: int
) -> None:
    """Add (sign=1) or take back (sign=-1) a deal's part in the season statistics.

    Adding is one upsert statement (SQLite and PostgreSQL share the syntax); taking back
    updates rows that exist, since the check constraints forbid a negative row even briefly.
    """
    rows = _stats_rows(game, deal, scores, table_size)
    results_changed(club_id=game.club_id)
    if not rows:
        return
    if sign > 0:
        table = connection.ops.quote_name(PlayerSeason._meta.db_table)
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(rows))
        with connection.cursor() as cursor:
            cursor.execute(
                _STATS_UPSERT.format(table=table, values=values),
                [value for row in rows for value in row],
            )
        return
    for club_id, season, kind, size, player_id, points, deals, taken, won in rows:
        PlayerSeason.objects.filter(
            club_id=club_id, season=season, kind=kind, table_size=size, player_id=player_id
        ).update(
            points=F("points") - points,
            deals=F("deals") - deals,
            taken=F("taken") - taken,
            taken_won=F("taken_won") - won,
        )


def _store_scores(deal: Deal, scores: Mapping[int, int]) -> None:
    ScoreLine.objects.filter(deal=deal).delete()
    ScoreLine.objects.bulk_create(
        ScoreLine(deal=deal, player_id=pk, points=points) for pk, points in scores.items()
    )


def _stat_columns(
    deal: Deal, game: Game, payload: Mapping[str, Any], result: scoring.Result
) -> None:
    if game.kind == "tarot":
        deal.taker_id = payload.get("taker")
        deal.contract = str(payload.get("contract") or "")
        deal.won = result.won
        deal.margin = result.margin
    else:
        deal.taker_id = None
        deal.contract = ""
        deal.won = None
        deal.margin = None


def _revise(deal: Deal, action: str, scores: Mapping[int, int], by: User, by_label: str) -> None:
    DealRevision.objects.create(
        deal=deal,
        version=deal.version,
        action=action,
        payload=deal.payload,
        scores={str(k): v for k, v in scores.items()},
        by=_user(by),
        by_label=by_label,
    )


def _check_room(game: Game) -> None:
    """A game of a set length takes no deal beyond it."""
    if game.max_deals is not None:
        live = game.deals.filter(deleted_at__isnull=True).count()
        if live >= game.max_deals:
            raise GameClosed(
                _("All %(count)s deals of this table are entered.") % {"count": game.max_deals}
            )


def _check_open(game: Game) -> None:
    if game.status != Game.Status.OPEN:
        raise GameClosed(_("This game is finished: reopen it to enter or correct deals."))


def deal_record(
    *,
    game: Game,
    payload: Mapping[str, Any],
    by: User,
    number: int | None = None,
    by_label: str = "",
    table: TableView | None = None,
) -> Deal:
    """Enter the next deal of a game; the returned deal carries its score lines (``lines``).

    ``number`` is the deal number the entry page expected; when two phones save the same new
    deal at once, the second finds it taken and gets ``DealConflict`` with the deal that won.
    Without a number the game row is locked and the next number is used. ``table`` is the
    game's seats as the caller read them, to save reading them again.
    """
    try:
        with transaction.atomic():
            last_number = (
                Deal.objects.filter(game=OuterRef("pk")).order_by("-number").values("number")[:1]
            )
            locked = (
                Game.objects.select_for_update(of=("self",))
                .select_related("club")
                .annotate(last_number=Coalesce(Subquery(last_number), 0))
                .get(pk=game.pk)
            )
            _check_open(locked)
            last = locked.last_number
            if number is None:
                number = last + 1
            elif number != last + 1:
                existing = locked.deals.filter(number=number).first()
                if existing is not None:
                    raise DealConflict(
                        _("Deal %(number)s was just entered from another device.")
                        % {"number": number},
                        current=existing,
                    )
                number = last + 1
            _check_room(locked)
            result, table = deal_score(game=locked, payload=payload, number=number, table=table)
            scores = table.scores_by_id(result)
            deal = Deal(
                game=locked, number=number, payload=dict(payload), dealer=table.dealer(number)
            )
            _stat_columns(deal, locked, payload, result)
            deal.save()
            lines = ScoreLine.objects.bulk_create(
                ScoreLine(deal=deal, player_id=pk, points=points) for pk, points in scores.items()
            )
            _keep_lines(deal, lines)
            _revise(deal, DealRevision.Action.CREATED, scores, by, by_label)
            _apply_stats(locked, deal, scores, 1, len(table.players))
            return deal
    except IntegrityError:
        existing = Deal.objects.filter(game=game, number=number).first() if number else None
        if existing is None:
            raise
        raise DealConflict(
            _("Deal %(number)s was just entered from another device.") % {"number": number},
            current=existing,
        ) from None


def _keep_lines(deal: Deal, lines: list[ScoreLine]) -> None:
    """Leave ``deal.lines`` as ``prefetch_related("lines")`` would: the pages and the API answer
    with a new deal's scores without reading back what was just written."""
    cached = deal.lines.all()
    cached._result_cache = lines
    cached._prefetch_done = True  # type: ignore[attr-defined]  # Django's own prefetch marks
    deal._prefetched_objects_cache = {"lines": cached}  # type: ignore[attr-defined]


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


def _current_scores(deal: Deal) -> dict[int, int]:
    return dict(deal.lines.values_list("player_id", "points"))


@transaction.atomic
def deal_update(
    *, deal: Deal, payload: Mapping[str, Any], version: int, by: User, by_label: str = ""
) -> Deal:
    """Correct a deal read at ``version``; a stale version raises ``DealConflict``."""
    current, game = _locked_deal(deal, version)
    if current.is_deleted:
        raise GameClosed(_("This deal is deleted: restore it before correcting it."))
    result, table = deal_score(game=game, payload=payload, number=current.number)
    old = _current_scores(current)
    scores = table.scores_by_id(result)
    _apply_stats(game, current, old, -1, len(table.players))
    current.payload = dict(payload)
    _stat_columns(current, game, payload, result)
    current.version += 1
    current.updated_at = timezone.now()
    current.save()
    _store_scores(current, scores)
    _revise(current, DealRevision.Action.EDITED, scores, by, by_label)
    _apply_stats(game, current, scores, 1, len(table.players))
    return current


@transaction.atomic
def deal_delete(*, deal: Deal, version: int | None, by: User) -> Deal:
    current, game = _locked_deal(deal, version)
    if current.is_deleted:
        return current
    old = _current_scores(current)
    _apply_stats(game, current, old, -1, game.seats.count())
    ScoreLine.objects.filter(deal=current).delete()
    current.deleted_at = timezone.now()
    current.version += 1
    current.save()
    _revise(current, DealRevision.Action.DELETED, {}, by, "")
    return current


@transaction.atomic
def deal_restore(*, deal: Deal, by: User) -> Deal:
    current, game = _locked_deal(deal, None)
    if not current.is_deleted:
        return current
    _check_room(game)
    result, table = deal_score(game=game, payload=current.payload, number=current.number)
    scores = table.scores_by_id(result)
    current.deleted_at = None
    current.version += 1
    current.save()
    _store_scores(current, scores)
    _revise(current, DealRevision.Action.RESTORED, scores, by, "")
    _apply_stats(game, current, scores, 1, len(table.players))
    return current


@transaction.atomic
def stats_rebuild(*, club: Club | None = None) -> int:
    """Recompute every statistics row from the score lines; returns the rows written."""
    rows = PlayerSeason.objects.all()
    deals = Deal.objects.filter(deleted_at__isnull=True).select_related("game__club")
    clubs = Club.objects.all()
    if club is not None:
        rows = rows.filter(club=club)
        deals = deals.filter(game__club=club)
        clubs = clubs.filter(pk=club.pk)
    rows.delete()
    clubs.update(stats_version=F("stats_version") + 1)  # what results_changed does, for many
    sizes = dict(
        Seat.objects.filter(game_id__in=deals.values("game_id"))
        .values_list("game_id")
        .annotate(n=Count("pk"))
        .values_list("game_id", "n")
    )
    totals: dict[tuple[Any, ...], list[int]] = {}
    for deal in deals.prefetch_related("lines").iterator(chunk_size=2000):
        scores = {line.player_id: line.points for line in deal.lines.all()}
        # The same rows a deal's save adds (_apply_stats), summed.
        for *key, points, played, taken, won in _stats_rows(
            deal.game, deal, scores, sizes[deal.game_id]
        ):
            row = totals.setdefault(tuple(key), [0, 0, 0, 0])
            row[0] += points
            row[1] += played
            row[2] += taken
            row[3] += won
    PlayerSeason.objects.bulk_create(
        PlayerSeason(
            club_id=k[0],
            season=k[1],
            kind=k[2],
            table_size=k[3],
            player_id=k[4],
            points=v[0],
            deals=v[1],
            taken=v[2],
            taken_won=v[3],
        )
        for k, v in totals.items()
    )
    return len(totals)
