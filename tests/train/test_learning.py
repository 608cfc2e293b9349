"""PPO learns: on a trivial game it goes from chance to near-perfect in a few updates, each
seat's reward reaches its own moves in self-play, and a seeded run repeats exactly."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from chuko.train.network import forward  # noqa: E402
from chuko.train.rollout import collect  # noqa: E402
from chuko.train.trainer import Settings, Trainer  # noqa: E402


class Guess:
    """A one-move game for `players` seats taking turns: the observation shows one of 4
    symbols; action 1 + symbol wins (reward 1), anything else loses (0). Action 0 is never
    legal, so a learner that ignored the mask would be caught."""

    observation_size = 4
    num_actions = 5

    def __init__(self, num_envs: int, seed: int, players: int = 1) -> None:
        self.num_envs, self.players = num_envs, players
        self.rng = np.random.default_rng(seed)
        self.symbols = self.rng.integers(0, 4, num_envs)
        self.turn = np.zeros(num_envs, np.int64)
        self.scored = np.zeros((num_envs, players))

    def observe(self):
        observations = np.eye(4, dtype=np.float32)[self.symbols]
        masks = np.ones((self.num_envs, 5), bool)
        masks[:, 0] = False
        return self.turn.copy(), observations, masks

    def step(self, actions):
        assert np.all(actions != 0), "an illegal action was chosen"
        rows = np.arange(self.num_envs)
        self.scored[rows, self.turn] = (actions == self.symbols + 1)
        self.turn += 1
        ended = self.turn == self.players
        rewards = np.where(ended[:, None], self.scored, 0.0)
        self.turn[ended] = 0
        self.scored[ended] = 0.0
        self.symbols = self.rng.integers(0, 4, self.num_envs)
        return rewards, ended


def accuracy(trainer: Trainer) -> float:
    logits, _ = forward(trainer.policy, np.eye(4))
    return float(np.mean(np.argmax(logits[:, 1:], axis=1) == np.arange(4)))


def win_probability(trainer: Trainer) -> float:
    logits, _ = forward(trainer.policy, np.eye(4))
    logits[:, 0] = -np.inf
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return float(np.mean(p[np.arange(4), np.arange(4) + 1]))


def test_a_trivial_game_is_learned_from_chance_to_near_certainty() -> None:
    trainer = Trainer(Guess(8, seed=1), Settings(hidden=(16, 16), steps=16, lr=3e-3), seed=1)
    before = win_probability(trainer)
    trainer.run(updates=15)
    assert before == pytest.approx(0.25, abs=0.02)  # the first policy is nearly uniform
    assert win_probability(trainer) > 0.9
    assert accuracy(trainer) == 1.0


def test_each_seat_gets_its_own_reward_in_self_play() -> None:
    source = Guess(3, seed=2, players=2)
    trainer = Trainer(source, Settings(hidden=(8,), steps=6), seed=2)
    rollout = collect(source, trainer.policy, trainer.value, 6, trainer.rng)
    # Steps alternate seats 0, 1, 0, 1...: every game ends after each second step, and each
    # seat's one move in it is final, holding whether that move won.
    wins = rollout.actions == rollout.observations.argmax(axis=2) + 1
    assert np.all(rollout.final)
    np.testing.assert_array_equal(rollout.rewards, wins.astype(float))
    assert np.all(rollout.successor == -1)


def test_a_seat_links_to_its_own_next_move_across_the_other_seats_moves() -> None:
    class Longer(Guess):  # two moves per seat before the end: turns 0, 1, 0, 1
        def step(self, actions):
            rows = np.arange(self.num_envs)
            self.scored[rows, self.turn % 2] += actions == self.symbols + 1
            self.turn += 1
            ended = self.turn == 4
            rewards = np.where(ended[:, None], self.scored, 0.0)
            self.turn[ended] = 0
            self.scored[ended] = 0.0
            self.symbols = self.rng.integers(0, 4, self.num_envs)
            return rewards, ended

        def observe(self):
            seats, observations, masks = super().observe()
            return seats % 2, observations, masks

    source = Longer(2, seed=3, players=2)
    trainer = Trainer(source, Settings(hidden=(8,), steps=4), seed=3)
    rollout = collect(source, trainer.policy, trainer.value, 4, trainer.rng)
    np.testing.assert_array_equal(rollout.successor[:, 0], [2, 3, -1, -1])
    np.testing.assert_array_equal(rollout.final[:, 0], [False, False, True, True])


def test_a_seeded_run_repeats_exactly() -> None:
    def weights() -> list:
        trainer = Trainer(Guess(4, seed=5), Settings(hidden=(8,), steps=8), seed=5)
        trainer.run(updates=3)
        return [w for layer in trainer.policy for w in layer]

    for a, b in zip(weights(), weights(), strict=True):
        np.testing.assert_array_equal(a, b)
