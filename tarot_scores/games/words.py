"""A stored deal in words: what the score sheet, the history and the exports print
("Chloé, garde, gagnée de 8, petit au bout attaque")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from tarot_scores.core.french import french
from tarot_scores.core.kinds import BURACO, HOUSE, NOVATAROK, variant_label
from tarot_scores.games import services
from tarot_scores.games.models import Deal, Game
from tarot_scores.games.seats import TableSeats
from tarot_scores.scoring import Contract, ScoringError

# French tarot's own words, which English-speaking players use too.
CONTRACT_SHORT: dict[str, Any] = {
    Contract.PRISE: pgettext_lazy("contract", "Prise"),
    Contract.GARDE: pgettext_lazy("contract", "Garde"),
    Contract.GARDE_SANS: pgettext_lazy("contract", "Garde sans"),
    Contract.GARDE_CONTRE: pgettext_lazy("contract", "Garde contre"),
}


# The engine's contracts, in its order, with their words (one home for the list:
# scoring.Contract; a contract without its words stops the site at start).
CONTRACTS = [(contract.value, CONTRACT_SHORT[contract]) for contract in Contract]


SIDES = {"attack": _("attack"), "defense": _("defence")}


HANDFULS = [("simple", _("single")), ("double", _("double")), ("triple", _("triple"))]


SLAMS = [
    ("announced_made", _("announced, made")),
    ("unannounced_made", _("made, not announced")),
    ("announced_failed", _("announced, failed")),
    ("defense", _("by the defence")),
]


MISERES = [("head", _("head (no face card)")), ("trump", _("trump (no trump)"))]

# What a Novatarok player may hold and score for.
NOVATAROK_MELDS = (
    ("kings", _("All four kings")),
    ("trull", _("Trull (21, 1 and Fool)")),
    ("pagat", _("Pagat (the 1 in the last trick)")),
)


def format_points(value: Any, lang: str | None = None) -> str:
    if value is None:
        return ""
    number = float(value)
    text = str(int(number)) if number.is_integer() else str(number)
    return text.replace(".", ",") if (lang or get_language() or "fr").startswith("fr") else text


def rules_label(game: Game) -> str:
    """The rules a game is played under, as a club member names them."""
    return variant_label(game.variant, game.rules.get("name") if game.variant == HOUSE else None)


@dataclass(frozen=True)
class DealWords:
    """A deal as the sheet prints it: who took what, how it went, and the extras."""

    taker: str = ""
    partner: str = ""
    contract: str = ""
    bouts: int | None = None
    points: str = ""
    won: bool | None = None
    margin: int | None = None
    extras: tuple[str, ...] = ()
    sitting_out: str = ""
    text: str = ""  # Novatarok and buraco: one line of words

    @property
    def result(self) -> str:
        if self.won is None:
            return ""
        margin = abs(self.margin) if self.margin is not None else 0
        if self.won:
            return str(_("won by %(margin)s") % {"margin": margin})
        return str(_("lost by %(margin)s") % {"margin": margin})

    @property
    def summary(self) -> str:
        """One line: "Chloé + Denis, Garde, 2 bouts, 49 pts: won by 8; petit au bout attack"
        (in French, a non-breaking space before the colon and the semicolons)."""
        if self.text:
            return french(self.text)
        who = f"{self.taker} + {self.partner}" if self.partner else self.taker
        head = ", ".join(
            part
            for part in (
                who,
                self.contract,
                ngettext("%(bouts)s bout", "%(bouts)s bouts", self.bouts) % {"bouts": self.bouts}
                if self.bouts is not None
                else "",
                str(_("%(points)s pts") % {"points": self.points}) if self.points else "",
            )
            if part
        )
        line = (
            str(_("%(deal)s: %(result)s") % {"deal": head, "result": self.result})
            if self.result
            else head
        )
        return french("; ".join([line, *self.extras]))


def outcome(deal: Deal) -> tuple[bool | None, int | None]:
    """A saved deal's result as stored when it was scored."""
    return deal.won, deal.margin


def deal_words(
    game: Game,
    table: TableSeats,
    payload: Mapping[str, Any],
    number: int,
    outcome: tuple[bool | None, int | None] | None = None,
) -> DealWords:
    """The short words for one deal's payload (players by id). ``outcome`` is the stored (won,
    margin) of a saved deal; without it (an old revision) the payload is scored again."""
    label = table.label
    if game.kind == NOVATAROK:
        melds = [
            _("%(meld)s: %(player)s") % {"meld": meld_label, "player": label(payload[name])}
            for name, meld_label in NOVATAROK_MELDS
            if payload.get(name) is not None
        ]
        return DealWords(text="; ".join(str(m) for m in melds) or str(_("no melds")))
    if game.kind == BURACO:
        sides = payload.get("sides") or []
        parts = []
        for side in sides:
            names = " & ".join(str(label(p)) for p in side.get("players") or [])
            if side.get("went_out"):
                names = str(_("%(names)s (went out)") % {"names": names})
            parts.append(names)
        if len(parts) != 2:
            return DealWords(text=" / ".join(parts))
        return DealWords(
            text=str(
                _("%(first)s vs %(second)s") % dict(zip(("first", "second"), parts, strict=True))
            )
        )
    extras: list[str] = []
    petit = payload.get("petit_au_bout")
    if petit in SIDES:
        extras.append(str(_("petit au bout %(side)s") % {"side": SIDES[petit]}))
    sizes = dict(HANDFULS)
    for item in payload.get("handfuls") or []:
        extras.append(
            str(
                _("%(size)s handful %(player)s")
                % {
                    "size": sizes.get(item.get("size"), item.get("size")),
                    "player": label(item.get("player")),
                }
            )
        )
    slam = payload.get("slam")
    if slam:
        extras.append(str(_("slam %(how)s") % {"how": dict(SLAMS).get(slam, slam)}))
    kinds = dict(MISERES)
    for item in payload.get("miseres") or []:
        extras.append(
            str(
                _("misère %(kind)s %(player)s")
                % {
                    "kind": kinds.get(item.get("kind"), item.get("kind")),
                    "player": label(item.get("player")),
                }
            )
        )
    won, margin = outcome if outcome is not None and outcome[1] is not None else (None, None)
    if margin is None:
        try:
            result, _table = services.deal_score(
                game=game, payload=payload, number=number, table=table
            )
            won, margin = result.won, result.margin
        except ScoringError:
            pass  # a payload stored under older rules still prints, without its margin
    partner = payload.get("partner")
    return DealWords(
        taker=str(label(payload.get("taker")) or ""),
        partner=str(label(partner)) if partner not in (None, payload.get("taker")) else "",
        contract=str(
            CONTRACT_SHORT.get(payload.get("contract") or "", payload.get("contract") or "")
        ),
        bouts=payload.get("oudlers"),
        points=format_points(payload.get("points")),
        won=won,
        margin=margin,
        extras=tuple(extras),
        sitting_out=str(label(payload.get("sitting_out")) or "")
        if payload.get("sitting_out") is not None
        else "",
    )


# What a correction can change, in the order the entry form asks it.
CHANGEABLE: tuple[tuple[str, Any], ...] = (
    ("taker", _("Taker")),
    ("partner", _("Called partner")),
    ("contract", _("Contract")),
    ("oudlers", _("Bouts")),
    ("points", _("Points")),
    ("petit_au_bout", _("Petit au bout")),
    ("handfuls", _("Handfuls")),
    ("slam", _("Slam")),
    ("miseres", _("Misères")),
    ("card_points", _("Card points per player")),
    ("sides", _("Sides")),
)


def changed_answers(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The questions a correction answered differently ("Contract", "Points"), for the deal's
    history; an extra left blank is the same whether stored as nothing, ``null`` or ``[]``."""

    def given(payload: Mapping[str, Any], key: str) -> Any:
        value = payload.get(key)
        return None if value == "" or value == [] else value

    return [str(label) for key, label in CHANGEABLE if given(before, key) != given(after, key)]
