"""One home for the contracts: the scoring engine's enum (``tarot_scores.scoring.Contract``).
Every list of contracts, and every table of their words, is derived from it or keyed by it,
so a new contract is a change in the engine plus its words, and a table that misses it fails
here (or at start), never leaves the contract silently unrated or unnamed."""

from __future__ import annotations

import ast
from pathlib import Path

from tarot_scores.calculator.forms import CONTRACT_CHOICES
from tarot_scores.calculator.forms import CONTRACT_WORDS as CALCULATOR_WORDS
from tarot_scores.games.words import CONTRACT_SHORT, CONTRACTS
from tarot_scores.ratings.rating import CONTRACT_WEIGHT
from tarot_scores.ratings.rating import CONTRACTS as RATED
from tarot_scores.scoring import Contract
from tarot_scores.stats.selectors import CONTRACT_ORDER
from tarot_scores.stats.views import CONTRACT_WORDS

ROOT = Path(__file__).resolve().parents[2]
NAMES = {contract.value for contract in Contract}


def literal_lists_of_contracts() -> list[str]:
    """Lists, tuples, sets and dicts written with two contract names or more as text."""
    found = []
    for folder in ("tarot_scores", "tournaments"):
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).parts
            if "scoring" in parts or "migrations" in parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.List | ast.Tuple | ast.Set):
                    items: list[ast.expr | None] = list(node.elts)
                elif isinstance(node, ast.Dict):
                    items = list(node.keys)
                else:
                    continue
                names = {
                    item.value
                    for item in items
                    if isinstance(item, ast.Constant) and item.value in NAMES
                }
                if len(names) >= 2:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_list_of_contracts_is_written_by_hand() -> None:
    assert literal_lists_of_contracts() == []


def test_every_list_and_table_of_words_covers_the_engines_contracts() -> None:
    order = [contract.value for contract in Contract]
    assert [value for value, _ in CONTRACTS] == order
    assert [value for value, _ in CONTRACT_CHOICES] == order
    assert list(RATED) == order and list(CONTRACT_ORDER) == order
    for table in (CONTRACT_SHORT, CALCULATOR_WORDS, CONTRACT_WORDS, CONTRACT_WEIGHT):
        assert set(table) == set(Contract), table
