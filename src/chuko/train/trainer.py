"""The PPO training loop: collect a rollout from a `Source`, learn from it for a few epochs of
minibatches, evaluate now and then, keep the learning curve, save the policy.

`Settings` holds the hyperparameters; `Trainer.run(minutes=..., updates=...)` stops at
whichever limit comes first. The clock decides only when to stop, never what is learned:
with `updates` given (as the tests do) one seed makes one run (on one machine: another
CPU's BLAS may round matrix products differently).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from chuko.bots.policy import Policy, describe, game_encoding, save_policy
from chuko.core.protocol import Game, Json

from .network import Adam, Layer, clip_by_norm, init_mlp, parameters
from .ppo import Batch, LossWeights, loss_and_grads
from .rollout import collect
from .sources import Source


@dataclass(frozen=True)
class Settings:
    hidden: tuple[int, ...] = (64, 64)
    steps: int = 128  # actions per game in the batch between updates
    epochs: int = 4
    minibatches: int = 4
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    max_grad_norm: float = 0.5
    loss: LossWeights = field(default_factory=LossWeights)


@dataclass
class Point:
    """One point of the learning curve."""

    update: int
    steps: int
    seconds: float
    mean_episode_reward: float | None  # the learner's (seat 0's) games ended in the rollout
    evaluations: dict[str, Json] = field(default_factory=dict)


class Trainer:
    def __init__(self, source: Source, settings: Settings, seed: int) -> None:
        self.source, self.settings = source, settings
        self.rng = np.random.default_rng(seed)
        sizes = [source.observation_size, *settings.hidden]
        self.policy: list[Layer] = init_mlp([*sizes, source.num_actions], self.rng, 0.01)
        self.value: list[Layer] = init_mlp([*sizes, 1], self.rng, 1.0)
        self.adam = Adam(parameters(self.policy) + parameters(self.value), settings.lr)
        self.steps = 0
        self.updates = 0
        self.curve: list[Point] = []
        self.stats: dict[str, float] = {}

    def snapshot(self, game: Game, options: Json) -> Policy:
        """The policy as it stands, as a bot plays it (float32 weights, with metadata)."""
        weights = tuple((w.astype(np.float32), b.astype(np.float32)) for w, b in self.policy)
        layers = [self.source.observation_size, *self.settings.hidden, self.source.num_actions]
        return Policy(weights, describe(game, game_encoding(game), options, layers))

    def update(self) -> Point:
        """One rollout and the epochs of learning from it."""
        s = self.settings
        rollout = collect(self.source, self.policy, self.value, s.steps, self.rng)
        batch = rollout.batch(s.gamma, s.lam)
        self.steps += len(batch.actions)
        self.updates += 1
        self._learn(batch)
        rewards = rollout.episode_rewards
        return Point(self.updates, self.steps, 0.0,
                     float(np.mean(rewards)) if rewards else None)

    def _learn(self, batch: Batch) -> None:
        s = self.settings
        n = len(batch.actions)
        size = max(1, n // s.minibatches)
        for _ in range(s.epochs):
            order = self.rng.permutation(n)
            for start in range(0, n - size + 1, size):
                part = batch.rows(order[start:start + size])
                a = part.advantages
                part = Batch(part.observations, part.masks, part.actions, part.old_log_probs,
                             (a - a.mean()) / (a.std() + 1e-8), part.returns)
                _, grads, self.stats = loss_and_grads(self.policy, self.value, part, s.loss)
                self.adam.step(clip_by_norm(grads, s.max_grad_norm))

    def run(self, minutes: float | None = None, updates: int | None = None,
            every: int = 10, on_point: Callable[[Point], None] | None = None) -> None:
        """Train until `minutes` have passed or `updates` are done; `on_point` sees every
        `every`-th update's point (and the last), which it may fill with evaluations
        before it joins the curve."""
        start = time.monotonic()
        if on_point is not None and not self.curve:  # the untrained policy starts the curve
            first = Point(self.updates, self.steps, 0.0, None)
            on_point(first)
            self.curve.append(first)
        while True:
            point = self.update()
            point.seconds = time.monotonic() - start
            done = (updates is not None and self.updates >= updates) or (
                minutes is not None and point.seconds >= 60 * minutes)
            if done or self.updates % every == 0:
                if on_point is not None:
                    on_point(point)
                self.curve.append(point)
            if done:
                return

    def save(self, path: str, game: Game, options: Json) -> Policy:
        policy = self.snapshot(game, options)
        save_policy(path, policy)
        return policy
