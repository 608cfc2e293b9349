"""Batches of games for a learner, behind one small interface so the rollout does not care
what steps them (Python environments here; a compiled batch plugs in the same way).

A `Source` holds `num_envs` games, each restarted as soon as it ends. `observe()` gives,
for every game, the seat to act, that seat's observation and its legal mask; `step(actions)`
plays one action in every game and returns each seat's reward (scaled, paid at the end)
and whether the game ended. Rewards are the environments' returns (docs/envs.md) divided by
the greatest return the game allows, so they lie in [-1, 1].

- `BotSource`: one learner in seat 0 of `gym_env(game_id, level=...)`, the bots in the
  other seats; one seat to learn for (`players` is 1).
- `SelfPlaySource`: `aec_env(game_id)`, the learner at every seat.
- `TwinSource`: the learner at every seat of a batch of the game's compiled twin
  (`chuko.envs.twins`, named by the descriptor): one call steps every game.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from chuko.core import references
from chuko.core.encoding import Encoding
from chuko.core.errors import ConfigError
from chuko.envs import aec_env, gym_env
from chuko.envs.common import load_encoding, make_game, return_bounds


class Source(Protocol):
    num_envs: int
    players: int  # the seats the learner plays (rewards' second dimension)
    observation_size: int
    num_actions: int

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(seats (N,) int, observations (N, D) float32, masks (N, A) bool)."""
        ...

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rewards (N, players) float, ended (N,) bool); ended games start again."""
        ...


def reward_scale(encoding: Encoding, players: int) -> float:
    """1 over the greatest return, in size, that a seat can get."""
    return 1.0 / max(max(abs(b) for b in return_bounds(encoding, players)), 1e-9)


def _seeds(seed: int, count: int) -> list[int]:
    """Independent seeds for `count` environments from one training seed."""
    return [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(count)]


class BotSource:
    """One learner against the bots of `level` (`gym_env`)."""

    def __init__(self, game_id: str, num_envs: int, seed: int, level: str | None = None,
                 **options: Any) -> None:
        self.envs = [gym_env(game_id, level=level, **options) for _ in range(num_envs)]
        self.num_envs, self.players = num_envs, 1
        first = self.envs[0]
        self.observation_size = int(np.prod(first.encoding.observation_shape))
        self.num_actions = int(first.encoding.num_actions)
        self.scale = reward_scale(first.encoding, first.game.players)
        self.observations = np.zeros((num_envs, self.observation_size), np.float32)
        self.masks = np.zeros((num_envs, self.num_actions), bool)
        for i, (env, env_seed) in enumerate(zip(self.envs, _seeds(seed, num_envs),
                                                strict=True)):
            self._keep(i, *env.reset(seed=env_seed))

    def _keep(self, i: int, observation: Any, info: dict[str, Any]) -> None:
        self.observations[i] = observation
        self.masks[i] = info["action_mask"] != 0

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.zeros(self.num_envs, np.int64), self.observations, self.masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((self.num_envs, 1))
        ended = np.zeros(self.num_envs, bool)
        for i, env in enumerate(self.envs):
            observation, reward, terminated, truncated, info = env.step(int(actions[i]))
            if terminated or truncated:
                rewards[i, 0] = reward * self.scale
                ended[i] = True
                observation, info = env.reset()
            self._keep(i, observation, info)
        return rewards, ended


class SelfPlaySource:
    """The learner at every seat of `aec_env(game_id, **options)`."""

    def __init__(self, game_id: str, num_envs: int, seed: int, **options: Any) -> None:
        self.envs = [aec_env(game_id, **options) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs, self.players = num_envs, len(first.possible_agents)
        self.seat_of = {agent: seat for seat, agent in enumerate(first.possible_agents)}
        self.observation_size = int(np.prod(first.encoding.observation_shape))
        self.num_actions = int(first.encoding.num_actions)
        self.scale = reward_scale(first.encoding, first.game.players)
        for env, env_seed in zip(self.envs, _seeds(seed, num_envs), strict=True):
            env.reset(seed=env_seed)

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        seats = np.zeros(self.num_envs, np.int64)
        observations = np.zeros((self.num_envs, self.observation_size), np.float32)
        masks = np.zeros((self.num_envs, self.num_actions), bool)
        for i, env in enumerate(self.envs):
            agent = env.agent_selection
            seen = env.observe(agent)
            seats[i] = self.seat_of[agent]
            observations[i] = seen["observation"]
            masks[i] = seen["action_mask"] != 0
        return seats, observations, masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rewards = np.zeros((self.num_envs, self.players))
        ended = np.zeros(self.num_envs, bool)
        for i, env in enumerate(self.envs):
            env.step(int(actions[i]))
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                for agent, seat in self.seat_of.items():
                    rewards[i, seat] = env.rewards[agent] * self.scale
                ended[i] = True
                env.reset()
        return rewards, ended


def load_twin(game_id: str, **options: Any) -> Any:
    """The compiled twin the game's descriptor names, for this configuration; ConfigError
    when it names none."""
    game = make_game(game_id, options)
    named = game.descriptor.integrations.twin
    if named is None:
        raise ConfigError(f"{game.title} has no compiled twin; train it on the Python "
                          "environments.")
    return references.load(named)(game)


class TwinSource:
    """The learner at every seat of `twin` (a `chuko.envs.twins.Twin`), `num_envs` rows."""

    def __init__(self, twin: Any, num_envs: int, seed: int) -> None:
        self.twin = twin
        self.num_envs, self.players = num_envs, int(twin.players)
        self.observation_size = int(np.prod(twin.observation_shape))
        self.num_actions = int(twin.num_actions)
        self.scale = reward_scale(load_encoding(twin.game), self.players)
        self.rng = np.random.default_rng(seed)
        self.batch = twin.batch(num_envs)
        self.observations = np.zeros((num_envs, self.observation_size), np.float32)
        self.masks = np.zeros((num_envs, self.num_actions), np.int8)
        self.rewards = np.zeros((num_envs, self.players), np.float32)
        self.ended = np.zeros(num_envs, np.int8)
        self.truncated = np.zeros(num_envs, np.int8)
        self._deal(np.arange(num_envs, dtype=np.int64))

    def _deal(self, rows: np.ndarray) -> None:
        self.twin.deal_random(self.batch, rows, int(self.rng.integers(2**63)))

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        seats = self.twin.to_move(self.batch).astype(np.int64)
        self.twin.observe(self.batch, seats, self.observations)
        self.twin.masks(self.batch, self.masks)
        return seats, self.observations.copy(), self.masks != 0

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.rewards[:] = 0
        self.twin.step(self.batch, actions.astype(np.int64), self.rewards, self.ended,
                       self.truncated)
        ended = self.ended != 0
        rewards = self.rewards.astype(np.float64) * self.scale
        rewards[self.truncated != 0] = 0.0  # a game stopped at a limit pays nothing
        if ended.any():
            self._deal(np.flatnonzero(ended).astype(np.int64))
        return rewards, ended
