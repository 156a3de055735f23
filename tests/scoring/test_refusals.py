"""Every refusal of the scoring contract: the field it names and its words, in French and English.

A refusal is a ``ScoringError`` whose ``errors`` map each field to its messages; the web layer
answers them as ``{"field": ["message", ...]}``. Each case checks the exact set of fields named
and, loosely (a fragment), the message in both languages.
"""

from __future__ import annotations

import math
import re
from typing import Any, NamedTuple

import pytest

from tarot_scores.scoring import CLASSIC, RuleSet, ScoringError, score
from tarot_scores.scoring.messages import Msg
from tests.scoring.deals import FIVE, FOUR, THREE, refusal, tarot

# Message fragments: (English, French), one per message code.
UNKNOWN_FIELD = ("Unknown field", "Champ inconnu")
REQUIRED = ("required", "obligatoire")
CHOICE = ("Choose one of", "Choisissez parmi")
CHOICE_OR_NULL = ("or nothing", "ou rien")
LIST_OF = ("Expected a list of", "une liste d'objets")
VARIANT = ("Unknown rule set", "Règle inconnue")
VARIANT_REQUIRED = ("Name the rule set", "Indiquez la règle")
NOT_AN_OBJECT = ("Expected a JSON object", "un objet JSON")
PLAYERS_LIST = ("player names", "noms de joueurs")
PLAYER_NAME = ("non-empty name", "nom non vide")
PLAYERS_COUNT = ("players are needed", "Il faut de")
DUPLICATE = ("appears twice", "figure deux fois")
NOT_A_PLAYER = ("is not a player", "n'est pas un joueur")
SITTING_OUT_FIVE = ("only at five", "qu'à cinq")
SITTING_OUT_NOT_ALLOWED = ("nobody sits out", "personne ne passe son tour")
SITTING_OUT_REQUIRED = ("name who sits out", "indiquez le mort")
SITTING_OUT_PLAYS = ("sits this deal out", "passe son tour")
PARTNER_FIVE = ("partner is called only", "appelle un partenaire")
POINTS_NUMBER = ("Points are a number", "sont un nombre")
POINTS_RANGE = ("from 0 to 91", "de 0 à 91")
POINTS_HALF = ("half points", "demi-point")
OUDLERS_RANGE = ("ranges from 0 to 3", "va de 0 à 3")
WHOLE_FOUR = ("always whole", "toujours entiers")
POINTS_BOUTS = ("the attack has between", "l'attaque a entre")
PETIT_ATTACK_BOUTS = ("at least 1 bout", "au moins 1 bout")
PETIT_DEFENSE_BOUTS = ("at most 2 bouts", "au plus 2 bouts")
PETIT_ATTACK_SLAM = ("defence took every trick", "La défense a fait tous les plis")
PETIT_DEFENSE_SLAM = ("attack took every trick", "L'attaque a fait tous les plis")
SLAM_POINTS_ATTACK = ("Slam made", "Chelem réalisé")
SLAM_POINTS_DEFENSE = ("Defence slam", "Chelem de la défense")
SLAM_MISSING = ("record the slam", "indiquez le chelem")
SLAM_DEFENSE_MISSING = ("record the defence's slam", "indiquez le chelem de la défense")
HANDFUL_TWICE = ("only one handful", "qu'une poignée")
HANDFUL_TRUMP_MISERE = ("trump misère", "misère d'atout")
HANDFULS_TRUMPS = ("the pack has only 22", "n'en a que 22")
MISERES_NOT_ALLOWED = ("do not count misères", "ne comptent pas les misères")
MISERE_TWICE = ("already declared", "déjà annoncé")
ROOM_TRUMP = ("all 22 trumps", "les 22 atouts")
ROOM_HEAD = ("16 face cards", "16 honneurs")
CARD_POINTS_MAP = ("each player's card points", "les points de cartes de chaque joueur")
CARD_POINTS_TOTAL = ("card points add up to", "points de cartes de la manche font")
PAGAT_POINTS = ("at least 5 card points", "au moins 5 points de cartes")
SIDES_SHAPE = ("Expected two sides", "deux camps")
SIDES_PLAYERS = ("exactly one side", "un camp et un seul")
SIDE_INTEGER = ("a whole number from", "un nombre entier de")
SIDE_BOOL = ("yes or no", "oui ou non")
WENT_OUT_ONCE = ("Only one side can go out", "Un seul camp")
WENT_OUT_CANASTA = ("natural canasta", "canasta propre")
PILE_UNPLAYED = ("unplayed extra pile", "mort non joué")
RED_THREES = ("only 4 red threes", "que 4 trois rouges")
HAND_POINTS_OUT = ("0 hand points", "0 point en main")
RULE_INTEGER = ("A whole number", "Un nombre entier")
RULE_RANGE = ("A number from", "Un nombre de")
RULE_BOOL = ("true/false", "true/false")
RULE_NAME = ("A name of 1 to 80", "Un nom de 1 à 80")
TRUMPS_SHAPE = ("Three trump counts", "Trois nombres d'atouts")
TRUMPS_ORDER = ("Simple < double < triple", "Simple < double < triple")

Fragment = tuple[str, str]
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


class Case(NamedTuple):
    id: str
    payload: Any
    fields: tuple[str, ...]  # every field refused; the first one's message is checked
    words: Fragment
    rules: RuleSet | None = None


def without(*keys: str, **changes: Any) -> dict[str, Any]:
    deal = tarot(**changes)
    for key in keys:
        del deal[key]
    return deal


def handful(player: str, size: str = "simple") -> dict[str, str]:
    return {"player": player, "size": size}


def misere(player: str, kind: str = "head") -> dict[str, str]:
    return {"player": player, "kind": kind}


def check(case: Case) -> ScoringError:
    error = refusal(case.payload, case.rules)
    assert set(error.errors) == set(case.fields), error.messages("en")
    english, french = case.words
    field = case.fields[0]
    assert any(english in m for m in error.messages("en")[field]), error.messages("en")
    assert any(french in m for m in error.messages("fr")[field]), error.messages("fr")
    # Every message renders in both languages (no placeholder left), differently, and prints.
    for lang in ("fr", "en"):
        assert all(
            m and not PLACEHOLDER.search(m) for ms in error.messages(lang).values() for m in ms
        )
    assert error.messages("fr") != error.messages("en")
    assert str(error)
    return error


def run(cases: list[Case]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("case", cases, ids=[c.id for c in cases])


# --- The envelope: not an object, unknown variant, unknown and missing fields ------------

ENVELOPE = [
    Case("list", [], ("non_field_errors",), NOT_AN_OBJECT),
    Case("list-of-pairs", [["variant", "fft"]], ("non_field_errors",), NOT_AN_OBJECT),
    Case("string", '{"variant": "fft"}', ("non_field_errors",), NOT_AN_OBJECT),
    Case("none", None, ("non_field_errors",), NOT_AN_OBJECT),
    Case("number", 42, ("non_field_errors",), NOT_AN_OBJECT),
    Case("bool", True, ("non_field_errors",), NOT_AN_OBJECT),
    Case("unknown-variant", tarot(variant="french"), ("variant",), VARIANT),
    Case("variant-case", tarot(variant="FFT"), ("variant",), VARIANT),
    Case("variant-number", tarot(variant=1), ("variant",), VARIANT),
    Case("variant-list", tarot(variant=["fft"]), ("variant",), VARIANT),
    Case("missing-variant", without("variant"), ("variant",), VARIANT_REQUIRED),
    Case("empty-object", {}, ("variant",), VARIANT_REQUIRED),
    Case("unknown-field", tarot(bonus=10), ("bonus",), UNKNOWN_FIELD),
    Case("unknown-fields", tarot(bonus=10, dealer="Bruno"), ("bonus", "dealer"), UNKNOWN_FIELD),
    Case("unknown-field-with-rules", tarot(Bonus=1), ("Bonus",), UNKNOWN_FIELD, CLASSIC),
    Case(
        "missing-everything",
        {"variant": "fft"},
        ("players", "taker", "contract", "points", "oudlers"),
        PLAYERS_LIST,
    ),
    Case("missing-players", without("players"), ("players",), PLAYERS_LIST),
    Case("missing-taker", without("taker"), ("taker",), REQUIRED),
    Case("missing-contract", without("contract"), ("contract",), CHOICE),
    Case("missing-points", without("points"), ("points",), REQUIRED),
    Case("missing-oudlers", without("oudlers"), ("oudlers",), REQUIRED),
]


@run(ENVELOPE)
def test_envelope(case: Case) -> None:
    check(case)


def test_every_problem_is_reported_at_once() -> None:
    error = refusal(
        tarot(
            players=FOUR[:2],
            contract="petite",
            points=92,
            oudlers=4,
            slam="yes",
            petit_au_bout="both",
        )
    )
    assert set(error.errors) == {
        "players",
        "contract",
        "points",
        "oudlers",
        "slam",
        "petit_au_bout",
    }


def test_optional_fields_may_be_left_out() -> None:
    minimal = {
        "variant": "fft",
        "players": FOUR,
        "taker": "Chloé",
        "contract": "garde",
        "points": 49,
        "oudlers": 2,
    }
    assert score(minimal).scores["Chloé"] == 198
    nulls = {
        **minimal,
        "sitting_out": None,
        "partner": None,
        "petit_au_bout": None,
        "handfuls": None,
        "slam": None,
        "miseres": None,
    }
    assert score(nulls).scores["Chloé"] == 198


# --- Wrong types and values, field by field -----------------------------------------------

TYPES = [
    # points
    *[
        Case(f"points-{name}", tarot(points=value), ("points",), POINTS_NUMBER)
        for name, value in [
            ("true", True),
            ("false", False),
            ("string", "49"),
            ("list", [49]),
            ("dict", {"points": 49}),
            ("nan", math.nan),
            ("inf", math.inf),
            ("minus-inf", -math.inf),
        ]
    ],
    Case("points-null", tarot(points=None), ("points",), REQUIRED),
    *[
        Case(f"points-{name}", tarot(points=value), ("points",), POINTS_RANGE)
        for name, value in [
            ("huge-int", 10**100),
            ("huge-float", 1e308),
            ("negative", -1),
            ("negative-half", -0.5),
            ("92", 92),
            ("91.5", 91.5),
        ]
    ],
    Case("points-quarter", tarot(points=40.25), ("points",), POINTS_HALF),
    Case("points-third", tarot(points=49.1), ("points",), POINTS_HALF),
    # oudlers
    *[
        Case(f"oudlers-{name}", tarot(oudlers=value), ("oudlers",), OUDLERS_RANGE)
        for name, value in [
            ("true", True),
            ("false", False),
            ("float", 2.0),
            ("string", "2"),
            ("negative", -1),
            ("4", 4),
            ("huge", 10**100),
            ("list", [2]),
            ("nan", math.nan),
        ]
    ],
    Case("oudlers-null", tarot(oudlers=None), ("oudlers",), REQUIRED),
    # contract
    *[
        Case(f"contract-{name}", tarot(contract=value), ("contract",), CHOICE)
        for name, value in [
            ("capitalised", "Garde"),
            ("petite", "petite"),
            ("number", 2),
            ("null", None),
            ("list", ["garde"]),
            ("true", True),
            ("empty", ""),
        ]
    ],
    # petit au bout and slam
    *[
        Case(f"petit-{name}", tarot(petit_au_bout=value), ("petit_au_bout",), CHOICE_OR_NULL)
        for name, value in [
            ("both", "both"),
            ("true", True),
            ("false", False),
            ("number", 1),
            ("capitalised", "Attack"),
            ("list", []),
            ("empty", ""),
        ]
    ],
    *[
        Case(f"slam-{name}", tarot(slam=value), ("slam",), CHOICE_OR_NULL)
        for name, value in [
            ("yes", "yes"),
            ("true", True),
            ("zero", 0),
            ("empty", ""),
            ("dict", {}),
            ("made", "made"),
        ]
    ],
    # taker and partner
    Case("taker-null", tarot(taker=None), ("taker",), REQUIRED),
    *[
        Case(f"taker-{name}", tarot(taker=value), ("taker",), NOT_A_PLAYER)
        for name, value in [
            ("stranger", "Zoé"),
            ("other-case", "chloé"),
            ("number", 3),
            ("empty", ""),
            ("list", ["Chloé"]),
            ("dict", {"name": "Chloé"}),
            ("true", True),
        ]
    ],
    Case("partner-stranger", tarot(players=FIVE, partner="Zoé"), ("partner",), NOT_A_PLAYER),
    Case("partner-list", tarot(players=FIVE, partner=["Bruno"]), ("partner",), NOT_A_PLAYER),
    Case("partner-false", tarot(players=FIVE, partner=False), ("partner",), NOT_A_PLAYER),
]


@run(TYPES)
def test_wrong_types_and_values(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("field", "value"),
    [("handfuls", False), ("handfuls", {}), ("miseres", 0), ("miseres", "")],
    ids=lambda v: repr(v),
)
def test_empty_values_of_the_wrong_type_are_refused(field: str, value: Any) -> None:
    # false, 0, "" and {} are not "no handful": they are refused like "simple" or 1 are.
    # Only null and [] (documented) mean "none".
    error = refusal(tarot(variant="classic", **{field: value}))
    assert list(error.errors) == [field]
    assert "list" in error.messages("en")[field][0]


# --- Players ------------------------------------------------------------------------------

LONG = "A" * 61

PLAYERS = [
    *[
        Case(f"players-{name}", tarot(players=value), ("players",), PLAYERS_LIST)
        for name, value in [
            ("string", "Aurélie,Bruno,Chloé,Denis"),
            ("null", None),
            ("dict", {"Chloé": 1}),
            ("number", 4),
            ("true", True),
        ]
    ],
    *[
        Case(f"players-{name}", tarot(players=value), ("players",), PLAYER_NAME)
        for name, value in [
            ("numbers", [1, 2, 3, 4]),
            ("bools", [True, False, True, False]),
            ("empty-name", ["", "Bruno", "Chloé", "Denis"]),
            ("blank-name", ["   ", "Bruno", "Chloé", "Denis"]),
            ("too-long", [LONG, "Bruno", "Chloé", "Denis"]),
            ("null-name", [None, "Bruno", "Chloé", "Denis"]),
            ("list-name", [["Aurélie"], "Bruno", "Chloé", "Denis"]),
            ("dict-name", [{"n": 1}, "Bruno", "Chloé", "Denis"]),
        ]
    ],
    *[
        Case(f"players-{name}", tarot(players=value), ("players",), PLAYERS_COUNT)
        for name, value in [
            ("none", []),
            ("one", ["Chloé"]),
            ("two", ["Bruno", "Chloé"]),
            ("six", [*FIVE, "Fanny"]),
            ("seven", [*FIVE, "Fanny", "Gaston"]),
        ]
    ],
    *[
        Case(f"players-{name}", tarot(players=value), ("players",), DUPLICATE)
        for name, value in [
            ("same", ["Bruno", "Bruno", "Chloé", "Denis"]),
            ("case", ["Aurélie", "AURÉLIE", "Chloé", "Denis"]),
            ("spaces", ["Bruno", " bruno ", "Chloé", "Denis"]),
            ("casefold", ["Straße", "STRASSE", "Chloé", "Denis"]),
        ]
    ],
]


@run(PLAYERS)
def test_players(case: Case) -> None:
    check(case)


def test_unicode_names_are_accepted() -> None:
    names = ["Aurélie", "Zoë", "李雷", "Ольга", "Nguyễn Thị 🂡"]
    result = score(tarot(players=names, taker="李雷", partner="Ольга", contract="prise", points=51))
    assert result.scores == {
        "Aurélie": -35,
        "Zoë": -35,
        "李雷": 70,
        "Ольга": 35,
        "Nguyễn Thị 🂡": -35,
    }
    longest = "É" * 60
    assert (
        score(
            tarot(players=[longest, "Bruno", "Chloé"], taker=longest, contract="prise", points=51)
        ).scores[longest]
        == 70
    )


def test_names_equal_once_normalised_are_duplicates() -> None:
    # "Chloé" typed with a combining accent (NFD) and the precomposed "Chloé" (NFC) look
    # identical: they are one name, or the answer would hold two keys that read "Chloé".
    error = refusal(tarot(players=["Chloé", "Chloe\u0301", "Bruno", "Denis"]))
    assert list(error.errors) == ["players"]


# --- Who plays: partner, sitting out ------------------------------------------------------

FIVE_CALLED_KING = RuleSet.from_mapping({"name": "club", "five_players": "called_king"})
FIVE_SITTING_OUT = RuleSet.from_mapping({"name": "club", "five_players": "sitting_out"})

SEATS = [
    Case("partner-at-four", tarot(partner="Bruno"), ("partner",), PARTNER_FIVE),
    Case("partner-at-three", tarot(players=THREE, partner="Bruno"), ("partner",), PARTNER_FIVE),
    Case(
        "partner-with-sitting-out",
        tarot(players=FIVE, sitting_out="Émile", partner="Bruno"),
        ("partner",),
        PARTNER_FIVE,
    ),
    Case("sitting-out-at-four", tarot(sitting_out="Bruno"), ("sitting_out",), SITTING_OUT_FIVE),
    Case(
        "sitting-out-at-three",
        tarot(players=THREE, sitting_out="Bruno"),
        ("sitting_out",),
        SITTING_OUT_FIVE,
    ),
    Case("sitting-out-false-at-four", tarot(sitting_out=False), ("sitting_out",), SITTING_OUT_FIVE),
    Case(
        "sitting-out-stranger",
        tarot(players=FIVE, sitting_out="Zoé"),
        ("sitting_out",),
        NOT_A_PLAYER,
    ),
    Case("sitting-out-empty", tarot(players=FIVE, sitting_out=""), ("sitting_out",), NOT_A_PLAYER),
    Case(
        "sitting-out-taker", tarot(players=FIVE, sitting_out="Chloé"), ("taker",), SITTING_OUT_PLAYS
    ),
    Case(
        "sitting-out-partner",
        tarot(players=FIVE, sitting_out="Bruno", partner="Bruno"),
        ("partner",),
        SITTING_OUT_PLAYS,
    ),
    Case(
        "sitting-out-handful",
        tarot(players=FIVE, sitting_out="Émile", handfuls=[handful("Émile")]),
        ("handfuls",),
        SITTING_OUT_PLAYS,
    ),
    Case(
        "sitting-out-misere",
        tarot(variant="classic", players=FIVE, sitting_out="Émile", miseres=[misere("Émile")]),
        ("miseres",),
        SITTING_OUT_PLAYS,
    ),
    Case(
        "sitting-out-not-in-these-rules",
        tarot(players=FIVE, sitting_out="Émile"),
        ("sitting_out",),
        SITTING_OUT_NOT_ALLOWED,
        FIVE_CALLED_KING,
    ),
    Case(
        "sitting-out-required-by-these-rules",
        tarot(players=FIVE, partner="Bruno"),
        ("sitting_out",),
        SITTING_OUT_REQUIRED,
        FIVE_SITTING_OUT,
    ),
]


@run(SEATS)
def test_seats(case: Case) -> None:
    check(case)


def test_five_player_modes_accept_their_own_tables() -> None:
    assert score(tarot(players=FIVE, partner="Bruno"), rules=FIVE_CALLED_KING).scores
    assert score(tarot(players=FIVE, sitting_out="Émile"), rules=FIVE_SITTING_OUT).scores
    # At four, neither mode matters.
    assert score(tarot(), rules=FIVE_SITTING_OUT).scores == score(tarot()).scores


# --- Handfuls and misères -----------------------------------------------------------------

DECLARATIONS = [
    Case("handfuls-string", tarot(handfuls="simple"), ("handfuls",), LIST_OF),
    Case(
        "handfuls-dict",
        tarot(handfuls={"player": "Chloé", "size": "simple"}),
        ("handfuls",),
        LIST_OF,
    ),
    Case("handful-pair", tarot(handfuls=[["Chloé", "simple"]]), ("handfuls",), LIST_OF),
    Case(
        "handful-extra-key",
        tarot(handfuls=[{**handful("Chloé"), "trumps": 10}]),
        ("handfuls",),
        LIST_OF,
    ),
    Case("handful-no-size", tarot(handfuls=[{"player": "Chloé"}]), ("handfuls",), CHOICE),
    Case(
        "handful-quadruple", tarot(handfuls=[handful("Chloé", "quadruple")]), ("handfuls",), CHOICE
    ),
    Case("handful-stranger", tarot(handfuls=[handful("Zoé")]), ("handfuls",), NOT_A_PLAYER),
    Case(
        "handful-twice",
        tarot(handfuls=[handful("Chloé"), handful("Chloé", "double")]),
        ("handfuls",),
        HANDFUL_TWICE,
    ),
    # 22 trumps (the Excuse included) in the pack.
    Case(
        "handfuls-4p-triple-double",
        tarot(handfuls=[handful("Chloé", "triple"), handful("Bruno", "double")]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case(
        "handfuls-4p-simple-double-23",
        tarot(handfuls=[handful("Chloé"), handful("Bruno", "double")]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case(
        "handfuls-4p-three-simples",
        tarot(handfuls=[handful(p) for p in FOUR[:3]]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case(
        "handfuls-3p-two-simples-26",
        tarot(players=THREE, handfuls=[handful("Chloé"), handful("Bruno")]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case(
        "handfuls-3p-classic-two-simples-24",
        tarot(variant="classic", players=THREE, handfuls=[handful("Chloé"), handful("Bruno")]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case(
        "handfuls-5p-three-simples-24",
        tarot(players=FIVE, handfuls=[handful(p) for p in FIVE[:3]]),
        ("handfuls",),
        HANDFULS_TRUMPS,
    ),
    Case("miseres-fft", tarot(miseres=[misere("Chloé")]), ("miseres",), MISERES_NOT_ALLOWED),
    Case(
        "miseres-fft-trump",
        tarot(miseres=[misere("Bruno", "trump")]),
        ("miseres",),
        MISERES_NOT_ALLOWED,
    ),
    Case("misere-string", tarot(variant="classic", miseres="head"), ("miseres",), LIST_OF),
    Case(
        "misere-extra-key",
        tarot(variant="classic", miseres=[{**misere("Chloé"), "x": 1}]),
        ("miseres",),
        LIST_OF,
    ),
    Case(
        "misere-bad-kind",
        tarot(variant="classic", miseres=[misere("Chloé", "king")]),
        ("miseres",),
        CHOICE,
    ),
    Case(
        "misere-stranger",
        tarot(variant="classic", miseres=[misere("Zoé")]),
        ("miseres",),
        NOT_A_PLAYER,
    ),
    Case(
        "misere-twice",
        tarot(variant="classic", miseres=[misere("Chloé"), misere("Chloé")]),
        ("miseres",),
        MISERE_TWICE,
    ),
    Case(
        "trump-misere-and-handful",
        tarot(variant="classic", miseres=[misere("Bruno", "trump")], handfuls=[handful("Bruno")]),
        ("handfuls",),
        HANDFUL_TRUMP_MISERE,
    ),
    # Those who declare a misère hold none of those cards: the others and the dog hold them all.
    Case(
        "3p-three-trump-miseres",
        tarot(variant="classic", players=THREE, miseres=[misere(p, "trump") for p in THREE]),
        ("miseres",),
        ROOM_TRUMP,
    ),
    Case(
        "4p-four-trump-miseres",
        tarot(variant="classic", miseres=[misere(p, "trump") for p in FOUR]),
        ("miseres",),
        ROOM_TRUMP,
    ),
    Case(
        "5p-four-trump-miseres",
        tarot(variant="classic", players=FIVE, miseres=[misere(p, "trump") for p in FIVE[:4]]),
        ("miseres",),
        ROOM_TRUMP,
    ),
    Case(
        "5p-five-head-miseres",
        tarot(variant="classic", players=FIVE, miseres=[misere(p, "head") for p in FIVE]),
        ("miseres",),
        ROOM_HEAD,
    ),
    Case(
        "4p-four-head-miseres",
        tarot(variant="classic", miseres=[misere(p, "head") for p in FOUR]),
        ("miseres",),
        ROOM_HEAD,
    ),
]


@run(DECLARATIONS)
def test_declarations(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("players", "miseres"),
    [
        (THREE, [misere("Chloé", "trump"), misere("Bruno", "trump")]),  # 24 + 6 >= 22
        (FOUR, [misere(p, "trump") for p in FOUR[:3]]),  # 18 + 6 >= 22
        (FOUR, [misere(p, "head") for p in FOUR[:3]]),  # 18 + 6 >= 16
        (FIVE, [misere(p, "trump") for p in FIVE[:3]]),  # 30 + 3 >= 22
        (FIVE, [misere(p, "head") for p in FIVE[:4]]),  # 15 + 3 >= 16
        (FOUR, [misere("Chloé", "head"), misere("Chloé", "trump")]),
    ],
    ids=[
        "3p-two-trump",
        "4p-three-trump",
        "4p-three-head",
        "5p-three-trump",
        "5p-four-head",
        "one-player-both-kinds",
    ],
)
def test_miseres_that_fit_the_pack_are_accepted(
    players: list[str], miseres: list[dict[str, str]]
) -> None:
    result = score(
        tarot(variant="classic", players=players, contract="prise", points=51, miseres=miseres)
    )
    assert sum(result.scores.values()) == 0


# --- What a real pack rules out -----------------------------------------------------------

PACK = [
    # Four players: each side holds an even number of cards, every card is an odd number of
    # half points, so the attack's points are whole.
    Case("4p-half-point", tarot(points=40.5), ("points",), WHOLE_FOUR),
    Case(
        "4p-half-point-garde-contre",
        tarot(contract="garde_contre", points=60.5),
        ("points",),
        WHOLE_FOUR,
    ),
    Case(
        "5p-sitting-out-half-point",
        tarot(players=FIVE, sitting_out="Émile", points=40.5),
        ("points",),
        WHOLE_FOUR,
    ),
    Case("0-bouts-80", tarot(oudlers=0, points=80), ("points",), POINTS_BOUTS),
    Case("0-bouts-78", tarot(oudlers=0, points=78), ("points",), POINTS_BOUTS),
    Case("3-bouts-10", tarot(oudlers=3, points=10), ("points",), POINTS_BOUTS),
    Case("3-bouts-90-no-slam", tarot(oudlers=3, points=90), ("points",), POINTS_BOUTS),
    Case("prise-1-point", tarot(contract="prise", oudlers=0, points=1), ("points",), POINTS_BOUTS),
    Case(
        "petit-attack-0-bouts",
        tarot(oudlers=0, points=60, petit_au_bout="attack"),
        ("petit_au_bout",),
        PETIT_ATTACK_BOUTS,
    ),
    Case(
        "petit-defence-3-bouts",
        tarot(oudlers=3, points=40, petit_au_bout="defense"),
        ("petit_au_bout",),
        PETIT_DEFENSE_BOUTS,
    ),
    Case(
        "petit-attack-defence-slam",
        tarot(contract="prise", oudlers=1, points=7.5, slam="defense", petit_au_bout="attack"),
        ("petit_au_bout",),
        PETIT_ATTACK_SLAM,
    ),
    Case(
        "petit-defence-slam-made",
        tarot(
            contract="prise",
            oudlers=2,
            points=86.5,
            slam="unannounced_made",
            petit_au_bout="defense",
        ),
        ("petit_au_bout",),
        PETIT_DEFENSE_SLAM,
    ),
    Case("91-without-slam", tarot(contract="prise", oudlers=3, points=91), ("slam",), SLAM_MISSING),
    Case(
        "91-slam-failed",
        tarot(contract="prise", oudlers=3, points=91, slam="announced_failed"),
        ("points",),
        POINTS_BOUTS,
    ),
    Case(
        "86.5-2-bouts-without-slam",
        tarot(contract="prise", oudlers=2, points=86.5),
        ("slam",),
        SLAM_MISSING,
    ),
    Case(
        "0-points-without-defence-slam",
        tarot(contract="garde_contre", oudlers=0, points=0),
        ("slam",),
        SLAM_DEFENSE_MISSING,
    ),
    Case(
        "slam-made-80-points",
        tarot(contract="prise", oudlers=3, points=80, slam="announced_made"),
        ("slam",),
        SLAM_POINTS_ATTACK,
    ),
    Case(
        "slam-made-3p-60-points",
        tarot(players=THREE, contract="garde", oudlers=2, points=60, slam="unannounced_made"),
        ("slam",),
        SLAM_POINTS_ATTACK,
    ),
    Case(
        "defence-slam-30-points",
        tarot(contract="prise", oudlers=0, points=30, slam="defense"),
        ("slam",),
        SLAM_POINTS_DEFENSE,
    ),
    Case(
        "defence-slam-garde-contre-3-points",
        tarot(contract="garde_contre", oudlers=0, points=3, slam="defense"),
        ("slam",),
        SLAM_POINTS_DEFENSE,
    ),
]


@run(PACK)
def test_impossible_with_a_real_pack(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    ("contract", "oudlers", "points", "slam"),
    [
        # The attack took every trick, so it holds at least the petit and the 21 (only the
        # Excuse may stay with the defence); with 0 or 1 bout there is no such deal at all.
        ("prise", 0, 80, "announced_made"),
        ("garde", 1, 86.5, "unannounced_made"),
        # The attack took no trick in a prise: its pile is the discard (no bout) and maybe
        # the Excuse; 2 bouts cannot be.
        ("prise", 2, 13.5, "defense"),
        ("garde_contre", 3, 13.5, "defense"),
    ],
    ids=[
        "slam-made-0-bouts",
        "slam-made-1-bout",
        "defence-slam-prise-2-bouts",
        "defence-slam-garde-contre-3-bouts",
    ],
)
def test_impossible_bouts_for_a_slam_are_explained(
    contract: str, oudlers: int, points: float, slam: str
) -> None:
    # The shape has no possible points at all: the refusal says the bouts are impossible with
    # this slam, not "0 to 0 points", a range that does not exist.
    error = refusal(tarot(contract=contract, oudlers=oudlers, points=points, slam=slam))
    english = " ".join(m for ms in error.messages("en").values() for m in ms)
    french = " ".join(m for ms in error.messages("fr").values() for m in ms)
    assert "0 to 0 points" not in english, english
    assert "de 0 à 0 points" not in french, french
    assert "bout" in english


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        (without("variant"), "variant"),
        (tarot(handfuls=[{"size": "simple"}]), "handfuls"),
        (tarot(variant="classic", miseres=[{"kind": "head"}]), "miseres"),
    ],
    ids=["missing-variant", "handful-without-player", "misere-without-player"],
)
def test_missing_values_are_not_shown_as_none(payload: dict[str, Any], field: str) -> None:
    # A missing value is never shown as Python's "None": a player would read it as a name.
    error = refusal(payload)
    assert field in error.errors
    for lang in ("en", "fr"):
        assert all("None" not in m for m in error.messages(lang)[field]), error.messages(lang)


# --- Novatarok ----------------------------------------------------------------------------

QUARTET = ["Aurélie", "Bruno", "Chloé", "Denis"]


def nova(**changes: Any) -> dict[str, Any]:
    """A valid Novatarok round at four: 68 card points in a 40-card round (38 to 92)."""
    round_: dict[str, Any] = {
        "variant": "novatarok",
        "players": list(QUARTET),
        "card_points": {"Aurélie": 30, "Bruno": 20, "Chloé": 10, "Denis": 8},
        "kings": None,
        "trull": None,
        "pagat": None,
    }
    round_.update(changes)
    return round_


def points_of(*values: Any) -> dict[str, Any]:
    return dict(zip(QUARTET, values, strict=True))


NOVATAROK = [
    Case("nova-unknown-field", nova(bonus=1), ("bonus",), UNKNOWN_FIELD),
    Case(
        "nova-one-player",
        nova(players=["Aurélie"], card_points={"Aurélie": 40}),
        ("players",),
        PLAYERS_COUNT,
    ),
    Case(
        "nova-six-players",
        nova(
            players=[*QUARTET, "Émile", "Fanny"],
            card_points=dict.fromkeys([*QUARTET, "Émile", "Fanny"], 10),
        ),
        ("players",),
        PLAYERS_COUNT,
    ),
    Case(
        "nova-duplicate",
        nova(players=["Bruno", "bruno"], card_points={"Bruno": 9, "bruno": 9}),
        ("players",),
        DUPLICATE,
    ),
    Case(
        "nova-card-points-list",
        nova(card_points=[30, 20, 10, 8]),
        ("card_points",),
        CARD_POINTS_MAP,
    ),
    Case(
        "nova-card-points-missing",
        nova(card_points={"Aurélie": 30, "Bruno": 38}),
        ("card_points",),
        CARD_POINTS_MAP,
    ),
    Case(
        "nova-card-points-missing-field",
        {k: v for k, v in nova().items() if k != "card_points"},
        ("card_points",),
        CARD_POINTS_MAP,
    ),
    Case(
        "nova-card-points-stranger",
        nova(card_points={**points_of(30, 20, 10, 8), "Zoé": 0}),
        ("card_points",),
        CARD_POINTS_MAP,
    ),
    *[
        Case(
            f"nova-card-points-{name}",
            nova(card_points=points_of(30, 20, 10, value)),
            ("card_points",),
            CARD_POINTS_MAP,
        )
        for name, value in [
            ("negative", -1),
            ("bool", True),
            ("float", 8.0),
            ("string", "8"),
            ("null", None),
            ("over-200", 201),
        ]
    ],
    # A 40-card round (two blanks) counts 38 to 92 card points.
    Case(
        "nova-total-too-low",
        nova(card_points=points_of(10, 10, 10, 7)),
        ("card_points",),
        CARD_POINTS_TOTAL,
    ),
    Case(
        "nova-total-too-high",
        nova(card_points=points_of(30, 30, 30, 3)),
        ("card_points",),
        CARD_POINTS_TOTAL,
    ),
    # All four kings in the round lift the least total by 4 x (5 - 1): 38 + 16 = 54.
    Case(
        "nova-kings-lift-the-least-total",
        nova(card_points=points_of(20, 20, 10, 3), kings="Aurélie"),
        ("card_points",),
        CARD_POINTS_TOTAL,
    ),
    Case(
        "nova-3p-total-too-low",
        nova(players=QUARTET[:3], card_points={"Aurélie": 20, "Bruno": 10, "Chloé": 8}),
        ("card_points",),
        CARD_POINTS_TOTAL,
    ),
    Case("nova-kings-stranger", nova(kings="Zoé"), ("kings",), NOT_A_PLAYER),
    Case("nova-trull-number", nova(trull=3), ("trull",), NOT_A_PLAYER),
    Case("nova-pagat-list", nova(pagat=["Bruno"]), ("pagat",), NOT_A_PLAYER),
    # The pagat's winner took the 1 of trumps (5 card points) in the last trick.
    Case(
        "nova-pagat-without-the-card",
        nova(card_points=points_of(30, 20, 10, 3), pagat="Denis"),
        ("pagat",),
        PAGAT_POINTS,
    ),
]


@run(NOVATAROK)
def test_novatarok_refusals(case: Case) -> None:
    check(case)


# --- Buraco -------------------------------------------------------------------------------


def side(players: Any, **fields: Any) -> dict[str, Any]:
    return {"players": players, **fields}


def buraco(*sides: dict[str, Any], players: list[str] | None = None) -> dict[str, Any]:
    if not sides:
        sides = (
            side(
                ["Aurélie"],
                table_points=300,
                natural_canastas=1,
                went_out=True,
                took_extra_pile=True,
            ),
            side(["Bruno"], table_points=150, hand_points=45),
        )
    members = players or [m for s in sides for m in s["players"]]
    return {"variant": "buraco", "players": members, "sides": list(sides)}


A, B = ["Aurélie"], ["Bruno"]
OUT = {"went_out": True, "took_extra_pile": True, "natural_canastas": 1}

BURACO = [
    Case("buraco-unknown-field", {**buraco(), "winner": "Aurélie"}, ("winner",), UNKNOWN_FIELD),
    Case("buraco-unknown-side-field", buraco(side(A, jokers=2), side(B)), ("sides",), SIDES_SHAPE),
    Case(
        "buraco-sides-missing",
        {"variant": "buraco", "players": ["Aurélie", "Bruno"]},
        ("sides",),
        SIDES_SHAPE,
    ),
    Case("buraco-sides-dict", {**buraco(), "sides": {"a": 1}}, ("sides",), SIDES_SHAPE),
    Case("buraco-one-side", buraco(side(A), players=["Aurélie", "Bruno"]), ("sides",), SIDES_SHAPE),
    Case("buraco-three-sides", buraco(side(A), side(B), side(["Chloé"])), ("sides",), SIDES_SHAPE),
    Case(
        "buraco-side-not-object",
        {**buraco(), "sides": [["Aurélie"], ["Bruno"]]},
        ("sides",),
        SIDES_SHAPE,
    ),
    Case(
        "buraco-empty-side",
        buraco(side([]), side(B), players=["Aurélie", "Bruno"]),
        ("sides",),
        SIDES_SHAPE,
    ),
    Case(
        "buraco-side-of-three",
        buraco(side(["Aurélie", "Chloé", "Denis"]), side(B)),
        ("sides",),
        SIDES_SHAPE,
    ),
    Case(
        "buraco-side-players-string",
        buraco(side("Aurélie"), side(B), players=["Aurélie", "Bruno"]),
        ("sides",),
        SIDES_SHAPE,
    ),
    Case(
        "buraco-one-player",
        buraco(side(A), side([]), players=["Aurélie"]),
        ("players", "sides"),
        PLAYERS_COUNT,
    ),
    Case(
        "buraco-five-players",
        buraco(
            side(["Aurélie", "Bruno"]),
            side(["Chloé", "Denis"]),
            players=["Aurélie", "Bruno", "Chloé", "Denis", "Émile"],
        ),
        ("players",),
        PLAYERS_COUNT,
    ),
    Case(
        "buraco-three-players-unequal",
        buraco(side(["Aurélie", "Bruno"]), side(["Chloé"])),
        ("sides",),
        SIDES_PLAYERS,
    ),
    Case(
        "buraco-member-not-at-table",
        buraco(side(A), side(["Zoé"]), players=["Aurélie", "Bruno"]),
        ("sides",),
        SIDES_PLAYERS,
    ),
    Case(
        "buraco-player-in-both-sides",
        buraco(side(A), side(A), players=["Aurélie", "Bruno"]),
        ("sides",),
        SIDES_PLAYERS,
    ),
    *[
        Case(
            f"buraco-{key}-{name}",
            buraco(side(A, **{key: value}), side(B)),
            ("sides",),
            SIDE_INTEGER,
        )
        for key, name, value in [
            ("table_points", "negative", -5),
            ("table_points", "string", "300"),
            ("table_points", "bool", True),
            ("table_points", "float", 300.0),
            ("table_points", "huge", 10**100),
            ("natural_canastas", "15", 15),
            ("mixed_canastas", "negative", -1),
            ("red_threes", "5", 5),
            ("hand_points", "negative", -10),
            ("hand_points", "null", None),
        ]
    ],
    *[
        Case(
            f"buraco-{key}-{name}", buraco(side(A, **{key: value}), side(B)), ("sides",), SIDE_BOOL
        )
        for key, name, value in [
            ("went_out", "string", "yes"),
            ("took_extra_pile", "int", 1),
            ("extra_pile_unplayed", "null", None),
        ]
    ],
    Case("buraco-both-went-out", buraco(side(A, **OUT), side(B, **OUT)), ("sides",), WENT_OUT_ONCE),
    Case(
        "buraco-out-without-pile",
        buraco(side(A, went_out=True, natural_canastas=1), side(B)),
        ("sides",),
        WENT_OUT_CANASTA,
    ),
    Case(
        "buraco-out-with-mixed-only",
        buraco(side(A, went_out=True, took_extra_pile=True, mixed_canastas=2), side(B)),
        ("sides",),
        WENT_OUT_CANASTA,
    ),
    Case(
        "buraco-unplayed-nobody-out",
        buraco(side(A, took_extra_pile=True, extra_pile_unplayed=True), side(B)),
        ("sides",),
        PILE_UNPLAYED,
    ),
    Case(
        "buraco-unplayed-not-taken",
        buraco(side(A, **OUT), side(B, extra_pile_unplayed=True)),
        ("sides",),
        PILE_UNPLAYED,
    ),
    Case(
        "buraco-five-red-threes",
        buraco(side(A, red_threes=3), side(B, red_threes=2)),
        ("sides",),
        RED_THREES,
    ),
    Case(
        "buraco-single-out-with-hand",
        buraco(side(A, hand_points=15, **OUT), side(B)),
        ("sides",),
        HAND_POINTS_OUT,
    ),
]


@run(BURACO)
def test_buraco_refusals(case: Case) -> None:
    check(case)


@pytest.mark.parametrize(
    "members",
    [[1], [{"name": "Aurélie"}]],
    ids=["number", "dict"],
)
def test_buraco_side_members_that_are_not_names(members: list[Any]) -> None:
    # Regression: buraco.py sorted the side members with the table's names, so a member that
    # is not a string raised TypeError ("'<' not supported between instances of 'str' and
    # 'int'") instead of a refusal of "sides".
    error = refusal(buraco(side(members), side(B), players=["Aurélie", "Bruno"]))
    assert "sides" in error.errors


# --- Club rule sets -----------------------------------------------------------------------

RULES = [
    Case("rule-unknown", {"bonus": 1}, ("bonus",), UNKNOWN_FIELD),
    Case("rule-base-bool", {"base": True}, ("base",), RULE_INTEGER),
    Case("rule-base-string", {"base": "25"}, ("base",), RULE_INTEGER),
    Case("rule-base-float", {"base": 25.0}, ("base",), RULE_INTEGER),
    Case("rule-base-negative", {"base": -1}, ("base",), RULE_RANGE),
    Case("rule-base-huge", {"base": 10**100}, ("base",), RULE_RANGE),
    Case("rule-coefficient-zero", {"coefficient_garde": 0}, ("coefficient_garde",), RULE_RANGE),
    Case(
        "rule-petit-multiplied-string",
        {"petit_au_bout_multiplied": "yes"},
        ("petit_au_bout_multiplied",),
        RULE_BOOL,
    ),
    Case("rule-miseres-int", {"miseres_allowed": 1}, ("miseres_allowed",), RULE_BOOL),
    Case("rule-rounding-int", {"margin_rounding": 5}, ("margin_rounding",), CHOICE),
    Case("rule-rounding-list", {"margin_rounding": ["5"]}, ("margin_rounding",), CHOICE),
    Case("rule-five-players", {"five_players": "dummy"}, ("five_players",), CHOICE),
    Case("rule-beneficiary", {"handful_beneficiary": "taker"}, ("handful_beneficiary",), CHOICE),
    Case("rule-name-empty", {"name": " "}, ("name",), RULE_NAME),
    Case("rule-name-long", {"name": "x" * 81}, ("name",), RULE_NAME),
    Case("rule-name-number", {"name": 7}, ("name",), RULE_NAME),
    Case("rule-trumps-two", {"handful_trumps_4": [10, 13]}, ("handful_trumps_4",), TRUMPS_SHAPE),
    Case(
        "rule-trumps-bools",
        {"handful_trumps_4": [True, 13, 15]},
        ("handful_trumps_4",),
        TRUMPS_SHAPE,
    ),
    Case(
        "rule-trumps-order", {"handful_trumps_4": [13, 10, 15]}, ("handful_trumps_4",), TRUMPS_ORDER
    ),
    Case(
        "rule-trumps-equal", {"handful_trumps_5": [8, 8, 13]}, ("handful_trumps_5",), TRUMPS_ORDER
    ),
    Case(
        "rule-trumps-more-than-a-hand",
        {"handful_trumps_4": [10, 13, 19]},
        ("handful_trumps_4",),
        TRUMPS_ORDER,
    ),
    Case(
        "rule-trumps-more-than-22",
        {"handful_trumps_3": [12, 15, 23]},
        ("handful_trumps_3",),
        TRUMPS_ORDER,
    ),
    Case(
        "rule-trumps-zero", {"handful_trumps_3": [0, 15, 18]}, ("handful_trumps_3",), TRUMPS_ORDER
    ),
]


@run(RULES)
def test_club_rule_set_refusals(case: Case) -> None:
    try:
        RuleSet.from_mapping(case.payload)
    except ScoringError as error:
        assert set(error.errors) == set(case.fields), error.messages("en")
        english, french = case.words
        assert any(english in m for m in error.messages("en")[case.fields[0]])
        assert any(french in m for m in error.messages("fr")[case.fields[0]])
    else:
        raise AssertionError("rule set accepted")


def test_club_rule_set_limits_are_accepted() -> None:
    rules = RuleSet.from_mapping(
        {
            "base": 0,
            "coefficient_prise": 1,
            "handful_simple": 10_000,
            "misere": 0,
            "handful_trumps_3": [1, 2, 22],
            "handful_trumps_4": [16, 17, 18],
            "handful_trumps_5": [13, 14, 15],
            "name": " Club ",
        }
    )
    assert rules.name == "Club"
    assert rules.handful_trumps_3 == (1, 2, 22)


@pytest.mark.parametrize(
    ("bouts", "french", "english"),
    [(0, "0 bout", "0 bouts"), (1, "1 bout", "1 bout"), (2, "2 bouts", "2 bouts")],
)
def test_a_count_of_bouts_reads_in_the_right_number(bouts: int, french: str, english: str) -> None:
    message = Msg("points_bouts", points=20, bouts=bouts, low=30, high=60)
    assert message.render("fr").startswith(f"Avec {french},")
    assert message.render("en").startswith(f"With {english} the attack")
    assert "(s)" not in message.render("fr") + message.render("en")
