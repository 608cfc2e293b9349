"""The compiled twin of Caravan (games/caravan.py): every configuration (any pack of 12
cards or a fixed deal, any bridge limit from 0 to 11), its observations the encoding's
(games/encodings/caravan.py), its reward the score (1 for a win), paid at the end.

State fields after the layout's (envs/twins/layout.py): the caravan's left and right end
cards as positions, whether each end is face up, the cards laid and the bridges used.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from chuko.core.errors import ConfigError, IllegalMove
from chuko.core.layout import COLUMNS, ROWS, SIZE
from chuko.games.caravan import MAX_BRIDGES, Caravan
from chuko.games.encodings.caravan import KINDS
from chuko.games.encodings.caravan import SIZE as OBSERVATION_SIZE

from . import Floats, Ints, Mask, Twin
from .layout import (
    LAYOUT_FEATURES,
    MOVER,
    LayoutBatch,
    LayoutTwin,
    clear_taken,
    end_row,
    layout_features,
    numba_seed,
    shuffle_row,
)

LEFT, RIGHT, LEFT_UP, RIGHT_UP, LAID, USED = range(MOVER + 1, MOVER + 7)
FIELDS = USED + 1
KIND_COUNT = len(KINDS)
NUM_ACTIONS = SIZE * KIND_COUNT
MOST_LEGAL = ROWS * 4  # an available card of each row, face up or down, at either end
# Kinds: the first card; face up at the left, right end; a bridge at the left, right end.
FIRST, UP_LEFT, UP_RIGHT, BRIDGE_LEFT, BRIDGE_RIGHT = range(KIND_COUNT)


@njit(cache=True)
def _start(state: Any, r: int) -> None:
    clear_taken(state, r)
    state[r, MOVER] = 0
    state[r, LEFT] = -1
    state[r, RIGHT] = -1
    for field in range(LEFT_UP, FIELDS):
        state[r, field] = 0


@njit(cache=True)
def _legal(state: Any, order: Any, match: Any, r: int, limit: int, out: Any) -> int:
    """Write the legal actions into `out` (ruling V2); how many there are (0 once ended)."""
    if state[r, MOVER] < 0:
        return 0
    first = state[r, LAID] == 0
    spare = state[r, USED] < limit
    n = 0
    for row in range(ROWS):
        lost = state[r, row]
        if lost >= COLUMNS:
            continue
        position = row * COLUMNS + lost
        base = position * KIND_COUNT
        if first:
            out[n] = base + FIRST
            n += 1
            continue
        card = order[r, position]
        for side in range(2):
            if state[r, LEFT_UP + side] == 0:  # beside a bridge: any card face up
                out[n] = base + UP_LEFT + side
                n += 1
                continue
            if match[card, order[r, state[r, LEFT + side]]]:
                out[n] = base + UP_LEFT + side
                n += 1
            if spare:
                out[n] = base + BRIDGE_LEFT + side
                n += 1
    return n


@njit(cache=True)
def _apply(state: Any, order: Any, match: Any, r: int, action: int, limit: int,
           rewards: Any, legal: Any) -> bool:
    """Play a legal `action` in row r; True when the game ended (ruling V4), with the
    score in `rewards[r, 0]`. `legal` is scratch space for the test of a move left."""
    position = action // KIND_COUNT
    kind = action % KIND_COUNT
    if kind == FIRST:
        state[r, LEFT] = position
        state[r, RIGHT] = position
        state[r, LEFT_UP] = 1
        state[r, RIGHT_UP] = 1
    else:
        side = (kind - UP_LEFT) % 2
        bridge = kind >= BRIDGE_LEFT
        state[r, LEFT + side] = position
        state[r, LEFT_UP + side] = 0 if bridge else 1
        state[r, USED] += bridge
    state[r, LAID] += 1
    state[r, position // COLUMNS] += 1
    if state[r, LAID] == SIZE:
        state[r, MOVER] = -1
        rewards[r, 0] = 1.0 if state[r, LEFT_UP] and state[r, RIGHT_UP] else 0.0
        return True
    if _legal(state, order, match, r, limit, legal) == 0:
        state[r, MOVER] = -1
        return True
    return False


@njit(cache=True)
def _observe(state: Any, order: Any, match: Any, r: int, limit: int, out: Any) -> None:
    layout_features(state, order, match, r, out)
    at = LAYOUT_FEATURES
    laid = state[r, LAID]
    for side in range(2):
        face_up = laid > 0 and state[r, LEFT_UP + side] == 1
        end_row(order, match, r, state[r, LEFT + side] if face_up else -1, out, at)
        at += SIZE
    used = state[r, USED]
    out[at] = 1.0 if laid == 0 else 0.0
    out[at + 1] = 1.0 if laid > 0 and state[r, LEFT_UP] == 0 else 0.0
    out[at + 2] = 1.0 if laid > 0 and state[r, RIGHT_UP] == 0 else 0.0
    out[at + 3] = laid / SIZE
    out[at + 4] = used / MAX_BRIDGES
    out[at + 5] = (limit - used) / MAX_BRIDGES
    out[at + 6] = 1.0 if used >= limit else 0.0
    out[at + 7] = limit / MAX_BRIDGES


@njit(cache=True)
def _deal(state: Any, order: Any, rows: Any, orders: Any) -> None:
    for i in range(rows.shape[0]):
        order[rows[i], :] = orders[i, :]
        _start(state, rows[i])


@njit(cache=True)
def _deal_random(state: Any, order: Any, rows: Any, seed: int, shuffle: bool) -> None:
    np.random.seed(seed)
    for i in range(rows.shape[0]):
        shuffle_row(order, rows[i], shuffle)
        _start(state, rows[i])


@njit(cache=True)
def _masks(state: Any, order: Any, match: Any, limit: int, out: Any) -> None:
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    out[:, :] = 0
    for r in range(state.shape[0]):
        for i in range(_legal(state, order, match, r, limit, legal)):
            out[r, legal[i]] = 1


@njit(cache=True)
def _observe_rows(state: Any, order: Any, match: Any, limit: int, out: Any) -> None:
    for r in range(state.shape[0]):
        _observe(state, order, match, r, limit, out[r])


@njit(cache=True)
def _step(state: Any, order: Any, match: Any, actions: Any, limit: int, rewards: Any,
          ended: Any, truncated: Any) -> int:
    """Play every live row's action; the first row whose action is illegal (nothing
    played), or -1."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    for r in range(state.shape[0]):
        n = _legal(state, order, match, r, limit, legal)
        if n and not (legal[:n] == actions[r]).any():
            return r
    rewards[:, :] = 0.0
    ended[:] = 0
    truncated[:] = 0
    for r in range(state.shape[0]):
        if state[r, MOVER] >= 0 and _apply(state, order, match, r, actions[r], limit,
                                           rewards, legal):
            ended[r] = 1
    return -1


@njit(cache=True)
def _random_steps(state: Any, order: Any, match: Any, steps: int, limit: int,
                  shuffle: bool, rewards: Any, observations: Any) -> int:
    """`steps` uniformly random legal actions in every row from numba's generator, a row
    dealt anew (at random) as soon as its game ends, and after each action the player's
    observation written to the row of `observations`; the actions played."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    played = 0
    for _ in range(steps):
        for r in range(state.shape[0]):
            if state[r, MOVER] < 0:
                shuffle_row(order, r, shuffle)
                _start(state, r)
            n = _legal(state, order, match, r, limit, legal)
            if _apply(state, order, match, r, legal[np.random.randint(0, n)], limit, rewards,
                      legal):
                shuffle_row(order, r, shuffle)
                _start(state, r)
            played += 1
            _observe(state, order, match, r, limit, observations[r])
    return played


@njit(cache=True)
def _play_one(state: Any, order: Any, match: Any, action: int, limit: int, rewards: Any,
              observation: Any, mask: Any) -> int:
    """Row 0 plays `action`: -2 if illegal (nothing changed), -1 once its game has ended,
    else the seat to move (0), whose observation and mask are written."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    n = _legal(state, order, match, 0, limit, legal)
    if n == 0 or not (legal[:n] == action).any():
        return -2
    if _apply(state, order, match, 0, action, limit, rewards, legal):
        return -1
    _observe(state, order, match, 0, limit, observation)
    mask[:] = 0
    for i in range(_legal(state, order, match, 0, limit, legal)):
        mask[legal[i]] = 1
    return 0


@njit(cache=True)
def _returns(state: Any, r: int, out: Any) -> None:
    """Row r's score once its game has ended (0 before): 1 for all 12 cards laid with both
    ends face up."""
    won = state[r, LAID] == SIZE and state[r, LEFT_UP] == 1 and state[r, RIGHT_UP] == 1
    out[0] = 1.0 if won else 0.0


class CaravanTwin(LayoutTwin):
    """The `Twin` of one Caravan configuration (envs/twins/__init__.py)."""

    fields = FIELDS

    def __init__(self, game: Caravan) -> None:
        super().__init__(game, NUM_ACTIONS, OBSERVATION_SIZE)
        self.limit = game.bridges

    def deal(self, batch: LayoutBatch, rows: Ints, orders: Ints, choices: Ints) -> None:
        rows, orders, _ = self.checked_deal(batch, rows, orders, choices)
        _deal(batch.state, batch.order, rows, orders)

    def deal_random(self, batch: LayoutBatch, rows: Ints, seed: int) -> None:
        _deal_random(batch.state, batch.order, self.rows_of(batch, rows), numba_seed(seed),
                     self.shuffle)

    def masks(self, batch: LayoutBatch, out: Mask) -> None:
        _masks(batch.state, batch.order, self.match, self.limit, out)

    def observe(self, batch: LayoutBatch, seats: Ints, out: Floats) -> None:
        if (np.asarray(seats) != 0).any():
            raise ConfigError("Caravan has one seat, seat 0.")
        _observe_rows(batch.state, batch.order, self.match, self.limit, out)

    def step(self, batch: LayoutBatch, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        actions = np.asarray(actions, dtype=np.int64)
        refused = _step(batch.state, batch.order, self.match, actions, self.limit, rewards,
                        ended, truncated)
        if refused >= 0:
            raise IllegalMove(f"Action {actions[refused]} is not legal in row {refused}.")

    def play_kernel(self, batch: LayoutBatch, action: int, observation: Floats,
                    mask: Mask) -> int:
        return int(_play_one(batch.state, batch.order, self.match, action, self.limit,
                             self.scratch_rewards(len(batch.state)), observation, mask))

    def steps_kernel(self, batch: LayoutBatch, steps: int, observations: Floats) -> int:
        return int(_random_steps(batch.state, batch.order, self.match, steps, self.limit,
                                 self.shuffle, self.scratch_rewards(len(batch.state)),
                                 observations))

    def rewards(self, batch: LayoutBatch, row: int, out: Floats) -> None:
        """Row `row`'s score once its game has ended (0 before)."""
        _returns(batch.state, row, out)


def twin(game: Caravan) -> CaravanTwin:
    """The descriptor's factory: the twin of `game`'s configuration."""
    if not isinstance(game, Caravan):
        raise ConfigError("The Caravan twin plays Caravan only.")
    return CaravanTwin(game)


_CHECKED: type[Twin] = CaravanTwin  # mypy holds the class to the protocol
