"""The public score calculator: POST one deal of the scoring contract, get everyone's score.

No account, nothing stored. The engine (``tarot_scores.scoring``) decides what a deal is worth and
what is wrong with it (a message per field, in the reader's language); this module reads the body
safely (size, nesting, encoding), throttles, and gives every refusal the same shape:
``{field: [messages]}``, with ``non_field_errors`` for the body as a whole.
"""

import json
from collections.abc import Iterable, Mapping
from typing import Any, cast

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import get_language, gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, ParseError, UnsupportedMediaType
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from tarot_scores.api.examples import openapi_examples
from tarot_scores.api.problems import ProblemAnswers, scoring_problem
from tarot_scores.core.errors import Code
from tarot_scores.scoring import VARIANTS, ScoringError, score
from tarot_scores.scoring.buraco import BURACO_SIDE_FLAGS, BURACO_SIDE_INTEGERS
from tarot_scores.scoring.rules import Contract, HandfulSize, MisereKind, Side, Slam

# Far above any real deal (a five-player tarot deal is under 1 KB), far below Django's 2.5 MB.
MAX_BODY_BYTES = 64 * 1024
# The deepest deal of the contract (buraco: sides -> side -> players) nests 4 levels.
MAX_DEPTH = 16


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = Code.BODY_TOO_LARGE


class DealJSONParser(JSONParser):
    """DRF's strict JSON parser (no NaN or Infinity), bounded for a public endpoint.

    It reads at most ``MAX_BODY_BYTES``, refuses JSON nested deeper than ``MAX_DEPTH`` and strings
    that are not valid Unicode (lone surrogates could not be written back in the answer), so the
    engine only ever sees plain, small JSON values.
    """

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        raw = stream.read(MAX_BODY_BYTES + 1)
        if len(raw) > MAX_BODY_BYTES:
            raise BodyTooLarge(
                gettext("The body is too large: a request takes at most %(limit)s bytes.")
                % {"limit": MAX_BODY_BYTES}
            )
        encoding = (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as error:
            raise ParseError(gettext("The body is not valid UTF-8 text.")) from error
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except json.JSONDecodeError as error:
            raise ParseError(
                gettext("The body is not valid JSON (line %(line)s, column %(column)s).")
                % {"line": error.lineno, "column": error.colno}
            ) from error
        except RecursionError as error:
            raise ParseError(_too_deep()) from error
        except ValueError as error:  # NaN, Infinity, integers of thousands of digits
            raise ParseError(
                gettext("The body is not valid JSON: numbers must be finite and reasonable.")
            ) from error
        _check_plain(data)
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")


def _too_deep() -> str:
    return gettext("The JSON is nested too deeply (more than %(depth)s levels).") % {
        "depth": MAX_DEPTH
    }


def _check_plain(data: Any) -> None:
    """Refuse deep nesting and lone surrogates, walking without recursion."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            strings = [value]
        elif isinstance(value, dict | list):
            if depth > MAX_DEPTH:
                raise ParseError(_too_deep())
            items = value.values() if isinstance(value, dict) else value
            stack.extend((item, depth + 1) for item in items)
            strings = list(value) if isinstance(value, dict) else []
        else:
            continue
        for string in strings:
            try:
                string.encode("utf-8")
            except UnicodeEncodeError as error:
                raise ParseError(
                    gettext("The body contains text that is not valid Unicode.")
                ) from error


class CalculatorThrottle(ScopedRateThrottle):
    """DRF's scoped throttle, reading the rate of ``throttle_scope`` on every request.

    ``SimpleRateThrottle`` copies ``DEFAULT_THROTTLE_RATES`` when DRF is imported, so a rate set
    later (the test suite's ``settings`` fixture) would otherwise be ignored.
    """

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES
        if self.scope not in rates:
            raise ImproperlyConfigured(f"No throttle rate set for scope {self.scope!r}.")
        return cast(str | None, rates[self.scope])


class AlwaysJSON(DefaultContentNegotiation):
    """Answer JSON whatever the Accept header says: a refusal is more useful than a 406."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


def read_deal(request: Request) -> Any:
    """The JSON value of the body; anything else is refused before the engine sees it."""
    if request.stream is None:
        raise ParseError(gettext("The body is empty: send the deal as a JSON object."))
    media_type = (request.content_type or "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise UnsupportedMediaType(
            media_type,
            detail=gettext('Send the deal as JSON, with "Content-Type: application/json".'),
        )
    return request.data


FIELD_ERRORS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A list of messages per field of the deal; `non_field_errors` for the body "
    "as a whole. In the language of Accept-Language (French or English).",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}


def nullable_enum(values: Iterable[str], description: str = "") -> dict[str, Any]:
    """A choice that may be null: the null is one of the enum's values too (a generated client
    then lets a body send it, to clear the field)."""
    schema: dict[str, Any] = {"type": "string", "enum": [*values, None], "nullable": True}
    if description:
        schema["description"] = description
    return schema


def deal_schema(player: dict[str, Any]) -> dict[str, Any]:
    """The scoring contract's deal, every list's items typed; ``player`` is how a player is
    named (the calculator: a name; the site: an id). The choices are the engine's own enums."""
    nullable_player = {**player, "nullable": True}
    side = {
        "type": "object",
        "additionalProperties": False,
        "required": ["players"],
        "properties": {
            "players": {"type": "array", "items": player, "minItems": 1, "maxItems": 2},
            **{
                name: {"type": "integer", "minimum": low, "maximum": high, "default": 0}
                for name, (low, high) in BURACO_SIDE_INTEGERS.items()
            },
            **{name: {"type": "boolean", "default": False} for name in BURACO_SIDE_FLAGS},
        },
    }
    return {
        "type": "object",
        "description": "One deal of the scoring contract (docs/scoring.md). The fields depend "
        "on `variant`: a tarot deal (`fft`, `classic`), a Novatarok round or a buraco hand.",
        "required": ["variant", "players"],
        "additionalProperties": False,
        "properties": {
            "variant": {"type": "string", "enum": list(VARIANTS)},
            "players": {"type": "array", "items": {**player, "maxLength": 60}},
            "sitting_out": nullable_player,
            "taker": player,
            "partner": nullable_player,
            "contract": {"type": "string", "enum": [c.value for c in Contract]},
            "points": {"type": "number", "minimum": 0, "maximum": 91, "multipleOf": 0.5},
            "oudlers": {"type": "integer", "minimum": 0, "maximum": 3},
            "petit_au_bout": nullable_enum(
                [s.value for s in Side], "The side that won the last trick with the 1; null: none."
            ),
            "handfuls": {
                "type": "array",
                "nullable": True,
                "description": "The handfuls shown, at most one per player (null or [] for none).",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["player", "size"],
                    "properties": {
                        "player": player,
                        "size": {"type": "string", "enum": [h.value for h in HandfulSize]},
                    },
                },
            },
            "slam": nullable_enum([s.value for s in Slam], "The slam (chelem); null: none."),
            "miseres": {
                "type": "array",
                "nullable": True,
                "description": "Misères declared, where the rules allow them (null or [] for "
                "none).",
                "items": {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["player", "kind"],
                    "properties": {
                        "player": player,
                        "kind": {"type": "string", "enum": [k.value for k in MisereKind]},
                    },
                },
            },
            "card_points": {"type": "object", "additionalProperties": {"type": "integer"}},
            "kings": nullable_player,
            "trull": nullable_player,
            "pagat": nullable_player,
            "sides": {"type": "array", "items": side, "minItems": 2, "maxItems": 2},
        },
    }


DEAL_SCHEMA: dict[str, Any] = deal_schema({"type": "string"})


class BreakdownLineSerializer(serializers.Serializer[Any]):
    term = serializers.CharField(help_text="What the line counts: contract, margin, handful...")
    value = serializers.IntegerField(allow_null=True, help_text="Its points, if it has any.")
    text = serializers.CharField(help_text="The line in words, in the reader's language.")


class ScoreAnswerSerializer(serializers.Serializer[Any]):
    scores = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each player's points for this deal."
    )
    won = serializers.BooleanField(
        allow_null=True, help_text="Whether the taker's contract was made (tarot only)."
    )
    margin = serializers.IntegerField(
        allow_null=True, help_text="Points above or below what the taker needed (tarot only)."
    )
    breakdown = BreakdownLineSerializer(many=True)


def _refusal(description: str) -> OpenApiResponse:
    return OpenApiResponse(response=FIELD_ERRORS_SCHEMA, description=description)


class ScoreView(ProblemAnswers, APIView):
    """Score one deal: the answer of the scoring contract, or a message per field."""

    authentication_classes = []  # public: no session, so no CSRF check either
    permission_classes = [AllowAny]
    throttle_classes = [CalculatorThrottle]
    throttle_scope = "calculator"
    # "Callable from anywhere": any origin's page may use it (api.cors).
    open_to_any_origin = True
    parser_classes = [DealJSONParser]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = AlwaysJSON

    @extend_schema(
        operation_id="score_deal",
        summary="Score one deal (public calculator)",
        description=(
            "Computes every player's score for one deal of the scoring contract and stores "
            "nothing. No account needed; throttled per client address (setting "
            "`CALCULATOR_THROTTLE_RATE`, default 120/min). Messages follow Accept-Language "
            "(French by default, or English). Bodies over 64 KB are refused with 413."
        ),
        tags=["calculator"],
        auth=[],
        request={"application/json": DEAL_SCHEMA},
        responses={
            200: ScoreAnswerSerializer,
            400: _refusal("The deal cannot be scored, or the body is not a JSON object."),
            413: _refusal("The body is over 64 KB."),
            415: _refusal("The body is not sent as application/json."),
            429: _refusal("Too many requests: try again after Retry-After seconds."),
        },
        examples=openapi_examples(),
    )
    def post(self, request: Request) -> Response:
        deal = read_deal(request)
        lang = get_language() or settings.LANGUAGE_CODE
        try:
            result = score(deal)
        except ScoringError as error:
            return scoring_problem(error, lang)
        return Response(result.to_json(lang))
