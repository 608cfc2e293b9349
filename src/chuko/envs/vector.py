"""Batched multi-agent environments over a game's compiled twin (docs/envs.md, 'Vector
environments'): one call steps every game of a batch, with masks and observations as arrays.

    env = vector_env("chuko", 4096, seed=0, players=3)
    out = env.reset()
    while learning:
        out = env.step(policy(out.observation, out.action_mask))   # one action per row
        # out.player, out.observation, out.action_mask, out.rewards, out.terminated, ...

Each row is one game. `player[i]` is the seat to move in row i, `observation[i]` that seat's
observation (the game's encoding), `action_mask[i]` its legal actions; `step(actions)` plays
`actions[i]` for it. `rewards` has a column per seat: every seat's return (envs/common.py)
is paid in the step that ends the game, 0 elsewhere. `observe(seats)` gives any seat's
observation per row (a seat waiting for its turn, say).

Auto-reset, same-step (Gymnasium's `AutoresetMode.SAME_STEP`): a row whose game ends in a
step reports that game's `rewards`, `terminated` or `truncated` in that step's result, and
is dealt again at once, so the `player`, `observation` and `action_mask` the same result
gives for it are already the next game's first position. A learner therefore credits
`rewards[i, seat]` to the game each seat was playing in row i up to that step, and treats
the row's next observation as a new game's; the ended game's last observation is not
returned (its rewards are final: no value is bootstrapped from it, except after a
truncation, which a learner may read by calling `observe` before the step).

Nothing here names a game: the twin is the one the game's descriptor names (`twin`), and
a game without one has no vector environment (ConfigError). Chance after the deal is drawn
by the twin's own generator, seeded from `seed`: the same seed, options and actions give
the same games.
"""

from __future__ import annotations

from random import Random
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from chuko.core import references
from chuko.core.errors import ConfigError
from chuko.core.protocol import Game

from .common import make_game
from .twins import Twin

_SEED_BITS = 63


def load_twin(game: Game) -> Twin:
    """The compiled twin of `game`'s configuration, from the factory its descriptor names;
    ConfigError when the game has none or the twin does not cover the configuration."""
    named = game.descriptor.integrations.twin
    if named is None:
        raise ConfigError(f"{game.title} has no compiled twin, so no vector environment.")
    try:
        make = references.load(named)
    except ImportError as missing:
        if (missing.name or "").partition(".")[0] != "numba":
            raise
        raise ConfigError("Compiled twins need numba: install the `fast` extra "
                          "(pip install 'chuko[fast]').") from None
    twin: Twin = make(game)
    return twin


class VectorStep(NamedTuple):
    """What `reset` and `step` return, one entry (or row) per game of the batch."""

    player: npt.NDArray[np.int64]  # the seat to move
    observation: npt.NDArray[np.float32]  # (rows, *observation_shape), that seat's
    action_mask: npt.NDArray[np.int8]  # (rows, num_actions), that seat's legal actions
    rewards: npt.NDArray[np.float32]  # (rows, players): returns, paid as a game ends
    terminated: npt.NDArray[np.bool_]  # the game ended by its rules in this step
    truncated: npt.NDArray[np.bool_]  # the game stopped at a limit in this step


def vector_env(game_id: str, num_envs: int, seed: int | None = None,
               **options: Any) -> VectorEnv:
    """A batch of `num_envs` games of `game_id` with the game's `options` (the module
    docstring); `seed` seeds the deals and chance."""
    return VectorEnv(game_id, num_envs, seed, **options)


class VectorEnv:
    """`vector_env(game_id, num_envs, seed=None, **options)`: the module docstring."""

    def __init__(self, game_id: str, num_envs: int, seed: int | None = None,
                 **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ConfigError("A vector environment has at least one game (num_envs).")
        self.game = make_game(game_id, options)
        self.twin = load_twin(self.game)
        self.num_envs = num_envs
        self.players = self.twin.players
        self.num_actions = self.twin.num_actions
        self.observation_shape = self.twin.observation_shape
        self._rows = np.arange(num_envs, dtype=np.int64)
        self._rng = Random(seed)
        self.batch = self.twin.batch(num_envs)
        self._dealt = False

    def _seed(self) -> int:
        return self._rng.getrandbits(_SEED_BITS)

    def reset(self, seed: int | None = None) -> VectorStep:
        """Deal every row afresh (`seed` reseeds the environment's generator)."""
        if seed is not None:
            self._rng = Random(seed)
        self.twin.deal_random(self.batch, self._rows, self._seed())
        self._dealt = True
        rows, players = self.num_envs, self.players
        no = np.zeros(rows, np.bool_)
        return self._result(np.zeros((rows, players), np.float32), no, no.copy())

    def step(self, actions: Any) -> VectorStep:
        """Play `actions[i]` for row i's seat to move; IllegalMove (a ChukoError naming the
        row, no row changed) for an action outside its mask. Rows that end are dealt again
        at once (the module docstring)."""
        if not self._dealt:
            raise ConfigError("Reset the vector environment before stepping it.")
        rows = self.num_envs
        actions = np.asarray(actions, np.int64).reshape(rows)
        rewards = np.zeros((rows, self.players), np.float32)
        ended, truncated = np.zeros(rows, np.int8), np.zeros(rows, np.int8)
        self.twin.step(self.batch, actions, rewards, ended, truncated)
        over = ended.astype(np.bool_)
        if over.any():
            self.twin.deal_random(self.batch, self._rows[over], self._seed())
        cut = truncated.astype(np.bool_)
        return self._result(rewards, over & ~cut, cut)

    def _result(self, rewards: Any, terminated: Any, truncated: Any) -> VectorStep:
        player = self.twin.to_move(self.batch)
        mask = np.empty((self.num_envs, self.num_actions), np.int8)
        self.twin.masks(self.batch, mask)
        return VectorStep(player, self.observe(player), mask, rewards, terminated, truncated)

    def observe(self, seats: Any) -> npt.NDArray[np.float32]:
        """Seat `seats[i]`'s observation of row i, for every row (a new array)."""
        seats = np.asarray(seats, np.int64).reshape(self.num_envs)
        if ((seats < 0) | (seats >= self.players)).any():
            raise ConfigError(f"A seat is a number from 0 to {self.players - 1}.")
        out = np.empty((self.num_envs, *self.observation_shape), np.float32)
        self.twin.observe(self.batch, seats, out)
        return out

    def random_steps(self, steps: int, seed: int | None = None) -> int:
        """Deal every row afresh, then play `steps` rounds of a uniformly random legal
        action in every row, with auto-reset (the bench's batched rate): compiled where the
        twin offers `random_steps`, else through `step`. Returns the actions taken."""
        fast = getattr(self.twin, "random_steps", None)
        if fast is not None:
            actions: int = fast(self.batch, steps, self._seed() if seed is None else seed)
            self._dealt = True
            return actions
        out = self.reset(seed)
        rng = np.random.default_rng(self._seed())
        for _ in range(steps):
            # The k-th legal action of each row, k uniform among its legal ones.
            counts = out.action_mask.cumsum(axis=1)
            picks = (rng.random(self.num_envs) * counts[:, -1]).astype(np.int64)
            out = self.step((counts <= picks[:, None]).sum(axis=1))
        return steps * self.num_envs
