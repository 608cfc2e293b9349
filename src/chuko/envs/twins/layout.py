"""What the compiled twins of Crossroads and Caravan share: the 4×3 layout over arrays, its
features in the observation (games/encodings/layout.py), the deal, and the Python surface
of a twin (envs/twins/__init__.py) around each game's kernels.

A batch is two arrays: `state` (rows, fields) of int64, whose first fields are the cards
each layout row has lost (`taken`, 0–4) and the seat to move (-1: the game has ended), the
rest the game's own; and `order` (rows, 12), the deck index of the card at each position.
Cards matter only by whether two of them match (ruling G1), so the kernels read the
configuration's match table over deck indexes, never card values.

A fixed deal (`LayoutGame.deal`) has an empty deck: its order is the deal itself, position
by position, and nothing is shuffled.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Any

import numpy as np
from numba import njit

from chuko.core.errors import ConfigError, IllegalMove
from chuko.core.layout import COLUMNS, ROWS, SIZE
from chuko.core.protocol import Game
from chuko.games.layout_game import LayoutGame
from chuko.solvers.numba_cache import ensure_cache

from . import Floats, Ints, Mask

ensure_cache()  # before the first kernel is defined: it needs somewhere to be cached

MOVER = ROWS  # the field after the three `taken` counts: the seat to move, -1 once ended
PRESENT, AVAILABLE, MATCHES = 0, SIZE, 2 * SIZE  # where the layout features start
LAYOUT_FEATURES = 2 * SIZE + SIZE * SIZE


@dataclass
class LayoutBatch:
    """A batch of layout games: one row of `state` and of `order` per game."""

    state: Any
    order: Any


def match_table(cards: list[int]) -> Any:
    """int8 (12, 12): 1 where the cards at two deck indexes share a prime factor."""
    return np.array([[gcd(a, b) > 1 for b in cards] for a in cards], dtype=np.int8)


@njit(cache=True)
def layout_features(state: Any, order: Any, match: Any, r: int, out: Any) -> None:
    """Write row r's present and available positions and the deal's match matrix (by
    position) into `out`, one observation."""
    for position in range(SIZE):
        lost = state[r, position // COLUMNS]
        column = position % COLUMNS
        out[PRESENT + position] = 1.0 if column >= lost else 0.0
        out[AVAILABLE + position] = 1.0 if column == lost else 0.0
        card = order[r, position]
        for other in range(SIZE):
            out[MATCHES + position * SIZE + other] = match[card, order[r, other]]


@njit(cache=True)
def end_row(order: Any, match: Any, r: int, end: int, out: Any, at: int) -> None:
    """Whether each position's card matches the card at position `end` (all 0 for -1)."""
    for position in range(SIZE):
        out[at + position] = 0.0 if end < 0 else match[order[r, position], order[r, end]]


@njit(cache=True)
def shuffle_row(order: Any, r: int, shuffle: bool) -> None:
    """A uniformly random order for row r from numba's generator (Fisher-Yates); the
    identity for a fixed deal."""
    for position in range(SIZE):
        order[r, position] = position
    if shuffle:
        for i in range(SIZE - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            order[r, i], order[r, j] = order[r, j], order[r, i]


@njit(cache=True)
def clear_taken(state: Any, r: int) -> None:
    for row in range(ROWS):
        state[r, row] = 0


def numba_seed(seed: int) -> int:
    """A seed numba's `np.random.seed` takes (32 bits)."""
    return int(seed) % 2**32


class LayoutTwin:
    """The Python surface shared by the layout twins: shapes, argument checks and batches.
    A game's twin sets `fields` and calls its kernels."""

    fields: int
    # Typed as the protocol types them, so that a layout twin is a `Twin` to mypy.
    game: Game
    observation_shape: tuple[int, ...]
    choice_sizes: tuple[int, ...]

    def __init__(self, game: LayoutGame, num_actions: int, observation_size: int) -> None:
        self.game = game
        self.players = game.players
        self.num_actions = num_actions
        self.observation_shape = (observation_size,)
        self.deck_size = len(game.deck())
        self.choice_sizes = tuple(game.deal_choices())
        # A fixed deal's "deck" is the deal itself, position by position.
        cards = game.deck() or list(game.deal or ())
        self.match = match_table(cards)
        self.shuffle = self.deck_size > 0
        self._scratch_rewards = np.zeros((0, self.players), dtype=np.float32)

    def batch(self, rows: int) -> LayoutBatch:
        if not isinstance(rows, int) or rows < 1:
            raise ConfigError(f"A batch holds at least one game, not {rows!r}.")
        state = np.zeros((rows, self.fields), dtype=np.int64)
        state[:, MOVER] = -1
        return LayoutBatch(state, np.zeros((rows, SIZE), dtype=np.int64))

    def to_move(self, batch: LayoutBatch) -> Ints:
        return np.array(batch.state[:, MOVER])

    def checked_deal(self, batch: LayoutBatch, rows: Any, orders: Any, choices: Any
                     ) -> tuple[Ints, Ints, Ints]:
        """The rows, orders (identity rows for a fixed deal) and choices of a deal, as
        int64 arrays; ConfigError in one sentence when they do not fit the configuration."""
        rows = self.rows_of(batch, rows)
        try:
            orders = np.asarray(orders, dtype=np.int64).reshape(len(rows), self.deck_size)
            choices = np.asarray(choices, dtype=np.int64).reshape(
                len(rows), len(self.choice_sizes))
        except (TypeError, ValueError):
            raise ConfigError(f"A deal gives each row {self.deck_size} deck indexes and "
                              f"{len(self.choice_sizes)} choices.") from None
        if not self.shuffle:
            orders = np.tile(np.arange(SIZE, dtype=np.int64), (len(rows), 1))
        elif (np.sort(orders, axis=1) != np.arange(SIZE)).any():
            raise ConfigError(f"An order is a permutation of 0 to {SIZE - 1}, one per row.")
        if ((choices < 0) | (choices >= np.array(self.choice_sizes, dtype=np.int64))).any():
            raise ConfigError(f"The deal's choices are below {self.choice_sizes}, one per row.")
        return rows, orders, choices

    def rows_of(self, batch: LayoutBatch, rows: Any) -> Ints:
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        if rows.size and (rows.min() < 0 or rows.max() >= len(batch.state)):
            raise ConfigError(f"A row of this batch is one of 0 to {len(batch.state) - 1}.")
        return rows

    def scratch_rewards(self, rows: int) -> Any:
        """A rewards array the random-play kernels may write to (kept between calls)."""
        if len(self._scratch_rewards) != rows:
            self._scratch_rewards = np.zeros((rows, self.players), dtype=np.float32)
        return self._scratch_rewards

    # -- the fast paths (the game's kernels behind `play_kernel` and `steps_kernel`) --------

    def play_kernel(self, batch: LayoutBatch, action: int, observation: Floats,
                    mask: Mask) -> int:
        raise NotImplementedError

    def steps_kernel(self, batch: LayoutBatch, steps: int, observations: Floats) -> int:
        raise NotImplementedError

    def deal_random(self, batch: LayoutBatch, rows: Ints, seed: int) -> None:
        raise NotImplementedError

    def play_one(self, batch: LayoutBatch, action: int, observation: Floats,
                 mask: Mask) -> int:
        """Row 0 plays `action`: IllegalMove, changing nothing, if it is not legal; -1 once
        the game has ended, else the seat to move, whose observation and mask are written
        to `observation` and `mask`."""
        seat = self.play_kernel(batch, int(action), observation, mask)
        if seat == -2:
            raise IllegalMove(f"Action {action} is not legal here.")
        return seat

    def random_steps(self, batch: LayoutBatch, steps: int, seed: int | None = None,
                     observations: Floats | None = None) -> int:
        """`steps` rounds of a uniformly random legal action in every row, compiled: a
        row's game is dealt again (at random) as soon as it ends, and after each action the
        seat to move's observation is written to `observations` (rows, *shape; a scratch
        array if None). `seed` seeds the generator and deals every row afresh first;
        without it the generator goes on where it was. Returns the actions taken."""
        rows = len(batch.state)
        if seed is not None:
            self.deal_random(batch, np.arange(rows), seed)
        if observations is None:
            observations = np.empty((rows, *self.observation_shape), np.float32)
        return self.steps_kernel(batch, int(steps), observations)

    def truncated(self, batch: LayoutBatch, row: int) -> bool:
        return False  # the layout games always end by their rules

    def dealt(self, batch: LayoutBatch, row: int) -> tuple[list[int], list[int]]:
        """The order (empty for a fixed deal) and choices row `row` was dealt from, as
        `deal` takes them."""
        order = [int(i) for i in batch.order[row]] if self.shuffle else []
        return order, self.dealt_choices(batch, row)

    def dealt_choices(self, batch: LayoutBatch, row: int) -> list[int]:
        return []
