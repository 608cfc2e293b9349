"""Chükö's compiled twin (chuko/envs/twins/__init__.py, the `Twin` surface): every
configuration the descriptor's options allow, any number of players and any pack, the turn
limit as the environments set it (envs/common.make_game) or none, the first seat at random
or set. Its rules are numba kernels (chuko_kernels.py), held to the engine by
tests/envs/test_twin_chuko.py.

Chance. After the deal the only chance is the card a reset draws from a recycled pile. A
batch draws it from each row's own generator (splitmix64, seeded by `deal_random`), so a
row's game is fixed by the seed and the actions. `batch(rows, explicit_chance=True)`
leaves it to the caller instead, as the engine's `explicit_chance` does: such a row waits
at the chance node (`to_move` -1, `chance_outcomes` lists the cards with their shares) until
`apply_chance` gives the card.

Besides the surface: `dealt(batch, row)`, the order and choices a row was dealt from (as
`deal` takes them); `drawn(batch, row)`, the chance outcomes its last step drew, as the
engine's `apply_chance` takes them (so an environment can rebuild the engine's state from
the deal and the actions); `compiled_play` and `compiled_deal`, one action (or a deal) of a batch of
one with the next observation and a number for its mask in one compiled call, with
`compiled_observe`, `pattern`, `rewards` and `truncated` (the AEC environment's step); and
`random_steps(batch, steps, seed)`, uniformly random play with auto-reset, all compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
from numba import typeof

from chuko.core.errors import ConfigError, IllegalMove
from chuko.games.chuko import Game, may_follow
from chuko.games.encodings.chuko import encoding

from . import Floats, Ints, Mask
from . import chuko_kernels as k


@dataclass
class Batch:
    """A batch of Chükö games: the configuration array and one int64 row per game."""

    cfg: np.ndarray
    s: np.ndarray
    explicit: bool


def twin(game: Game) -> ChukoTwin:
    """The twin of `game`'s configuration (its descriptor's `twin`)."""
    return ChukoTwin(game)


class ChukoTwin:
    """Chükö's rules for one configuration, over batches of games (the module docstring)."""

    def __init__(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise ConfigError("Chükö's twin plays only Chükö games.")
        self.game = game
        self.encoding = encoding(game)
        self.values = self.encoding.values
        self.players = game.players
        self.num_actions = self.encoding.num_actions
        self.observation_shape = self.encoding.observation_shape
        self.deck_size = len(game.pack)
        self.choice_sizes = tuple(game.deal_choices())
        self._index = self.encoding.index
        self._cfg = self._configuration()

    def _configuration(self) -> np.ndarray:
        """The kernels' configuration array (chuko_kernels.py's C_ places and tables)."""
        game, values = self.game, self.values
        d, p, n = len(values), game.players, len(game.pack)
        limit = game.turn_limit or 0
        head = [d, p, game.hand_size, n, limit, 0,
                -1 if game.first is None else game.first,
                -(-limit // p) if limit else 1, max(n - p - 1, 1)]
        head += [0] * (k.C_TABLES - len(head))
        # may_follow[card, top], read by the kernels as follow[top + card * D].
        follow = [int(may_follow(card, top)) for card in values for top in values]
        deck = [self._index[card] for card in game.pack]
        made = [game.pack.count(value) for value in values]
        return np.array(head + follow + deck + made, np.int64)

    # -- batches ----------------------------------------------------------------------------

    def batch(self, rows: int, explicit_chance: bool = False) -> Batch:
        """`rows` games, none dealt; `explicit_chance`: chance is left to the caller."""
        cfg = self._cfg.copy()
        cfg[k.C_EXPLICIT] = int(explicit_chance)
        width = k.row_width(len(self.values), self.players, self.deck_size)
        return Batch(cfg, np.zeros((rows, width), np.int64), explicit_chance)

    def deal(self, batch: Batch, rows: Ints, orders: Ints, choices: Ints) -> None:
        rows = self._rows(batch, rows)
        orders = np.asarray(orders, np.int64).reshape(len(rows), self.deck_size)
        choices = np.asarray(choices, np.int64).reshape(len(rows), len(self.choice_sizes))
        if (np.sort(orders, axis=1) != np.arange(self.deck_size)).any():
            raise ConfigError(f"An order is a permutation of range({self.deck_size}).")
        if choices.size and not ((choices >= 0) & (choices < self.players)).all():
            raise ConfigError(f"The deal chooses the first player: a seat from 0 to "
                              f"{self.players - 1}.")
        k.deal_rows(batch.cfg, batch.s, rows, orders, choices)

    def deal_random(self, batch: Batch, rows: Ints, seed: int) -> None:
        k.deal_random_rows(batch.cfg, batch.s, self._rows(batch, rows),
                           int(seed) & 0x7FFF_FFFF_FFFF_FFFF)

    @staticmethod
    def _rows(batch: Batch, rows: Any) -> Ints:
        """`rows` as int64 row numbers of `batch`; ConfigError for any other."""
        found = np.asarray(rows, np.int64).reshape(-1)
        if ((found < 0) | (found >= batch.s.shape[0])).any():
            raise ConfigError(f"A row is a number from 0 to {batch.s.shape[0] - 1}.")
        return found

    @staticmethod
    def _fits(array: Any, shape: tuple[int, ...], dtype: Any, what: str) -> None:
        """The kernels write where they are told: an array of another shape is refused."""
        if not isinstance(array, np.ndarray) or array.shape != shape or array.dtype != dtype:
            raise ConfigError(f"The {what} array must be {np.dtype(dtype).name} of shape "
                              f"{shape}.")

    def to_move(self, batch: Batch) -> Ints:
        out = np.empty(batch.s.shape[0], np.int64)
        k.to_move_rows(batch.cfg, batch.s, out)
        return out

    def masks(self, batch: Batch, out: Mask) -> None:
        self._fits(out, (batch.s.shape[0], self.num_actions), np.int8, "mask")
        k.masks_rows(batch.cfg, batch.s, out)

    def observe(self, batch: Batch, seats: Ints, out: Floats) -> None:
        rows = batch.s.shape[0]
        self._fits(out, (rows, *self.observation_shape), np.float32, "observation")
        seats = np.asarray(seats, np.int64)
        if seats.shape != (rows,) or k.observe_rows(batch.cfg, batch.s, seats, out) >= 0:
            raise ConfigError(f"Give one seat from 0 to {self.players - 1} for each row.")

    def step(self, batch: Batch, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        rows = batch.s.shape[0]
        actions = np.asarray(actions, np.int64)
        self._fits(actions, (rows,), np.int64, "actions")
        dtype = getattr(rewards, "dtype", np.dtype(np.float32))
        self._fits(rewards, (rows, self.players), dtype if dtype.kind == "f" else np.float32,
                   "rewards")
        self._fits(ended, (rows,), np.int8, "ended")
        self._fits(truncated, (rows,), np.int8, "truncated")
        bad = k.step_rows(batch.cfg, batch.s, actions, rewards, ended, truncated)
        if bad >= 0:
            raise IllegalMove(f"Action {int(actions[bad])} is not legal in row {bad}.")

    # -- chance given by the caller, and what a row was dealt and drew -----------------------

    def chance_outcomes(self, batch: Batch, row: int) -> list[tuple[int, float]]:
        """The cards a row waiting at a chance node may draw, each with its share of the
        recycled pile (the engine's `chance_outcomes`); [] elsewhere."""
        s = batch.s[row]
        if not s[k.CHANCE] or not batch.explicit:
            return []
        start = k.SCALARS + (2 * self.players + 1) * len(self.values)
        size = int(s[k.DRAW_SIZE])
        return [(value, int(s[start + i]) / size) for i, value in enumerate(self.values)
                if s[start + i]]

    def apply_chance(self, batch: Batch, row: int, outcome: Any) -> None:
        """Draw card `outcome` at a row's chance node (the engine's `apply_chance`)."""
        self._rows(batch, [row])
        found = self._index.get(outcome) if isinstance(outcome, int) else None
        if not batch.explicit or found is None or not k.apply_chance(
                batch.cfg, batch.s, row, found):
            raise IllegalMove(f"{outcome!r} is not a card row {row} may draw now.")

    def dealt(self, batch: Batch, row: int) -> tuple[list[int], list[int]]:
        """The order and choices row `row` was dealt from, as `deal` takes them."""
        s = batch.s[row]
        order = s[batch.s.shape[1] - self.deck_size:]
        return [int(i) for i in order], [int(s[k.FIRST])] if self.choice_sizes else []

    def drawn(self, batch: Batch, row: int) -> list[int]:
        """The chance outcomes the row's last step drew from its generator (engine terms)."""
        value = int(batch.s[row, k.CHANCE_DRAWN])
        return [] if value < 0 else [self.values[value]]

    # -- the fast paths ---------------------------------------------------------------------

    def compiled_play(self, batch: Batch) -> Callable[[int, Floats], int]:
        """A function that has row 0 of `batch` (drawing its own chance) play an action,
        in one compiled call: `play(action, observation)` returns -2 if the action is
        illegal (nothing changed); -1 once the game has ended; else
        `seat + players * (pattern + 1)`: the seat to move, whose observation it wrote to
        `observation`, and a number naming its legal actions (equal numbers, equal masks;
        -1: none, read them with `masks`). It calls the compiled code's own entry point,
        found by a first call that plays nothing (action -1): a fifth of numba's cost of a
        call, which type-checks every argument to pick among compiled versions, is saved,
        so `observation` must be a C-contiguous float32 array of one observation and
        `action` an int, as for the first call."""
        return self._entry(k.play_one, batch, -1)

    def _entry(self, kernel: Any, batch: Batch, probe: int) -> Callable[[int, Floats], int]:
        """`kernel` bound to the batch, called at the compiled code's entry point, found by
        a first call with `probe` that changes nothing."""
        cfg, s = batch.cfg, batch.s
        observation = np.zeros(self.observation_shape, np.float32)
        kernel(cfg, s, probe, observation)  # compiled, or loaded, for these types
        types = tuple(typeof(arg) for arg in (cfg, s, probe, observation))
        entry = getattr(kernel.overloads.get(types), "entry_point", None)
        # Where numba keys or names it otherwise, its dispatcher does the same work.
        return partial(kernel if entry is None else entry, cfg, s)

    def compiled_observe(self, batch: Batch) -> Callable[[int, Floats], int]:
        """A function that writes row 0's observation for a seat in one compiled call, as
        `compiled_play` calls it: `observe(seat, observation)` returns False, writing
        nothing, for a seat not in the game."""
        return self._entry(k.observe_one, batch, -1)

    def compiled_deal(self, batch: Batch) -> Callable[[int, Floats], int]:
        """A function that deals row 0 of `batch` as `deal_random(batch, [0], seed)` does,
        in one compiled call: `deal(seed, observation)` returns what `compiled_play`'s does."""
        return partial(k.deal_one, batch.cfg, batch.s)

    def pattern(self, batch: Batch) -> int:
        """The number `compiled_play` names row 0's legal actions with."""
        found: int = k.pattern_row(batch.cfg, batch.s, 0)
        return found

    def rewards(self, batch: Batch, row: int, out: Any) -> None:
        """Row `row`'s returns once its game has ended (all 0 before)."""
        # Checked in plain Python: this is called at the end of every game.
        if not (isinstance(row, int) and 0 <= row < len(batch.s)
                and isinstance(out, np.ndarray) and out.shape == (self.players,)):
            raise ConfigError(f"Give a row from 0 to {len(batch.s) - 1} and an array of "
                              f"{self.players} returns.")
        k.rewards_row(batch.cfg, batch.s, row, out)

    def truncated(self, batch: Batch, row: int) -> bool:
        return bool(batch.s[row, k.TRUNCATED])

    def random_steps(self, batch: Batch, steps: int, seed: int | None = None,
                     observations: Floats | None = None) -> int:
        """`steps` rounds of a uniformly random legal action in every row, compiled: a
        row's game is dealt again as soon as it ends, and after each action the seat to
        move's observation is written to `observations` (rows, *shape; a scratch array if
        None). `seed` deals every row afresh first. Returns the actions taken."""
        if batch.explicit:
            raise ConfigError("Random steps draw their own chance: use a batch without "
                              "explicit chance.")
        rows = batch.s.shape[0]
        if seed is None and not batch.s[:, k.DEALT].all():
            seed = 0  # rows never dealt have no generator of their own yet
        if seed is not None:
            self.deal_random(batch, np.arange(rows), seed)
        if observations is None:
            observations = np.empty((rows, *self.observation_shape), np.float32)
        self._fits(observations, (rows, *self.observation_shape), np.float32, "observation")
        actions: int = k.random_steps(batch.cfg, batch.s, observations, int(steps))
        return actions
