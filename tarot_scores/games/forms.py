"""Deal entry: what a phone at the table sends, turned into the scoring contract (players by
id).

One form per kind of game: a tarot deal (preneur, contrat, bouts, points, poignées, petit
au bout, chelem, misères), a Novatarok round (card points and melds) and a buraco hand (two
sides). Each form only checks the *shape* of what was typed; whether the deal can happen is
the scoring engine's call, and its refusals are put back beside the fields they name
(``engine_errors``)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.errors import Refusal
from tarot_scores.core.kinds import (
    BURACO,
    FIVE_PLAYER_CHOICES,
    HOUSE,
    KINDS,
    NOVATAROK,
    TAROT,
    game_kind,
)
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.points import ALL_POINTS, as_json_number, parse_points
from tarot_scores.games.models import Game
from tarot_scores.games.seats import TableSeats
from tarot_scores.games.setup import (
    FIVE_PLAYERS,
    PLAYERS,
    GameSetup,
    GameSetupError,
    game_setup_check,
    rule_set_for,
)
from tarot_scores.games.words import (
    CONTRACTS,
    HANDFULS,
    MISERES,
    NOVATAROK_MELDS,
    SIDES,
    SLAMS,
    format_points,
)
from tarot_scores.scoring import ScoringError

ALONE = "alone"


ALL = "all"  # the error slot for what no single field explains


class ChipSelect(forms.RadioSelect):
    """Radio buttons drawn as big tap targets; the templates lay them out. Chips read in
    sentence case ("Attack", "Announced, made"), however their words are used elsewhere;
    ``names=True`` marks chips that are players' names, shown as the club typed them."""

    def __init__(self, attrs: dict[str, Any] | None = None, *, names: bool = False) -> None:
        super().__init__(attrs)
        self.names = names


def _player_choices(table: TableSeats, players: list[Player]) -> list[tuple[str, str]]:
    return [(str(p.pk), table.labels[p.pk]) for p in players]


def _number_from(data: Mapping[str, Any] | None, default: int) -> int:
    """The deal number the page was showing: the dealer (and who sits out) depends on it."""
    raw = data.get("number") if data is not None else None
    number = whole_number(raw, minimum=1)
    return default if number is None else number


class DealForm(forms.Form):
    """What every deal form shares: the expected deal number, the version being corrected, and
    the mapping of the engine's refusals onto fields."""

    kind = TAROT
    # Engine field -> form slot; anything not listed goes to the slot named ALL.
    ENGINE_FIELDS: Mapping[str, str] = {}
    # Fields whose messages show with their group: "handful_12" -> "handfuls".
    FIELD_SLOTS: Mapping[str, str] = {}
    # What the live preview calls a slot that is no single field ("Handfuls: ...").
    SLOT_LABELS: Mapping[str, Any] = {
        "handfuls": _("Handfuls"),
        "miseres": _("Misères"),
        "card_points": _("Card points per player"),
        "sides": _("Sides"),
    }

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)
    # The phone's name for a new deal: the same form posted twice stores one deal. The page's
    # script puts a fresh one in each blank form; without it, the server's stands.
    client_id = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        game: Game,
        table: TableSeats,
        number: int,
        payload: Mapping[str, Any] | None = None,
        version: int | None = None,
    ) -> None:
        super().__init__(data, prefix=None)
        self.game = game
        self.table = table
        self.players = table.players
        self.entered = payload  # the deal being corrected, if any
        self.deal_number = _number_from(data, number)
        self.dealer = table.dealer(self.deal_number)
        self.section_errors: dict[str, list[str]] = {}
        self.initial = {"number": number, "version": version}
        if payload is None and version is None:
            self.initial["client_id"] = uuid.uuid4()
        self.build_fields()
        if payload is not None:
            self.initial.update(self.initial_from(payload))

    # --- to be filled in by each kind ---------------------------------------------------------

    def build_fields(self) -> None:
        raise NotImplementedError

    def initial_from(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def payload(self) -> dict[str, Any]:
        """The deal as the scoring contract takes it, players by id (call after is_valid)."""
        raise NotImplementedError

    # --- shared -------------------------------------------------------------------------------

    @property
    def sitting_out(self) -> Player | None:
        return None

    def _id(self, value: Any) -> int | None:
        return int(value) if value not in (None, "") else None

    def slot_names(self) -> list[str]:
        """Where messages go on the page: one place per question, and ALL for the rest."""
        return [ALL]

    def slot_of(self, name: str) -> str:
        for prefix, slot in self.FIELD_SLOTS.items():
            if name.startswith(prefix):
                return slot
        return name if name in self.slot_names() else ALL

    def engine_errors(self, error: ScoringError, lang: str | None = None) -> None:
        """Put each of the engine's messages beside the question it is about."""
        for engine_field, messages in error.messages(lang or get_language() or "fr").items():
            slot = self.ENGINE_FIELDS.get(engine_field, ALL)
            if slot not in self.slot_names():
                slot = ALL
            self.section_errors.setdefault(slot, []).extend(messages)

    def refused(self, refusal: Refusal) -> None:
        """Put a service's refusal beside the question it is about."""
        for name, messages in refusal.messages().items():
            self.section_errors.setdefault(self.slot_of(name), []).extend(messages)

    def slot_errors(self, *, quiet_required: bool = False) -> dict[str, list[str]]:
        """Every error slot of the page and what it says ([] clears it)."""
        out: dict[str, list[str]] = {name: [] for name in self.slot_names()}
        if self.is_bound:
            for name, errors in self.errors.as_data().items():
                slot = ALL if name == "__all__" else self.slot_of(name)
                for err in errors:
                    if quiet_required and err.code == "required":
                        continue
                    out[slot].extend(str(m) for m in err)
        for name, messages in self.section_errors.items():
            out.setdefault(name, []).extend(messages)
        return out

    def slot_label(self, slot: str) -> str:
        """The question a slot is about, as the page names it ("" for ALL)."""
        if slot in self.SLOT_LABELS:
            return str(self.SLOT_LABELS[slot])
        field = self.fields.get(slot)
        return str(field.label) if field is not None and field.label else ""

    def missing_labels(self) -> list[str]:
        """The questions still to answer before the deal can be scored, in page order: those
        left empty in what was posted, or every required one of a blank form."""
        if self.is_bound:
            names = [
                name
                for name, errors in self.errors.as_data().items()
                if any(err.code == "required" for err in errors)
            ]
        else:
            names = [
                name
                for name, field in self.fields.items()
                if field.required and not isinstance(field.widget, forms.HiddenInput)
            ]
        labels: list[str] = []
        for name in self.fields:
            if name in names:
                label = self.slot_label(self.slot_of(name)) or str(self.fields[name].label)
                if label not in labels:
                    labels.append(label)
        return labels

    def missing_required(self) -> bool:
        return any(
            err.code == "required" for errors in self.errors.as_data().values() for err in errors
        )


class TarotDealForm(DealForm):
    """A tarot deal in a few taps: preneur, contrat, (partenaire), bouts, points, then extras."""

    kind = TAROT
    ENGINE_FIELDS = {
        "taker": "taker",
        "partner": "partner",
        "contract": "contract",
        "points": "points",
        "oudlers": "oudlers",
        "petit_au_bout": "petit_au_bout",
        "slam": "slam",
        "handfuls": "handfuls",
        "miseres": "miseres",
        "sitting_out": FIVE_PLAYERS,
    }
    FIELD_SLOTS = {"handful_": "handfuls", "misere_": "miseres", "defence_points": "points"}

    def slot_names(self) -> list[str]:
        names = [ALL, FIVE_PLAYERS, "taker", "contract", "partner", "oudlers", "points"]
        names += ["petit_au_bout", "handfuls", "slam", "miseres"]
        return [
            n
            for n in names
            if (n != "partner" or self.calls_partner)
            and (n != "miseres" or self.allows_miseres)
            and (n != FIVE_PLAYERS or self.chooses_mode)
        ]

    def _mode_asked(self) -> scoring.FivePlayers:
        """How this deal's table of five plays, when the rules let each deal say: as posted,
        else as the deal being corrected was entered, else called king."""
        if self.is_bound:
            posted = self.data.get(FIVE_PLAYERS)
            if posted == scoring.FivePlayers.SITTING_OUT.value:
                return scoring.FivePlayers.SITTING_OUT
            return scoring.FivePlayers.CALLED_KING
        if self.entered is not None and self.entered.get("sitting_out") is not None:
            return scoring.FivePlayers.SITTING_OUT
        return scoring.FivePlayers.CALLED_KING

    def build_fields(self) -> None:
        rules = self.game.rule_set() or scoring.FFT
        self.rules = rules
        five = len(self.players) == 5
        # At five, the rules (frozen into the game) say how the table plays: the dealer sits
        # out (FFT tournament style), a king is called, or either, and then each deal says
        # which (the service judges it, as it does for the API's ``sitting_out``).
        self.chooses_mode = five and rules.five_players is scoring.FivePlayers.EITHER
        mode = self._mode_asked() if self.chooses_mode else rules.five_players
        self.sits_out = five and mode is scoring.FivePlayers.SITTING_OUT
        # With a choice per deal the questions stay the same whichever is chosen, so that the
        # page works without JavaScript: the dealer taking, or a partner called while the
        # dealer sits out, is refused by the engine with its reason.
        self.calls_partner = five and (self.chooses_mode or not self.sits_out)
        active = [
            p
            for p in self.players
            if self.chooses_mode or not (self.sits_out and p.pk == self.dealer.pk)
        ]
        self.active = active
        choices = _player_choices(self.table, active)
        f = self.fields
        if self.chooses_mode:
            f[FIVE_PLAYERS] = forms.ChoiceField(
                label=_("At this table of five"),
                choices=FIVE_PLAYER_CHOICES,
                widget=ChipSelect,
                required=False,
            )
            self.initial[FIVE_PLAYERS] = self._mode_asked().value
        f["taker"] = forms.ChoiceField(
            label=_("Taker"), choices=choices, widget=ChipSelect(names=True)
        )
        f["contract"] = forms.ChoiceField(label=_("Contract"), choices=CONTRACTS, widget=ChipSelect)
        if self.calls_partner:
            f["partner"] = forms.ChoiceField(
                label=_("Called partner (called king only)")
                if self.chooses_mode
                else _("Called partner"),
                choices=[*choices, (ALONE, _("Alone"))],
                widget=ChipSelect(names=True),
                required=not self.sits_out,
            )
        f["oudlers"] = forms.TypedChoiceField(
            label=_("Bouts"),
            choices=[(str(n), str(n)) for n in range(4)],
            coerce=int,
            widget=ChipSelect,
        )
        f["points"] = forms.CharField(
            label=_("Points"),
            max_length=8,
            widget=forms.TextInput(
                # The message box beside it: a refusal read out with the field.
                attrs={
                    "inputmode": "decimal",
                    "autocomplete": "off",
                    "size": "5",
                    "aria-describedby": "deal-err-points",
                }
            ),
        )
        f["defence_points"] = forms.BooleanField(
            label=_("These are the defence's points"), required=False
        )
        f["petit_au_bout"] = forms.ChoiceField(
            label=_("Petit au bout"),
            choices=[("", _("none")), *SIDES.items()],
            required=False,
            widget=ChipSelect,
        )
        for player in active:
            f[f"handful_{player.pk}"] = forms.ChoiceField(
                label=self.table.labels[player.pk],
                # Une poignée: "aucune" (the other chips' "none" is masculine).
                choices=[("", pgettext_lazy("handful", "none")), *HANDFULS],
                required=False,
                widget=ChipSelect,
            )
        f["slam"] = forms.ChoiceField(
            label=_("Slam"),
            choices=[("", _("none")), *SLAMS],
            required=False,
            widget=ChipSelect,
        )
        self.allows_miseres = rules.miseres_allowed
        if self.allows_miseres:
            for player in active:
                f[f"misere_{player.pk}"] = forms.MultipleChoiceField(
                    label=self.table.labels[player.pk],
                    choices=MISERES,
                    required=False,
                    widget=forms.CheckboxSelectMultiple,
                )
        for name in ("petit_au_bout", "slam"):
            self.initial.setdefault(name, "")
        for player in active:
            self.initial.setdefault(f"handful_{player.pk}", "")

    @property
    def sitting_out(self) -> Player | None:
        return self.dealer if self.sits_out else None

    def handful_fields(self) -> Iterator[forms.BoundField]:
        for player in self.active:
            yield self[f"handful_{player.pk}"]

    def misere_fields(self) -> Iterator[forms.BoundField]:
        if self.allows_miseres:
            for player in self.active:
                yield self[f"misere_{player.pk}"]

    @property
    def extras_open(self) -> bool:
        """Open the optional section when it holds something (a correction, an error)."""
        values = [self["petit_au_bout"].value(), self["slam"].value()]
        values += [b.value() for b in self.handful_fields()]
        values += [b.value() for b in self.misere_fields()]
        errors = self.slot_errors()
        return any(values) or any(
            errors.get(n) for n in ("petit_au_bout", "slam", "handfuls", "miseres")
        )

    def clean_points(self) -> Decimal:
        try:
            return parse_points(self.cleaned_data["points"])
        except Refusal as refusal:
            raise refusal.as_validation_error() from None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        points = data.get("points")
        if isinstance(points, Decimal) and data.get("defence_points"):
            # The defence counted its tricks: the attack has the rest of the 91 points.
            data["points"] = ALL_POINTS - points
        return data

    def initial_from(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "taker": str(payload.get("taker") or ""),
            "contract": payload.get("contract") or "",
            "oudlers": str(payload["oudlers"]) if payload.get("oudlers") is not None else "",
            "points": format_points(payload.get("points")),
            "petit_au_bout": payload.get("petit_au_bout") or "",
            "slam": payload.get("slam") or "",
        }
        if self.calls_partner and not self.sits_out:
            partner = payload.get("partner")
            initial["partner"] = (
                str(partner) if partner not in (None, payload.get("taker")) else ALONE
            )
        for item in payload.get("handfuls") or []:
            initial[f"handful_{item.get('player')}"] = item.get("size") or ""
        if self.allows_miseres:
            for item in payload.get("miseres") or []:
                initial.setdefault(f"misere_{item.get('player')}", []).append(item.get("kind"))
        return initial

    def payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        points: Decimal = data["points"]
        partner = data.get("partner")
        # With the dealer sitting out, "alone" is no answer: four play without a partner.
        if self.sits_out and partner == ALONE:
            partner = None
        return {
            "taker": self._id(data["taker"]),
            "partner": self._id(partner) if partner and partner != ALONE else None,
            "contract": data["contract"],
            "points": as_json_number(points),
            "oudlers": data["oudlers"],
            "petit_au_bout": data.get("petit_au_bout") or None,
            "handfuls": [
                {"player": p.pk, "size": data[f"handful_{p.pk}"]}
                for p in self.active
                if data.get(f"handful_{p.pk}")
            ],
            "slam": data.get("slam") or None,
            "miseres": [
                {"player": p.pk, "kind": kind}
                for p in self.active
                for kind in (data.get(f"misere_{p.pk}") or [])
            ],
            "sitting_out": self.dealer.pk if self.sits_out else None,
        }


class NovatarokDealForm(DealForm):
    """A Novatarok round: each player's card points, and who holds the kings, trull and pagat."""

    kind = NOVATAROK
    ENGINE_FIELDS = {name: name for name in ("card_points", "kings", "trull", "pagat")}
    FIELD_SLOTS = {"card_": "card_points"}
    MELDS = NOVATAROK_MELDS

    def slot_names(self) -> list[str]:
        return [ALL, "card_points", "kings", "trull", "pagat"]

    def build_fields(self) -> None:
        choices = _player_choices(self.table, self.players)
        for player in self.players:
            self.fields[f"card_{player.pk}"] = forms.IntegerField(
                label=self.table.labels[player.pk],
                min_value=0,
                max_value=200,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": "4"}),
            )
        for name, label in self.MELDS:
            self.fields[name] = forms.ChoiceField(
                label=label, choices=[("", _("nobody")), *choices], required=False
            )

    def card_fields(self) -> Iterator[forms.BoundField]:
        for player in self.players:
            yield self[f"card_{player.pk}"]

    def meld_fields(self) -> Iterator[forms.BoundField]:
        for name, _label in self.MELDS:
            yield self[name]

    def initial_from(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            f"card_{key}": value for key, value in (payload.get("card_points") or {}).items()
        }
        for name, _label in self.MELDS:
            initial[name] = str(payload.get(name) or "")
        return initial

    def payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {
            "card_points": {str(p.pk): data[f"card_{p.pk}"] for p in self.players}
        }
        for name, _label in self.MELDS:
            out[name] = self._id(data.get(name))
        return out


BURACO_NUMBERS = (
    ("table_points", _("Table points"), 5000),
    ("natural_canastas", _("Natural canastas"), 14),
    ("mixed_canastas", _("Mixed canastas"), 14),
    ("red_threes", _("Red threes"), 4),
    ("hand_points", _("Points left in hand"), 2000),
)


BURACO_FLAGS = (
    ("went_out", _("Went out")),
    ("took_extra_pile", _("Took the extra pile")),
    ("extra_pile_unplayed", _("Extra pile not played")),
)


@dataclass
class BuracoSide:
    index: int
    name: str
    numbers: list[forms.BoundField] = field(default_factory=list)
    flags: list[forms.BoundField] = field(default_factory=list)


class BuracoDealForm(DealForm):
    """A buraco hand: which side each player is on, and what each side laid down."""

    kind = BURACO
    ENGINE_FIELDS = {"sides": "sides"}
    FIELD_SLOTS = {"side_": "sides", "s0_": "sides", "s1_": "sides"}
    SIDE_NAMES = (_("Side A"), _("Side B"))

    def slot_names(self) -> list[str]:
        return [ALL, "sides"]

    def build_fields(self) -> None:
        count = len(self.players)
        for i, player in enumerate(self.players):
            self.fields[f"side_{player.pk}"] = forms.ChoiceField(
                label=self.table.labels[player.pk],
                choices=[("0", self.SIDE_NAMES[0]), ("1", self.SIDE_NAMES[1])],
                widget=ChipSelect,
            )
            # Partners sit opposite each other: seats 1 and 3 against 2 and 4.
            self.initial[f"side_{player.pk}"] = str(i % 2 if count == 4 else min(i, 1))
        for s in (0, 1):
            for name, label, high in BURACO_NUMBERS:
                self.fields[f"s{s}_{name}"] = forms.IntegerField(
                    label=label,
                    min_value=0,
                    max_value=high,
                    required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "size": "5"}),
                )
            for name, label in BURACO_FLAGS:
                self.fields[f"s{s}_{name}"] = forms.BooleanField(label=label, required=False)
            self.initial.setdefault(f"s{s}_took_extra_pile", True)

    def side_fields(self) -> Iterator[forms.BoundField]:
        for player in self.players:
            yield self[f"side_{player.pk}"]

    def sides(self) -> list[BuracoSide]:
        return [
            BuracoSide(
                s,
                str(self.SIDE_NAMES[s]),
                [self[f"s{s}_{n}"] for n, _l, _h in BURACO_NUMBERS],
                [self[f"s{s}_{n}"] for n, _l in BURACO_FLAGS],
            )
            for s in (0, 1)
        ]

    def initial_from(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for s, side in enumerate(payload.get("sides") or []):
            for member in side.get("players") or []:
                initial[f"side_{member}"] = str(s)
            for name, _label, _high in BURACO_NUMBERS:
                initial[f"s{s}_{name}"] = side.get(name, 0)
            for name, _label in BURACO_FLAGS:
                initial[f"s{s}_{name}"] = bool(side.get(name, False))
        return initial

    def payload(self) -> dict[str, Any]:
        data = self.cleaned_data
        sides: list[dict[str, Any]] = []
        for s in (0, 1):
            side: dict[str, Any] = {
                "players": [p.pk for p in self.players if data.get(f"side_{p.pk}") == str(s)]
            }
            for name, _label, _high in BURACO_NUMBERS:
                side[name] = data.get(f"s{s}_{name}") or 0
            for name, _label in BURACO_FLAGS:
                side[name] = bool(data.get(f"s{s}_{name}"))
            sides.append(side)
        return {"sides": sides}


FORMS: dict[str, type[DealForm]] = {
    TAROT: TarotDealForm,
    NOVATAROK: NovatarokDealForm,
    BURACO: BuracoDealForm,
}


def deal_form_for(game: Game) -> type[DealForm]:
    return FORMS[game.kind]


# --- a new game ----------------------------------------------------------------------------------


class PlayerChips(forms.CheckboxSelectMultiple):
    """Players picked by tapping their names (drawn as chips, names as the club typed them)."""

    names = True


class GameForm(forms.Form):
    """A new game in a few taps: the players tapped in seat order, the rules and, at five, how
    the table plays, all chips (no drop-down); the date is today's unless changed."""

    players = forms.MultipleChoiceField(
        label=gettext_lazy("Players"),
        widget=PlayerChips,
        required=False,
        help_text=gettext_lazy("Tap them going round the table: the first one tapped deals first."),
    )
    # The order of the taps (ids, comma-separated), kept by static/js/seat-order.js; without
    # it the players sit in the order of the list.
    seat_order = forms.CharField(required=False, widget=forms.HiddenInput)
    rules = forms.ChoiceField(label=gettext_lazy("Game and rules"), widget=ChipSelect)
    five_players = forms.ChoiceField(
        label=gettext_lazy("At a tarot table of five"),
        choices=FIVE_PLAYER_CHOICES,
        widget=ChipSelect,
        required=False,
        help_text=gettext_lazy(
            "Only for five tarot players. Not chosen: called king, the FFT rules' game at five."
        ),
    )
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    label = forms.CharField(label=gettext_lazy("Label (optional)"), max_length=80, required=False)

    def __init__(
        self,
        *args: Any,
        club: Club,
        players: Sequence[Player],
        house_rules: Sequence[HouseRules],
        rules: str = "fft",
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", {"date": timezone.localdate(), "rules": rules})
        super().__init__(*args, **kwargs)
        self.club = club
        self.players_by_id = {p.pk: p for p in players}
        self.house_rules = {f"{HOUSE}:{h.pk}": h for h in house_rules}
        rule_choices: list[Any] = [
            ("fft", _("Tarot, FFT rules")),
            ("classic", _("Tarot, classic rules")),
        ]
        rule_choices += [(key, h.name) for key, h in self.house_rules.items()]
        # Novatarok and buraco only where the club plays them (its settings).
        rule_choices += [
            (kind, label) for kind, label in KINDS if kind != TAROT and club.offers(kind)
        ]
        self.fields["rules"].choices = rule_choices  # type: ignore[attr-defined]
        self.fields["players"].choices = [  # type: ignore[attr-defined]
            (str(p.pk), p.label) for p in players
        ]
        self.seated: list[Player] = []

    def chosen(self, data: Mapping[str, Any]) -> list[str]:
        """The ids tapped, in seat order: the order of the taps when the page sent it and it
        names exactly the players ticked, else the order of the list."""
        ticked = [str(value) for value in data.get("players") or []]
        order = [part.strip() for part in str(data.get("seat_order") or "").split(",")]
        order = [part for part in order if part]
        if sorted(order) == sorted(ticked):
            return order
        return ticked

    def kind(self) -> str:
        return game_kind(self.variant())

    def chosen_house_rules(self) -> HouseRules | None:
        return self.house_rules.get(str(self.cleaned_data.get("rules") or ""))

    def variant(self) -> str:
        rules = str(self.cleaned_data.get("rules") or "fft")
        return HOUSE if rules.startswith(f"{HOUSE}:") else rules

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        known_rules = "rules" in data
        house = self.chosen_house_rules()
        seats = self.chosen(data)
        rule_set = rule_set_for(variant=self.variant(), house_rules=house) if known_rules else None
        five = data.get("five_players") or None
        either = rule_set is not None and rule_set.five_players is scoring.FivePlayers.EITHER
        if five is None and either:
            # Nothing tapped, rules that allow either: the called king, the game at five of
            # the FFT rules (and the first choice of a deal at such a table). The dealer
            # sitting out is the tournaments' way, which they set themselves.
            five = scoring.FivePlayers.CALLED_KING.value
        setup = game_setup_check(
            kind=self.kind(),
            seats=[self.players_by_id.get(int(value)) for value in seats],
            rules=rule_set,
            five_players=five,
        )
        self.seated = list(setup.players)
        self._place(setup, known_rules=known_rules)
        if known_rules:
            data["five_players"] = setup.five_players
        return data

    def setup_refused(self, refusal: GameSetupError) -> None:
        """Put ``game_create``'s refusal beside the seats and questions it is about."""
        self._place(refusal.setup, known_rules=True)

    def _place(self, setup: GameSetup, *, known_rules: bool) -> None:
        for problem in setup.problems:
            error = forms.ValidationError(problem.message, code=problem.code)
            if problem.seat is not None:
                self.add_error("players", error)
            elif known_rules:
                # The table's size goes above the seats, not beside one of them; without a
                # valid game only the seats can be judged.
                self.add_error(None if problem.field == PLAYERS else problem.field, error)
