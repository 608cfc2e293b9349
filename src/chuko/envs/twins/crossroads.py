"""The compiled twin of Crossroads (games/crossroads.py): every configuration (any pack of
12 cards or a fixed deal, one round or a two-round match, the first player fixed or dealt),
its observations the encoding's (games/encodings/crossroads.py), its rewards the
environments' returns (own total minus the other's), paid at the end.

State fields after the layout's (envs/twins/layout.py): the round (0, 1), the first player
of the game, each seat's trail ends as positions (left, right; -1 for no trail), each
seat's points this round and its total.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from chuko.core.errors import ConfigError, IllegalMove
from chuko.core.layout import COLUMNS, ROWS, SIZE
from chuko.games.crossroads import Crossroads
from chuko.games.encodings.crossroads import KINDS, ROUND_POINTS
from chuko.games.encodings.crossroads import SIZE as OBSERVATION_SIZE

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

ROUND, FIRST, ENDS, POINTS, TOTALS = MOVER + 1, MOVER + 2, MOVER + 3, MOVER + 7, MOVER + 9
FIELDS = TOTALS + 2
KIND_COUNT = len(KINDS)
NUM_ACTIONS = SIZE * KIND_COUNT
MOST_LEGAL = ROWS * 2  # an available card of each row, to either end


@njit(cache=True)
def _start(state: Any, r: int, first: int) -> None:
    clear_taken(state, r)
    state[r, MOVER] = first
    state[r, ROUND] = 0
    state[r, FIRST] = first
    for field in range(ENDS, FIELDS):
        state[r, field] = -1 if field < POINTS else 0


@njit(cache=True)
def _legal(state: Any, r: int, out: Any) -> int:
    """Write the mover's legal actions into `out`; how many there are (0 once ended)."""
    seat = state[r, MOVER]
    if seat < 0:
        return 0
    fresh = state[r, ENDS + 2 * seat] < 0  # no trail yet: the card starts one
    n = 0
    for row in range(ROWS):
        lost = state[r, row]
        if lost < COLUMNS:
            base = (row * COLUMNS + lost) * KIND_COUNT
            if fresh:
                out[n] = base
                n += 1
            else:
                out[n] = base + 1
                out[n + 1] = base + 2
                n += 2
    return n


@njit(cache=True)
def _apply(state: Any, order: Any, match: Any, r: int, action: int, rounds: int,
           rewards: Any) -> bool:
    """Play a legal `action` in row r (ruling C2: a point for a card that matches the end
    it goes beside); True when the game ended, with the returns in `rewards[r]`."""
    seat = state[r, MOVER]
    position = action // KIND_COUNT
    kind = action % KIND_COUNT
    card = order[r, position]
    ends = ENDS + 2 * seat
    gain = 0
    if kind == 0:
        state[r, ends] = position
        state[r, ends + 1] = position
    else:
        end = ends + kind - 1
        gain = match[card, order[r, state[r, end]]]
        state[r, end] = position
    state[r, POINTS + seat] += gain
    state[r, TOTALS + seat] += gain
    state[r, position // COLUMNS] += 1
    placed = state[r, 0] + state[r, 1] + state[r, 2]
    if placed == SIZE:
        if state[r, ROUND] < rounds - 1:  # ruling C3: the same layout again
            state[r, ROUND] += 1
            clear_taken(state, r)
            for field in range(ENDS, TOTALS):
                state[r, field] = -1 if field < POINTS else 0
            placed = 0
        else:
            state[r, MOVER] = -1
            difference = state[r, TOTALS] - state[r, TOTALS + 1]
            rewards[r, 0] = difference
            rewards[r, 1] = -difference
            return True
    starter = state[r, FIRST] if state[r, ROUND] == 0 else 1 - state[r, FIRST]
    state[r, MOVER] = (starter + placed) % 2
    return False


@njit(cache=True)
def _observe(state: Any, order: Any, match: Any, r: int, me: int, rounds: int,
             out: Any) -> None:
    layout_features(state, order, match, r, out)
    at = LAYOUT_FEATURES
    them = 1 - me
    for seat in (me, them):
        for end in range(2):
            end_row(order, match, r, state[r, ENDS + 2 * seat + end], out, at)
            at += SIZE
    top = ROUND_POINTS * rounds
    out[at] = 1.0 if state[r, ENDS + 2 * me] < 0 else 0.0
    out[at + 1] = 1.0 if state[r, ENDS + 2 * them] < 0 else 0.0
    out[at + 2] = state[r, POINTS + me] / ROUND_POINTS
    out[at + 3] = state[r, POINTS + them] / ROUND_POINTS
    out[at + 4] = state[r, TOTALS + me] / top
    out[at + 5] = state[r, TOTALS + them] / top
    out[at + 6] = 1.0 if state[r, ROUND] == 1 else 0.0
    out[at + 7] = 1.0 if rounds == 2 else 0.0
    out[at + 8] = 1.0 if state[r, MOVER] == me else 0.0


@njit(cache=True)
def _deal(state: Any, order: Any, rows: Any, orders: Any, firsts: Any) -> None:
    for i in range(rows.shape[0]):
        r = rows[i]
        order[r, :] = orders[i, :]
        _start(state, r, firsts[i])


@njit(cache=True)
def _deal_random(state: Any, order: Any, rows: Any, seed: int, shuffle: bool,
                 first: int) -> None:
    np.random.seed(seed)
    for i in range(rows.shape[0]):
        _redeal(state, order, rows[i], shuffle, first)


@njit(cache=True)
def _redeal(state: Any, order: Any, r: int, shuffle: bool, first: int) -> None:
    """A random deal in row r; `first` the configuration's first player, -1 to draw it."""
    shuffle_row(order, r, shuffle)
    _start(state, r, first if first >= 0 else np.random.randint(0, 2))


@njit(cache=True)
def _masks(state: Any, out: Any) -> None:
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    out[:, :] = 0
    for r in range(state.shape[0]):
        for i in range(_legal(state, r, legal)):
            out[r, legal[i]] = 1


@njit(cache=True)
def _observe_rows(state: Any, order: Any, match: Any, seats: Any, rounds: int,
                  out: Any) -> None:
    for r in range(state.shape[0]):
        _observe(state, order, match, r, seats[r], rounds, out[r])


@njit(cache=True)
def _step(state: Any, order: Any, match: Any, actions: Any, rounds: int, rewards: Any,
          ended: Any, truncated: Any) -> int:
    """Play every live row's action; the first row whose action is illegal (nothing
    played), or -1."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    for r in range(state.shape[0]):
        n = _legal(state, r, legal)
        if n and not (legal[:n] == actions[r]).any():
            return r
    rewards[:, :] = 0.0
    ended[:] = 0
    truncated[:] = 0
    for r in range(state.shape[0]):
        if state[r, MOVER] >= 0 and _apply(state, order, match, r, actions[r], rounds,
                                           rewards):
            ended[r] = 1
    return -1


@njit(cache=True)
def _random_steps(state: Any, order: Any, match: Any, steps: int, rounds: int,
                  shuffle: bool, first: int, rewards: Any, observations: Any) -> int:
    """`steps` uniformly random legal actions in every row from numba's generator, a row
    dealt anew (at random) as soon as its game ends, and after each action the seat to
    move's observation written to the row of `observations`; the actions played."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    played = 0
    for _ in range(steps):
        for r in range(state.shape[0]):
            if state[r, MOVER] < 0:
                _redeal(state, order, r, shuffle, first)
            n = _legal(state, r, legal)
            if _apply(state, order, match, r, legal[np.random.randint(0, n)], rounds,
                      rewards):
                _redeal(state, order, r, shuffle, first)
            played += 1
            _observe(state, order, match, r, state[r, MOVER], rounds, observations[r])
    return played


@njit(cache=True)
def _play_one(state: Any, order: Any, match: Any, action: int, rounds: int, rewards: Any,
              observation: Any, mask: Any) -> int:
    """Row 0 plays `action`: -2 if illegal (nothing changed), -1 once its game has ended,
    else the seat to move, whose observation and mask are written."""
    legal = np.empty(MOST_LEGAL, dtype=np.int64)
    n = _legal(state, 0, legal)
    if n == 0 or not (legal[:n] == action).any():
        return -2
    if _apply(state, order, match, 0, action, rounds, rewards):
        return -1
    seat = state[0, MOVER]
    _observe(state, order, match, 0, seat, rounds, observation)
    mask[:] = 0
    for i in range(_legal(state, 0, legal)):
        mask[legal[i]] = 1
    return seat


@njit(cache=True)
def _returns(state: Any, r: int, out: Any) -> None:
    """Row r's returns once its game has ended (0 before)."""
    difference = state[r, TOTALS] - state[r, TOTALS + 1] if state[r, MOVER] < 0 else 0
    out[0] = difference
    out[1] = -difference


class CrossroadsTwin(LayoutTwin):
    """The `Twin` of one Crossroads configuration (envs/twins/__init__.py)."""

    fields = FIELDS

    def __init__(self, game: Crossroads) -> None:
        super().__init__(game, NUM_ACTIONS, OBSERVATION_SIZE)
        self.rounds = game.rounds
        self.first = -1 if game.first is None else game.first

    def deal(self, batch: LayoutBatch, rows: Ints, orders: Ints, choices: Ints) -> None:
        rows, orders, choices = self.checked_deal(batch, rows, orders, choices)
        firsts = choices[:, 0] if self.first < 0 else np.full(len(rows), self.first)
        _deal(batch.state, batch.order, rows, orders, firsts.astype(np.int64))

    def deal_random(self, batch: LayoutBatch, rows: Ints, seed: int) -> None:
        _deal_random(batch.state, batch.order, self.rows_of(batch, rows), numba_seed(seed),
                     self.shuffle, self.first)

    def masks(self, batch: LayoutBatch, out: Mask) -> None:
        _masks(batch.state, out)

    def observe(self, batch: LayoutBatch, seats: Ints, out: Floats) -> None:
        seats = np.asarray(seats, dtype=np.int64)
        if ((seats < 0) | (seats > 1)).any():
            raise ConfigError("A Crossroads seat is 0 or 1.")
        _observe_rows(batch.state, batch.order, self.match, seats, self.rounds, out)

    def step(self, batch: LayoutBatch, actions: Ints, rewards: Floats, ended: Mask,
             truncated: Mask) -> None:
        actions = np.asarray(actions, dtype=np.int64)
        refused = _step(batch.state, batch.order, self.match, actions, self.rounds, rewards,
                        ended, truncated)
        if refused >= 0:
            raise IllegalMove(f"Action {actions[refused]} is not legal in row {refused}.")

    def play_kernel(self, batch: LayoutBatch, action: int, observation: Floats,
                    mask: Mask) -> int:
        return int(_play_one(batch.state, batch.order, self.match, action, self.rounds,
                             self.scratch_rewards(len(batch.state)), observation, mask))

    def steps_kernel(self, batch: LayoutBatch, steps: int, observations: Floats) -> int:
        return int(_random_steps(batch.state, batch.order, self.match, steps, self.rounds,
                                 self.shuffle, self.first,
                                 self.scratch_rewards(len(batch.state)), observations))

    def dealt_choices(self, batch: LayoutBatch, row: int) -> list[int]:
        return [int(batch.state[row, FIRST])] if self.choice_sizes else []

    def rewards(self, batch: LayoutBatch, row: int, out: Floats) -> None:
        """Row `row`'s returns once its game has ended (all 0 before)."""
        _returns(batch.state, row, out)


def twin(game: Crossroads) -> CrossroadsTwin:
    """The descriptor's factory: the twin of `game`'s configuration."""
    if not isinstance(game, Crossroads):
        raise ConfigError("The Crossroads twin plays Crossroads only.")
    return CrossroadsTwin(game)


_CHECKED: type[Twin] = CrossroadsTwin  # mypy holds the class to the protocol
