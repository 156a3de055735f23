"""The calculator's form: what a player taps at the table, turned into one deal of the contract.

The form checks shapes only (a name, a number such as "40,5", one of the choices) and builds the
deal's dict; the engine (``tarot_scores.scoring``) decides whether such a deal can happen with a
real pack and what it is worth. Its refusals come back beside the fields they are about, through
``add_scoring_errors``. Seats (1 to 5) identify the preneur, the partner and the mort, so a name
can be edited without losing who took.
"""

from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tarot_scores.core.errors import Refusal
from tarot_scores.core.kinds import TABLE_SIZES, TAROT
from tarot_scores.core.numbers import whole_number
from tarot_scores.core.points import ALL_POINTS, as_json_number, parse_points
from tarot_scores.scoring import Contract, ScoringError

PLAYER_COUNTS = TABLE_SIZES[TAROT]
DEFAULT_PLAYER_COUNT = 4
NAME_MAX_LENGTH = 60  # the engine's limit

VARIANT_CHOICES = [
    ("fft", _("FFT (official rules)")),
    ("classic", _("Classic (handfuls and misères to the side that declared them)")),
]
CONTRACT_WORDS = {
    Contract.PRISE: _("Take (prise)"),
    Contract.GARDE: _("Guard (garde)"),
    Contract.GARDE_SANS: _("Guard without (garde sans)"),
    Contract.GARDE_CONTRE: _("Guard against (garde contre)"),
}
# The engine's contracts, in its order: a contract without its words stops the site at start.
CONTRACT_CHOICES = [(contract.value, CONTRACT_WORDS[contract]) for contract in Contract]
BOUTS_CHOICES = [(n, str(n)) for n in range(4)]
PETIT_CHOICES = [
    ("", pgettext_lazy("petit au bout", "No")),
    ("attack", _("For the attack")),
    ("defense", _("For the defence")),
]
HANDFUL_CHOICES = [
    ("", pgettext_lazy("handful", "None")),
    ("simple", _("Single")),
    ("double", _("Double")),
    ("triple", _("Triple")),
]
SLAM_CHOICES = [
    ("", pgettext_lazy("slam", "None")),
    ("announced_made", _("Announced and made")),
    ("unannounced_made", _("Made, not announced")),
    ("announced_failed", _("Announced and failed")),
    ("defense", _("Made by the defence")),
]
MISERE_CHOICES = [("head", _("Head (no face card)")), ("trump", _("Trump (no trump)"))]


def player_count(raw: str | None) -> int:
    """The number of players asked for (``?players=5``), or the default for anything else."""
    count = whole_number(raw)
    return count if count in PLAYER_COUNTS else DEFAULT_PLAYER_COUNT


def default_name(seat: int) -> str:
    return gettext("Player %(number)s") % {"number": seat}


class CalculatorForm(forms.Form):
    """One tarot deal for 3, 4 or 5 players; the fields that depend on the table are added in
    ``__init__`` (a name, a handful and a misère per seat; partner and mort at five)."""

    variant = forms.ChoiceField(
        label=_("Rules"), choices=VARIANT_CHOICES, initial="fft", widget=forms.RadioSelect
    )
    taker = forms.ChoiceField(label=_("Taker (preneur)"))
    contract = forms.ChoiceField(
        label=_("Contract"), choices=CONTRACT_CHOICES, widget=forms.RadioSelect
    )
    points = forms.CharField(
        label=_("Points"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"inputmode": "decimal", "autocomplete": "off", "enterkeyhint": "done"}
        ),
    )
    defence_points = forms.BooleanField(
        label=_("These are the defence's points"),
        required=False,
        widget=forms.CheckboxInput(attrs={"role": "switch"}),
    )
    oudlers = forms.TypedChoiceField(
        label=_("Bouts of the attack (oudlers)"),
        choices=BOUTS_CHOICES,
        coerce=int,
        widget=forms.RadioSelect,
    )
    petit_au_bout = forms.ChoiceField(
        label=_("Petit au bout"),
        choices=PETIT_CHOICES,
        required=False,
        initial="",
        widget=forms.RadioSelect,
    )
    slam = forms.ChoiceField(label=_("Slam (chelem)"), choices=SLAM_CHOICES, required=False)

    def __init__(self, *args: Any, players: int = DEFAULT_PLAYER_COUNT, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.player_count = players
        self.seats = list(range(1, players + 1))
        for seat in self.seats:
            self.fields[f"player_{seat}"] = forms.CharField(
                label=default_name(seat),
                max_length=NAME_MAX_LENGTH,
                initial=default_name(seat),
                widget=forms.TextInput(
                    attrs={
                        "autocomplete": "off",
                        "data-seat-input": seat,
                        "data-seat-default": default_name(seat),
                    }
                ),
            )
        seat_choices = [(str(seat), self.seat_name(seat)) for seat in self.seats]
        taker = self.fields["taker"]
        assert isinstance(taker, forms.ChoiceField)
        taker.choices = [("", gettext("Choose…")), *seat_choices]
        taker.widget.attrs["data-seat-select"] = ""
        if players == 5:
            self.fields["partner"] = forms.ChoiceField(
                label=_("Called partner"),
                choices=[("", gettext("Nobody: the taker plays alone")), *seat_choices],
                required=False,
                widget=forms.Select(attrs={"data-seat-select": ""}),
            )
            self.fields["sitting_out"] = forms.ChoiceField(
                label=_("Sitting out (mort)"),
                choices=[("", gettext("Nobody: five play, with a called king")), *seat_choices],
                required=False,
                widget=forms.Select(attrs={"data-seat-select": ""}),
            )
        for seat in self.seats:
            self.fields[f"handful_{seat}"] = forms.ChoiceField(
                label=self.seat_name(seat), choices=HANDFUL_CHOICES, required=False
            )
            self.fields[f"misere_{seat}"] = forms.MultipleChoiceField(
                label=self.seat_name(seat),
                choices=MISERE_CHOICES,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        self.order_fields(
            [
                "variant",
                *(f"player_{seat}" for seat in self.seats),
                "sitting_out",
                "taker",
                "partner",
                "contract",
                "points",
                "defence_points",
                "oudlers",
                "petit_au_bout",
                "slam",
                *(f"handful_{seat}" for seat in self.seats),
                *(f"misere_{seat}" for seat in self.seats),
            ]
        )
        # Each field points at the box its messages go in, which htmx refills as you type.
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("aria-describedby", f"errors-{name}")

    # Fields grouped for the template, in the order of the page.
    def name_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{seat}"] for seat in self.seats]

    def handful_fields(self) -> list[forms.BoundField]:
        return [self[f"handful_{seat}"] for seat in self.seats]

    def misere_fields(self) -> list[forms.BoundField]:
        return [self[f"misere_{seat}"] for seat in self.seats]

    def seat_name(self, seat: int) -> str:
        """The name at a seat as typed so far (or its default), for labels and options."""
        key = self.add_prefix(f"player_{seat}")
        typed = self.data.get(key, "") if self.is_bound else ""
        typed = typed.strip() if isinstance(typed, str) else ""
        return typed[:NAME_MAX_LENGTH] or default_name(seat)

    def clean_points(self) -> Decimal:
        try:
            return parse_points(self.cleaned_data["points"])
        except Refusal as refusal:
            raise refusal.as_validation_error() from None

    def deal(self) -> dict[str, Any]:
        """The deal of the scoring contract (docs/scoring.md), from valid data."""
        data = self.cleaned_data
        names = [data[f"player_{seat}"] for seat in self.seats]

        def at(seat: str | None) -> str | None:
            return names[int(seat) - 1] if seat else None

        points = data["points"]
        if data["defence_points"]:
            points = ALL_POINTS - points
        variant = data["variant"]
        return {
            "variant": variant,
            "players": names,
            "sitting_out": at(data.get("sitting_out")),
            "taker": at(data["taker"]),
            "partner": at(data.get("partner")),
            "contract": data["contract"],
            "points": as_json_number(points),
            "oudlers": data["oudlers"],
            "petit_au_bout": data["petit_au_bout"] or None,
            "handfuls": [
                {"player": names[seat - 1], "size": data[f"handful_{seat}"]}
                for seat in self.seats
                if data[f"handful_{seat}"]
            ],
            "slam": data["slam"] or None,
            # Misères count only in the classic rules; their boxes are hidden for the others.
            "miseres": [
                {"player": names[seat - 1], "kind": kind}
                for seat in self.seats
                for kind in data[f"misere_{seat}"]
            ]
            if variant == "classic"
            else [],
        }

    def add_scoring_errors(self, error: ScoringError, lang: str) -> None:
        """Put each of the engine's refusals beside the field it is about."""
        for field, messages in error.errors.items():
            for message in messages:
                name = dict(message.params).get("name")
                self.add_error(self._field_for(field, name), message.render(lang))

    def _field_for(self, engine_field: str, name: Any) -> str | None:
        """The form field that shows a refusal of the engine's ``engine_field``."""
        names = [
            self.data.get(self.add_prefix(f"player_{seat}"), "").strip() for seat in self.seats
        ]
        seats_named = [seat for seat, typed in zip(self.seats, names, strict=True) if typed == name]
        if engine_field == "players":
            # A repeated name: show it on its last seat.
            return f"player_{seats_named[-1]}" if seats_named else "player_1"
        if engine_field in ("handfuls", "miseres"):
            prefix = "handful" if engine_field == "handfuls" else "misere"
            declared = [
                seat for seat in self.seats if self.data.get(self.add_prefix(f"{prefix}_{seat}"))
            ]
            chosen = seats_named or declared
            return f"{prefix}_{chosen[-1]}" if chosen else None
        if engine_field in self.fields:
            return engine_field
        return None

    def set_aside_missing(self) -> list[str]:
        """Drop "this field is required" errors and return those fields' labels.

        While someone is still filling the form in (live updates), an empty field is not a
        mistake: the result area lists what is left instead of flagging every empty field.
        """
        missing: list[str] = []
        for name, errors in list(self.errors.as_data().items()):
            if name in self.fields and all(e.code == "required" for e in errors):
                del self.errors[name]
                missing.append(str(self.fields[name].label))
        return missing
