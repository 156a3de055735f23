"""French Tarot deals: reading the scoring contract, refusing impossible deals, scoring them.

The attack is the taker (preneur) and, at five with a called king, the partner; the defence is
everyone else at the table who plays the deal. Each defender pays the attack one *unit*:

    unit = ±(base + margin) x coefficient + petit au bout + handfuls + slam + misères

(negative when the contract fails). The taker collects 2, 3 or 4 units at 3, 4 or 5 players
alone; with a partner, taker 2 units and partner 1. Scores therefore always sum to zero.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from functools import lru_cache, partial
from typing import Any, NamedTuple

from .errors import ErrorCollector, ScoringError
from .messages import Msg
from .pack import DOG, FACE_CARDS, TRICKS, TRUMPS_AND_EXCUSE, SlamShape, attack_half_points
from .result import Result, Term
from .rules import (
    Beneficiary,
    Contract,
    FivePlayers,
    HandfulSize,
    MarginRounding,
    MisereKind,
    RuleSet,
    Side,
    Slam,
)

NEEDED: tuple[int, int, int, int] = (56, 51, 41, 36)
_HANDFUL_KEYS = frozenset({"player", "size"})
_MISERE_KEYS = frozenset({"player", "kind"})
NAME_MAX_LENGTH = 60

TAROT_FIELDS = frozenset(
    {
        "variant",
        "players",
        "sitting_out",
        "taker",
        "partner",
        "contract",
        "points",
        "oudlers",
        "petit_au_bout",
        "handfuls",
        "slam",
        "miseres",
    }
)


# Deals are built for every score, so they are NamedTuples: as immutable as a frozen dataclass
# and about three times cheaper to build, which the scoring benchmark feels.
class Handful(NamedTuple):
    player: str
    size: HandfulSize


class Misere(NamedTuple):
    player: str
    kind: MisereKind


class TarotDeal(NamedTuple):
    """A deal as the table declared it, already checked against the pack and the rules."""

    players: tuple[str, ...]
    sitting_out: str | None
    taker: str
    partner: str | None  # None: the taker plays alone
    contract: Contract
    half_points: int  # the attack's card points, doubled
    oudlers: int
    petit_au_bout: Side | None
    handfuls: tuple[Handful, ...]
    slam: Slam | None
    miseres: tuple[Misere, ...]
    # The whole number the table wrote when the exact count is a half point below it (see
    # ``_as_the_fft_writes``); None when the points were taken as written.
    written_half_points: int | None = None

    @property
    def points(self) -> float:
        return self.half_points / 2

    def in_attack(self, player: str) -> bool:
        return player == self.taker or player == self.partner


def _slam_shape(slam: Slam | None) -> SlamShape:
    if slam is Slam.ANNOUNCED_MADE or slam is Slam.UNANNOUNCED_MADE:
        return SlamShape.ATTACK
    if slam is Slam.DEFENSE:
        return SlamShape.DEFENCE
    return SlamShape.NONE


_POSSIBLE: dict[tuple[int, Contract, int, Slam | None, Side | None], frozenset[int]] = {}


def possible_half_points(
    active: int, contract: Contract, oudlers: int, slam: Slam | None, petit: Side | None
) -> frozenset[int]:
    """Every half-point total the attack can show for this shape of deal."""
    key = (active, contract, oudlers, slam, petit)
    found = _POSSIBLE.get(key)
    if found is None:
        found = _POSSIBLE[key] = attack_half_points(
            active,
            contract is not Contract.GARDE_CONTRE,
            contract in (Contract.PRISE, Contract.GARDE),
            oudlers,
            _slam_shape(slam),
            petit is Side.ATTACK,
            petit is Side.DEFENSE,
        )
    return found


def _name(value: Any) -> str | None:
    if isinstance(value, str) and value.strip() and len(value) <= NAME_MAX_LENGTH:
        return value
    return None


_BY_VALUE: dict[type[Any], dict[str, Any]] = {
    kind: {member.value: member for member in kind}
    for kind in (Contract, Side, Slam, HandfulSize, MisereKind)
}
_CONTRACTS: dict[str, Contract] = _BY_VALUE[Contract]
_SIDES: dict[str, Side] = _BY_VALUE[Side]
_SLAMS: dict[str, Slam] = _BY_VALUE[Slam]
_SIZE_INDEX = {HandfulSize.SIMPLE: 0, HandfulSize.DOUBLE: 1, HandfulSize.TRIPLE: 2}


def _enum(value: Any, kind: type[Any]) -> Any:
    return _BY_VALUE[kind].get(value) if value.__class__ is str else None


def _choices(kind: type[Any]) -> str:
    return ", ".join(m.value for m in kind)


def read_players(raw: Any, errors: ErrorCollector, *, low: int, high: int) -> tuple[str, ...]:
    """The table's players: ``low`` to ``high`` distinct, non-empty names."""
    if not isinstance(raw, (list, tuple)):
        errors.add("players", Msg("players_list", low=low, high=high))
        return ()
    names = tuple(raw)
    try:
        problem = _names_problem(names, low, high)
    except TypeError:  # something unhashable, so not a name
        problem = Msg("player_name", length=NAME_MAX_LENGTH)
    if problem is not None:
        errors.add("players", problem)
        return ()
    return names


@lru_cache(maxsize=4096)
def _names_problem(names: tuple[str, ...], low: int, high: int) -> Msg | None:
    """Why these names cannot make a table, or None. Tables repeat, so this is cached."""
    if not all(_name(n) is not None for n in names):
        return Msg("player_name", length=NAME_MAX_LENGTH)
    if not low <= len(names) <= high:
        return Msg("players_count", low=low, high=high, count=len(names))
    seen: set[str] = set()
    for name in names:
        # Names that read the same are the same player: "Chloé" typed with é or with e and an
        # accent, whatever the case and the spaces around.
        key = unicodedata.normalize("NFKC", name).strip().casefold()
        if key in seen:
            return Msg("players_duplicate", name=name)
        seen.add(key)
    return None


@lru_cache(maxsize=8192)
def _seating(
    raw_players: Any, sitting_out: Any, taker: Any, partner: Any, five_players: FivePlayers
) -> tuple[
    tuple[str, ...], tuple[str, ...], str | None, Any, str | None, tuple[tuple[str, Msg], ...]
]:
    """Who sits at the table and who plays: (players, active players, who sits out, taker,
    partner or None when alone, refusals). The same tables come back deal after deal, so
    this is cached."""
    errors = ErrorCollector()
    players = read_players(raw_players, errors, low=3, high=5)
    if sitting_out is not None and players:
        if len(players) != 5:
            errors.add("sitting_out", Msg("sitting_out_five"))
        elif sitting_out not in players:
            errors.add("sitting_out", Msg("not_a_player", name=sitting_out))
        elif five_players is FivePlayers.CALLED_KING:
            errors.add("sitting_out", Msg("sitting_out_not_allowed"))
    elif len(players) == 5 and five_players is FivePlayers.SITTING_OUT:
        errors.add("sitting_out", Msg("sitting_out_required"))
    sitting = sitting_out if sitting_out is not None and not errors.has("sitting_out") else None
    active = players if sitting is None else tuple(p for p in players if p != sitting)

    if taker is None:
        errors.add("taker", Msg("required"))
    elif players and taker not in players:
        errors.add("taker", Msg("not_a_player", name=taker))
    elif players and taker == sitting:
        errors.add("taker", Msg("sitting_out_plays", name=taker))

    if partner is not None and players:
        if partner not in players:
            errors.add("partner", Msg("not_a_player", name=partner))
        elif partner == sitting:
            errors.add("partner", Msg("sitting_out_plays", name=partner))
        elif partner != taker and len(active) != 5:
            errors.add("partner", Msg("partner_five", count=len(active)))
    if partner == taker:
        partner = None
    refusals = tuple((field, m) for field, msgs in errors.errors.items() for m in msgs)
    return players, active, sitting, taker, partner, refusals


def parse_tarot(payload: Mapping[str, Any], rules: RuleSet) -> TarotDeal:
    """Read and check a tarot deal; raise ``ScoringError`` with every refusal found."""
    errors = ErrorCollector()
    if not payload.keys() <= TAROT_FIELDS:
        for key in payload.keys() - TAROT_FIELDS:
            errors.add(str(key), Msg("unknown_field"))

    raw_players = payload.get("players")
    table = (
        tuple(raw_players) if isinstance(raw_players, (list, tuple)) else raw_players,
        payload.get("sitting_out"),
        payload.get("taker"),
        payload.get("partner"),
        rules.five_players,
    )
    try:
        seating = _seating(*table)
    except TypeError:  # something unhashable: not a name, so not worth caching
        seating = _seating.__wrapped__(*table)
    players, active, sitting, taker, partner, refusals = seating
    for field, message in refusals:
        errors.add(field, message)

    raw_contract = payload.get("contract")
    contract = _CONTRACTS.get(raw_contract) if raw_contract.__class__ is str else None
    if contract is None:
        errors.add("contract", Msg("choice", choices=_choices(Contract)))

    raw_points = payload.get("points")
    half_points: int | None = None
    if raw_points is None:
        errors.add("points", Msg("required"))
    elif not (
        raw_points.__class__ is int or (raw_points.__class__ is float and math.isfinite(raw_points))
    ):
        errors.add("points", Msg("points_number"))
    elif not 0 <= raw_points <= 91:
        errors.add("points", Msg("points_range"))
    elif (raw_points * 2) % 1:
        errors.add("points", Msg("points_half"))
    else:
        half_points = int(raw_points * 2)

    oudlers = payload.get("oudlers")
    if oudlers is None:
        errors.add("oudlers", Msg("required"))
    elif oudlers.__class__ is not int or not 0 <= oudlers <= 3:
        errors.add("oudlers", Msg("oudlers_range"))
        oudlers = None

    raw_petit = payload.get("petit_au_bout")
    petit = _SIDES.get(raw_petit) if raw_petit.__class__ is str else None
    if raw_petit is not None and petit is None:
        errors.add("petit_au_bout", Msg("choice_or_null", choices=_choices(Side)))

    raw_slam = payload.get("slam")
    slam = _SLAMS.get(raw_slam) if raw_slam.__class__ is str else None
    if raw_slam is not None and slam is None:
        errors.add("slam", Msg("choice_or_null", choices=_choices(Slam)))

    raw_miseres, raw_handfuls = payload.get("miseres"), payload.get("handfuls")
    miseres: tuple[Misere, ...] = ()
    if raw_miseres is not None and not (raw_miseres.__class__ is list and not raw_miseres):
        miseres = _read_miseres(raw_miseres, active, sitting, rules, errors)
    handfuls: tuple[Handful, ...] = ()
    if raw_handfuls is not None and not (raw_handfuls.__class__ is list and not raw_handfuls):
        handfuls = _read_handfuls(raw_handfuls, active, sitting, miseres, rules, errors)

    if errors or contract is None or half_points is None or oudlers is None:
        raise ScoringError(errors.errors)
    assert isinstance(taker, str)
    written: int | None = None
    possible = possible_half_points(len(active), contract, oudlers, slam, petit)
    if half_points not in possible:
        if _as_the_fft_writes(half_points, possible, slam):
            written, half_points = half_points, half_points - 1
        else:
            _explain_pack(len(active), contract, half_points, oudlers, petit, slam, errors)
    if miseres:
        _check_declarations(len(active), miseres, errors)
    errors.raise_if_any()
    # Positional: a NamedTuple builds faster without keywords, and this runs for every deal.
    return TarotDeal(
        players,
        sitting,
        taker,
        partner,
        contract,
        half_points,
        oudlers,
        petit,
        handfuls,
        slam,
        miseres,
        written,
    )


def _as_the_fft_writes(half_points: int, possible: frozenset[int], slam: Slam | None) -> bool:
    """A slam made by the attack with the Excuse left in the defence's hand: the defence has
    no trick to give a half-point card back from, so the attack's exact count is 86.5 (all 91
    points but the Excuse's 4.5). Tables, and the FFT's own worked example 5, write it 87: that
    whole number is taken for the half point below it, which scores the same (the half point
    goes to the winning side). Nothing else is rounded: a count no real pack allows is still
    refused."""
    made = slam is Slam.ANNOUNCED_MADE or slam is Slam.UNANNOUNCED_MADE
    return made and half_points % 2 == 0 and half_points - 1 in possible


def _read_handfuls(
    raw: Any,
    active: tuple[str, ...],
    sitting: str | None,
    miseres: tuple[Misere, ...],
    rules: RuleSet,
    errors: ErrorCollector,
) -> tuple[Handful, ...]:
    if not isinstance(raw, (list, tuple)):
        errors.add("handfuls", Msg("list_of", shape='{"player", "size"}'))
        return ()
    shown: list[tuple[Any, Any]] = []
    for item in raw:
        if not (item.__class__ is dict or isinstance(item, Mapping)) or not (
            item.keys() <= _HANDFUL_KEYS
        ):
            errors.add("handfuls", Msg("list_of", shape='{"player", "size"}'))
            return ()
        shown.append((item.get("player"), item.get("size")))
    no_trumps = frozenset(m.player for m in miseres if m.kind is MisereKind.TRUMP)
    key = (tuple(shown), active, sitting, no_trumps, rules.handful_trumps_for(len(active)))
    try:
        handfuls, refusals = _check_handfuls(*key)
    except TypeError:  # something unhashable: not a name, so not worth caching
        handfuls, refusals = _check_handfuls.__wrapped__(*key)
    for message in refusals:
        errors.add("handfuls", message)
    return handfuls


@lru_cache(maxsize=8192)
def _check_handfuls(
    shown: tuple[tuple[Any, Any], ...],
    active: tuple[str, ...],
    sitting: str | None,
    no_trumps: frozenset[str],
    trumps: tuple[int, int, int],
) -> tuple[tuple[Handful, ...], tuple[Msg, ...]]:
    """The handfuls shown, as (player, size) pairs, and the reasons to refuse them. The same
    few handfuls come back at the same tables, so this is cached."""
    out: list[Handful] = []
    refusals: list[Msg] = []
    by: set[str] = set()
    total = 0
    for player, raw_size in shown:
        size = _BY_VALUE[HandfulSize].get(raw_size) if raw_size.__class__ is str else None
        if size is None:
            refusals.append(Msg("choice", choices=_choices(HandfulSize)))
        if player is None:
            refusals.append(Msg("player_required"))
        elif player not in active:
            key = "sitting_out_plays" if player == sitting else "not_a_player"
            refusals.append(Msg(key, name=player))
        elif player in by:
            refusals.append(Msg("handful_twice", name=player))
        elif player in no_trumps:
            refusals.append(Msg("handful_trump_misere", name=player))
        elif size is not None:
            by.add(player)
            total += trumps[_SIZE_INDEX[size]]
            out.append(Handful(player, size))
    if total > TRUMPS_AND_EXCUSE:
        refusals.append(Msg("handfuls_trumps", shown=total, pack=TRUMPS_AND_EXCUSE))
    return tuple(out), tuple(refusals)


def _read_miseres(
    raw: Any,
    active: tuple[str, ...],
    sitting: str | None,
    rules: RuleSet,
    errors: ErrorCollector,
) -> tuple[Misere, ...]:
    if not isinstance(raw, (list, tuple)):
        errors.add("miseres", Msg("list_of", shape='{"player", "kind"}'))
        return ()
    if not raw:
        return ()
    if not rules.miseres_allowed:
        errors.add("miseres", Msg("miseres_not_allowed", rules=rules.name))
        return ()
    out: list[Misere] = []
    for item in raw:
        if not isinstance(item, Mapping) or not item.keys() <= _MISERE_KEYS:
            errors.add("miseres", Msg("list_of", shape='{"player", "kind"}'))
            return ()
        player, kind = item.get("player"), _enum(item.get("kind"), MisereKind)
        if kind is None:
            errors.add("miseres", Msg("choice", choices=_choices(MisereKind)))
        elif player is None:
            errors.add("miseres", Msg("player_required"))
        elif player not in active:
            key = "sitting_out_plays" if player == sitting else "not_a_player"
            errors.add("miseres", Msg(key, name=player))
        elif any(m.player == player and m.kind is kind for m in out):
            errors.add("miseres", Msg("misere_twice", name=player))
        else:
            out.append(Misere(player, kind))
    return tuple(out)


def _check_declarations(active: int, miseres: tuple[Misere, ...], errors: ErrorCollector) -> None:
    """Players who declare a misère hold none of those cards; the rest must hold them all."""
    hand = TRICKS[active]
    for kind, cards in ((MisereKind.TRUMP, TRUMPS_AND_EXCUSE), (MisereKind.HEAD, FACE_CARDS)):
        declared = sum(1 for m in miseres if m.kind is kind)
        room = (active - declared) * hand + DOG[active]
        if declared and room < cards:
            errors.add("miseres", Msg(f"miseres_room_{kind.value}", count=declared))


def _explain_pack(
    active: int,
    contract: Contract,
    half_points: int,
    oudlers: int,
    petit: Side | None,
    slam: Slam | None,
    errors: ErrorCollector,
) -> None:
    """Say why a real 78-card pack rules these points out, naming the field to correct."""
    possible = possible_half_points(active, contract, oudlers, slam, petit)
    made = slam in (Slam.ANNOUNCED_MADE, Slam.UNANNOUNCED_MADE)
    if petit is Side.ATTACK and oudlers == 0:
        errors.add("petit_au_bout", Msg("petit_attack_bouts"))
    if petit is Side.DEFENSE and oudlers == 3:
        errors.add("petit_au_bout", Msg("petit_defense_bouts"))
    if petit is Side.ATTACK and slam is Slam.DEFENSE:
        errors.add("petit_au_bout", Msg("petit_attack_slam"))
    if petit is Side.DEFENSE and made:
        errors.add("petit_au_bout", Msg("petit_defense_slam"))
    if errors:
        return
    points = half_points / 2
    if not possible:
        errors.add("oudlers", Msg("bouts_impossible", bouts=oudlers))
        return
    if slam is not None and _slam_shape(slam) is not SlamShape.NONE:
        low, high = min(possible) / 2, max(possible) / 2
        key = "slam_points_attack" if made else "slam_points_defense"
        errors.add("slam", Msg(key, points=points, bouts=oudlers, low=low, high=high))
        return
    for shape_slam, key in (
        (Slam.UNANNOUNCED_MADE, "slam_missing"),
        (Slam.DEFENSE, "slam_defense_missing"),
    ):
        if slam is None and half_points in possible_half_points(
            active, contract, oudlers, shape_slam, petit
        ):
            errors.add("slam", Msg(key, points=points))
            return
    low, high = min(possible) / 2, max(possible) / 2
    if low <= points <= high and half_points % 2 and active == 4:
        errors.add("points", Msg("points_whole_four"))
    elif low <= points <= high:
        errors.add("points", Msg("points_parity", points=points, players=active))
    else:
        errors.add("points", Msg("points_bouts", points=points, bouts=oudlers, low=low, high=high))


class _Parts(NamedTuple):
    """The numbers of a deal's score, shared by the score and its explanation."""

    needed: int
    won: bool
    margin: int  # after the half point went to the winning side; negative when lost
    counted: int  # the margin as the rules count it (rounded to 5 or 10 by some clubs)
    coefficient: int
    contract_points: int
    petit: int
    handfuls: tuple[int, ...]
    slam: int
    miseres: tuple[int, ...]
    unit: int  # what each defender pays the attack


def _parts(deal: TarotDeal, rules: RuleSet) -> _Parts:
    half_points = deal.half_points
    needed = NEEDED[deal.oudlers]
    won = half_points >= 2 * needed
    # A half point goes to the side that won the deal.
    margin = ((half_points + 1) // 2 if won else half_points // 2) - needed
    counted = margin if margin >= 0 else -margin
    if rules.margin_rounding is not MarginRounding.EXACT:
        counted = rules.round_margin(counted)
    coefficient = rules.coefficient(deal.contract)
    sign = 1 if won else -1
    contract_points = sign * (rules.base + counted) * coefficient
    unit = contract_points
    petit = 0
    if deal.petit_au_bout is not None:
        factor = coefficient if rules.petit_au_bout_multiplied else 1
        petit = rules.petit_au_bout * factor * (1 if deal.petit_au_bout is Side.ATTACK else -1)
        unit += petit
    handfuls: list[int] = []
    if deal.handfuls:
        to_winner = rules.handful_beneficiary is Beneficiary.WINNER
        for handful in deal.handfuls:
            value = rules.handful_value(handful.size)
            if not (won if to_winner else deal.in_attack(handful.player)):
                value = -value
            handfuls.append(value)
            unit += value
    slam = 0
    if deal.slam is not None:
        slam = rules.slam_points(deal.slam)
        unit += slam
    miseres: list[int] = []
    for misere in deal.miseres:
        value = rules.misere if deal.in_attack(misere.player) else -rules.misere
        miseres.append(value)
        unit += value
    return _Parts(
        needed,
        won,
        margin,
        counted,
        coefficient,
        contract_points,
        petit,
        tuple(handfuls),
        slam,
        tuple(miseres),
        unit,
    )


def _taker_units(deal: TarotDeal) -> int:
    """How many units the taker collects: one per defender, less the partner's own unit."""
    defenders = len(deal.players) - (1 if deal.sitting_out else 0) - (2 if deal.partner else 1)
    return defenders - 1 if deal.partner else defenders


def score_tarot(deal: TarotDeal, rules: RuleSet) -> Result:
    """Score a checked deal: integer points per player, summing to zero, and the reasons."""
    parts = _parts(deal, rules)
    unit = parts.unit
    scores = dict.fromkeys(deal.players, -unit)
    if deal.sitting_out is not None:
        scores[deal.sitting_out] = 0
    if deal.partner is not None:
        scores[deal.partner] = unit
    scores[deal.taker] = _taker_units(deal) * unit
    return Result(
        scores,
        parts.won,
        parts.margin,
        partial(explain_tarot, deal, rules, parts),
        unit,
        parts.needed,
    )


def explain_tarot(deal: TarotDeal, rules: RuleSet, parts: _Parts | None = None) -> tuple[Term, ...]:
    """Every term of the deal's score, in the order a player adds them up."""
    p = parts if parts is not None else _parts(deal, rules)
    terms: list[Term] = [
        Term(
            "contract",
            None,
            Msg(
                "t_contract",
                taker=deal.taker,
                contract=deal.contract,
                bouts=deal.oudlers,
                needed=p.needed,
                points=deal.points,
                outcome=Msg("won" if p.won else "lost"),
                margin=abs(p.margin),
            ),
        ),
    ]
    if deal.written_half_points is not None:
        terms.append(
            Term(
                "points_written",
                None,
                Msg(
                    "t_points_written",
                    written=deal.written_half_points / 2,
                    points=deal.points,
                ),
            )
        )
    terms += [
        Term("base", rules.base, Msg("t_base", value=rules.base)),
        Term(
            "margin",
            p.counted,
            Msg(
                "t_margin" if p.counted == abs(p.margin) else "t_margin_rounded",
                value=abs(p.margin),
                counted=p.counted,
            ),
        ),
        Term(
            "coefficient",
            p.contract_points,
            Msg(
                "t_coefficient",
                base=rules.base,
                margin=p.counted,
                coefficient=p.coefficient,
                contract=deal.contract,
                value=p.contract_points,
            ),
        ),
    ]
    if deal.petit_au_bout is not None:
        terms.append(
            Term(
                "petit_au_bout",
                p.petit,
                Msg(
                    "t_petit_multiplied" if rules.petit_au_bout_multiplied else "t_petit",
                    side=deal.petit_au_bout,
                    value=rules.petit_au_bout,
                    coefficient=p.coefficient,
                    total=p.petit,
                ),
            )
        )
    to_winner = rules.handful_beneficiary is Beneficiary.WINNER
    for handful, signed in zip(deal.handfuls, p.handfuls, strict=True):
        terms.append(
            Term(
                "handful",
                signed,
                Msg(
                    "t_handful_winner" if to_winner else "t_handful_declarer",
                    player=handful.player,
                    size=handful.size,
                    side=Side.ATTACK if signed > 0 else Side.DEFENSE,
                    total=signed,
                ),
            )
        )
    if deal.slam is not None:
        terms.append(Term("slam", p.slam, Msg("t_slam", slam=deal.slam, total=p.slam)))
    for misere, signed in zip(deal.miseres, p.miseres, strict=True):
        terms.append(
            Term(
                "misere",
                signed,
                Msg(
                    "t_misere",
                    player=misere.player,
                    kind=misere.kind,
                    side=Side.ATTACK if signed > 0 else Side.DEFENSE,
                    total=signed,
                ),
            )
        )
    units = _taker_units(deal)
    terms.append(Term("defender", -p.unit, Msg("t_defender", value=-p.unit)))
    terms.append(
        Term(
            "taker",
            units * p.unit,
            Msg("t_taker", taker=deal.taker, units=units, unit=p.unit, value=units * p.unit),
        )
    )
    if deal.partner:
        terms.append(Term("partner", p.unit, Msg("t_partner", partner=deal.partner, value=p.unit)))
    if deal.sitting_out:
        terms.append(Term("sitting_out", 0, Msg("t_sitting_out", name=deal.sitting_out)))
    return tuple(terms)
