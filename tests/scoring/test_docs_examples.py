"""docs/scoring.md's worked examples are tests: the engine must give exactly the scores (or the
refusals) the page shows.

The page's fenced blocks are read in order: a ```` ```json rules ```` block (a club's rule set,
read with ``RuleSet.from_mapping``) applies to the next request; a ```` ```json request ```` block
is paired with the next ```` ```json scores ```` or ```` ```json errors ```` block.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tarot_scores.scoring import RuleSet, ScoringError, score

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
FENCE = re.compile(r"^```(\w+)(?:[ \t]+(\w+))?[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


class Example(NamedTuple):
    line: int
    title: str
    request: Any
    rules: dict[str, Any] | None
    kind: str  # "scores" or "errors"
    expected: dict[str, Any]
    french: list[dict[str, Any]]  # untagged blocks right after an "errors" block: in French


def _read(path: Path) -> tuple[list[Example], list[tuple[int, str, Any]]]:
    """The request/answer pairs of the page, and every JSON block (line, tag, value)."""
    text = path.read_text(encoding="utf-8")
    examples: list[Example] = []
    blocks: list[tuple[int, str, Any]] = []
    rules: dict[str, Any] | None = None
    request: tuple[int, str, Any, dict[str, Any] | None] | None = None
    previous = ""
    for match in FENCE.finditer(text):
        language, tag, body = match.group(1), match.group(2) or "", match.group(3)
        if language != "json":
            continue
        line = text.count("\n", 0, match.start()) + 1
        value = json.loads(body)  # every JSON block of the page is valid JSON
        blocks.append((line, tag, value))
        if tag == "rules":
            assert rules is None, f"line {line}: two rule sets in a row"
            rules = value
        elif tag == "request":
            assert request is None, f"line {line}: a request without its answer before it"
            titles = re.findall(r"^#+ (.+)$", text[: match.start()], re.MULTILINE)
            request = (line, titles[-1] if titles else "", value, rules)
            rules = None
        elif tag in ("scores", "errors"):
            assert request is not None, f"line {line}: {tag} without a request"
            examples.append(Example(request[0], request[1], request[2], request[3], tag, value, []))
            request = None
        else:
            assert tag == "", f"line {line}: unknown block tag {tag!r}"
            if previous == "errors":  # the same refusal, in French
                examples[-1].french.append(value)
        previous = tag
    assert request is None and rules is None, "the page ends in the middle of an example"
    return examples, blocks


EXAMPLES, BLOCKS = _read(DOC)
SCORED = [e for e in EXAMPLES if e.kind == "scores"]
REFUSED = [e for e in EXAMPLES if e.kind == "errors"]


def _id(example: Example) -> str:
    return f"line-{example.line}"


def test_the_page_has_enough_examples() -> None:
    assert len(SCORED) >= 15
    assert len(REFUSED) >= 3
    variants = {e.request["variant"] for e in SCORED}
    assert {"fft", "classic", "novatarok", "buraco"} <= variants
    tarot = [e.request for e in SCORED if e.request["variant"] not in ("novatarok", "buraco")]
    assert {len(r["players"]) for r in tarot} == {3, 4, 5}
    assert any(r.get("sitting_out") for r in tarot)
    assert any(e.rules for e in SCORED), "a club rule set example"
    assert any(e.french for e in REFUSED), "a refusal shown in French"


@pytest.mark.parametrize("example", SCORED, ids=[_id(e) for e in SCORED])
def test_worked_example(example: Example) -> None:
    rules = RuleSet.from_mapping(example.rules) if example.rules else None
    result = score(example.request, rules=rules)
    assert result.scores == example.expected, example.title
    assert list(result.scores) == list(example.request["players"])


@pytest.mark.parametrize("example", REFUSED, ids=[_id(e) for e in REFUSED])
def test_refused_example(example: Example) -> None:
    rules = RuleSet.from_mapping(example.rules) if example.rules else None
    with pytest.raises(ScoringError) as caught:
        score(example.request, rules=rules)
    assert caught.value.messages("en") == example.expected, example.title
    for french in example.french:
        assert caught.value.messages("fr") == french, example.title


def test_illustrations_match_the_engine() -> None:
    """The untagged blocks (the contract's shapes) are real requests and answers too."""
    untagged = [value for _, tag, value in BLOCKS if tag == ""]
    requests = [v for v in untagged if isinstance(v, dict) and "variant" in v]
    assert {r["variant"] for r in requests} == {"fft", "novatarok", "buraco"}
    for request in requests:
        assert score(request).scores
    [answer] = [v for v in untagged if isinstance(v, dict) and "breakdown" in v]
    design = next(r for r in requests if r["variant"] == "fft")
    assert score(design).to_json("en") == answer
