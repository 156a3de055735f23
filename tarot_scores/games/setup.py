"""A new game's table: who sits where, how many a game takes, how a table of five plays."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tarot_scores import scoring
from tarot_scores.clubs.models import HouseRules, Player
from tarot_scores.core.errors import Code, Reason, Refusal
from tarot_scores.core.kinds import BURACO, FIVE_PLAYER_WORDS, NOVATAROK, TABLE_SIZES, TAROT


def rule_set_for(*, variant: str, house_rules: HouseRules | None) -> scoring.RuleSet | None:
    """The tarot rule set a new game is played under; None for the other games (and for house
    rules that were not found)."""
    if house_rules is not None:
        return house_rules.rule_set()
    return scoring.PRESETS.get(variant)


def frozen_rules_for(*, variant: str, house_rules: HouseRules | None) -> dict[str, Any]:
    """The rule set a new game is played under, as frozen into ``Game.rules``."""
    rules = rule_set_for(variant=variant, house_rules=house_rules)
    return rules.to_mapping() if rules is not None else {}


_WRONG_SIZE = {
    TAROT: gettext_lazy("Tarot is played by 3, 4 or 5 players (here %(count)s)."),
    NOVATAROK: gettext_lazy("Novatarok is played by 2 to 5 players (here %(count)s)."),
    BURACO: gettext_lazy("Buraco is played by 2 or 4 players (here %(count)s)."),
}


PLAYERS = "players"


FIVE_PLAYERS = "five_players"


@dataclass(frozen=True)
class SetupProblem:
    """One refusal: ``field`` is ``players`` or ``five_players``; ``seat`` (from 1) when it is
    about the player at one seat; ``code`` names the rule (``seated_twice``, ``table_size``,
    ``five_players_required``, ``five_players_fixed``)."""

    field: str
    message: str
    seat: int | None = None
    code: Code = dataclasses.field(default=Code.INVALID, compare=False)


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


class GameSetupError(Refusal):
    """A game that cannot be created as asked (``game_create``): the refusal of each of the
    table's problems, by field; ``setup`` is the checked table."""

    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        reasons: dict[str, list[Reason]] = {}
        for problem in setup.problems:
            reasons.setdefault(problem.field, []).append(Reason(problem.code, problem.message))
        super().__init__(reasons)

    @property
    def errors(self) -> dict[str, list[str]]:
        return self.messages()


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
            problems.append(SetupProblem(PLAYERS, message, seat=seat, code=Code.SEATED_TWICE))
            continue
        seat_of[player.pk] = seat
        seated.append(player)
    count = len(seated)
    if count not in TABLE_SIZES[kind]:
        message = str(_WRONG_SIZE[kind]) % {"count": count}
        problems.append(SetupProblem(PLAYERS, message, code=Code.TABLE_SIZE))

    mode: scoring.FivePlayers | None = None
    wanted = scoring.FivePlayers(five_players) if five_players else None
    if wanted is scoring.FivePlayers.EITHER:
        wanted = None  # not a way to play a table, only the absence of a choice
    if kind == TAROT and count == 5 and rules is not None:
        fixed = rules.five_players
        either = fixed is scoring.FivePlayers.EITHER
        if imposed:
            mode = wanted or (None if either else fixed)
        elif wanted is None and either:
            message = _("At five players, choose how the table plays.")
            problems.append(SetupProblem(FIVE_PLAYERS, message, code=Code.FIVE_PLAYERS_REQUIRED))
        elif wanted is None or wanted is fixed or either:
            mode = wanted or fixed
        else:
            message = _("These rules play tables of five with: %(mode)s.") % {
                "mode": FIVE_PLAYER_WORDS[fixed]
            }
            problems.append(SetupProblem(FIVE_PLAYERS, message, code=Code.FIVE_PLAYERS_FIXED))
    return GameSetup(players=tuple(seated), five_players=mode, problems=tuple(problems))
