"""Shapes of the tournament API: what a client sends to create a tournament, register a player,
change an entry or swap two players' seats, and what tournaments, entries, rounds (séances)
with their tables, standings and knockout brackets look like in JSON.

Only shape is checked here (types, ranges, which club, which rule set); whether a request can
be carried out now (a round still being played, a player already registered) is the services'.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tarot_scores import scoring
from tarot_scores.api.problems import refusal_detail
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.clubs.selectors import clubs_for
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.names import validate_name
from tarot_scores.games.setup import rule_set_for
from tarot_scores.scoring.messages import Msg
from tournaments import rules as tournament_rules
from tournaments.api.base import MAX_ID
from tournaments.models import (
    MAX_DEALS_PER_ROUND,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
    MAX_SEED,
    MIN_ROUND_MINUTES,
    Entry,
    Round,
    Tournament,
)
from tournaments.registration import services as registration_services

# Column limits: PositiveIntegerField for the seed, PositiveSmallIntegerField for the rest.
TEAM_SIZES = [0, 2, 4]
TAROT_PRESETS = list(scoring.PRESETS)


def does_not_exist(pk: Any) -> str:
    """DRF's own message for an unknown id (translated by DRF's catalogue)."""
    message = serializers.PrimaryKeyRelatedField.default_error_messages["does_not_exist"]
    return str(message).format(pk_value=pk)


class BoundedIdField(serializers.PrimaryKeyRelatedField):  # type: ignore[type-arg]
    """An id among ``visible(user)``; bounded before any query, so no database is asked about a
    900-digit id, and ``true`` is not taken for 1."""

    def visible(self, user: Any) -> Any:
        raise NotImplementedError

    def get_queryset(self) -> Any:
        request = self.context.get("request")
        return self.visible(getattr(request, "user", None))

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, bool) or not isinstance(data, int) or not 1 <= data <= MAX_ID:
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


@extend_schema_field(OpenApiTypes.INT)
class VisibleClubField(BoundedIdField):
    """A club the caller may read: other clubs do not exist for them."""

    def visible(self, user: Any) -> Any:
        return clubs_for(user=user)


@extend_schema_field(OpenApiTypes.INT)
class VisiblePlayerField(BoundedIdField):
    """A player of a club the caller may read (another club's plays as a guest)."""

    def visible(self, user: Any) -> Any:
        return Player.objects.filter(clubs__in=clubs_for(user=user)).distinct()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": TAROT_PRESETS},
            {"type": "integer", "description": "The id of one of the club's house rule sets."},
        ],
        "example": "fft",
    }
)
class VariantField(serializers.Field):  # type: ignore[type-arg]
    """A tarot rule preset by name, or a house rule set by id (checked against the club)."""

    def to_internal_value(self, data: Any) -> str | int:
        if isinstance(data, str) and data in scoring.PRESETS:
            return data
        if isinstance(data, int) and not isinstance(data, bool) and 1 <= data <= MAX_ID:
            return data
        shown = data if isinstance(data, str) else json.dumps(data)[:60]
        message = Msg("variant_unknown", name=shown[:60], choices=", ".join(TAROT_PRESETS))
        raise serializers.ValidationError(message.render(engine_language()))

    def to_representation(self, value: Any) -> Any:
        return value


def _inline_enum(values: list[str]) -> dict[str, Any]:
    """A string among ``values``, wrapped in ``oneOf`` so that drf-spectacular does not make it
    an enum component: one named after ``status`` would clash with the club API's status of
    games (open, finished) and fail the schema check."""
    return {"oneOf": [{"type": "string", "enum": values}]}


@extend_schema_field(_inline_enum(list(Tournament.Status.values)))
class TournamentStatusField(serializers.CharField):
    """registration, running, finished."""


@extend_schema_field(_inline_enum(list(Round.Status.values)))
class RoundStatusField(serializers.CharField):
    """seated (swaps allowed), playing, closed."""


# --- tournaments ------------------------------------------------------------------------------


class TournamentCreateSerializer(serializers.Serializer[Any]):
    club = VisibleClubField(help_text="The club that holds the tournament; its organisers run it.")
    name = serializers.CharField(max_length=120, validators=[validate_name])
    variant = VariantField(
        default="fft",
        help_text="The rules of every table: `fft`, `classic`, or the id of a house rule set "
        "of the club. Default `fft`.",
    )
    format = serializers.ChoiceField(
        choices=Tournament.Format.choices,
        default=Tournament.Format.ROUNDS,
        help_text="`rounds`: a total over all rounds; `knockout`: the best of each table go "
        "through to the next stage, down to a final table; `duplicate`: the same boards at "
        "every table, each score compared with those made on the board at the same direction "
        "(individual, tables of 4: `team_size` 0 and `allow_threes` false, else 400 on them).",
    )
    duplicate_method = serializers.ChoiceField(
        choices=Tournament.DuplicateMethod.choices,
        default=Tournament.DuplicateMethod.MATCHPOINTS,
        help_text="Duplicate: `matchpoints` or `average` (difference from the board's "
        "average). Default `matchpoints`.",
    )
    rounds = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, default=3, help_text="Rounds (séances) to play."
    )
    deals_per_round = serializers.IntegerField(
        min_value=1,
        max_value=MAX_DEALS_PER_ROUND,
        default=8,
        help_text="Deals each table plays per round (duplicate: boards per round); a table "
        "takes no more.",
    )
    seating = serializers.ChoiceField(
        choices=Tournament.Seating.choices,
        default=Tournament.Seating.MIXING,
        help_text="How tables are drawn each round: `random`; `mixing` (fewest repeated "
        "meetings); `swiss` (similar standings together); `fixed` (a printed movement).",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        allow_null=True,
        help_text="The draw's seed: the same seed and entries give the same tables. Default: "
        "taken from the clock.",
    )
    five_mode = serializers.ChoiceField(
        choices=Tournament.FiveMode.choices,
        default=Tournament.FiveMode.SITTING_OUT,
        help_text="How tables of five play: the dealer sits out (FFT), or a called king.",
    )
    allow_threes = serializers.BooleanField(
        default=False, help_text="Tables of three allowed when the count needs them."
    )
    team_size = serializers.ChoiceField(
        choices=TEAM_SIZES,
        default=0,
        help_text="0 for an individual event; 2 or 4 for teams (team-mates never share a table).",
    )
    qualifiers_per_table = serializers.IntegerField(
        min_value=1,
        max_value=4,
        default=2,
        help_text="Knockout: how many of each table go through.",
    )
    round_minutes = serializers.IntegerField(
        min_value=MIN_ROUND_MINUTES,
        max_value=MAX_ROUND_MINUTES,
        default=75,
        help_text="Length of a round.",
    )
    date = serializers.DateField(required=False, help_text="Default: today.")
    require_confirmation = serializers.BooleanField(
        default=False,
        help_text="Deals entered at a table count once a player of the other side, a referee "
        "or an organiser confirms them; a disagreement goes to the referee. Default false.",
    )
    confirmation_proof = serializers.ChoiceField(
        choices=Tournament.ConfirmationProof.choices,
        default=Tournament.ConfirmationProof.PHONE,
        help_text="What proves who confirms a deal on a table's link: `phone` (any phone at the "
        "table, the default) or `personal` (the player's card: its PIN or its personal link, or "
        "his own account signed in).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        club: Club = attrs["club"]
        variant = attrs["variant"]
        house_rules: HouseRules | None = None
        if isinstance(variant, int):
            house_rules = HouseRules.objects.filter(club=club, pk=variant).first()
            if house_rules is None:
                raise serializers.ValidationError({"variant": [does_not_exist(variant)]})
            variant = "house"
        rules = rule_set_for(variant=variant, house_rules=house_rules)
        refusal = registration_services.creation_refusal(
            format=attrs["format"],
            team_size=attrs["team_size"],
            allow_threes=attrs["allow_threes"],
            rounds=attrs.get("rounds"),
            rules=rules,
            five_mode=attrs["five_mode"],
        )
        if refusal:
            raise serializers.ValidationError(refusal_detail(refusal))
        return {**attrs, "variant": variant, "house_rules": house_rules}


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    status = TournamentStatusField(
        read_only=True,
        help_text="`registration` until the first round is seated, then `running`; "
        "`finished` once the last round is closed.",
    )
    variant = serializers.CharField(
        read_only=True, help_text="`fft`, `classic`, or `house` (see `house_rules`)."
    )
    format = serializers.ChoiceField(choices=Tournament.Format.choices, read_only=True)
    seating = serializers.ChoiceField(choices=Tournament.Seating.choices, read_only=True)
    five_mode = serializers.ChoiceField(choices=Tournament.FiveMode.choices, read_only=True)
    team_size = serializers.ChoiceField(choices=TEAM_SIZES, read_only=True)

    class Meta:
        model = Tournament
        fields = [
            "id",
            "club",
            "name",
            "date",
            "variant",
            "house_rules",
            "format",
            "rounds",
            "deals_per_round",
            "round_minutes",
            "seating",
            "seed",
            "five_mode",
            "allow_threes",
            "team_size",
            "qualifiers_per_table",
            "duplicate_method",
            "require_confirmation",
            "confirmation_proof",
            "status",
            "created_at",
        ]
        read_only_fields = fields


# --- entries ----------------------------------------------------------------------------------


class TournamentEntryCreateSerializer(serializers.Serializer[Any]):
    player = VisiblePlayerField(
        required=False,
        allow_null=True,
        help_text="A player's id (of a club the caller may read: another club's is a guest).",
    )
    name = serializers.CharField(
        max_length=60,
        required=False,
        allow_blank=True,
        validators=[validate_name],
        help_text="Or a newcomer's name: they become a player of the club.",
    )
    checked_in = serializers.BooleanField(
        default=False, help_text="Present on the day: only checked-in players are seated."
    )
    team = serializers.CharField(
        max_length=80,
        required=False,
        allow_null=True,
        allow_blank=True,
        validators=[validate_name],
        help_text="Team events: the team's name, created with its first player.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        player = attrs.get("player")
        name = (attrs.get("name") or "").strip()
        if player is not None and name:
            raise serializers.ValidationError({"name": [_("Give a player or a name, not both.")]})
        if player is None and not name:
            raise serializers.ValidationError({"player": [_("Choose a player or type a name.")]})
        return {**attrs, "name": name, "team": (attrs.get("team") or "").strip()}


class TournamentEntryUpdateSerializer(serializers.Serializer[Any]):
    checked_in = serializers.BooleanField(required=False, help_text="Arrived, or not.")
    withdrawn = serializers.BooleanField(
        required=False,
        help_text="`true`: the player leaves after the last round seated and keeps the points "
        "scored so far. A withdrawal cannot be undone.",
    )
    series = serializers.ChoiceField(
        choices=Entry.Series.choices,
        allow_blank=True,
        required=False,
        help_text="The federation's series the player is ranked in: open, s1 (1st series), s2, s3, "
        "promotion; empty for none.",
    )


class TournamentEntrySerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField(help_text="The name on score sheets (nickname, or else name).")
    checked_in = serializers.BooleanField()
    team = serializers.CharField(allow_null=True, help_text="The team's name; null if none.")
    first_round = serializers.IntegerField(help_text="Seated from this round on.")
    withdrawn = serializers.BooleanField()
    withdrawn_after = serializers.IntegerField(
        allow_null=True, help_text="The last round the player was seated in, once withdrawn."
    )
    registered_at = serializers.DateTimeField()
    series = serializers.ChoiceField(
        choices=Entry.Series.choices,
        allow_blank=True,
        help_text="The federation's series the player is ranked in: open, s1 (1st series), s2, s3, "
        "promotion; empty for none.",
    )


def entry_json(entry: Entry) -> dict[str, Any]:
    """An entry (``player`` and ``team`` selected with it)."""
    return {
        "id": entry.pk,
        "player": entry.player_id,
        "name": entry.player.label,
        "checked_in": entry.checked_in,
        "team": entry.team.name if entry.team else None,
        "first_round": entry.first_round,
        "withdrawn": entry.withdrawn_after is not None,
        "withdrawn_after": entry.withdrawn_after,
        "registered_at": serializers.DateTimeField().to_representation(entry.registered_at),
        "series": entry.series,
    }


# --- rounds ------------------------------------------------------------------------------------


class RoundSwapSerializer(serializers.Serializer[Any]):
    """Two players of the round, who take each other's table and seat."""

    # Only that they are two existing players: whether both sit in this round, and whether it
    # has started, is the service's to say (409), as for the page's form.
    first = VisiblePlayerField(help_text="A player seated in the round (their id).")
    second = VisiblePlayerField(
        help_text="Another player of the round, at the same table or another: they take each "
        "other's table and seat."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        refusal = tournament_rules.different_players_refusal(attrs["first"], attrs["second"])
        if refusal:
            raise serializers.ValidationError(refusal_detail(refusal))
        return attrs


# --- rounds, standings, brackets (answers only) -----------------------------------------------


class TournamentTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="Table 1, 2...")
    game = serializers.IntegerField(
        help_text="The table's game: enter its deals with POST /api/v1/games/{game}/deals/."
    )
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text="Player ids in seat order (seat 1 deals first)."
    )
    names = serializers.ListField(child=serializers.CharField(), help_text="Their names, alike.")
    entered = serializers.IntegerField(help_text="Deals entered so far (deleted ones left out).")
    goal = serializers.IntegerField(help_text="Deals to play: the tournament's deals per round.")
    pending = serializers.IntegerField(
        help_text="Deals waiting for the other side's confirmation (0 unless the tournament "
        "requires confirmation)."
    )
    disputed = serializers.IntegerField(help_text="Deals the sides disagree on: a referee decides.")
    complete = serializers.BooleanField(
        help_text="All its deals entered (and confirmed, when the tournament requires it)."
    )


class TournamentRoundSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField(help_text="Round (or knockout stage) 1, 2...")
    status = RoundStatusField()
    started_at = serializers.DateTimeField(
        allow_null=True, help_text="When the round was started (its countdown began); null before."
    )
    ends_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a started round's time is up: `started_at` plus "
        "the tournament's `round_minutes`; null before it starts.",
    )
    closed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the round was closed; null while it is open."
    )
    repeats = serializers.IntegerField(
        help_text="Meetings of players who already sat together that the draw could not avoid."
    )
    complete = serializers.BooleanField(
        help_text="Every table has entered all its deals (all confirmed, when required)."
    )
    tables = TournamentTableSerializer(many=True)


class TournamentStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField(help_text="Equal on every tie-break: the same rank.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    team = serializers.CharField(allow_null=True)
    total = serializers.IntegerField(
        help_text="The sum of the player's score lines, less his penalties, from round "
        "`counted_from` on."
    )
    rounds = serializers.ListField(
        child=serializers.IntegerField(allow_null=True),
        help_text="Points per round, less the round's penalties; null where the player was not "
        "seated.",
    )
    penalties = serializers.IntegerField(
        help_text="The points his penalties took off (already out of `rounds` and `total`)."
    )
    eliminated_after = serializers.IntegerField(
        allow_null=True,
        help_text="A championship's cut left the player out after this round (ranked below "
        "the players still in, in his order at the cut); null: still in.",
    )
    counted_from = serializers.IntegerField(
        help_text="The first round `total` counts: 1, or the round after a cut that did not "
        "carry the scores over."
    )

    byes = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The rounds (numbers) he sat out with a bye; `rounds` holds the bye's points.",
    )


class DuplicateStandingSerializer(serializers.Serializer[Any]):
    """A line of a duplicate tournament's ranking (docs/duplicate.md, docs/tournaments.md)."""

    rank = serializers.IntegerField(help_text="Equal result and tops: the same rank.")
    player = serializers.IntegerField(help_text="The player's id.")
    name = serializers.CharField()
    method = serializers.ChoiceField(
        choices=["matchpoints", "average"], help_text="The tournament's comparison."
    )
    boards = serializers.IntegerField(help_text="Boards played (counted deals).")
    matchpoints = serializers.IntegerField(
        help_text="2 for each score beaten at the same direction on a board, 1 for a tie; less "
        "the penalties (matchpoints method)."
    )
    maximum = serializers.IntegerField(help_text="The matchpoints the player could have had.")
    percentage = serializers.CharField(
        allow_null=True,
        help_text='Matchpoints as a percentage of the maximum, two decimals ("66.67"); null '
        "before any comparison.",
    )
    total = serializers.IntegerField(
        allow_null=True,
        help_text="The sum of the differences from each board's average, rounded once, less "
        "the penalties (average method); null for the matchpoints method.",
    )
    tops = serializers.IntegerField(help_text="Boards where he beat everyone at his direction.")
    penalties = serializers.IntegerField(
        help_text="The points his penalties took off (matchpoints, or points of the total)."
    )


class TournamentTeamStandingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    name = serializers.CharField()
    total = serializers.IntegerField(help_text="The sum of its members' totals.")
    members = serializers.ListField(child=serializers.CharField())


class StandingsChangeSerializer(serializers.Serializer[Any]):
    """An item of the feed of standings: a tournament whose standings changed, and where to
    read them."""

    tournament = serializers.IntegerField(help_text="The tournament's id.")
    club = serializers.IntegerField(help_text="Its club's id.")
    name = serializers.CharField()
    status = TournamentStatusField(help_text="The tournament's: registration, running, finished.")
    standings = serializers.URLField(
        help_text="Its standings now (`GET`, with an `ETag`): read them again."
    )


class KnockoutSeatSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField()
    name = serializers.CharField()
    points = serializers.IntegerField(help_text="The player's points at this table.")
    qualified = serializers.BooleanField(help_text="Goes through to the next stage.")


class KnockoutTableSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    players = KnockoutSeatSerializer(many=True, help_text="Best first.")


class KnockoutStageSerializer(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    final = serializers.BooleanField(help_text="A single table: the final.")
    complete = serializers.BooleanField()
    tables = KnockoutTableSerializer(many=True)
    qualified = serializers.ListField(
        child=serializers.IntegerField(), help_text="Ids of the players going through."
    )


class KnockoutRankingSerializer(serializers.Serializer[Any]):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()


class KnockoutBracketSerializer(serializers.Serializer[Any]):
    stages = KnockoutStageSerializer(many=True)
    ranking = KnockoutRankingSerializer(
        many=True,
        help_text="Everyone's final place once the final is complete (the final table's order, "
        "then those out at each earlier stage); empty before.",
    )
