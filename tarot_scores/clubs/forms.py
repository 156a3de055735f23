"""Forms of the club pages: the shape of what organisers and members type in.

Rules live elsewhere: a house rule set is checked by the scoring engine
(``RuleSet.from_mapping``) and its refusals are put beside the fields; writes go through
the services, whose ``Refusal`` (a name taken, the last organiser, another club's player)
the views put beside the fields too."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields as dataclass_fields
from enum import Enum
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from tarot_scores import scoring
from tarot_scores.clubs.models import Club, HouseRules, Membership, Player
from tarot_scores.core.i18n import engine_language
from tarot_scores.core.kinds import FIVE_PLAYER_CHOICES, KINDS, TAROT
from tarot_scores.scoring import ScoringError


class ClubForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Club name"), max_length=120)
    public = forms.BooleanField(
        label=gettext_lazy("Public results"),
        required=False,
        initial=True,
        help_text=gettext_lazy("Anyone may read the club's games and leaderboard."),
    )

    def clean_name(self) -> str:
        # Whether the name is taken is club_create's rule: the view puts its refusal here.
        return str(self.cleaned_data["name"]).strip()


class ClubGamesForm(forms.Form):
    """The games besides tarot a club offers for a new game."""

    other_games = forms.MultipleChoiceField(
        label=gettext_lazy("Games played besides tarot"),
        choices=[(kind, label) for kind, label in KINDS if kind != TAROT],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=gettext_lazy(
            "Only these are offered for a new game. Games already played stay as they are."
        ),
    )


class PlayerForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60)
    nickname = forms.CharField(
        label=gettext_lazy("Nickname"),
        max_length=60,
        required=False,
        help_text=gettext_lazy("Shown on score sheets instead of the name."),
    )
    licence = forms.CharField(
        label=gettext_lazy("FFT licence number"), max_length=20, required=False
    )

    # Two players of a club under one label is player_create's rule: the view puts its refusal
    # beside the name or the nickname.

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club


class PlayersPasteForm(forms.Form):
    """A list of players pasted at once; how each line reads is ``clubs.roster``'s rule and
    which lines can be added is ``services.players_paste_check``'s: the view puts each problem
    beside the list."""

    players = forms.CharField(
        label=gettext_lazy("Players, one a line"),
        max_length=30_000,
        widget=forms.Textarea(
            attrs={
                "rows": 9,
                "autocomplete": "off",
                "autocapitalize": "words",
                "spellcheck": "false",
            }
        ),
        help_text=gettext_lazy(
            "The name alone, or name, nickname, licence separated by commas: a spreadsheet's "
            "columns pasted as they are work too. Nothing is added before you confirm."
        ),
    )


def account_named(value: str) -> Any:
    """The account with this user name (any case), or None. Never looked up by e-mail address:
    an answer that differs with the address would tell anyone who may name a referee or
    invite a member whether that address has an account here."""
    user_model = get_user_model()
    users = list(user_model.objects.filter(username__iexact=value)[:5])
    exact = [u for u in users if u.get_username() == value]
    if exact:
        return exact[0]
    return users[0] if len(users) == 1 else None


class AccountForm(forms.Form):
    """An existing account, by user name (a tournament's referee)."""

    identifier = forms.CharField(label=gettext_lazy("User name"), max_length=254)

    def clean_identifier(self) -> Any:
        found = account_named(str(self.cleaned_data["identifier"]).strip())
        if found is None:
            raise ValidationError(
                _(
                    "No account has this user name. An e-mail address is not looked up: "
                    "ask the person for the user name they sign in with."
                )
            )
        return found


def _player_choices(players: Iterable[Player], user: Any) -> list[tuple[str, str]]:
    """Players an account may be invited to play as: the club's own players (never a guest of
    its tournaments) without an account, and its own."""
    choices = [("", _("— none —"))]
    for player in players:
        if player.user_id is None or (user is not None and player.user_id == user.pk):
            choices.append((str(player.pk), player.label))
    return choices


class _PlayerLinkMixin:
    players: dict[int, Player]

    def linked_player(self, value: str) -> Player | None:
        return self.players.get(int(value)) if value else None


class MemberAddForm(_PlayerLinkMixin, forms.Form):
    identifier = forms.CharField(
        label=gettext_lazy("User name or e-mail address"),
        max_length=254,
        help_text=gettext_lazy(
            "They get an invitation by e-mail and become a member when they accept it. Someone "
            "without an account yet makes one from the invitation."
        ),
    )
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=Membership.Role.choices, initial="member"
    )
    player = forms.ChoiceField(
        label=gettext_lazy("Plays as"),
        required=False,
        help_text=gettext_lazy("The player of the club this person is, once they accept."),
    )

    def __init__(self, *args: Any, club: Club, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.players = {p.pk: p for p in players}
        self.user: Any = None
        self.fields["player"].choices = _player_choices(players, None)  # type: ignore[attr-defined]

    def clean_identifier(self) -> str:
        value = str(self.cleaned_data["identifier"]).strip()
        found = account_named(value)
        if found is not None:
            # An account that is a member already is invitation_create's refusal (on ``user``).
            self.user = found
            return value
        try:
            validate_email(value)
        except ValidationError:
            if "@" in value:  # meant as an address, not a user name
                raise ValidationError(
                    _("This e-mail address is not valid: check it (like name@example.org).")
                ) from None
            raise ValidationError(
                _("No account has this user name. To add someone new, enter their e-mail address.")
            ) from None
        return value

    def clean_player(self) -> Player | None:
        # Another club's player, or one with an account: invitation_create's refusal.
        return self.linked_player(str(self.cleaned_data.get("player") or ""))


def own_player(membership: Membership) -> Player | None:
    """The club's own player this member plays as, if any (not another club's)."""
    player: Player | None = getattr(membership.user, "player", None)
    if player is None or player.club_id != membership.club_id:
        return None
    return player


class InvitationAccountForm(UserCreationForm):  # type: ignore[type-arg]
    """Someone invited without an account chooses a user name and a password."""

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class MembershipForm(_PlayerLinkMixin, forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Membership.Role.choices)
    player = forms.ChoiceField(
        label=gettext_lazy("Plays as"),
        required=False,
        help_text=gettext_lazy("Another player: they get an invitation to accept."),
    )

    def __init__(
        self,
        *args: Any,
        membership: Membership,
        players: Sequence[Player],
        **kwargs: Any,
    ) -> None:
        own = own_player(membership)
        kwargs.setdefault(
            "initial",
            {"role": membership.role, "player": str(own.pk) if own is not None else ""},
        )
        super().__init__(*args, **kwargs)
        self.membership = membership
        self.players = {p.pk: p for p in players}
        self.fields["player"].choices = _player_choices(players, membership.user)  # type: ignore[attr-defined]

    # A club keeps an organiser: membership_update's rule, put beside the role by the view.

    def clean_player(self) -> Player | None:
        # Another club's player, or one with an account: invitation_create's refusal.
        return self.linked_player(str(self.cleaned_data.get("player") or ""))


def _points(label: Any, *, low: int = 0) -> forms.IntegerField:
    # No Django bounds: the scoring engine decides what is acceptable and says why.
    return forms.IntegerField(
        label=label, widget=forms.NumberInput(attrs={"min": low, "inputmode": "numeric"})
    )


class TrumpsWidget(forms.MultiWidget):
    def __init__(self) -> None:
        super().__init__(
            widgets=[
                forms.NumberInput(attrs={"aria-label": label, "min": 1, "max": 22})
                for label in (
                    pgettext_lazy("handful", "Simple"),
                    pgettext_lazy("handful", "Double"),
                    pgettext_lazy("handful", "Triple"),
                )
            ]
        )

    def decompress(self, value: Any) -> list[Any]:
        return list(value) if value else [None, None, None]


class TrumpsField(forms.MultiValueField):
    """Trumps a simple, double and triple handful show, at one table size."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            fields=[forms.IntegerField(), forms.IntegerField(), forms.IntegerField()],
            widget=TrumpsWidget(),
            help_text=gettext_lazy("For a simple, a double and a triple handful."),
            **kwargs,
        )

    def compress(self, data_list: list[Any]) -> list[int] | None:
        return [int(v) for v in data_list] if data_list else None


class HouseRulesForm(forms.Form):
    """A club's rule set: a preset and every parameter of ``scoring.RuleSet``."""

    name = forms.CharField(label=gettext_lazy("Name of the rule set"), max_length=80)
    based_on = forms.ChoiceField(
        label=gettext_lazy("Based on"),
        choices=[("fft", gettext_lazy("FFT (official)")), ("classic", gettext_lazy("Classic"))],
    )
    base = _points(gettext_lazy("Base points (added to the margin)"))
    coefficient_prise = _points(gettext_lazy("Prise (petite)"), low=1)
    coefficient_garde = _points(gettext_lazy("Garde"), low=1)
    coefficient_garde_sans = _points(gettext_lazy("Garde sans"), low=1)
    coefficient_garde_contre = _points(gettext_lazy("Garde contre"), low=1)
    handful_simple = _points(pgettext_lazy("handful", "Simple"))
    handful_double = _points(pgettext_lazy("handful", "Double"))
    handful_triple = _points(pgettext_lazy("handful", "Triple"))
    handful_beneficiary = forms.ChoiceField(
        label=gettext_lazy("Handful points go to"),
        choices=[
            (scoring.Beneficiary.WINNER.value, gettext_lazy("the side that won the deal")),
            (scoring.Beneficiary.DECLARER.value, gettext_lazy("the side that showed it")),
        ],
    )
    handful_trumps_3 = TrumpsField(label=gettext_lazy("Trumps to show at 3 players"))
    handful_trumps_4 = TrumpsField(label=gettext_lazy("Trumps to show at 4 players"))
    handful_trumps_5 = TrumpsField(label=gettext_lazy("Trumps to show at 5 players"))
    petit_au_bout = _points(gettext_lazy("Petit au bout"))
    petit_au_bout_multiplied = forms.BooleanField(
        label=gettext_lazy("Petit au bout multiplied by the contract"), required=False
    )
    slam_announced_made = _points(gettext_lazy("Announced and made"))
    slam_unannounced_made = _points(gettext_lazy("Made without announcing"))
    slam_announced_failed = _points(gettext_lazy("Announced and failed"))
    slam_defense = _points(gettext_lazy("Made by the defence (to each defender)"))
    miseres_allowed = forms.BooleanField(label=gettext_lazy("Misères allowed"), required=False)
    misere = _points(gettext_lazy("Misère value"))
    margin_rounding = forms.ChoiceField(
        label=gettext_lazy("Margin rounding"),
        choices=[
            (scoring.MarginRounding.EXACT.value, gettext_lazy("exact")),
            (scoring.MarginRounding.FIVE.value, gettext_lazy("to the nearest 5")),
            (scoring.MarginRounding.TEN.value, gettext_lazy("to the nearest 10")),
        ],
    )
    five_players = forms.ChoiceField(
        label=gettext_lazy("At five players"),
        choices=[
            *FIVE_PLAYER_CHOICES,
            (scoring.FivePlayers.EITHER.value, gettext_lazy("either, chosen for each game")),
        ],
    )

    GROUPS = [
        (gettext_lazy("Rule set"), ["name", "based_on"]),
        (
            gettext_lazy("Contracts"),
            [
                "base",
                "coefficient_prise",
                "coefficient_garde",
                "coefficient_garde_sans",
                "coefficient_garde_contre",
                "margin_rounding",
            ],
        ),
        (
            gettext_lazy("Handfuls (poignées)"),
            [
                "handful_simple",
                "handful_double",
                "handful_triple",
                "handful_beneficiary",
                "handful_trumps_3",
                "handful_trumps_4",
                "handful_trumps_5",
            ],
        ),
        (gettext_lazy("Petit au bout"), ["petit_au_bout", "petit_au_bout_multiplied"]),
        (
            gettext_lazy("Slam (chelem)"),
            [
                "slam_announced_made",
                "slam_unannounced_made",
                "slam_announced_failed",
                "slam_defense",
            ],
        ),
        (gettext_lazy("Misères"), ["miseres_allowed", "misere"]),
        (gettext_lazy("Tables of five"), ["five_players"]),
    ]

    def __init__(
        self, *args: Any, club: Club, instance: HouseRules | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.instance = instance
        self.rule_set: scoring.RuleSet | None = None

    @staticmethod
    def initial_from(rules: scoring.RuleSet) -> dict[str, Any]:
        return {key: value for key, value in rules.to_mapping().items() if key != "name"}

    def fieldsets(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(legend, [self[name] for name in names]) for legend, names in self.GROUPS]

    def clean_name(self) -> str:
        # A name another rule set of the club has is house_rules_save's refusal.
        return str(self.cleaned_data["name"]).strip()

    def clean(self) -> dict[str, Any] | None:
        data = super().clean() or {}
        if self.errors:
            return data
        mapping = {
            key: data[key] for key in rule_parameters() if key in data and key in self.fields
        }
        mapping["name"] = data["name"]
        try:
            self.rule_set = scoring.RuleSet.from_mapping(
                mapping, based_on=scoring.PRESETS[data["based_on"]]
            )
        except ScoringError as error:
            for key, messages in error.messages(engine_language()).items():
                self.add_error(key if key in self.fields else None, messages)
        return data


def rule_parameters() -> list[str]:
    """Every parameter of a rule set a club may change (all but its name)."""
    return [f.name for f in dataclass_fields(scoring.RuleSet) if f.name != "name"]


def describe_rules(
    rules: scoring.RuleSet, keys: Iterable[str] | None = None
) -> list[tuple[str, str]]:
    """(label, value) pairs a reader understands, for the given parameters (all by default)."""
    form_fields = HouseRulesForm.base_fields
    out: list[tuple[str, str]] = []
    for key in rule_parameters() if keys is None else keys:
        field = form_fields.get(key)
        value = getattr(rules, key)
        if isinstance(value, bool):
            text = _("yes") if value else _("no")
        elif isinstance(value, Enum):
            choices = dict(getattr(field, "choices", []))
            text = str(choices.get(value.value, value.value))
        elif isinstance(value, tuple):
            text = " / ".join(str(v) for v in value)
        else:
            text = str(value)
        label = str(field.label) if field is not None and field.label else key
        if key.startswith("coefficient_"):
            label = _("Coefficient: %(contract)s") % {"contract": label}
        elif key in ("handful_simple", "handful_double", "handful_triple"):
            label = _("Handful: %(size)s") % {"size": label}
        elif key.startswith("slam_"):
            label = _("Slam: %(case)s") % {"case": label}
        out.append((label, text))
    return out
