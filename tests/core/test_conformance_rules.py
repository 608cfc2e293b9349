"""The rules of the protocol are said in one table (chuko.core.conformance.RULES), and that
table is what the docs, the protocol's docstrings and the conformance suite all say."""

import re
from pathlib import Path

import pytest

from chuko import testing
from chuko.core import descriptor, protocol
from chuko.core.conformance import RULES, broke, keeps_shape, reveals

ROOT = Path(__file__).resolve().parents[2]


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("rule", RULES)
def test_docs_architecture_lists_every_rule_word_for_word(rule):
    docs = _words((ROOT / "docs" / "architecture.md").read_text())
    assert f"**{rule}**: {RULES[rule]}" in docs


@pytest.mark.parametrize("rule", RULES)
def test_the_protocols_docstrings_name_every_rule(rule):
    sources = _words(Path(protocol.__file__).read_text() + Path(descriptor.__file__).read_text())
    assert f"'{rule}'" in sources


@pytest.mark.parametrize("rule", RULES)
def test_the_conformance_suite_words_a_failure_of_every_rule(rule):
    suite = "".join(path.read_text() for path in Path(testing.__file__).parent.glob("*.py"))
    assert re.search(rf"""(broke\(|refused\(\w+, )["']{re.escape(rule)}["']\)""", suite)


def test_a_broken_rule_is_worded_with_its_name_and_its_sentence():
    assert broke("copies are independent") == (
        "The game broke the rule 'copies are independent': "
        "Playing on a `copy()` leaves the original unchanged.")


def test_a_full_view_reveals_a_view_by_filling_its_nulls_only():
    seen = {"hand": [1, None], "bid": None, "scores": [0, 2]}
    assert reveals({"hand": [1, 4], "bid": 3, "scores": [0, 2], "extra": "x"}, seen)
    assert not reveals({"hand": [2, 4], "bid": 3, "scores": [0, 2]}, seen)  # a shown value changed
    assert not reveals({"hand": [1, 4, 5], "bid": 3, "scores": [0, 2]}, seen)  # a list grew
    assert not reveals({"hand": [1, 4], "scores": [0, 2]}, seen)  # a key went missing


def test_a_full_view_keeps_the_views_keys_and_list_lengths_whatever_its_values():
    seen = {"hand": [1, None], "rounds": [{"bids": [None, 2]}]}
    assert keeps_shape({"hand": [7, 8], "rounds": [{"bids": [1, 9]}], "extra": 1}, seen)
    assert not keeps_shape({"hand": [7], "rounds": [{"bids": [1, 9]}]}, seen)
    assert not keeps_shape({"hand": [7, 8], "rounds": [{}]}, seen)
