"""Worked deals for the calculator's API documentation: what to send and what comes back.

Each request is paired with its English answer under the same name; tests/api checks that every
answer here is exactly what the endpoint returns, so the documentation cannot drift.
"""

from typing import Any

from drf_spectacular.utils import OpenApiExample

from tarot_scores.api.problems import scoring_errors
from tarot_scores.core.errors import Code
from tarot_scores.core.problems import problem_body
from tarot_scores.scoring import ScoringError, score

# name -> (summary, deal sent, answer with Accept-Language: en)
DEALS: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "four_players_garde": (
        "4 players: garde won by 8, petit au bout and a handful",
        {
            "variant": "fft",
            "players": ["Aurélie", "Bruno", "Chloé", "Denis"],
            "sitting_out": None,
            "taker": "Chloé",
            "partner": None,
            "contract": "garde",
            "points": 49,
            "oudlers": 2,
            "petit_au_bout": "attack",
            "handfuls": [{"player": "Chloé", "size": "simple"}],
            "slam": None,
            "miseres": [],
        },
        {
            "scores": {"Aurélie": -106, "Bruno": -106, "Chloé": 318, "Denis": -106},
            "won": True,
            "margin": 8,
            "breakdown": [
                {
                    "term": "contract",
                    "value": None,
                    "text": "Chloé: guard with 2 bouts, 41 points needed, the attack has 49: "
                    "won by 8.",
                },
                {"term": "base", "value": 25, "text": "Contract base: 25."},
                {"term": "margin", "value": 8, "text": "Margin: 8."},
                {
                    "term": "coefficient",
                    "value": 66,
                    "text": "(25 + 8) × 2 (guard) = 66 per defender.",
                },
                {
                    "term": "petit_au_bout",
                    "value": 20,
                    "text": "Petit au bout for the attack: 10 × 2 = +20.",
                },
                {
                    "term": "handful",
                    "value": 20,
                    "text": "Handful (single) shown by Chloé: to the winning side, "
                    "the attack: +20.",
                },
                {"term": "defender", "value": -106, "text": "Each defender: -106."},
                {"term": "taker", "value": 318, "text": "Chloé (taker): 3 × 106 = 318."},
            ],
        },
    ),
    "five_players_called_king": (
        "5 players: prise with a called king (Denis is the partner)",
        {
            "variant": "fft",
            "players": ["Aurélie", "Bruno", "Chloé", "Denis", "Émile"],
            "taker": "Bruno",
            "partner": "Denis",
            "contract": "prise",
            "points": 38,
            "oudlers": 3,
        },
        {
            "scores": {"Aurélie": -27, "Bruno": 54, "Chloé": -27, "Denis": 27, "Émile": -27},
            "won": True,
            "margin": 2,
            "breakdown": [
                {
                    "term": "contract",
                    "value": None,
                    "text": "Bruno: take with 3 bouts, 36 points needed, the attack has 38: "
                    "won by 2.",
                },
                {"term": "base", "value": 25, "text": "Contract base: 25."},
                {"term": "margin", "value": 2, "text": "Margin: 2."},
                {
                    "term": "coefficient",
                    "value": 27,
                    "text": "(25 + 2) × 1 (take) = 27 per defender.",
                },
                {"term": "defender", "value": -27, "text": "Each defender: -27."},
                {"term": "taker", "value": 54, "text": "Bruno (taker): 2 × 27 = 54."},
                {"term": "partner", "value": 27, "text": "Denis (partner): 27."},
            ],
        },
    ),
    "three_players_classic": (
        "3 players, classic rules: garde sans with half a point and a misère",
        {
            "variant": "classic",
            "players": ["Aurélie", "Bruno", "Chloé"],
            "taker": "Aurélie",
            "contract": "garde_sans",
            "points": 52.5,
            "oudlers": 1,
            "miseres": [{"player": "Bruno", "kind": "head"}],
        },
        {
            "scores": {"Aurélie": 196, "Bruno": -98, "Chloé": -98},
            "won": True,
            "margin": 2,
            "breakdown": [
                {
                    "term": "contract",
                    "value": None,
                    "text": "Aurélie: guard without with 1 bout, 51 points needed, "
                    "the attack has 52.5: won by 2.",
                },
                {"term": "base", "value": 25, "text": "Contract base: 25."},
                {"term": "margin", "value": 2, "text": "Margin: 2."},
                {
                    "term": "coefficient",
                    "value": 108,
                    "text": "(25 + 2) × 4 (guard without) = 108 per defender.",
                },
                {
                    "term": "misere",
                    "value": -10,
                    "text": "Misère (head) of Bruno, for the defence: -10.",
                },
                {"term": "defender", "value": -98, "text": "Each defender: -98."},
                {"term": "taker", "value": 196, "text": "Aurélie (taker): 2 × 98 = 196."},
            ],
        },
    ),
    "novatarok_round": (
        "Novatarok: one round at 3 players, Ana holds the trull and wins the pagat",
        {
            "variant": "novatarok",
            "players": ["Ana", "Boris", "Cvetka"],
            "card_points": {"Ana": 31, "Boris": 12, "Cvetka": 18},
            "kings": None,
            "trull": "Ana",
            "pagat": "Ana",
        },
        {
            "scores": {"Ana": 71, "Boris": 12, "Cvetka": 18},
            "won": None,
            "margin": None,
            "breakdown": [
                {"term": "card_points", "value": 31, "text": "Ana: 31 card points."},
                {"term": "trull", "value": 20, "text": "Ana: 21, 1 and Fool (trull), +20."},
                {
                    "term": "pagat",
                    "value": 20,
                    "text": "Ana: the 1 of trumps in the last trick (pagat), +20.",
                },
                {"term": "card_points", "value": 12, "text": "Boris: 12 card points."},
                {"term": "card_points", "value": 18, "text": "Cvetka: 18 card points."},
            ],
        },
    ),
    "buraco_hand": (
        "Buraco: two sides of two, Ana and Carla go out",
        {
            "variant": "buraco",
            "players": ["Ana", "Boris", "Carla", "Dario"],
            "sides": [
                {
                    "players": ["Ana", "Carla"],
                    "table_points": 310,
                    "natural_canastas": 1,
                    "mixed_canastas": 1,
                    "red_threes": 1,
                    "went_out": True,
                    "took_extra_pile": True,
                    "hand_points": 0,
                },
                {
                    "players": ["Boris", "Dario"],
                    "table_points": 180,
                    "natural_canastas": 0,
                    "mixed_canastas": 1,
                    "red_threes": 0,
                    "went_out": False,
                    "took_extra_pile": True,
                    "hand_points": 45,
                },
            ],
        },
        {
            "scores": {"Ana": 810, "Boris": 235, "Carla": 810, "Dario": 235},
            "won": None,
            "margin": None,
            "breakdown": [
                {
                    "term": "side",
                    "value": 810,
                    "text": "Ana & Carla: table 310, natural canastas 1 × 200, mixed 1 × 100, "
                    "red threes 100, going out 100, hand −0, extra pile 0 = +810.",
                },
                {
                    "term": "side",
                    "value": 235,
                    "text": "Boris & Dario: table 180, natural canastas 0 × 200, mixed 1 × 100, "
                    "red threes 0, going out 0, hand −45, extra pile 0 = +235.",
                },
            ],
        },
    ),
}

# A deal a real pack rules out, and the refusals in each language.
IMPOSSIBLE_DEAL: dict[str, Any] = {
    "variant": "fft",
    "players": ["Aurélie", "Bruno", "Chloé", "Denis"],
    "taker": "Chloé",
    "contract": "garde",
    "points": 40.5,
    "oudlers": 2,
}
IMPOSSIBLE_DEAL_ERRORS: dict[str, dict[str, list[str]]] = {
    "en": {
        "points": [
            "At four players the attack's points are always whole: "
            "each side holds an even number of cards."
        ]
    },
    "fr": {
        "points": [
            "À quatre joueurs, les points de l'attaque sont toujours entiers : "
            "chaque camp a un nombre pair de cartes."
        ]
    },
}


def openapi_examples() -> list[OpenApiExample]:
    """Request and answer examples, paired by name, for drf-spectacular."""
    examples: list[OpenApiExample] = []
    for name, (summary, deal, answer) in DEALS.items():
        examples.append(OpenApiExample(name, summary=summary, value=deal, request_only=True))
        examples.append(
            OpenApiExample(
                name, summary=summary, value=answer, response_only=True, status_codes=["200"]
            )
        )
    examples.append(
        OpenApiExample(
            "impossible_deal",
            summary="40.5 points at 4 players: refused (HTTP 400)",
            value=IMPOSSIBLE_DEAL,
            request_only=True,
        )
    )
    for lang in IMPOSSIBLE_DEAL_ERRORS:
        examples.append(
            OpenApiExample(
                f"impossible_deal_{lang}",
                summary=f"Refusal, Accept-Language: {lang}",
                value=impossible_deal_problem(lang),
                response_only=True,
                status_codes=["400"],
            )
        )
    return examples


def impossible_deal_problem(lang: str) -> dict[str, Any]:
    """The calculator's answer to ``IMPOSSIBLE_DEAL`` in ``lang``: the engine's own refusal,
    with its codes, as the one error shape."""
    try:
        score(IMPOSSIBLE_DEAL)
    except ScoringError as error:
        return problem_body(status=400, code=Code.INVALID, errors=scoring_errors(error, lang))
    raise AssertionError("IMPOSSIBLE_DEAL was scored")
