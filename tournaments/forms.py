"""Forms of the tournament pages: the shape of what an organiser types in.

A new tournament (rules, format, rounds, seating), registering players (club players ticked in a
list, newcomers typed one per line), teams, and swapping two seated players. Rules live in
the rooms' services (``tournaments.registration``, ``tournaments.rounds``, ``tournaments.people``):
these forms only check that the answers are well formed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores.clubs.models import Club, HouseRules, Player
from tarot_scores.core.names import has_control_character, validate_name
from tarot_scores.games.setup import rule_set_for
from tournaments import rules as tournament_rules
from tournaments.models import (
    APART_REASON_MAX,
    MAX_DEALS_PER_ROUND,
    MAX_ROUND_MINUTES,
    MAX_ROUNDS,
    MAX_SEED,
    MIN_ROUND_MINUTES,
    PENALTY_POINTS_MAX,
    PENALTY_REASON_MAX,
    Entry,
    Tournament,
)
from tournaments.registration import services as registration_services

TEAM_SIZES = [
    (0, gettext_lazy("no teams (individual event)")),
    (2, gettext_lazy("teams of 2")),
    (4, gettext_lazy("teams of 4")),
]


def new_seed() -> int:
    """A fresh draw seed, shown in the form so that a draw can be replayed."""
    return random.SystemRandom().randrange(1, 1_000_000)


class TournamentForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120, validators=[validate_name])
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    rules = forms.ChoiceField(label=gettext_lazy("Rules"))
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=Tournament.Format.choices,
        widget=forms.RadioSelect,
    )
    rounds = forms.IntegerField(
        label=gettext_lazy("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        help_text=gettext_lazy("Rounds format only: a knockout goes on until its final table."),
    )
    deals_per_round = forms.IntegerField(
        label=gettext_lazy("Deals per round"),
        min_value=1,
        max_value=MAX_DEALS_PER_ROUND,
        help_text=gettext_lazy("Duplicate: the boards each table plays in a round."),
    )
    duplicate_method = forms.ChoiceField(
        label=gettext_lazy("Comparison (duplicate)"),
        choices=Tournament.DuplicateMethod.choices,
        widget=forms.RadioSelect,
        required=False,  # only read for a duplicate tournament: matchpoints when not sent
        help_text=gettext_lazy(
            "Duplicate only: how the scores made on a board at one direction are compared."
        ),
    )
    round_minutes = forms.IntegerField(
        label=gettext_lazy("Minutes per round"),
        min_value=MIN_ROUND_MINUTES,
        max_value=MAX_ROUND_MINUTES,
    )
    seating = forms.ChoiceField(
        label=gettext_lazy("Seating method"),
        choices=Tournament.Seating.choices,
        widget=forms.RadioSelect,
    )
    five_mode = forms.ChoiceField(
        label=gettext_lazy("Tables of 5"),
        choices=Tournament.FiveMode.choices,
        widget=forms.RadioSelect,
    )
    allow_threes = forms.BooleanField(
        label=gettext_lazy("Tables of 3 allowed"),
        required=False,
        help_text=gettext_lazy("Only when the head count cannot be seated at tables of 4 and 5."),
    )
    team_size = forms.TypedChoiceField(
        label=gettext_lazy("Teams"), choices=TEAM_SIZES, coerce=int, widget=forms.RadioSelect
    )
    qualifiers_per_table = forms.IntegerField(
        label=gettext_lazy("Qualifiers per table (knockout)"), min_value=1, max_value=4
    )
    require_confirmation = forms.BooleanField(
        label=gettext_lazy("Deals confirmed by the other side"),
        required=False,
        help_text=gettext_lazy(
            "A deal entered at a table counts once a player of the other side (or a referee) "
            "confirms it on his phone; a disagreement goes to the referee."
        ),
    )
    confirmation_proof = forms.ChoiceField(
        label=gettext_lazy("Who may confirm"),
        choices=Tournament.ConfirmationProof.choices,
        required=False,  # not sent: any phone at the table, as before the choice existed
        widget=forms.RadioSelect,
        help_text=gettext_lazy(
            "Any phone at the table: each phone says who holds it. It proves only that a deal "
            "is confirmed by another phone than the one that entered it, not who held either "
            "(a second browser is a second phone). Personal proof: whoever enters, confirms or "
            "disagrees proves who he is, with his player card's link on his own phone, the PIN "
            "printed on his card, or his own account signed in."
        ),
    )
    seed = forms.IntegerField(
        label=gettext_lazy("Draw seed"),
        min_value=0,
        max_value=MAX_SEED,
        help_text=gettext_lazy("Drawn at random; the same seed gives the same seating."),
    )

    def __init__(
        self, *args: Any, club: Club, house_rules: Sequence[HouseRules], **kw: Any
    ) -> None:
        kw.setdefault(
            "initial",
            {
                "date": timezone.localdate(),
                "rules": "fft",
                "format": Tournament.Format.ROUNDS,
                "rounds": 3,
                "deals_per_round": 8,
                "round_minutes": 75,
                "seating": Tournament.Seating.MIXING,
                "five_mode": Tournament.FiveMode.SITTING_OUT,
                "team_size": 0,
                "qualifiers_per_table": 2,
                "duplicate_method": Tournament.DuplicateMethod.MATCHPOINTS,
                "confirmation_proof": Tournament.ConfirmationProof.PHONE,
                "seed": new_seed(),
            },
        )
        super().__init__(*args, **kw)
        self.club = club
        self.house_rules = {f"house:{h.pk}": h for h in house_rules}
        choices: list[Any] = [
            ("fft", _("FFT (official rules)")),
            ("classic", _("Classic rules")),
        ]
        if self.house_rules:
            choices.append(
                (_("House rules"), [(key, h.name) for key, h in self.house_rules.items()])
            )
        self.fields["rules"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "format" in data:
            rules, five_mode = None, None
            if "rules" in data and "five_mode" in data:
                house_rules = self.house_rules.get(data["rules"])
                rules = rule_set_for(
                    variant="fft" if house_rules is not None else data["rules"],
                    house_rules=house_rules,
                )
                five_mode = data["five_mode"]
            refusal = registration_services.creation_refusal(
                format=data["format"],
                team_size=data.get("team_size") or 0,
                allow_threes=bool(data.get("allow_threes")),
                rounds=data.get("rounds"),
                rules=rules,
                five_mode=five_mode,
            )
            if refusal:
                refusal.add_to_form(self)
        return data

    def clean_duplicate_method(self) -> str:
        return str(
            self.cleaned_data.get("duplicate_method") or Tournament.DuplicateMethod.MATCHPOINTS
        )

    def service_arguments(self) -> dict[str, Any]:
        """``registration_services.tournament_create``'s keyword arguments (call after is_valid)."""
        data = self.cleaned_data
        house_rules = self.house_rules.get(data["rules"])
        return {
            "name": data["name"],
            "date": data["date"],
            "variant": "fft" if house_rules is not None else data["rules"],
            "house_rules": house_rules,
            "format": data["format"],
            "rounds": data["rounds"],
            "deals_per_round": data["deals_per_round"],
            "round_minutes": data["round_minutes"],
            "seating_method": data["seating"],
            "five_mode": data["five_mode"],
            "allow_threes": data["allow_threes"],
            "team_size": data["team_size"],
            "qualifiers_per_table": data["qualifiers_per_table"],
            "seed": data["seed"],
            "require_confirmation": data["require_confirmation"],
            "confirmation_proof": data["confirmation_proof"] or Tournament.ConfirmationProof.PHONE,
            "duplicate_method": data["duplicate_method"],
        }


class EntryAddForm(forms.Form):
    """Register club players (ticked) and newcomers (typed, one name per line) at once."""

    players = forms.MultipleChoiceField(
        label=gettext_lazy("Club players"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    new_names = forms.CharField(
        label=gettext_lazy("New players, one name per line"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off"}),
        help_text=gettext_lazy("They become players of the club."),
    )
    checked_in = forms.BooleanField(
        label=gettext_lazy("Checked in now"), required=False, initial=True
    )

    def __init__(self, *args: Any, candidates: Sequence[Player], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.candidates = {p.pk: p for p in candidates}
        self.fields["players"].choices = [  # type: ignore[attr-defined]
            (str(p.pk), p.label) for p in candidates
        ]

    def clean_new_names(self) -> list[str]:
        lines = str(self.cleaned_data.get("new_names") or "").splitlines()
        refusal = registration_services.registration_size_refusal(
            sum(1 for line in lines if line.strip())
        )
        if refusal:
            raise refusal.as_validation_error()
        names: list[str] = []
        for line in lines:
            name = " ".join(line.split())
            if has_control_character(name):
                validate_name(name)
            if len(name) > 60:
                raise forms.ValidationError(
                    _("A name has at most 60 characters: %(name)s") % {"name": name[:60]}
                )
            if name and name.casefold() not in {n.casefold() for n in names}:
                names.append(name)
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("players") and not data.get("new_names") and not self.errors:
            raise forms.ValidationError(_("Tick club players or type new names."))
        return data

    def chosen_players(self) -> list[Player]:
        return [self.candidates[int(pk)] for pk in self.cleaned_data.get("players") or []]


class TeamForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Team name"), max_length=80, validators=[validate_name]
    )
    members = forms.MultipleChoiceField(
        label=gettext_lazy("Members"), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, entries: Sequence[Entry], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.entries = {e.pk: e for e in entries}
        self.fields["members"].choices = [  # type: ignore[attr-defined]
            (str(e.pk), e.player.label) for e in entries
        ]

    def chosen_entries(self) -> list[Entry]:
        return [self.entries[int(pk)] for pk in self.cleaned_data["members"]]


class SwapForm(forms.Form):
    first = forms.ChoiceField(label=gettext_lazy("Player"))
    second = forms.ChoiceField(label=gettext_lazy("swaps seats with"))

    def __init__(self, *args: Any, players: Sequence[tuple[Player, str]], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.players = {p.pk: p for p, _where in players}
        choices = [("", "—")] + [(str(p.pk), f"{p.label} ({where})") for p, where in players]
        self.fields["first"].choices = choices  # type: ignore[attr-defined]
        self.fields["second"].choices = choices  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        refusal = tournament_rules.different_players_refusal(
            data.get("first") or None, data.get("second") or None
        )
        if refusal:
            raise refusal.as_validation_error()  # above the form, as the swap is one choice
        return data

    def chosen(self) -> tuple[Player, Player]:
        return (
            self.players[int(self.cleaned_data["first"])],
            self.players[int(self.cleaned_data["second"])],
        )


class PenaltyForm(forms.Form):
    """A penalty as a referee types it: the player, the round, optionally the deal's number at
    the player's table, the points taken off and the reason (``tournaments.play.penalties``)."""

    entry = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    round = forms.TypedChoiceField(label=gettext_lazy("Round"), coerce=int)
    deal = forms.IntegerField(
        label=gettext_lazy("Deal"),
        required=False,
        min_value=1,
        max_value=MAX_DEALS_PER_ROUND,
        help_text=gettext_lazy(
            "The deal's number at the player's table; leave empty for a penalty on the round."
        ),
    )
    points = forms.IntegerField(
        label=gettext_lazy("Points taken off"), min_value=1, max_value=PENALTY_POINTS_MAX
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=PENALTY_REASON_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(
        self,
        *args: Any,
        entries: Sequence[Entry],
        rounds: Sequence[tuple[int, str]],
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.entries = {e.pk: e for e in entries}
        self.fields["entry"].choices = [("", "—")] + [  # type: ignore[attr-defined]
            (str(e.pk), e.player.label) for e in entries
        ]
        self.fields["round"].choices = [  # type: ignore[attr-defined]
            (str(n), name) for n, name in rounds
        ]


class CutForm(forms.Form):
    """A championship's cut as an organiser asks it (``tournaments.standings.cuts``): how many
    players go
    through, as a number or as a share of the field, and whether their scores are carried over.
    The ranges are the service's to refuse, beside the field they are about."""

    keep = forms.IntegerField(
        label=gettext_lazy("Players who go through"),
        required=False,
        max_value=2**31 - 1,
        min_value=-(2**31),
        help_text=gettext_lazy("Leave empty to give a share of the field instead."),
    )
    share = forms.IntegerField(
        label=gettext_lazy("Or a share of the field (%)"),
        required=False,
        max_value=2**31 - 1,
        min_value=-(2**31),
        help_text=gettext_lazy("From 1 to 99; the places are rounded up (50 % of 25 is 13)."),
    )
    carry = forms.BooleanField(
        label=gettext_lazy("Scores carried over"),
        required=False,
        initial=True,
        help_text=gettext_lazy(
            "Unticked, the players who go through restart from zero after this round."
        ),
    )

    def asked(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"keep": data["keep"], "share": data["share"], "carry": bool(data["carry"])}


# --- people ---


class ApartPairForm(forms.Form):
    """Two registered players who must never share a table, and why (``people.apart_pair_add``
    checks the rest)."""

    first = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    second = forms.TypedChoiceField(label=gettext_lazy("never at the table of"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=APART_REASON_MAX,
        help_text=gettext_lazy("Family, a player and the referee..."),
    )

    def __init__(self, *args: Any, entries: Sequence[Entry], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.entries = {e.pk: e for e in entries}
        choices = [("", "—")] + [(str(e.pk), e.player.label) for e in entries]
        self.fields["first"].choices = choices  # type: ignore[attr-defined]
        self.fields["second"].choices = choices  # type: ignore[attr-defined]


class SubstituteForm(forms.Form):
    """Who leaves his seat, and who takes it over: a club player or a new name."""

    replaced = forms.TypedChoiceField(label=gettext_lazy("Player replaced"), coerce=int)
    player = forms.TypedChoiceField(
        label=gettext_lazy("Substitute: a club player"), coerce=int, required=False
    )
    name = forms.CharField(label=gettext_lazy("or a new name"), max_length=80, required=False)
    returns = forms.BooleanField(
        label=gettext_lazy("Comes back next round (else withdrawn from the tournament)"),
        required=False,
    )

    def __init__(
        self,
        *args: Any,
        seated: Sequence[tuple[Entry, str]],
        club_players: Sequence[Player],
        **kw: Any,
    ) -> None:
        super().__init__(*args, **kw)
        self.seated = {e.pk: e for e, _where in seated}
        self.club_players = {p.pk: p for p in club_players}
        self.fields["replaced"].choices = [("", "—")] + [  # type: ignore[attr-defined]
            (str(e.pk), f"{e.player.label} ({where})") for e, where in seated
        ]
        self.fields["player"].choices = [("", "—")] + [  # type: ignore[attr-defined]
            (str(p.pk), p.label) for p in club_players
        ]
