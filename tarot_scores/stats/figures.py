"""A tarot deal's part in each of its players' figures: what the player page shows under
"Statistics" (deals played, as taker, defender or called partner, contracts taken, partners
and opponents, petit au bout, handfuls shown, slams), as counts and sums that add up deal by
deal.

Pure: no database. The deal services add a deal's part when it is entered or restored and take
it back when it is corrected or deleted (``stats.services.stats_apply``); the rebuild sums the
same parts over the score lines. ``stats.selectors.player_stats`` computes the same figures
from the deals themselves, and the tests hold the two equal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

SLAMS_MADE = ("announced_made", "unannounced_made")


class FigureRow(NamedTuple):
    """One player's part of one deal, in the columns of ``PlayerFigures``."""

    player_id: int
    points: int  # every tarot score line, sitting out or not: the score curve's total
    deals: int
    taker_deals: int
    taker_points: int
    defender_deals: int
    defender_points: int
    partner_deals: int
    partner_won: int
    partner_points: int
    petit_made: int
    petit_lost: int
    handfuls_simple: int
    handfuls_double: int
    handfuls_triple: int
    slams_made: int
    slams_failed: int
    slams_against: int


class ContractRow(NamedTuple):
    """The taker's part: his contract, won or not, and his score."""

    player_id: int
    contract: str
    taken: int
    won: int
    points: int


class PairingRow(NamedTuple):
    """A player and another at the same deal: same attack (together) or other camps (against),
    with the player's score."""

    player_id: int
    other_id: int
    together_deals: int
    together_points: int
    against_deals: int
    against_points: int


@dataclass(frozen=True)
class DealFigures:
    figures: list[FigureRow] = field(default_factory=list)
    contracts: list[ContractRow] = field(default_factory=list)
    pairings: list[PairingRow] = field(default_factory=list)


def deal_figures(
    *,
    payload: Mapping[str, Any],
    taker_id: int | None,
    won: bool | None,
    contract: str | None,
    scores: Mapping[int, int],
) -> DealFigures:
    """A live tarot deal's part in the figures of each player with a score line in it.

    The same reading of the deal as ``player_stats``: the one sitting out plays no deal (his
    line counts for his total only); the attack is the taker and the called partner, unless
    the taker called his own king; petit au bout, handfuls and slams come from the payload."""
    out = DealFigures()
    sitting_out = payload.get("sitting_out")
    partner = payload.get("partner")
    # A taker who called his own king plays alone.
    attack = {taker_id} | ({partner} if partner not in (None, taker_id) else set())
    petit = payload.get("petit_au_bout")
    slam = payload.get("slam")
    shown: dict[Any, dict[str, int]] = {}
    for handful in payload.get("handfuls") or ():
        sizes = shown.setdefault(handful.get("player"), {})
        size = str(handful.get("size"))
        sizes[size] = sizes.get(size, 0) + 1
    for me, points in scores.items():
        if me == taker_id:
            out.contracts.append(ContractRow(me, contract or "", 1, 1 if won else 0, points))
        if sitting_out == me:
            out.figures.append(FigureRow._make([me, points, *[0] * 16]))
            continue
        in_attack = me in attack
        is_taker = me == taker_id
        is_partner = in_attack and not is_taker
        side = "attack" if in_attack else "defense"
        made = failed = against = 0
        if slam in SLAMS_MADE:
            made, against = (1, 0) if in_attack else (0, 1)
        elif slam == "defense":
            made, against = (0, 1) if in_attack else (1, 0)
        elif slam == "announced_failed" and in_attack:
            failed = 1
        mine = shown.get(me, {})
        out.figures.append(
            FigureRow(
                me,
                points,
                1,
                int(is_taker),
                points if is_taker else 0,
                int(not in_attack),
                points if not in_attack else 0,
                int(is_partner),
                int(is_partner and bool(won)),
                points if is_partner else 0,
                int(bool(petit) and petit == side),
                int(bool(petit) and petit != side),
                mine.get("simple", 0),
                mine.get("double", 0),
                mine.get("triple", 0),
                made,
                failed,
                against,
            )
        )
        for other in scores:
            if other in (me, sitting_out):
                continue
            if (other in attack) != in_attack:
                out.pairings.append(PairingRow(me, other, 0, 0, 1, points))
            elif in_attack:
                out.pairings.append(PairingRow(me, other, 1, points, 0, 0))
    return out
