"""The lobby's pools set up real games: every pool's options deal each seat enough cards
for a game of several moves a player, not a few forced ones."""

from __future__ import annotations

import random
from statistics import median

import pytest

from chuko.games import registry

POOLS = [(game, pool) for game in registry().values() for pool in game.descriptor.pools]
SEEDS = range(12)
# Moves a seat makes in a median game, with every seat playing at random: fewer is a
# deal too small to decide anything.
LEAST_MOVES_PER_SEAT = 4


def moves_per_seat(game_class, options, seed: int) -> float:
    game = game_class.from_options(options)
    state = game.new(seed)
    rng = random.Random(seed)
    moves = 0
    while state.to_move:
        seat = state.to_move[0]
        state.play(seat, state.random_move(seat, rng))
        moves += 1
    return moves / game.players


@pytest.mark.parametrize(("game", "pool"), POOLS,
                         ids=[f"{game.descriptor.id}/{pool.id}" for game, pool in POOLS])
def test_each_pool_deals_a_game_of_several_moves_a_seat(game, pool):
    lengths = [moves_per_seat(game, dict(pool.options), seed) for seed in SEEDS]
    assert median(lengths) >= LEAST_MOVES_PER_SEAT, (
        f"{pool.label}: a median game is {median(lengths)} moves a seat")
