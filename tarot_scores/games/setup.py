"""A new game's table: who sits where, how many a game takes, how a table of five plays."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores import scoring
from tarot_scores.clubs.models import HouseRules, Player
from tarot_scores.games.kinds import FIVE_PLAYER_WORDS, TABLE_SIZES


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


_WRONG_SIZE = {
    "tarot": gettext_lazy("Tarot is played by 3, 4 or 5 players (here %(count)s)."),
    "novatarok": gettext_lazy("Novatarok is played by 2 to 5 players (here %(count)s)."),
    "buraco": gettext_lazy("Buraco is played by 2 or 4 players (here %(count)s)."),
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
    if count not in TABLE_SIZES[kind]:
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
