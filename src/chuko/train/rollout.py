"""Collecting transitions from a `Source` and their advantages (GAE, Schulman et al. 2016).

Each game may have several seats played by the learner (self-play), so a transition's
successor is the next decision of the same seat in the same game, not the next step of the
batch: `successor[t, n]` is the step at which that seat acted next (-1 if none yet). When
a game ends, every seat's last transition in it gets that seat's reward and is final.
A seat's trajectory still open when the rollout stops is cut there: its last transition is
valued by the value network at the seat's next observation if that seat is the one to act
now, else by its own value (an advantage of zero for that step).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .network import Layer, forward
from .ppo import Batch, masked_log_softmax
from .sources import Source


@dataclass
class Rollout:
    """Arrays of shape (steps, envs, ...) from one collection."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    log_probs: np.ndarray
    values: np.ndarray
    rewards: np.ndarray
    final: np.ndarray
    successor: np.ndarray
    bootstrap: np.ndarray
    episode_rewards: list[float]

    def batch(self, gamma: float, lam: float) -> Batch:
        advantages = gae(self, gamma, lam)
        flat = self.observations.shape[0] * self.observations.shape[1]
        return Batch(self.observations.reshape(flat, -1), self.masks.reshape(flat, -1),
                     self.actions.reshape(flat), self.log_probs.reshape(flat),
                     advantages.reshape(flat), (advantages + self.values).reshape(flat))


def sample(logits: np.ndarray, masks: np.ndarray, rng: np.random.Generator
           ) -> tuple[np.ndarray, np.ndarray]:
    """An action per row from the masked softmax (the Gumbel-max trick), and its log-prob."""
    log_p = masked_log_softmax(logits, masks)
    actions = np.argmax(log_p - np.log(-np.log(rng.random(log_p.shape))), axis=1)
    return actions, log_p[np.arange(len(actions)), actions]


def collect(source: Source, policy: Sequence[Layer], value: Sequence[Layer], steps: int,
            rng: np.random.Generator) -> Rollout:
    """`steps` actions in every game of `source`, chosen by sampling the policy."""
    n, size, width = source.num_envs, source.observation_size, source.num_actions
    out = Rollout(np.zeros((steps, n, size), np.float32), np.zeros((steps, n, width), bool),
                  np.zeros((steps, n), np.int64), np.zeros((steps, n)), np.zeros((steps, n)),
                  np.zeros((steps, n)), np.zeros((steps, n), bool),
                  np.full((steps, n), -1, np.int64), np.zeros((steps, n)), [])
    open_step = np.full((n, source.players), -1, np.int64)  # each seat's last step, or -1
    games = np.arange(n)
    running = np.zeros(n)
    for t in range(steps):
        seats, observations, masks = source.observe()
        logits, _ = forward(policy, observations)
        actions, log_probs = sample(logits, masks, rng)
        out.observations[t], out.masks[t], out.actions[t] = observations, masks, actions
        out.log_probs[t] = log_probs
        out.values[t] = forward(value, observations)[0][:, 0]
        before = open_step[games, seats]
        out.successor[before[before >= 0], games[before >= 0]] = t
        open_step[games, seats] = t
        rewards, ended = source.step(actions)
        running += rewards[:, 0]
        for i in np.flatnonzero(ended):
            for seat in range(source.players):
                last = open_step[i, seat]
                if last >= 0:
                    out.rewards[last, i] += rewards[i, seat]
                    out.final[last, i] = True
            open_step[i] = -1
            out.episode_rewards.append(float(running[i]))
            running[i] = 0.0
    _bootstrap(out, source, value, open_step)
    return out


def _bootstrap(out: Rollout, source: Source, value: Sequence[Layer],
               open_step: np.ndarray) -> None:
    """The value each open trajectory is cut at (the module docstring)."""
    seats, observations, _ = source.observe()
    now = forward(value, observations)[0][:, 0]
    out.bootstrap[:] = out.values
    for i in range(source.num_envs):
        last = open_step[i, seats[i]]
        if last >= 0:
            out.bootstrap[last, i] = now[i]


def gae(out: Rollout, gamma: float, lam: float) -> np.ndarray:
    """Generalised advantage estimates along each seat's own trajectory."""
    steps, n = out.values.shape
    advantages = np.zeros((steps, n))
    games = np.arange(n)
    for t in range(steps - 1, -1, -1):
        nxt = out.successor[t]
        linked = (nxt >= 0) & ~out.final[t]
        at = np.where(linked, nxt, 0)
        next_value = np.where(out.final[t], 0.0,
                              np.where(linked, out.values[at, games], out.bootstrap[t]))
        next_advantage = np.where(linked, advantages[at, games], 0.0)
        delta = out.rewards[t] + gamma * next_value - out.values[t]
        advantages[t] = delta + gamma * lam * next_advantage
    return advantages
