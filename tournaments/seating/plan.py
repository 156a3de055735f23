"""Table plans: how many tables of 4, 5 or 3 seat a head count, and why some counts cannot.

Tarot is played four to a table; a table of 5 (one player, the mort, sits each deal out) or, when
the organiser allows it, a table of 3 absorbs what is left over. A table of 2 or of 6 never
exists. Fewest odd tables first: ``n % 4`` decides how many tables of 5 (1, 2 or 3) or of 3
(3, 2 or 1) are needed, and ``prefer_fives`` chooses between them when both fit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Lang = Literal["fr", "en"]

MIN_PLAYERS = 3


class SeatingError(ValueError):
    """A seating request that cannot be met. ``message(lang)`` says why, in French or English."""

    def __init__(self, fr: str, en: str) -> None:
        self.fr = fr
        self.en = en
        super().__init__(f"{fr} / {en}")

    def message(self, lang: Lang = "fr") -> str:
        return self.fr if lang == "fr" else self.en


class ImpossibleTablePlan(SeatingError):
    """No mix of allowed table sizes seats exactly this many players."""

    def __init__(self, players: int, *, allow_threes: bool) -> None:
        self.players = players
        self.allow_threes = allow_threes
        if players < MIN_PLAYERS and allow_threes:
            fr = f"Il faut au moins 3 joueurs pour former une table (ici {players})."
            en = f"At least 3 players are needed to make a table (here {players})."
        elif players < MIN_PLAYERS:
            # Without tables of 3 the smallest table is 4: saying 3 sent organisers round.
            fr = (
                "Il faut au moins 4 joueurs pour former une table, les tables de 3 n'étant "
                f"pas autorisées (ici {players})."
            )
            en = (
                "At least 4 players are needed to make a table, as tables of 3 are not "
                f"allowed (here {players})."
            )
        elif allow_threes:  # pragma: no cover - every count >= 3 fits once threes are allowed
            fr = f"Impossible d'asseoir {players} joueurs à des tables de 3, 4 ou 5."
            en = f"{players} players cannot be seated at tables of 3, 4 or 5."
        else:
            fix = _with_threes_words(players)
            fr = (
                f"Impossible d'asseoir {players} joueurs à des tables de 4 et 5 "
                f"(ni table de 2, ni table de 6). Autorisez les tables de 3 : {fix}."
            )
            en = (
                f"{players} players cannot be seated at tables of 4 and 5 "
                f"(never a table of 2 or 6). Allow tables of 3: {fix}."
            )
        super().__init__(fr, en)


def _with_threes_words(players: int) -> str:
    plan = plan_tables(players, allow_threes=True, prefer_fives=False)
    return " + ".join(str(size) for size in plan.sizes)


@dataclass(frozen=True, slots=True)
class TablePlan:
    """How ``players`` sit: ``fours`` tables of 4 and ``fives`` of 5 or ``threes`` of 3.

    ``sizes`` lists the tables in numbering order: tables of 4 first, then the odd ones.
    """

    players: int
    fours: int
    fives: int = 0
    threes: int = 0

    def __post_init__(self) -> None:
        if self.fives and self.threes:
            raise ValueError("a plan mixes tables of 5 or of 3, never both")
        if 4 * self.fours + 5 * self.fives + 3 * self.threes != self.players:
            raise ValueError("table sizes do not add up to the head count")

    @property
    def sizes(self) -> tuple[int, ...]:
        return (4,) * self.fours + (5,) * self.fives + (3,) * self.threes

    @property
    def tables(self) -> int:
        return self.fours + self.fives + self.threes

    def describe(self, lang: Lang = "fr") -> str:
        """``"13 joueurs : 2 tables de 4 et 1 table de 5"`` / ``"13 players: 2 tables of 4 and
        1 table of 5"``."""
        parts = ((self.fours, 4), (self.fives, 5), (self.threes, 3))
        if lang == "fr":
            words = [f"{c} table{'s' if c > 1 else ''} de {s}" for c, s in parts if c]
            return f"{self.players} joueurs : {' et '.join(words)}"
        words = [f"{c} table{'s' if c > 1 else ''} of {s}" for c, s in parts if c]
        return f"{self.players} players: {' and '.join(words)}"


def plan_tables(
    players: int, *, allow_threes: bool = False, prefer_fives: bool = True
) -> TablePlan:
    """The table plan for ``players`` (>= 3): as many tables of 4 as the remainder allows.

    Raises ``ImpossibleTablePlan`` for 1 and 2 players and, without tables of 3, for 3, 6, 7
    and 11 players.
    """
    remainder = players % 4
    # With r = players % 4: r tables of 5 take one extra player each (r = 1, 2, 3), while
    # (4 - r) tables of 3 each give one back; both need enough players to fill them.
    fives = remainder
    threes = (4 - remainder) % 4
    fives_fit = players >= MIN_PLAYERS and 5 * fives <= players
    threes_fit = allow_threes and players >= MIN_PLAYERS and 3 * threes <= players
    if fives_fit and (prefer_fives or not threes_fit):
        return TablePlan(players, (players - 5 * fives) // 4, fives=fives)
    if threes_fit:
        return TablePlan(players, (players - 3 * threes) // 4, threes=threes)
    raise ImpossibleTablePlan(players, allow_threes=allow_threes)


def fewest_byes(players: int, *, allow_threes: bool = False, prefer_fives: bool = True) -> int:
    """How many players must sit a round out (a bye) so that the others can be seated: 0 when
    ``players`` can be seated, else the fewest that leave a count ``plan_tables`` seats (6
    players: 1, as 5 sit at one table; 7: 2; 11: 1). Raises ``ImpossibleTablePlan`` when no
    table can be made at all (fewer than 4 players, or than 3 with tables of 3)."""
    for byes in range(players + 1):
        try:
            plan_tables(players - byes, allow_threes=allow_threes, prefer_fives=prefer_fives)
        except ImpossibleTablePlan:
            if players - byes < MIN_PLAYERS:
                break
            continue
        return byes
    raise ImpossibleTablePlan(players, allow_threes=allow_threes)
