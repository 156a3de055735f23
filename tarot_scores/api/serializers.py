"""Shapes of the club API: what clubs, players, games (parties) and deals (donnes) look like in
JSON, and the checks on what a client sends that are about shape, not rules.

The rules of a deal are the scoring engine's; a game's table (who sits, how many for each game,
how a table of five plays) is checked by ``services.game_setup_check``, as on the new-game page,
and its messages are put on the fields here. Writes go through ``tarot_scores.services``; the
views call them.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Mapping
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.kinds import (
    FIVE_PLAYER_MODES,
    HOUSE,
    PLAYER_FIELDS,
    PLAYER_LISTS,
    TABLE_SIZES,
    TAROT,
    VARIANTS,
    game_kind,
)
from tarot_scores.games.models import Deal, DealRevision, Game
from tarot_scores.games.seats import TableSeats
from tarot_scores.games.selectors import GameSheet
from tarot_scores.games.setup import PLAYERS, game_setup_check, rule_set_for
from tarot_scores.scoring import FivePlayers, ScoringError
from tarot_scores.scoring.messages import Msg

# Ids and numbers must fit the database's integer columns: a larger one is refused as a value,
# never sent to the database.
MAX_ID = 2**63 - 1
MAX_NUMBER = 2**31 - 1
MAX_SEATS = max(max(sizes) for sizes in TABLE_SIZES.values())
EITHER = FivePlayers.EITHER.value


def time_json(value: datetime.datetime | None) -> str | None:
    """A time as every answer writes it: DRF's ISO 8601, in UTC under /api/ (``Z``)."""
    return None if value is None else serializers.DateTimeField().to_representation(value)


def does_not_exist(pk: Any) -> str:
    """DRF's own message for an unknown id (translated by DRF's catalogue)."""
    message = serializers.PrimaryKeyRelatedField.default_error_messages["does_not_exist"]
    return str(message).format(pk_value=pk)


# --- clubs and players ----------------------------------------------------------------------


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class VisibleClubField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """A club id, among the clubs the caller may read: others do not exist for them."""

    def get_queryset(self) -> Any:
        request = self.context.get("request")
        return clubs_for(user=getattr(request, "user", None))

    def to_internal_value(self, data: Any) -> Any:
        # Bounded before any query: no database is asked about a 900-digit id.
        if isinstance(data, bool) or not isinstance(data, int) or not 1 <= data <= MAX_ID:
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


class ClubSerializer(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "public"]
        read_only_fields = ["slug"]
        # A name already taken (whatever its case) is club_create's refusal, answered 400 on
        # ``name`` like any other.
        extra_kwargs = {"name": {"validators": []}, "public": {"default": True}}


class ClubRefSerializer(serializers.Serializer[Any]):
    """Just the ``club`` of a body: resolved first, so that permissions come before the rest."""

    club = VisibleClubField(help_text="The club's id.")


class PlayerSerializer(serializers.ModelSerializer[Player]):
    club = VisibleClubField(write_only=True, help_text="The club the player joins.")
    # A field called "label" hides Field.label (the field's title), which stubs type as str.
    label = serializers.CharField(  # type: ignore[assignment]
        read_only=True, help_text="What score sheets show: the nickname, or else the name."
    )

    class Meta:
        model = Player
        fields = ["id", "name", "nickname", "licence", "label", "club"]
        # A label another player of the club has is player_create's refusal (400 on the field).


# --- games ----------------------------------------------------------------------------------


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": list(VARIANTS)},
            {"type": "integer", "description": "The id of one of the club's house rule sets."},
        ],
        "example": "fft",
    }
)
class VariantField(serializers.Field):  # type: ignore[type-arg]
    """A rule preset by name, or a house rule set by id (checked against the club later)."""

    def to_internal_value(self, data: Any) -> str | int:
        if isinstance(data, str) and data in VARIANTS:
            return data
        if isinstance(data, int) and not isinstance(data, bool) and 1 <= data <= MAX_ID:
            return data
        shown = data if isinstance(data, str) else json.dumps(data)[:60]
        message = Msg("variant_unknown", name=shown, choices=", ".join(VARIANTS))
        raise serializers.ValidationError(message.render(engine_language()))

    def to_representation(self, value: Any) -> Any:
        return value


class FlatListField(serializers.ListField):
    """A list whose items' refusals come back as one list of messages, like every other field
    (DRF would nest them by position: ``{"players": {"0": [...]}}``)."""

    def run_child_validation(self, data: list[Any]) -> list[Any]:
        try:
            return super().run_child_validation(data)
        except serializers.ValidationError as error:
            if not isinstance(error.detail, dict):
                raise
            messages = [str(m) for errors in error.detail.values() for m in errors]
            raise serializers.ValidationError(messages) from None


class GameCreateSerializer(serializers.Serializer[Any]):
    club = VisibleClubField(help_text="The club the game is played at.")
    players = FlatListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=MAX_SEATS,
        help_text="Player ids in seat order: the first seat deals first. Tarot: 3 to 5, "
        "Novatarok: 2 to 5, buraco: 2 or 4; all of the club, all different.",
    )
    variant = VariantField(
        help_text="`fft`, `classic`, `novatarok`, `buraco`, or the id of a house rule set."
    )
    five_players = serializers.ChoiceField(
        choices=FIVE_PLAYER_MODES,
        required=False,
        allow_null=True,
        help_text="Tarot at five: `called_king` or `sitting_out` (the dealer sits out). Needed "
        "when the rules allow both.",
    )
    date = serializers.DateField(required=False, help_text="Default: today.")
    label = serializers.CharField(  # type: ignore[assignment]  # see PlayerSerializer.label
        max_length=80, required=False, allow_blank=True, default=""
    )
    max_deals = serializers.IntegerField(
        min_value=1,
        max_value=1000,
        required=False,
        allow_null=True,
        help_text="A game of a set length takes no deal beyond this many.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club: Club = attrs["club"]
        errors: dict[str, list[str]] = {}
        house_rules: HouseRules | None = None
        variant = attrs["variant"]
        if isinstance(variant, int):
            house_rules = HouseRules.objects.filter(club=club, pk=variant).first()
            if house_rules is None:
                errors["variant"] = [does_not_exist(variant)]
            variant = HOUSE
        ids: list[int] = attrs["players"]
        found = {p.pk: p for p in club.players.filter(pk__in=ids)}
        setup = game_setup_check(
            kind=game_kind(variant),
            seats=[found.get(pk) for pk in ids],
            rules=rule_set_for(variant=variant, house_rules=house_rules),
            five_players=attrs.get("five_players"),
        )
        # One complaint at a time about the players: the seats in order (an unknown id, a
        # player twice), and only then the size of the table.
        twice = {p.seat: p.message for p in setup.problems if p.seat is not None}
        seat_errors = [
            does_not_exist(pk) if pk not in found else twice[seat]
            for seat, pk in enumerate(ids, start=1)
            if pk not in found or seat in twice
        ]
        # Each problem keeps its stable code (``table_size``...) for the API's answer.
        for problem in setup.problems:
            errors.setdefault(problem.field, []).append(
                ErrorDetail(problem.message, code=problem.code)
            )
        if seat_errors:
            errors[PLAYERS] = seat_errors
        if errors:
            raise serializers.ValidationError(errors)
        return {
            **attrs,
            "players": list(setup.players),
            "variant": variant,
            "house_rules": house_rules,
            "five_players": setup.five_players,
        }


class SeatSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    nickname = serializers.CharField()
    label = serializers.CharField(  # type: ignore[assignment]  # see PlayerSerializer.label
        help_text="The name the scoring engine and score sheets use at this table (unique)."
    )


def seats_json(table: TableSeats) -> list[dict[str, Any]]:
    return [
        {"id": p.pk, "name": p.name, "nickname": p.nickname, "label": table.labels[p.pk]}
        for p in table.players
    ]


# How a game's table of five plays, as read back: a mode, or ``either`` when its rules allow
# both and each deal says whether the dealer sits out (a tournament's tables, for instance).
FIVE_PLAYERS_READ: dict[str, Any] = {
    "type": "string",
    "enum": [*FIVE_PLAYER_MODES, EITHER, None],
    "nullable": True,
    "readOnly": True,
    "description": "Tarot at five: `called_king`, `sitting_out`, or `either` (the rules allow "
    "both: each deal says whether the dealer sits out). Null for other tables.",
}


def five_players_of(game: Game, size: int) -> str | None:
    if game.kind != TAROT or size != 5:
        return None
    mode = game.rules.get("five_players")
    return str(mode) if mode else None


class GameSerializer(serializers.ModelSerializer[Game]):
    """A game as listed: its table in seat order (``seats`` prefetched with their players)."""

    players = serializers.SerializerMethodField()
    kind = serializers.CharField(read_only=True, help_text="tarot, novatarok or buraco.")
    variant = serializers.CharField(
        read_only=True,
        help_text="`fft`, `classic`, `novatarok`, `buraco`, or `house` (see `house_rules`).",
    )
    five_players = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "club",
            "date",
            "label",
            "kind",
            "variant",
            "house_rules",
            "five_players",
            "status",
            "max_deals",
            "players",
            "created_at",
        ]
        read_only_fields = fields

    @extend_schema_field(SeatSerializer(many=True))
    def get_players(self, game: Game) -> list[dict[str, Any]]:
        return seats_json(TableSeats(list(game.seats.all())))

    @extend_schema_field(FIVE_PLAYERS_READ)
    def get_five_players(self, game: Game) -> str | None:
        return five_players_of(game, len(game.seats.all()))


# --- deals ----------------------------------------------------------------------------------

SCORES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Each player's points, by player id. Null for a deleted deal.",
    "additionalProperties": {"type": "integer"},
    "nullable": True,
    "example": {"12": -66, "13": -66, "14": 198, "15": -66},
}
PAYLOAD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The deal as entered: the scoring contract, players named by id.",
    "additionalProperties": True,
}


def scores_json(scores: Mapping[int, int] | None) -> dict[str, int] | None:
    return None if scores is None else {str(pk): points for pk, points in scores.items()}


class DealSerializer(serializers.ModelSerializer[Deal]):
    """One deal with its score lines (``lines`` read, or prefetched; or a new deal's scores as
    written, given as ``context["scores"]``)."""

    scores = serializers.SerializerMethodField()
    deleted = serializers.SerializerMethodField()
    counted = serializers.SerializerMethodField()
    payload = serializers.SerializerMethodField()

    class Meta:
        model = Deal
        fields = [
            "id",
            "game",
            "number",
            "board",
            "dealer",
            "payload",
            "scores",
            "version",
            "deleted",
            "counted",
            "taker",
            "contract",
            "won",
            "client_id",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(SCORES_SCHEMA)
    def get_scores(self, deal: Deal) -> dict[str, int] | None:
        if deal.is_deleted:
            return None
        written = self.context.get("scores")
        if written is not None:
            return scores_json(written)
        return scores_json({line.player_id: line.points for line in deal.lines.all()})

    @extend_schema_field(OpenApiTypes.BOOL)
    def get_deleted(self, deal: Deal) -> bool:
        return deal.is_deleted

    @extend_schema_field(
        {
            "type": "boolean",
            "description": "Whether its scores count now (the game's totals, the club's "
            "statistics and ratings): false for a deleted deal, and while the deal is held "
            "out of the counts (contested at a tournament's table, until a referee settles "
            "it). A hold and a release move the deal in the change feed.",
        }
    )
    def get_counted(self, deal: Deal) -> bool:
        return deal.counts

    @extend_schema_field(PAYLOAD_SCHEMA)
    def get_payload(self, deal: Deal) -> Any:
        return deal.payload


class ConflictSerializer(serializers.Serializer[Any]):
    """A 409 about a deal: ``current`` when there is a deal to start again from (a stale
    version, a number taken); ``non_field_errors`` alone when the game takes no such change
    (finished, its table full, the deal deleted)."""

    non_field_errors = serializers.ListField(child=serializers.CharField())
    current = DealSerializer(
        required=False,
        help_text="The deal as it is now (another device changed it). Absent when the game "
        "itself refuses the change (finished, full table, deleted deal).",
    )


class RevisionSerializer(serializers.ModelSerializer[DealRevision]):
    by = serializers.CharField(
        source="author", read_only=True, help_text="Who made the change (an account's name)."
    )
    payload = serializers.SerializerMethodField()
    scores = serializers.SerializerMethodField()

    class Meta:
        model = DealRevision
        fields = ["version", "action", "by", "at", "reason", "payload", "scores"]
        read_only_fields = fields

    @extend_schema_field(PAYLOAD_SCHEMA)
    def get_payload(self, revision: DealRevision) -> Any:
        return revision.payload

    @extend_schema_field({**SCORES_SCHEMA, "nullable": False, "description": "{} when deleted."})
    def get_scores(self, revision: DealRevision) -> Any:
        return revision.scores


class SheetDealSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True, help_text="The dealer's player id.")
    payload = serializers.JSONField(help_text="The deal as entered, players by id.")
    scores = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="Points by player id; null for a deleted deal.",
    )
    version = serializers.IntegerField()
    deleted = serializers.BooleanField()
    counted = serializers.BooleanField(
        help_text="Whether it counts in the totals: false when deleted, and while it is held "
        "out of the counts (contested at a tournament's table, until a referee settles it)."
    )
    taker = serializers.IntegerField(allow_null=True)
    contract = serializers.CharField()
    won = serializers.BooleanField(allow_null=True)


class RankSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Equal totals share a rank (1, 2, 2, 4).")
    player = serializers.IntegerField(help_text="The player's id.")
    total = serializers.IntegerField()


class GameSheetSerializer(serializers.Serializer[Any]):
    """A game's score sheet, as ``selectors.game_sheet`` reads it (``to_json`` below)."""

    id = serializers.IntegerField()
    club = serializers.IntegerField()
    date = serializers.DateField()
    label = serializers.CharField()  # type: ignore[assignment]  # see PlayerSerializer.label
    kind = serializers.CharField()
    variant = serializers.CharField()
    house_rules = serializers.IntegerField(allow_null=True)
    five_players = serializers.SerializerMethodField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    max_deals = serializers.IntegerField(allow_null=True)
    players = SeatSerializer(many=True, help_text="In seat order.")
    deals = SheetDealSerializer(many=True, help_text="In order, deleted ones included.")
    totals = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's total, by player id."
    )
    ranking = RankSerializer(many=True)
    next_number = serializers.IntegerField(help_text="The number the next deal will get.")
    next_dealer = serializers.IntegerField(help_text="Who deals it (player id).")
    winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="Novatarok: who leads once someone has 600."
    )

    @extend_schema_field(FIVE_PLAYERS_READ)
    def get_five_players(self, sheet: Any) -> str | None:  # pragma: no cover - schema only
        return None


def sheet_json(sheet: GameSheet) -> dict[str, Any]:
    game = sheet.game
    ids = [p.pk for p in sheet.players]
    deals = []
    for row in sheet.rows:
        deal = row.deal
        deals.append(
            {
                "id": deal.pk,
                "number": deal.number,
                "dealer": deal.dealer_id,
                "payload": deal.payload,
                "scores": None
                if deal.is_deleted
                else {str(pk): s for pk, s in zip(ids, row.scores, strict=True)},
                "version": deal.version,
                "deleted": deal.is_deleted,
                "counted": deal.counts and not row.held,
                "taker": deal.taker_id,
                "contract": deal.contract,
                "won": deal.won,
            }
        )
    return {
        "id": game.pk,
        "club": game.club_id,
        "date": game.date.isoformat(),
        "label": game.label,
        "kind": game.kind,
        "variant": game.variant,
        "house_rules": game.house_rules_id,
        "five_players": five_players_of(game, len(ids)),
        "status": game.status,
        "max_deals": game.max_deals,
        "players": seats_json(sheet.table),
        "deals": deals,
        "totals": {str(pk): total for pk, total in zip(ids, sheet.totals, strict=True)},
        "ranking": [
            {"rank": r.rank, "player": r.player.pk, "total": r.total} for r in sheet.ranking
        ],
        "next_number": sheet.next_number,
        "next_dealer": sheet.next_dealer.pk,
        "winners": [p.pk for p in sheet.winners],
    }


# --- what a client sends for a deal -----------------------------------------------------------

ID_KEY = re.compile(r"[0-9]{1,18}")


def _not_an_id(value: Any) -> bool:
    # JSON true/false are Python ints: never a player.
    return isinstance(value, str | bool)


def player_reference_errors(payload: Mapping[str, Any]) -> None:
    """Refuse players named by name instead of id.

    The table's names are the engine's labels, so a name would be scored but stored as a name
    where the sheet and the statistics expect an id. Any other wrong value (an id not at the
    table, a list...) is left to the engine, which says what is wrong with it.
    """
    errors: dict[str, list[Msg]] = {}

    def refuse(field: str, value: Any) -> None:
        name = value if isinstance(value, str) else json.dumps(value)
        errors.setdefault(field, []).append(Msg("not_a_player", name=name))

    for field in PLAYER_FIELDS:
        if _not_an_id(payload.get(field)):
            refuse(field, payload[field])
    for field in PLAYER_LISTS:
        items = payload.get(field)
        if isinstance(items, list):
            for item in items:
                if isinstance(item, Mapping) and _not_an_id(item.get("player")):
                    refuse(field, item["player"])
    sides = payload.get("sides")
    if isinstance(sides, list):
        for side in sides:
            members = side.get("players") if isinstance(side, Mapping) else None
            if isinstance(members, list):
                for member in members:
                    if _not_an_id(member):
                        refuse("sides", member)
    card_points = payload.get("card_points")
    if isinstance(card_points, Mapping):
        for key in card_points:
            if not ID_KEY.fullmatch(key):
                refuse("card_points", key[:60])
    if errors:
        raise ScoringError(errors)


def has_nul(value: Any) -> bool:
    """Whether a JSON value holds a NUL character anywhere (PostgreSQL's jsonb refuses them)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class PositiveNumberField(serializers.IntegerField):
    """A deal number or version, within the column's range (DRF refuses true and 2.5)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=1, max_value=MAX_NUMBER, **kwargs)


def reason_field() -> serializers.CharField:
    return serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        default="",
        help_text="Why the deal changes, kept in its history: required for a tournament "
        "table once its round has closed (400 on `reason` without it).",
    )


class DealNumberSerializer(serializers.Serializer[Any]):
    number = PositiveNumberField(required=False, allow_null=True)
    reason = reason_field()


class ClientIdField(serializers.UUIDField):
    """A UUID written as text (DRF would also read a number as one)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid", value=data)
        return super().to_internal_value(data)


class NewDealSerializer(DealNumberSerializer):
    """A new deal's own fields: the expected number, the client's name for the deal, and the
    board it was played from (a duplicate tournament's table only)."""

    client_id = ClientIdField(required=False, allow_null=True)
    board = PositiveNumberField(required=False, allow_null=True)


class DealVersionSerializer(serializers.Serializer[Any]):
    version = PositiveNumberField()
    reason = reason_field()
