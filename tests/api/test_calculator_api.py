"""POST /api/v1/score/: the public calculator answers 200 or a message per field, never a 500."""

import json
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client, override_settings
from django.urls import reverse
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from pytest_django import DjangoAssertNumQueries, Settings

from tarot_scores.api.calculator import MAX_BODY_BYTES, MAX_DEPTH
from tarot_scores.api.examples import DEALS, IMPOSSIBLE_DEAL, IMPOSSIBLE_DEAL_ERRORS
from tests.api.helpers import assert_field_errors, messages_of

URL = "/api/v1/score/"
GARDE = DEALS["four_players_garde"][1]


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    # The throttle counts requests in the cache; every test starts with none.
    cache.clear()


def post(
    client: Client,
    body: Any,
    *,
    lang: str | None = None,
    content_type: str = "application/json",
    raw: bool = False,
) -> Any:
    headers = {"accept-language": lang} if lang else {}
    data = body if raw else json.dumps(body)
    return client.post(URL, data=data, content_type=content_type, headers=headers)


def assert_refusal(response: Any, status: int = 400) -> dict[str, list[str]]:
    """The one error shape (a problem), read back as messages per field."""
    return assert_field_errors(response, status)


def test_the_url_is_named() -> None:
    assert reverse("api:score") == URL


@pytest.mark.parametrize("name", list(DEALS))
def test_each_documented_example_gives_exactly_its_documented_answer(
    client: Client, name: str
) -> None:
    _, deal, answer = DEALS[name]

    response = post(client, deal, lang="en")

    assert response.status_code == 200
    assert response.json() == answer


def test_scores_are_the_contracts_and_sum_to_zero(client: Client) -> None:
    response = post(client, GARDE, lang="en")

    body = response.json()
    assert body["scores"] == {"Aurélie": -106, "Bruno": -106, "Chloé": 318, "Denis": -106}
    assert sum(body["scores"].values()) == 0
    assert body["won"] is True
    assert body["margin"] == 8


def test_the_breakdown_follows_accept_language(client: Client) -> None:
    french = post(client, GARDE, lang="fr").json()
    english = post(client, GARDE, lang="en").json()

    assert french["scores"] == english["scores"]
    assert french["breakdown"][0]["text"].endswith("gagné de 8.")
    assert english["breakdown"][0]["text"].endswith("won by 8.")


def test_french_is_the_default_language(client: Client) -> None:
    response = post(client, IMPOSSIBLE_DEAL)

    assert assert_refusal(response) == IMPOSSIBLE_DEAL_ERRORS["fr"]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_impossible_deal_is_refused_on_its_field_in_the_readers_language(
    client: Client, lang: str
) -> None:
    response = post(client, IMPOSSIBLE_DEAL, lang=lang)

    assert assert_refusal(response) == IMPOSSIBLE_DEAL_ERRORS[lang]


@pytest.mark.parametrize(
    ("lang", "taker", "points"),
    [
        ("en", "“Zoé” is not a player at this table.", "Points are a number, for example 41"),
        ("fr", "« Zoé » n'est pas un joueur de cette table.", "Les points sont un nombre"),
    ],
)
def test_every_bad_field_gets_its_own_message(
    client: Client, lang: str, taker: str, points: str
) -> None:
    deal = {**GARDE, "taker": "Zoé", "contract": "grande", "points": "quarante", "oudlers": 7}

    errors = assert_refusal(post(client, deal, lang=lang))

    assert set(errors) == {"taker", "contract", "points", "oudlers"}
    assert errors["taker"] == [taker]
    assert errors["points"][0].startswith(points)


def test_an_unknown_variant_is_refused_on_variant(client: Client) -> None:
    errors = assert_refusal(post(client, {**GARDE, "variant": "belote"}, lang="en"))

    assert list(errors) == ["variant"]
    assert "belote" in errors["variant"][0]


def test_unicode_names_come_back_unchanged(client: Client) -> None:
    names = ["Zoë 🂡", "李雷", "Ørjan", "Ana-María"]
    deal = {**GARDE, "players": names, "taker": "李雷", "handfuls": []}

    response = post(client, deal)

    assert response.status_code == 200
    assert list(response.json()["scores"]) == names


def test_numbers_sent_as_floats_score_like_integers(client: Client) -> None:
    response = post(client, {**GARDE, "points": 49.0})

    assert response.json()["scores"]["Chloé"] == 318


# The body as a whole: each refusal is {"non_field_errors": [message]} in the reader's language.


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "not valid JSON (line 1, column 2)"), ("fr", "pas du JSON valide")]
)
def test_malformed_json_is_a_400(client: Client, lang: str, words: str) -> None:
    errors = assert_refusal(post(client, "{variant: fft", raw=True, lang=lang))

    assert list(errors) == ["non_field_errors"]
    assert words in errors["non_field_errors"][0]


@pytest.mark.parametrize("body", [[GARDE], "fft", 42, None, True])
def test_a_json_value_that_is_not_an_object_is_a_400(client: Client, body: Any) -> None:
    errors = assert_refusal(post(client, body, lang="en"))

    assert errors == {"non_field_errors": ["Expected a JSON object (the deal)."]}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_empty_body_is_a_400(client: Client, lang: str) -> None:
    errors = assert_refusal(post(client, "", raw=True, lang=lang))

    expected = "The body is empty" if lang == "en" else "Le corps de la requête est vide"
    assert errors["non_field_errors"][0].startswith(expected)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml", ""],
)
def test_a_body_that_is_not_sent_as_json_is_a_415(client: Client, content_type: str) -> None:
    response = post(client, json.dumps(GARDE), raw=True, content_type=content_type, lang="en")

    errors = assert_refusal(response, status=415)
    assert "Content-Type: application/json" in errors["non_field_errors"][0]


def test_a_charset_parameter_is_accepted(client: Client) -> None:
    response = post(client, GARDE, content_type="application/json; charset=utf-8")

    assert response.status_code == 200


@pytest.mark.parametrize("size", [MAX_BODY_BYTES + 1, 1024 * 1024])
def test_a_body_over_64_kb_is_a_413(client: Client, size: int) -> None:
    body = json.dumps({**GARDE, "padding": ""})
    body = body[:-2] + " " * (size - len(body)) + body[-2:]
    assert len(body.encode()) == size

    errors = assert_refusal(post(client, body, raw=True, lang="en"), status=413)

    assert "too large" in errors["non_field_errors"][0]


def test_a_body_just_under_the_limit_reaches_the_engine(client: Client) -> None:
    body = json.dumps({**GARDE, "padding": ""})
    body = body[:-2] + " " * (MAX_BODY_BYTES - len(body)) + body[-2:]

    errors = assert_refusal(post(client, body, raw=True, lang="en"))

    assert errors == {"padding": ["Unknown field."]}


@pytest.mark.parametrize(
    "body",
    [
        '{"variant": "fft", "points": NaN}',
        '{"variant": "fft", "points": Infinity}',
        '{"variant": "fft", "points": -Infinity}',
        '{"variant": "fft", "points": ' + "9" * 5000 + "}",
        '{"variant": "fft"} trailing',
        "\ufeff{}",
    ],
    ids=["nan", "infinity", "minus-infinity", "5000-digits", "trailing", "bom"],
)
def test_json_python_accepts_but_the_standard_does_not_is_a_400(client: Client, body: str) -> None:
    errors = assert_refusal(post(client, body, raw=True))

    assert list(errors) == ["non_field_errors"]


def test_huge_numbers_within_json_are_refused_by_the_engine(client: Client) -> None:
    errors = assert_refusal(post(client, {**GARDE, "points": 10**300, "oudlers": 1e308}))

    assert set(errors) == {"points", "oudlers"}


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 900, 30_000])
def test_deeply_nested_json_is_a_400(client: Client, depth: int) -> None:
    body = '{"variant": "fft", "taker": ' + "[" * depth + "]" * depth + "}"

    errors = assert_refusal(post(client, body, raw=True, lang="en"))

    assert errors == {
        "non_field_errors": [f"The JSON is nested too deeply (more than {MAX_DEPTH} levels)."]
    }


def test_nesting_up_to_the_limit_reaches_the_engine(client: Client) -> None:
    depth = MAX_DEPTH - 1  # the deal object is the first level
    body = json.dumps({**GARDE, "taker": json.loads("[" * depth + "]" * depth)})

    errors = assert_refusal(post(client, body, raw=True))

    assert list(errors) == ["taker"]


@pytest.mark.parametrize(
    "body",
    [
        '{"variant": "\\ud800"}',
        '{"players": ["A", "B", "\\udfff", "D"]}',
        '{"\\ud83d": 1}',
    ],
    ids=["value", "name", "key"],
)
def test_text_that_is_not_unicode_is_a_400(client: Client, body: str) -> None:
    # A lone surrogate parses, but could never be written back in a UTF-8 answer.
    errors = assert_refusal(post(client, body, raw=True, lang="en"))

    assert errors == {"non_field_errors": ["The body contains text that is not valid Unicode."]}


def test_bytes_that_are_not_utf8_are_a_400(client: Client) -> None:
    errors = assert_refusal(post(client, b'{"variant": "\xff\xfe"}', raw=True, lang="en"))

    assert errors == {"non_field_errors": ["The body is not valid UTF-8 text."]}


def test_get_is_a_405_with_the_same_shape(client: Client) -> None:
    response = client.get(URL)

    errors = assert_refusal(response, status=405)
    assert list(errors) == ["non_field_errors"]


def test_the_answer_is_json_whatever_accept_says(client: Client) -> None:
    response = client.post(
        URL, data=json.dumps(GARDE), content_type="application/json", headers={"accept": "text/xml"}
    )

    assert response.status_code == 200
    assert response.json()["scores"]["Chloé"] == 318


def test_no_csrf_token_or_session_is_needed() -> None:
    client = Client(enforce_csrf_checks=True)

    response = post(client, GARDE)

    assert response.status_code == 200


@pytest.mark.django_db
def test_nothing_is_stored(
    client: Client, django_assert_num_queries: DjangoAssertNumQueries
) -> None:
    with django_assert_num_queries(0):
        assert post(client, GARDE).status_code == 200
        assert post(client, IMPOSSIBLE_DEAL).status_code == 400


def test_the_calculator_is_throttled(client: Client, settings: Settings) -> None:
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"calculator": "3/min"},
    }

    statuses = [post(client, GARDE).status_code for _ in range(3)]
    refused = post(client, GARDE, lang="en")

    assert statuses == [200, 200, 200]
    errors = assert_refusal(refused, status=429)
    assert "throttled" in errors["non_field_errors"][0]
    assert int(refused["Retry-After"]) > 0


def test_a_made_up_forwarded_for_header_does_not_dodge_the_throttle(
    client: Client, settings: Settings
) -> None:
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"calculator": "2/min"},
    }

    statuses = [
        client.post(
            URL,
            data=json.dumps(GARDE),
            content_type="application/json",
            headers={"x-forwarded-for": f"203.0.113.{i}"},
        ).status_code
        for i in range(3)
    ]

    assert statuses == [200, 200, 429]


def test_refusals_count_towards_the_throttle(client: Client, settings: Settings) -> None:
    settings.REST_FRAMEWORK = {
        **django_settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"calculator": "2/min"},
    }

    statuses = [post(client, "nonsense", raw=True).status_code for _ in range(3)]

    assert statuses == [400, 400, 429]


def test_a_buraco_side_member_that_is_not_a_name_is_a_400(client: Client) -> None:
    deal = {
        "variant": "buraco",
        "players": ["Ana", "Boris"],
        "sides": [{"players": ["Ana"]}, {"players": [1]}],
    }

    assert_refusal(post(client, deal))


# Any JSON at all: 200 with the contract's answer or 400 with messages, never a 500.

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5)
    ),
    max_leaves=25,
)
FIELDS = sorted(
    {key for _, deal, _ in DEALS.values() for key in deal}
    | {key for _, deal, _ in DEALS.values() for side in deal.get("sides", []) for key in side}
)
VARIANT = st.sampled_from(["fft", "classic", "novatarok", "buraco"]) | JSON_VALUES
# Deals with the contract's field names and random values...
DEAL_SHAPED = st.fixed_dictionaries(
    {"variant": VARIANT}, optional={field: JSON_VALUES for field in FIELDS if field != "variant"}
)
# ...and real deals with one field replaced.
ONE_FIELD_WRONG = st.sampled_from([deal for _, deal, _ in DEALS.values()]).flatmap(
    lambda deal: st.tuples(st.sampled_from(sorted(deal)), JSON_VALUES).map(
        lambda change: {**deal, change[0]: change[1]}
    )
)
BODIES = JSON_VALUES | DEAL_SHAPED | ONE_FIELD_WRONG


def assert_answer(body: Any) -> None:
    assert set(body) == {"scores", "won", "margin", "breakdown"}
    assert all(isinstance(k, str) and type(v) is int for k, v in body["scores"].items())
    assert body["won"] in (True, False, None)
    assert body["margin"] is None or type(body["margin"]) is int
    for line in body["breakdown"]:
        assert set(line) == {"term", "value", "text"}
        assert isinstance(line["text"], str) and line["text"]


def test_random_json_is_answered_200_or_400_never_500() -> None:
    client = Client()
    rates = {**django_settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"calculator": None}}

    @hypothesis_settings(max_examples=300, deadline=None)
    @given(body=BODIES, lang=st.sampled_from(["fr", "en"]))
    def check(body: Any, lang: str) -> None:
        response = post(client, body, lang=lang)

        assert response.status_code in (200, 400), (body, response.content)
        if response.status_code == 200:
            assert_answer(response.json())
        else:
            assert_refusal(response)

    with override_settings(REST_FRAMEWORK=rates):  # no throttle: hundreds of requests
        check()


# The API schema documents the endpoint.


@pytest.mark.django_db
def test_the_schema_documents_the_calculator_with_examples(client: Client) -> None:
    schema = client.get(reverse("api-schema"), {"format": "json"}).json()

    operation = schema["paths"]["/api/v1/score/"]["post"]
    request_examples = operation["requestBody"]["content"]["application/json"]["examples"]
    answers = operation["responses"]["200"]["content"]["application/json"]["examples"]
    refusals = operation["responses"]["400"]["content"]["application/problem+json"]["examples"]
    assert len(request_examples) == len(DEALS) + 1
    assert request_examples["FourPlayersGarde"]["value"] == GARDE
    assert answers["FourPlayersGarde"]["value"]["scores"]["Chloé"] == 318
    refused = post(client, IMPOSSIBLE_DEAL, lang="en")
    assert refusals["ImpossibleDealEn"]["value"] == refused.json()
    assert messages_of(refused.json()) == IMPOSSIBLE_DEAL_ERRORS["en"]
    assert {"413", "415", "429"} <= set(operation["responses"])


@pytest.mark.django_db
def test_the_schema_validates_without_warnings(tmp_path: Any) -> None:
    out = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    assert "/api/v1/score/" in out.read_text()
