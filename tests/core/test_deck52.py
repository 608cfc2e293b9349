"""The 52-card deck and its card text (docs/architecture.md, "Card text")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chuko.core.deck52 import DECK, Card, cards_text, parse_cards, sort_hand
from chuko.core.errors import ParseError


def test_deck_has_52_distinct_cards():
    assert len(DECK) == 52 and len(set(DECK)) == 52


@pytest.mark.parametrize("text", ["As", "A♠", "♠A", "as", "AS", "sA", " As "])
def test_ace_of_spades_in_every_accepted_spelling(text):
    assert Card.parse(text) == Card(14, "s")


@pytest.mark.parametrize("text", ["10h", "Th", "th", "♥10", "10♥", "h10"])
def test_ten_of_hearts_written_with_10_or_t_in_either_order(text):
    assert Card.parse(text) == Card(10, "h")


def test_records_write_letters_and_screens_write_symbols():
    card = Card.parse("10♥")
    assert str(card) == "10h"
    assert card.symbol_text == "10♥"
    assert card.red and not Card.parse("As").red


def test_parse_cards_reads_separate_and_run_together_cards():
    assert parse_cards("♠A♦A♣A") == parse_cards("As, Ad Ac") == parse_cards("AsAdAc")
    assert cards_text(parse_cards("A♠ K♠ Q♠")) == "As Ks Qs"
    assert parse_cards("10h10s") == (Card(10, "h"), Card(10, "s"))


@pytest.mark.parametrize("text", ["1s", "Ax", "As3", "11h", "X", "A", "♠", "Kd Q"])
def test_malformed_cards_raise_a_parse_error_with_a_hint(text):
    with pytest.raises(ParseError, match="is not a card"):
        parse_cards(text)


def test_sort_hand_puts_the_highest_rank_first():
    assert cards_text(sort_hand(parse_cards("2c As 10h Kd"))) == "As Kd 10h 2c"


@given(st.lists(st.sampled_from(DECK), max_size=13))
def test_card_text_round_trips_in_both_notations(cards):
    assert parse_cards(cards_text(cards)) == tuple(cards)
    assert parse_cards(" ".join(c.symbol_text for c in cards)) == tuple(cards)
