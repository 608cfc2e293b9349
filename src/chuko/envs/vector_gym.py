"""Gymnasium's vector API (`gymnasium.vector.VectorEnv`) for the games of one seat, over the
compiled twin the game's descriptor names (envs/twins): `num_envs` games stepped by one
call, as EnvPool and pgx do.

    env = gym_vector_env("caravan", 1024, bridges=1)
    env = gymnasium.make_vec("chuko/Caravan-v0", num_envs=1024)   # the same

Observations are the encoding's arrays, one row per game (`observation_space` the single
space batched); actions one integer per game; the legal actions are in
`infos["action_mask"]` and `action_masks()`, as maskable PPO reads them. The reward comes
at the end, the game's return (`common.returns`), as in the single-game environment.

Autoreset: same step (`metadata["autoreset_mode"]`). A game that ends is dealt again within
the step: the observation and mask returned are the new game's, and the ended game's last
observation is in `infos["final_obs"]` (an object array, None for the rows that went on;
`infos["_final_obs"]` says which), as Gymnasium's own vector environments write it. Every
row therefore always has a legal action. An illegal action ends its row's game with the
least return the game allows (`infos["illegal_move"]` marks the rows), as in `gym_env`.

`reset(seed=s)` seeds the environment's generator, from which every deal is drawn; `reset`
with `options={"orders": ..., "choices": ...}` deals given games instead (one row of
`Twin.deal`'s orders and choices per game), as tests that compare with the engine need.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from chuko.core.errors import ConfigError, IllegalMove

from .aec import observation_box
from .common import load_encoding, make_game, return_bounds
from .vector import load_twin


class ChukoVectorGym(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """`gym_vector_env(game_id, num_envs, **options)`."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, game_id: str, num_envs: int, **options: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError(f"num_envs is a whole number of games, at least 1, not "
                              f"{num_envs!r}.")
        self.game = make_game(game_id, options)
        if self.game.players != 1:
            raise ConfigError(f"The vector Gymnasium environment serves games of one seat; "
                              f"{self.game.title} has {self.game.players}.")
        self.encoding = load_encoding(self.game)
        self.twin = load_twin(self.game)
        self.num_envs = num_envs
        self.single_observation_space = observation_box(self.encoding)
        self.single_action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.least_return = return_bounds(self.encoding, 1)[0]
        self.batch = self.twin.batch(num_envs)
        self._rows = np.arange(num_envs, dtype=np.int64)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._observations = np.zeros((num_envs, *self.encoding.observation_shape),
                                      np.float32)
        self._mask = np.zeros((num_envs, self.encoding.num_actions), np.int8)
        self._rewards = np.zeros((num_envs, 1), np.float32)
        self._ended = np.zeros(num_envs, np.int8)
        self._truncated = np.zeros(num_envs, np.int8)
        self._returned_mask = self._mask.copy()
        self._dealt = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        given = options or {}
        if "orders" in given:
            choices = given.get("choices", np.zeros((self.num_envs, 0), np.int64))
            self.twin.deal(self.batch, self._rows, given["orders"], choices)
        else:
            self._deal(self._rows)
        self._dealt = True
        return self._observe(), {"action_mask": self._masks()}

    def _deal(self, rows: Any) -> None:
        self.twin.deal_random(self.batch, rows, int(self.np_random.integers(2**63)))

    def _observe(self) -> Any:
        self.twin.observe(self.batch, self._seats, self._observations)
        return self._observations.copy()

    def _masks(self) -> Any:
        self.twin.masks(self.batch, self._mask)
        self._returned_mask = self._mask.copy()
        return self._returned_mask

    def action_masks(self) -> Any:
        """The legal actions of every game now, (num_envs, actions), 1 where legal
        (maskable PPO's `action_masks()`)."""
        return self._returned_mask

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        if not self._dealt:
            raise IllegalMove("Call reset() before step().")
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        inside = (actions >= 0) & (actions < self.encoding.num_actions)
        legal = inside & (self._mask[self._rows, np.where(inside, actions, 0)] == 1)
        illegal = ~legal
        if illegal.any():  # those rows end unplayed; a legal stand-in keeps the batch whole
            last = self._observations[illegal].copy()
            actions = np.where(legal, actions, self._mask.argmax(axis=1))
        self.twin.step(self.batch, actions, self._rewards, self._ended, self._truncated)
        rewards = self._rewards[:, 0].astype(np.float64)
        rewards[illegal] = self.least_return
        truncated = self._truncated.astype(bool) & legal
        ended = self._ended.astype(bool) | illegal
        terminated = ended & ~truncated
        infos: dict[str, Any] = {}
        if ended.any():
            finals = self._observe()
            if illegal.any():
                finals[illegal] = last
            infos["final_obs"] = np.full(self.num_envs, None, dtype=object)
            for row in np.flatnonzero(ended):
                infos["final_obs"][row] = finals[row]
            infos["_final_obs"] = ended
            self._deal(np.flatnonzero(ended))
        if illegal.any():
            infos["illegal_move"] = illegal
            infos["_illegal_move"] = illegal
        infos["action_mask"] = self._masks()
        return self._observe(), rewards, terminated, truncated, infos


def gym_vector_env(game_id: str, num_envs: int, **options: Any) -> ChukoVectorGym:
    """`num_envs` games of `game_id` (a game of one seat with a compiled twin) under
    Gymnasium's vector API; `options` are the game's."""
    return ChukoVectorGym(game_id, num_envs, **options)
