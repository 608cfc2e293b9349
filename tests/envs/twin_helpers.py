"""The differential test of a compiled twin (envs/twins): the engine and the twin dealt the
same orders and choices, stepped with the same random legal actions, compared at every
step on the seat to move, the legal mask, every seat's observation, the rewards and the
endings. Games whose chance ends with the deal (Crossroads, Caravan) need no chance
outcome handed to the twin after it."""

from __future__ import annotations

import numpy as np

from chuko.core import references
from chuko.envs.common import load_encoding, make_game, returns


def load_twin(game):
    """The twin the game's descriptor names, for this configuration."""
    return references.load(game.descriptor.integrations.twin)(game)


class Pair:
    """A batch of `rows` games played by the engine and by the twin side by side."""

    def __init__(self, game, rows, seed, twin=None):
        self.game = game
        self.encoding = load_encoding(game)
        self.twin = twin if twin is not None else load_twin(game)
        self.rows = rows
        self.rng = np.random.default_rng(seed)
        self.batch = self.twin.batch(rows)
        self.deck = game.deck()
        self.states = [None] * rows
        twin = self.twin
        self.mask = np.zeros((rows, twin.num_actions), np.int8)
        self.observation = np.zeros((rows, *twin.observation_shape), np.float32)
        self.rewards = np.zeros((rows, twin.players), np.float32)
        self.ended = np.zeros(rows, np.int8)
        self.truncated = np.zeros(rows, np.int8)
        self.every = np.arange(rows)
        self.deal(self.every)
        self.to_move = self.compare(self.every)

    def deal(self, rows):
        """Deal `rows` anew from random orders and choices, to both."""
        twin, rng = self.twin, self.rng
        orders = np.array([rng.permutation(twin.deck_size) for _ in rows], dtype=np.int64)
        choices = np.array([[rng.integers(size) for size in twin.choice_sizes] for _ in rows],
                           dtype=np.int64).reshape(len(rows), len(twin.choice_sizes))
        orders = orders.reshape(len(rows), twin.deck_size)
        twin.deal(self.batch, rows, orders, choices)
        self.last_deal = (orders, choices)
        for i, row in enumerate(rows):
            self.states[row] = self.game.from_order(
                [self.deck[k] for k in orders[i]] if twin.deck_size else [],
                [int(c) for c in choices[i]], explicit_chance=True)

    def compare(self, rows):
        """The twin agrees with the engine on `rows`: seat to move, legal mask, every
        seat's observation. The whole batch's seats to move."""
        twin, encoding = self.twin, self.encoding
        to_move = twin.to_move(self.batch)
        twin.masks(self.batch, self.mask)
        expected = np.zeros_like(self.mask[rows])
        for i, row in enumerate(rows):
            state = self.states[row]
            seat = state.to_move[0] if state.to_move else -1
            assert to_move[row] == seat, f"row {row}: to move {to_move[row]}, engine {seat}"
            if seat >= 0:
                expected[i] = encoding.legal_mask(state, seat)
        np.testing.assert_array_equal(self.mask[rows], expected, err_msg="legal masks")
        for seat in range(twin.players):
            twin.observe(self.batch, np.full(self.rows, seat, np.int64), self.observation)
            views = [encoding.observation(self.states[row].view(seat)) for row in rows]
            np.testing.assert_array_equal(self.observation[rows], np.array(views),
                                          err_msg=f"observations of seat {seat}")
        return to_move

    def step(self):
        """One random legal action in every live row, to both, then the comparison of
        every row; a row whose game ended is dealt again, and its deal compared. The
        actions played."""
        to_move = self.to_move
        live = np.flatnonzero(to_move >= 0)
        actions = np.zeros(self.rows, np.int64)
        for row in live:
            actions[row] = self.rng.choice(np.flatnonzero(self.mask[row]))
        self.twin.step(self.batch, actions, self.rewards, self.ended, self.truncated)
        expected = np.zeros_like(self.rewards)
        for row in live:
            state = self.states[row]
            state.play(int(to_move[row]), self.encoding.move(int(actions[row])))
            outcome = state.outcome
            assert bool(self.ended[row]) == (outcome is not None), f"row {row}: ending"
            if outcome is not None:
                expected[row] = returns(outcome.scores)
                assert bool(self.truncated[row]) == bool(self.encoding.truncated(state))
        np.testing.assert_array_equal(self.rewards, expected, err_msg="rewards")
        self.to_move = self.compare(self.every)
        done = np.flatnonzero(self.ended)
        if done.size:
            self.deal(done)
            self.to_move = self.compare(done)
        return live.size


def play(game, actions, rows=64, seed=0, twin=None):
    """At least `actions` random legal actions through engine and twin side by side; the
    number played."""
    pair = Pair(game, rows, seed, twin)
    played = 0
    while played < actions:
        played += pair.step()
    return played


def configuration(game_id, **options):
    return make_game(game_id, options)


def play_single(game, games, seed=0):
    """`games` whole games through the twin's one-game fast path (`play_one`) beside the
    engine: the observation and mask it writes for the seat to move, the ending and the
    returns (`rewards`) equal the engine's; the actions played."""
    pair = Pair(game, 1, seed)
    twin, encoding, rng = pair.twin, pair.encoding, pair.rng
    observation = np.zeros(twin.observation_shape, np.float32)
    mask = np.array(pair.mask[0])
    played = 0
    for _ in range(games):
        state = pair.states[0]
        while state.outcome is None:
            seat = state.to_move[0]
            action = int(rng.choice(np.flatnonzero(mask)))
            state.play(seat, encoding.move(action))
            after = twin.play_one(pair.batch, action, observation, mask)
            played += 1
            if state.outcome is None:
                assert after == state.to_move[0]
                np.testing.assert_array_equal(mask, encoding.legal_mask(state, after))
                np.testing.assert_array_equal(
                    observation, encoding.observation(state.view(after)))
            else:
                assert after == -1
        rewards = np.zeros(twin.players, np.float32)
        twin.rewards(pair.batch, 0, rewards)
        np.testing.assert_array_equal(rewards, returns(state.outcome.scores))
        orders, choices = pair.last_deal
        assert twin.dealt(pair.batch, 0) == ([int(i) for i in orders[0]],
                                             [int(c) for c in choices[0]])
        pair.deal(np.arange(1))
        twin.masks(pair.batch, pair.mask)
        mask = np.array(pair.mask[0])
    return played
