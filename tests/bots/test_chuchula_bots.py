"""Chuchula bots: random, easy (greedy) and hard (the advisor) play valid groupings."""

import itertools
import random

import pytest

from chuko.bots import bot_levels, make_bot
from chuko.core.deck52 import parse_cards
from chuko.core.errors import ConfigError
from chuko.games.chuchula import Game, group_strength
from chuko.solvers.chuchula_advisor import advise

HAND = ["As", "Ad", "Ac", "Ks", "Qs", "Js", "9h", "9d", "5c", "7h", "3d", "2c", "4s"]


def test_chuchula_bots_come_in_three_levels():
    assert bot_levels("chuchula") == ("random", "easy", "hard")


@pytest.mark.parametrize("level", ["random", "easy", "hard"])
def test_every_bot_plays_whole_games_through_its_view_only(level):
    state = Game(players=3, length=2).new(seed=7)
    bots = [make_bot("chuchula", level, random.Random(s)) for s in range(3)]
    while state.outcome is None:
        for seat in state.to_move:
            state.play(seat, bots[seat].choose(state.view(seat), []))
    assert state.outcome is not None


def test_easy_takes_the_strongest_group_then_the_strongest_of_the_rest():
    view = {"players": 4, "hand": HAND}
    move = make_bot("chuchula", "easy", random.Random(0)).choose(view, [])
    assert [str(g[0]) + str(g[1]) + str(g[2]) for g in move.groups][:2] == ["AsAdAc", "KsQsJs"]
    hand = parse_cards(" ".join(view["hand"]))
    rest = [c for c in hand if c not in move.groups[0] + move.groups[1]]
    best = max(group_strength(t) for t in itertools.combinations(rest, 3))
    assert group_strength(move.groups[2]) == best


def test_hard_plays_the_advisors_grouping_for_the_table_size():
    view = {"players": 3, "hand": HAND}
    move = make_bot("chuchula", "hard", random.Random(0)).choose(view, [])
    assert move == advise(parse_cards(" ".join(view["hand"])), 3).grouping


def test_random_bot_varies_its_grouping_with_its_seed():
    view = {"players": 4, "hand": HAND}
    moves = {
        str(make_bot("chuchula", "random", random.Random(s)).choose(view, [])) for s in range(5)
    }
    assert len(moves) > 1


def test_an_unknown_level_or_option_is_refused():
    with pytest.raises(ConfigError, match="choose from random, easy, hard"):
        make_bot("chuchula", "perfect")
    with pytest.raises(ConfigError, match="no options"):
        make_bot("chuchula", "easy", random.Random(0), depth=3)
