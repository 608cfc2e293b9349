"""The Chuchula advisor: the grouping with the most expected points, checked by brute force."""

import itertools
import random

import pytest

from chuko.core.deck52 import DECK, parse_cards
from chuko.core.errors import ConfigError, ParseError
from chuko.games.chuchula import group_strength, grouping_problem
from chuko.solvers.chuchula_advisor import (
    advise,
    greedy_grouping,
    position_chances,
    shipped_table,
    strength_classes,
)

EXAMPLE_HAND = parse_cards("♠A ♠4 ♠5 ♦K ♦Q ♦J ♦2 ♣9 ♣8 ♥J ♥7 ♥4 ♥3")


def expected_points(grouping, players):
    return sum(position_chances(group_strength(g), players)[i]
               for i, g in enumerate(grouping.groups))


def test_the_shipped_table_gives_each_position_a_rising_chance_for_all_741_strengths():
    assert len(strength_classes()) == 741
    for row in shipped_table().below:
        assert len(row) == 741 and row[0] == 0.0 and all(0 <= x <= 1 for x in row)
        assert all(a <= b for a, b in zip(row, row[1:], strict=False))


def best_by_brute_force(hand, players):
    """The most expected points over all 200,200 ways to split the hand, enumerated here
    independently of the advisor's search."""
    gains = {}
    for triple in itertools.combinations(range(13), 3):
        cards = [hand[i] for i in triple]
        gains[triple] = (group_strength(cards), position_chances(group_strength(cards), players))

    def splits(rest):
        if not rest:
            yield []
            return
        for a, b in itertools.combinations(rest[1:], 2):
            for split in splits([c for c in rest[1:] if c not in (a, b)]):
                yield [(rest[0], a, b), *split]

    best = 0.0
    for leftover in range(13):
        for split in splits([i for i in range(13) if i != leftover]):
            ordered = sorted((gains[t] for t in split), reverse=True)
            best = max(best, sum(chances[i] for i, (_, chances) in enumerate(ordered)))
    return best


@pytest.mark.slow  # seconds: in make test, not make test-fast
@pytest.mark.parametrize("players", [2, 4])
def test_the_advice_is_the_best_of_all_groupings_under_the_model(players):
    advice = advise(EXAMPLE_HAND, players)
    assert advice.total == pytest.approx(best_by_brute_force(EXAMPLE_HAND, players))
    assert advice.total == pytest.approx(expected_points(advice.grouping, players))


@pytest.mark.parametrize("seed", range(20))
def test_the_advice_is_a_valid_grouping_never_worse_than_greedy(seed):
    hand = random.Random(seed).sample(DECK, 13)
    players = 2 + seed % 3
    advice = advise(hand, players)
    assert grouping_problem(hand, advice.grouping) is None
    assert advice.total >= expected_points(greedy_grouping(hand), players) - 1e-12
    assert len(advice.expected) == 4 and all(0 <= x <= 1 for x in advice.expected)


def test_fewer_opponents_mean_more_expected_points():
    assert advise(EXAMPLE_HAND, 2).total > advise(EXAMPLE_HAND, 4).total


@pytest.mark.parametrize(
    ("cards", "message"),
    [(EXAMPLE_HAND[:12], "has 12 card"), (EXAMPLE_HAND[:12] + EXAMPLE_HAND[:1], "only 12")],
)
def test_a_hand_that_is_not_13_different_cards_is_refused(cards, message):
    with pytest.raises(ParseError, match=message):
        advise(cards, 4)


def test_a_table_of_one_or_five_players_is_refused():
    for players in (1, 5):
        with pytest.raises(ConfigError, match="2 to 4 players"):
            advise(EXAMPLE_HAND, players)
