"""Numbers, packs, layout text and move notation (rulings G1–G5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chuko.core.errors import ParseError
from chuko.core.layout import LayoutMove, layout_text, parse_layout, parse_moves
from chuko.core.numbers import matches, prime_factors
from chuko.core.packs import PACKS, pack_text, parse_pack


def test_g1_matching_is_sharing_a_prime_factor():
    assert matches(6, 15) and matches(14, 8) and matches(7, 7)
    assert not matches(7, 10)


def test_g1_one_matches_nothing_not_even_one():
    assert not any(matches(1, n) for n in range(1, 50))


@given(st.integers(1, 10_000), st.integers(1, 10_000))
def test_g1_match_is_a_shared_factor_of_the_factorisations(a, b):
    assert matches(a, b) == bool(set(prime_factors(a)) & set(prime_factors(b)))


@given(st.integers(1, 100_000))
def test_prime_factors_multiply_back_into_the_number(n):
    rest = n
    for p in prime_factors(n):
        assert all(p % q for q in range(2, int(p**0.5) + 1))
        while rest % p == 0:
            rest //= p
    assert rest == 1


def test_g5_standard_and_plain_packs():
    assert parse_pack("standard") == (2, 6, 7, 8, 9, 10, 11, 14, 15, 21, 22, 30)
    assert parse_pack("plain") == tuple(range(2, 14))


def test_g2_packs_from_lists_ranges_and_duplicates():
    assert parse_pack("2-13") == PACKS["plain"]
    assert parse_pack("2,6,7 7 1") == (2, 6, 7, 7, 1)
    assert parse_pack("2-4,10") == (2, 3, 4, 10)


@pytest.mark.parametrize(
    "text", ["", "0,1", "13-2", "fancy", "2,x", "1-99999999", "²", "2-¹³", "2,1000001",
             "1-600,1-600", "999999999999999999999"],
)
def test_g2_bad_packs_are_refused_with_a_sentence(text):
    with pytest.raises(ParseError) as error:
        parse_pack(text)
    assert str(error.value).endswith(".")


@given(st.lists(st.integers(1, 500), min_size=1, max_size=30))
def test_pack_text_parses_back(cards):
    assert parse_pack(pack_text(tuple(cards))) == tuple(cards)


def test_g3_layout_text_with_spaces_or_commas():
    cards = parse_layout("6 15 10 7 / 9,14,8,11 / 2 21 22 30")
    assert cards == (6, 15, 10, 7, 9, 14, 8, 11, 2, 21, 22, 30)
    assert layout_text(cards) == "6 15 10 7 / 9 14 8 11 / 2 21 22 30"


@given(st.lists(st.integers(1, 999), min_size=12, max_size=12))
def test_g3_layout_text_round_trips(cards):
    assert parse_layout(layout_text(tuple(cards))) == tuple(cards)


@pytest.mark.parametrize(
    "text", ["6 15 10 7 / 9 14 8 11", "6 15 10 / 9 14 8 11 / 2 21 22 30", "a b c d/1 2 3 4/1 2 3 4",
             "0 1 2 3 / 1 2 3 4 / 1 2 3 4", "", "² 1 2 3 / 1 2 3 4 / 1 2 3 4",
             "1000001 1 2 3 / 1 2 3 4 / 1 2 3 4"],
)
def test_g3_malformed_layouts_are_refused(text):
    with pytest.raises(ParseError):
        parse_layout(text)


@given(st.integers(0, 11), st.sampled_from([None, "L", "R"]), st.booleans())
def test_g4_move_notation_round_trips(position, end, bridge):
    if bridge and end is None:
        return
    move = LayoutMove(position, end, bridge)
    assert LayoutMove.parse(str(move)) == move
    assert LayoutMove.parse(str(move).lower()) == move


def test_g4_notation_examples():
    assert str(LayoutMove.parse("br")) == "BR"
    assert str(LayoutMove.parse(" a ")) == "A"
    assert str(LayoutMove.parse("fl*")) == "FL*"
    assert [str(m) for m in parse_moves("A, E BR")] == ["A", "E", "BR"]


@pytest.mark.parametrize("text", ["M", "AX", "A*", "BRL", "", "12"])
def test_g4_bad_moves_are_refused(text):
    with pytest.raises(ParseError):
        LayoutMove.parse(text)
