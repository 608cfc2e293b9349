"""Bots for Crossroads and Caravan: legal, seeded, and ordered by strength."""

import json
import random

import pytest

from chuko.bots import bot_levels, make_bot
from chuko.core.errors import ConfigError
from chuko.games.caravan import Caravan
from chuko.games.crossroads import Crossroads
from chuko.solvers.caravan import CaravanSolver
from chuko.solvers.crossroads import CrossroadsSolver


def play_crossroads(levels, seed):
    state = Crossroads(first=seed % 2).new(seed=seed)
    rng = random.Random(seed)
    bots = [make_bot("crossroads", level, rng) for level in levels]
    while state.to_move:
        seat = state.to_move[0]
        moves = state.legal_moves(seat)
        move = bots[seat].choose(state.view(seat), moves)
        assert move in moves
        state.play(seat, move)
    return state


def test_levels_are_named_alike_and_unknown_levels_are_refused():
    levels = ("random", "easy", "hard", "perfect")
    assert bot_levels("crossroads") == bot_levels("caravan") == levels
    with pytest.raises(ConfigError, match="no 'expert' bot"):
        make_bot("caravan", "expert")


@pytest.mark.parametrize("game_id", ["crossroads", "caravan"])
def test_layout_bots_refuse_options_with_a_sentence(game_id):
    with pytest.raises(ConfigError, match="bots take no options, not time_limit"):
        make_bot(game_id, "hard", random.Random(0), time_limit=1.0)


def test_a_layout_bot_plays_from_a_view_alone():
    # The view is the whole position: a bot given a copy of it (no engine state) still
    # finds the solver's best move.
    state = Crossroads(first=0).new(seed=6)
    for _ in range(4):
        seat = state.to_move[0]
        state.play(seat, state.legal_moves(seat)[0])
    view = json.loads(json.dumps(state.view(0)))
    move = make_bot("crossroads", "perfect", random.Random(0)).choose(view, state.legal_moves(0))
    values = CrossroadsSolver(state.layout).move_values(state)
    assert values[move] == max(values.values())


def test_perfect_crossroads_bot_always_gets_at_least_the_solver_value():
    for seed in range(8):
        state = play_crossroads(["perfect", "random"], seed)
        start = Crossroads(deal=state.layout, first=state.first).new()
        value = CrossroadsSolver(state.layout).value(start)
        lead = state.totals()[0] - state.totals()[1]
        assert lead >= (value if state.first == 0 else -value)


def test_easy_crossroads_bot_outscores_random_over_many_games():
    lead = sum(
        (s.totals()[0] - s.totals()[1]) for s in (play_crossroads(["easy", "random"], seed)
                                                 for seed in range(40))
    )
    assert lead > 20


@pytest.mark.slow
def test_hard_crossroads_bot_sits_between_easy_and_perfect():
    def lead(levels):
        games = [play_crossroads(levels, seed) for seed in range(30)]
        return sum(s.totals()[0] - s.totals()[1] for s in games)

    assert lead(["hard", "easy"]) > 0
    assert lead(["perfect", "hard"]) > 0


@pytest.mark.slow
def test_caravan_bots_are_ordered_random_easy_hard_perfect():
    wins = {"random": 0, "easy": 0, "hard": 0, "perfect": 0}
    winnable = 0
    for seed in range(25):
        game = Caravan(bridges=1)
        winnable += CaravanSolver(game.new(seed=seed).layout, 1).fresh()
        for level in wins:
            state = game.new(seed=seed)
            bot = make_bot("caravan", level, random.Random(seed))
            while state.to_move:
                state.play(0, bot.choose(state.view(0), state.legal_moves(0)))
            wins[level] += bool(state.outcome.winners)
    assert wins["perfect"] == winnable
    assert wins["random"] < wins["easy"] < wins["hard"] <= wins["perfect"]
